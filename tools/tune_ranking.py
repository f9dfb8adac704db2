"""Fits kb/data/ranking.toml's feature weights on question files, and reports how well they hold on
questions left out of the fitting.

    .venv/bin/python tools/tune_ranking.py ../shared/eval/dev.jsonl ../shared/eval/dev-current.jsonl
    .venv/bin/python tools/tune_ranking.py ... --write      # fit on every question, save the weights

Fitting is coordinate ascent from the saved weights: one feature at a time, try a few steps up and
down, keep a step when MRR@10 + hit@5 of the file that does worst (each file must meet the bar on
its own) rises by more than --min-gain, and never let an older edition rank before a current
source. Every case is ranked from the same BM25 candidates `rulings search` uses, by the same
kb.search.arrange. Before anything is written, each file's questions are split into --folds parts;
for each part the weights are fitted on the rest and scored on that part, so the figures printed
under "held out" are for questions the weights never saw.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.errors import KbError  # noqa: E402
from kb.evaluation import metrics, norm, read_cases  # noqa: E402
from kb.ranking import FEATURES, QueryContext, features, score, weights  # noqa: E402
from kb.search import CANDIDATES, Result, Searcher, Understanding, arrange  # noqa: E402

STEPS = (-1.0, -0.5, -0.25, -0.1, 0.1, 0.25, 0.5, 1.0)
BOUND = 4.0
LIMITS = {"older edition": (-BOUND, -0.1), "source:variant": (-BOUND, -0.5), "card:other": (-BOUND, 0.0)}
"""Held whatever the questions say: current editions first, MECCG before the Arda variant, a card's
text only when asked for or named."""


@dataclass
class Case:
    """One question with its candidates' features and which of them hold the gold."""

    file: str
    id: str
    kind: str
    understanding: Understanding
    hits: list[tuple[str, float, dict[str, Any], dict[str, float], bool]]


def prepare(searcher: Searcher, path: Path) -> list[Case]:
    cases = []
    for c in read_cases(path):
        gold = [norm(g) for g in c["gold"]]
        u, hits = searcher.candidates(c["query"], CANDIDATES)
        context = QueryContext.of(u, None, searcher.index, needed=frozenset(FEATURES))
        rows = [(h.id, h.score, h.data, features(h, context), any(g in norm(h.data["text"]) for g in gold))
                for h in hits]
        cases.append(Case(path.name, c.get("id", "?"), c.get("kind", "?"), u, rows))
    return cases


def rank_of_gold(case: Case, weights: dict[str, float]) -> int | None:
    gold = {rid for rid, _, _, _, hit in case.hits if hit}
    if not gold:
        return None
    results = [Result(rid, score(s, f, weights), data) for rid, s, data, f, _ in case.hits]
    top = arrange(results, case.understanding, 10)
    return next((i for i, r in enumerate(top, 1) if r.id in gold), None)


def measure(cases: list[Case], weights: dict[str, float]) -> dict[str, dict[str, float]]:
    by_file: dict[str, list[dict[str, Any]]] = {}
    for c in cases:
        by_file.setdefault(c.file, []).append({"rank": rank_of_gold(c, weights), "kind": c.kind})
    return {f: metrics(rows) for f, rows in by_file.items()}


def objective(cases: list[Case], weights: dict[str, float]) -> float:
    """MRR@10 + hit@5 of the file that does worst (every file must meet the bar), the mean of all
    files breaking ties."""
    values = [x["mrr@10"] + x["hit@5"] for x in measure(cases, weights).values()]
    return min(values) + 0.1 * sum(values) / len(values)


def holds(weights: dict[str, float]) -> bool:
    """The policy no question may overturn: an older edition never before a current source."""
    return weights["older edition"] < min(0.0, weights["source:official rules"])


