"""Fits kb/data/ranking.toml's feature weights on question files, and reports how well they hold on
questions left out of the fitting (5-fold cross-validation over every question given).

    .venv/bin/python tools/tune_ranking.py ../shared/eval/*.jsonl            # saved, held out, fitted
    .venv/bin/python tools/tune_ranking.py ../shared/eval/*.jsonl --write    # ... and save the fit
    .venv/bin/python tools/tune_ranking.py ../shared/eval/*.jsonl --unit section=0.3 --bm25 b=0.5

Fitting is coordinate ascent from the saved weights: one feature at a time, try a few steps up and
down, keep a step when the objective (MRR@10 + hit@5 of the file that does worst, the mean of all
files breaking ties) rises by more than --min-gain, and never let an older edition rank before a
current source. Every case is ranked exactly as `rulings search` ranks it (kb.search.search.Searcher).
The questions of all files are dealt into --folds parts after a seeded shuffle, each file evenly;
for each part the weights are fitted on the rest and scored on that part, so "held out" is what
to expect on questions nobody has seen. --unit and --bm25 make the knowledge base's search data again
in memory (the build's "search data" stage over its stored database) with other passage weights or
BM25 parameters, to compare them the same way.
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.errors import KbError  # noqa: E402
from kb.location import locate  # noqa: E402
from kb.search.evaluation import metrics, norm, read_cases  # noqa: E402
from kb.search.ranking import FEATURES, QueryContext, features, score, weights  # noqa: E402
from kb.search.search import Result, Searcher, Understanding  # noqa: E402
from kb.search.query import WEIGHTS  # noqa: E402
from kb.search.searchspec import BM25, UNIT, SearchSpec  # noqa: E402

STEPS = (-1.0, -0.5, -0.25, -0.1, 0.1, 0.25, 0.5, 1.0)
BOUND = 4.0
LIMITS = {"older edition": (-BOUND, -0.1), "source:variant": (-BOUND, -0.5), "card:other": (-BOUND, 0.0),
          "definition asked": (1.0, BOUND)}
"""Held whatever the questions say: current editions first, MECCG before the Arda variant, a card's
text only when asked for or named."""


@dataclass
class Case:
    """One question with its candidates' features and which of them hold the gold."""

    file: str
    id: str
    kind: str
    understanding: Understanding
    hits: list[tuple[int, float, dict[str, float], bool]]
    gold: set[int]
    """The documents holding a gold string: candidates, and rulings a candidate shows under it as the same rule."""


def prepare(searcher: Searcher, path: Path) -> list[Case]:
    cases = []
    for c in read_cases(path):
        gold = [norm(g) for g in c["gold"]]
        found = searcher.candidates(c["query"], searcher.candidate_count)
        context = QueryContext.of(found.understanding, None, searcher.spec, found.total)
        holds = functools.cache(lambda d: any(g in norm(searcher.spec.data(d)["text"]) for g in gold))
        rows = [(d, s, features(d, cov, context), holds(d)) for d, s, cov in found.docs]
        shown = {e for d, *_ in rows for e in [d, *searcher.same_rule.get(d, [])]}
        cases.append(Case(path.name, c.get("id", "?"), c.get("kind", "?"), found.understanding, rows,
                          {d for d in shown if holds(d)}))
    return cases


def rank_of_gold(searcher: Searcher, case: Case, w: dict[str, float]) -> int | None:
    if not case.gold:
        return None
    results = [Result(searcher.spec.data(d)["id"], score(s, f, w), searcher.spec.data(d), d)
               for d, s, f, _ in case.hits]
    top = searcher.arrange(results, case.understanding, 10)
    return next((i for i, r in enumerate(top, 1) if case.gold & {r.doc, *searcher.same_rule.get(r.doc, [])}), None)


def measure(searcher: Searcher, cases: list[Case], w: dict[str, float]) -> dict[str, dict[str, float]]:
    by_file: dict[str, list[dict[str, Any]]] = {}
    for c in cases:
        by_file.setdefault(c.file, []).append({"rank": rank_of_gold(searcher, c, w), "kind": c.kind})
    return {f: metrics(rows) for f, rows in by_file.items()}


POOLED = False
"""--pooled: fit MRR@10 + hit@5 over every question alike, not the worst file's."""


