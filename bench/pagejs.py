"""Benchmark: the search page's own script work on a first visit, without a browser: for each query,
a fresh node process (as a page opens, nothing compiled or parsed yet) evaluates a built site's
search-index.js and search.js, then times open(), search(query, 20) and the highlighting of the
results, in CPU milliseconds (process.cpuUsage: less shaken than wall time on a busy machine). The
figure is the least of --runs processes; with --compare, the two sites take turns.

Usage: python bench/pagejs.py SITE [--compare OTHER_SITE] [--runs 15]

bench/browser.py measures the whole page in Chromium; this isolates the script's part of it.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from browser import QUERIES

COLD = """
const fs = require("fs"), vm = require("vm");
const [site, query] = process.argv.slice(2);
const ms = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const page = {module: {exports: {}}};
page.window = page;
vm.createContext(page);
vm.runInContext(fs.readFileSync(site + "/assets/search-index.js", "utf8"), page);
vm.runInContext(fs.readFileSync(site + "/assets/search.js", "utf8"), page);
const api = page.module.exports;
const t0 = ms(); const searcher = api.open();
const t1 = ms(); const found = searcher.search(query, 20, {});
const t2 = ms(); found.results.forEach(r => searcher.highlight_spans(r.data.text, found.understanding));
const t3 = ms();
process.stdout.write(JSON.stringify({open: t1 - t0, search: t2 - t1, highlight: t3 - t2}));
"""


def measure(sites: list[Path], runs: int) -> dict[str, dict[str, dict[str, float]]]:
    node = shutil.which("node")
    if node is None:
        sys.exit("bench/pagejs.py needs node")
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "cold.js"
        script.write_text(COLD, "utf-8")
        report: dict[str, dict[str, dict[str, float]]] = {}
        for query in QUERIES:
            samples: dict[str, list[dict[str, float]]] = {str(s): [] for s in sites}
            for _ in range(runs):
                for site in sites:
                    run = subprocess.run([node, str(script), str(site.resolve()), query], capture_output=True,
                                         text=True, check=True)
                    samples[str(site)].append(json.loads(run.stdout))
            report[query] = {site: {k: round(min(s[k] for s in got), 1) for k in ("open", "search", "highlight")}
                             for site, got in samples.items()}
            for got in report[query].values():
                got["total"] = round(got["open"] + got["search"] + got["highlight"], 1)
    return report


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("site", type=Path)
    parser.add_argument("--compare", type=Path, help="another built site, measured in turn with the first")
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    print(json.dumps(measure([args.site] + ([args.compare] if args.compare else []), args.runs), indent=2))


if __name__ == "__main__":
    main()