def fit(cases: list[Case], start: dict[str, float], min_gain: float, rounds: int = 6,
        only: tuple[str, ...] = FEATURES) -> dict[str, float]:
    weights = dict(start)
    best = objective(cases, weights)
    for _ in range(rounds):
        improved = False
        for name in only:
            for step in STEPS:
                trial = dict(weights)
                low, high = LIMITS.get(name, (-BOUND, BOUND))
                trial[name] = max(low, min(high, round(weights.get(name, 0.0) + step, 3)))
                if not holds(trial):  # an older edition follows the current sources down
                    trial["older edition"] = min(trial["older edition"], trial["source:official rules"], 0.0) - 0.05
                value = objective(cases, trial)
                if value > best + min_gain:
                    best, weights, improved = value, trial, True
        if not improved:
            break
    return weights


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


def show(label: str, m: dict[str, dict[str, float]]) -> None:
    for f, x in sorted(m.items()):
        print(f"  {label:<10} {f:<20} n={x['cases']:<3} hit@1 {x['hit@1']:.3f}  hit@5 {x['hit@5']:.3f}  "
              f"MRR@10 {x['mrr@10']:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--kb", type=Path, default=ROOT / "build" / "kb")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--min-gain", type=float, default=0.002)
    parser.add_argument("--from-zero", action="store_true", help="start from zero weights, not the saved ones")
    parser.add_argument("--only", nargs="+", choices=FEATURES, metavar="FEATURE", default=list(FEATURES),
                        help="fit only these features (the rest keep their saved weights)")
    parser.add_argument("--misses", action="store_true", help="list the cases not at rank 1 after fitting")
    parser.add_argument("--write", action="store_true", help="save the weights fitted on every question")
    args = parser.parse_args()
    searcher = Searcher(args.kb)
    cases = [c for path in args.files for c in prepare(searcher, path)]
    saved = weights()
    start = {f: min(LIMITS.get(f, (-BOUND, BOUND))[1], 0.0 if args.from_zero else saved[f]) for f in FEATURES}
    show("saved", measure(cases, saved))
    if args.folds > 1:
        held: list[tuple[Case, int | None]] = []
        parts = folds(cases, args.folds, args.seed)
        for i, part in enumerate(parts):
            rest = [c for j, p in enumerate(parts) if j != i for c in p]
            w = fit(rest, start, args.min_gain, only=tuple(args.only))
            held += [(c, rank_of_gold(c, w)) for c in part]
        by_file: dict[str, list[dict[str, Any]]] = {}
        for c, r in held:
            by_file.setdefault(c.file, []).append({"rank": r, "kind": c.kind})
        show("held out", {f: metrics(rows) for f, rows in by_file.items()})
    fitted = fit(cases, start, args.min_gain, only=tuple(args.only))
    show("fitted", measure(cases, fitted))
    changed = {f: (saved[f], fitted[f]) for f in FEATURES if fitted[f] != saved[f]}
    for f, (old, new) in changed.items():
        print(f"  {f:<24} {old:+.3f} -> {new:+.3f}")
    if args.misses:
        for c in cases:
            r = rank_of_gold(c, fitted)
            if r != 1:
                print(f"  miss {c.file} {c.id} [{c.kind}] rank {r}: {c.understanding.query}")
    if args.write:
        write(fitted)


def write(weights: dict[str, float]) -> None:
    path = ROOT / "kb" / "data" / "ranking.toml"
    head = [line for line in path.read_text("utf-8").splitlines() if line.startswith("#")]
    body = [f'"{f}" = {weights[f]:.3f}' if " " in f or ":" in f else f"{f} = {weights[f]:.3f}"
            for f in FEATURES if weights[f]]
    path.write_text("\n".join(head + ["", "[weights]", *body]) + "\n", "utf-8")
    print(f"wrote {path}")


if __name__ == "__main__":
    try:
        main()
    except KbError as exc:  # a missing knowledge base, an unreadable or malformed question file
        sys.exit(f"tune_ranking: {exc}")