def objective(searcher: Searcher, cases: list[Case], w: dict[str, float]) -> float:
    """MRR@10 + hit@5 of the file that does worst (every file must meet its bar), the mean of all
    files breaking ties; or, with --pooled, of every question alike."""
    if POOLED:
        ranks = [rank_of_gold(searcher, c, w) for c in cases]
        return sum((1 / r) + (r <= 5) for r in ranks if r) / (len(cases) or 1)
    values = [x["mrr@10"] + x["hit@5"] for x in measure(searcher, cases, w).values()]
    return min(values) + 0.1 * sum(values) / len(values)


AUTHORITY = ("source:official rules", "older edition", "source:rulebook", "source:timing guide")
"""The order of authority no question may overturn: the current official sources (the CRF at 0, the
CoE rules), then the older CRF, the original rulebook, the timing guide (a player's guide)."""
GAP = 0.02


def holds(w: dict[str, float]) -> bool:
    """The policy: each source of AUTHORITY weighs less than the one before it, and below 0."""
    chain = [min(0.0, w[AUTHORITY[0]])] + [w[a] for a in AUTHORITY[1:]]
    return all(later <= earlier - GAP for earlier, later in zip(chain, chain[1:]))


def enforce(w: dict[str, float]) -> dict[str, float]:
    """The weights with each source of AUTHORITY pushed below the one before it where needed."""
    out = dict(w)
    floor = min(0.0, out[AUTHORITY[0]])
    for name in AUTHORITY[1:]:
        out[name] = round(min(out[name], floor - GAP), 3)
        floor = out[name]
    return out


def fit(searcher: Searcher, cases: list[Case], start: dict[str, float], min_gain: float, rounds: int = 4,
        only: tuple[str, ...] = FEATURES) -> dict[str, float]:
    w = dict(start)
    best = objective(searcher, cases, w)
    for _ in range(rounds):
        improved = False
        for name in only:
            for step in STEPS:
                trial = dict(w)
                low, high = LIMITS.get(name, (-BOUND, BOUND))
                trial[name] = max(low, min(high, round(w.get(name, 0.0) + step, 3)))
                trial = enforce(trial)  # a source of less authority follows the ones above it down
                value = objective(searcher, cases, trial)
                if value > best + min_gain:
                    best, w, improved = value, trial, True
        if not improved:
            break
    return w


def folds(cases: list[Case], k: int, seed: int) -> list[list[Case]]:
    """k parts, each file's questions dealt out evenly after a seeded shuffle."""
    parts: list[list[Case]] = [[] for _ in range(k)]
    by_file: dict[str, list[Case]] = {}
    for c in cases:
        by_file.setdefault(c.file, []).append(c)
    rng = random.Random(seed)
    for group in by_file.values():
        group = sorted(group, key=lambda c: c.id)
        rng.shuffle(group)
        for i, c in enumerate(group):
            parts[i % k].append(c)
    return parts


def held_out(searcher: Searcher, cases: list[Case], start: dict[str, float], k: int, seed: int, min_gain: float,
             only: tuple[str, ...]) -> dict[str, dict[str, float]]:
    """Figures on questions left out of each fitting: fit on k-1 parts, score the k-th, for each k."""
    rows: dict[str, list[dict[str, Any]]] = {}
    parts = folds(cases, k, seed)
    for i, part in enumerate(parts):
        rest = [c for j, p in enumerate(parts) if j != i for c in p]
        w = fit(searcher, rest, start, min_gain, only=only)
        for c in part:
            for key in (c.file, "all"):
                rows.setdefault(key, []).append({"rank": rank_of_gold(searcher, c, w), "kind": c.kind})
    return {f: metrics(r) for f, r in rows.items()}


def pooled(m: dict[str, dict[str, float]], cases: list[Case]) -> dict[str, dict[str, float]]:
    """The per-file figures with an "all" row weighted by each file's questions."""
    if "all" in m:
        return m
    n = len(cases) or 1
    total = {key: round(sum(x[key] * x["cases"] for x in m.values()) / n, 3) for key in ("hit@1", "hit@5", "mrr@10")}
    return {**m, "all": {"cases": len(cases), **total}}


def show(label: str, m: dict[str, dict[str, float]]) -> None:
    for f, x in sorted(m.items(), key=lambda kv: (kv[0] == "all", kv[0])):
        print(f"  {label:<10} {f:<20} n={x['cases']:<3} hit@1 {x['hit@1']:.3f}  hit@5 {x['hit@5']:.3f}  "
              f"MRR@10 {x['mrr@10']:.3f}")


