"""Benchmark: the search page's own script work on a first visit, without a browser: for each query,
a fresh node process (as a page opens, nothing compiled or parsed yet) evaluates a built site's
search-index.js and the scripts its search.html loads, in order (`load`), then times open(),
search(query, 20) and the highlighting of the results, in CPU milliseconds (process.cpuUsage: less
shaken than wall time on a busy machine); `total` is open + search + highlight. The figure is the
least of --runs processes; with --compare, the two sites take turns.

Usage: python bench/pagejs.py SITE [--compare OTHER_SITE] [--runs 15]

bench/browser.py measures the whole page in Chromium; this isolates the script's part of it.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from browser import QUERIES

COLD = """
const fs = require("fs"), vm = require("vm");
const [site, query, scripts] = process.argv.slice(2);
const ms = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const page = {module: {exports: {}}};  // a site of one search.js (before its modules) exports itself there
page.window = page;
vm.createContext(page);
const t0 = ms();
for (const script of JSON.parse(scripts)) vm.runInContext(fs.readFileSync(site + "/" + script, "utf8"), page);
const api = page.RulingsSearch || page.module.exports;
const t1 = ms(); const searcher = api.open();
const t2 = ms(); const found = searcher.search(query, 20, {});
const t3 = ms(); found.results.forEach(r => searcher.highlight_spans(r.data.text, found.understanding));
const t4 = ms();
process.stdout.write(JSON.stringify({load: t1 - t0, open: t2 - t1, search: t3 - t2, highlight: t4 - t3}));
"""


def page_scripts(site: Path) -> list[str]:
    """The scripts the site's search page loads for its search, in its order (its data, search-index.js,
    last); not site.js, every page's."""
    found = re.findall(r'<script src="([^"]+)"', (site / "search.html").read_text("utf-8"))
    return [script for script in found if script != "assets/site.js"]


def measure(sites: list[Path], runs: int) -> dict[str, dict[str, dict[str, float]]]:
    node = shutil.which("node")
    if node is None:
        sys.exit("bench/pagejs.py needs node")
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "cold.js"
        script.write_text(COLD, "utf-8")
        report: dict[str, dict[str, dict[str, float]]] = {}
        scripts = {site: json.dumps(page_scripts(site)) for site in sites}
        for query in QUERIES:
            samples: dict[str, list[dict[str, float]]] = {str(s): [] for s in sites}
            for _ in range(runs):
                for site in sites:
                    run = subprocess.run([node, str(script), str(site.resolve()), query, scripts[site]],
                                         capture_output=True, text=True, check=True)
                    samples[str(site)].append(json.loads(run.stdout))
            report[query] = {site: {k: round(min(s[k] for s in got), 1)
                                    for k in ("load", "open", "search", "highlight")}
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
