"""The browser's search scored as `rulings eval` scores the terminal's: site/assets/search.js (and the
modules it loads) run in node
over the index the site ships (kb.site.browserdata.packed), the top 10 of every question of each dev file.

    .venv/bin/python bench/browsereval.py [--kb DIR] [FILE.jsonl ...]   (default: ../shared/eval/*.jsonl)

Prints, per file, the browser's hit@1 / hit@5 / MRR@10 beside the terminal's (kb.search.evaluation.evaluate).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.site.browserdata import packed  # noqa: E402
from kb.search.evaluation import evaluate, read_cases, score  # noqa: E402
from kb.location import locate  # noqa: E402
from kb.read.lookup import search_spec  # noqa: E402
from kb.store.snapshot import Snapshot  # noqa: E402

DRIVER = """
const fs = require("fs");
const [searchJs, specPath, queriesPath] = process.argv.slice(1);
const searcher = require(searchJs).of(JSON.parse(fs.readFileSync(specPath, "utf8")));
const out = {};
// each result as the page shows it: its text, then the texts of the rulings under it that state the same rule
for (const q of JSON.parse(fs.readFileSync(queriesPath, "utf8")))
  out[q] = searcher.search(q, 10).results.map(r => [r.data.text].concat(r.same_rule.map(e => e.text)));
process.stdout.write(JSON.stringify(out));
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--kb", type=Path, default=None, help="knowledge base (default: as `rulings`)")
    args = parser.parse_args()
    files = args.files or sorted((ROOT.parent / "shared" / "eval").glob("*.jsonl"))
    snapshot = Snapshot.of(locate(None if args.kb is None else str(args.kb)).path)
    cases = {f: read_cases(f) for f in files}
    with tempfile.TemporaryDirectory() as tmp:
        spec, queries = Path(tmp) / "spec.json", Path(tmp) / "queries.json"
        spec.write_text(json.dumps(packed(search_spec(snapshot).raw), ensure_ascii=False), "utf-8")
        queries.write_text(json.dumps([c["query"] for f in files for c in cases[f]], ensure_ascii=False), "utf-8")
        found = json.loads(subprocess.run(["node", "-e", DRIVER, str(ROOT / "site" / "assets" / "search.js"),
                                           str(spec), str(queries)], capture_output=True, text=True,
                                          check=True).stdout)
    for f in files:
        browser, terminal = score(cases[f], found)["overall"], evaluate(snapshot, f)["overall"]
        print(f"{f.name:<20} n={browser['cases']:<3} " + "   ".join(
            f"{side} hit@1 {x['hit@1']:.3f} hit@5 {x['hit@5']:.3f} MRR@10 {x['mrr@10']:.3f}"
            for side, x in (("browser", browser), ("terminal", terminal))))


if __name__ == "__main__":
    main()