def searcher_for(kb: Path, unit: dict[str, float], bm25: dict[str, float]) -> Searcher:
    """The knowledge base's searcher, or one over its search data made again (kb.builder.pipeline.search_data,
    the build's own stage, over the build's stored database) with other passage weights or BM25 parameters."""
    if unit == UNIT and not bm25:
        return Searcher.open(kb)
    from kb.builder.pipeline import remade_search_data

    return Searcher(SearchSpec.of(remade_search_data(kb, unit, {**BM25, **bm25})))


def settings(values: list[str], known: dict[str, float]) -> dict[str, float]:
    out = {}
    for item in values:
        key, _, value = item.partition("=")
        if key not in known:
            raise KbError(f"unknown setting {key!r}; known: {', '.join(known)}")
        try:
            out[key] = float(value)
        except ValueError as exc:
            raise KbError(f"{item!r}: expected NAME=NUMBER, e.g. {key}=0.5") from exc
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--kb", type=Path, default=None, help="knowledge base (default: as `rulings`)")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--min-gain", type=float, default=0.002)
    parser.add_argument("--from-zero", action="store_true", help="start from zero weights, not the saved ones")
    parser.add_argument("--only", nargs="+", choices=FEATURES, metavar="FEATURE", default=list(FEATURES),
                        help="fit only these features (the rest keep their saved weights)")
    parser.add_argument("--unit", nargs="+", default=[], metavar="PART=WEIGHT",
                        help=f"passage weights to try instead of {UNIT}")
    parser.add_argument("--bm25", nargs="+", default=[], metavar="k1=X|b=X", help="BM25 parameters to try")
    parser.add_argument("--query", nargs="+", default=[], metavar="SOURCE=WEIGHT",
                        help=f"query term weights to try instead of {WEIGHTS}")
    parser.add_argument("--pooled", action="store_true", help="fit every question alike, not the worst file")
    parser.add_argument("--no-fit", action="store_true", help="only the saved weights' figures")
    parser.add_argument("--misses", action="store_true", help="list the cases not at rank 1 after fitting")
    parser.add_argument("--write", action="store_true", help="save the weights fitted on every question")
    args = parser.parse_args()
    args.kb = locate(None if args.kb is None else str(args.kb)).path
    global POOLED
    POOLED = args.pooled
    unit = {**UNIT, **settings(args.unit, UNIT)}
    WEIGHTS.update(settings(args.query, WEIGHTS))
    searcher = searcher_for(args.kb, unit, settings(args.bm25, {"k1": 0, "b": 0}))
    cases = [c for path in args.files for c in prepare(searcher, path)]
    saved = weights()
    start = enforce({f: min(LIMITS.get(f, (-BOUND, BOUND))[1], 0.0 if args.from_zero else saved[f]) for f in FEATURES})
    show("saved", pooled(measure(searcher, cases, saved), cases))
    if args.no_fit:
        return
    if args.folds > 1:
        show("held out", held_out(searcher, cases, start, args.folds, args.seed, args.min_gain, tuple(args.only)))
    fitted = fit(searcher, cases, start, args.min_gain, only=tuple(args.only))
    show("fitted", pooled(measure(searcher, cases, fitted), cases))
    for f in FEATURES:
        if fitted[f] != saved[f]:
            print(f"  {f:<24} {saved[f]:+.3f} -> {fitted[f]:+.3f}")
    if args.misses:
        for c in cases:
            r = rank_of_gold(searcher, c, fitted)
            if r != 1:
                print(f"  miss {c.file} {c.id} [{c.kind}] rank {r}: {c.understanding.query}")
    if args.write:
        write(fitted)


def write(w: dict[str, float]) -> None:
    path = ROOT / "kb" / "data" / "ranking.toml"
    head = [line for line in path.read_text("utf-8").splitlines() if line.startswith("#")]
    body = [f'"{f}" = {w[f]:.3f}' if " " in f or ":" in f else f"{f} = {w[f]:.3f}" for f in FEATURES if w[f]]
    path.write_text("\n".join(head + ["", "[weights]", *body]) + "\n", "utf-8")
    print(f"wrote {path}")


if __name__ == "__main__":
    try:
        main()
    except KbError as exc:  # a missing knowledge base, an unreadable or malformed question file
        sys.exit(f"tune_ranking: {exc}")
