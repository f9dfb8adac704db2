"""Search quality on every dev question (the four files of ../shared/eval), 5-fold cross-validated: what to expect on
questions nobody has seen, for the shipped ranking and against plain BM25.

    .venv/bin/python bench/crossval.py [--kb build/kb] [--folds 5] [--fit]

Rows, per question file and pooled over all of them (hit@1, hit@5, MRR@10):
- "bm25": the passage units' BM25 alone, every feature weight at zero;
- "shipped": kb/data/ranking.toml as it is (its weights are policy and a few fitted values, so its
  figures are in-sample for the fitted part);
- "held out" (with --fit): every weight fitted by tools/tune_ranking.py on four fifths of the
  questions and scored on the fifth left out, for each fifth.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT))

from tune_ranking import BOUND, FEATURES, LIMITS, enforce, held_out, measure, pooled, prepare, show  # noqa: E402

from kb.search.ranking import weights  # noqa: E402
from kb.location import locate  # noqa: E402
from kb.search.search import Searcher  # noqa: E402

EVAL = ROOT.parent / "shared" / "eval"
FILES = ("dev.jsonl", "dev-current.jsonl", "dev-more.jsonl", "dev-forum.jsonl")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kb", type=Path, default=None, help="knowledge base (default: as `rulings`)")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--fit", action="store_true", help="also fit every weight on 4/5, score the 5th")
    args = parser.parse_args()
    args.kb = locate(None if args.kb is None else str(args.kb)).path
    searcher = Searcher.open(args.kb)
    cases = [c for name in FILES for c in prepare(searcher, EVAL / name)]
    show("bm25", pooled(measure(searcher, cases, {f: 0.0 for f in FEATURES}), cases))
    saved = weights()
    show("shipped", pooled(measure(searcher, cases, saved), cases))
    if args.fit:
        start = enforce({f: min(LIMITS.get(f, (-BOUND, BOUND))[1], saved[f]) for f in FEATURES})
        show("held out", held_out(searcher, cases, start, args.folds, args.seed, 0.002, FEATURES))


if __name__ == "__main__":
    main()
