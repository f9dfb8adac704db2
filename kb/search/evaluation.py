"""Scores a question file (../shared/eval format): hit@1, hit@5, MRR@10, per kind, and the misses."""

from __future__ import annotations

import html
import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from kb.errors import KbError, ParseError
from kb.inputs import MB, parse_json, read_bytes
from kb.search.search import open_searcher
from kb.store.snapshot import Kb, Snapshot


def norm(s: str) -> str:
    """The hit rule's normalisation: entities decoded, accents and non-alphanumerics dropped."""
    s = unicodedata.normalize("NFKD", html.unescape(s)).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "", s.lower())


MAX_QUESTIONS = 16 * MB
"""The largest question file read (the shared ones are under 50 KB each)."""
HINT = "Give a question file: JSON Lines, an object a line with its query, gold and kind."


def read_cases(path: Path) -> list[dict[str, Any]]:
    """The cases of a JSON Lines file, checked, at least one; KbError naming the line otherwise. The
    file is read as every input is (kb.inputs): a regular file (a pipe or a device is refused, not
    waited on) of at most MAX_QUESTIONS bytes."""
    cases = []
    try:
        lines = read_bytes(path, MAX_QUESTIONS, "question").decode("utf-8").splitlines()
    except ParseError as exc:
        raise KbError(str(exc), hint=HINT) from exc
    except UnicodeDecodeError as exc:
        raise KbError(f"{path}: cannot read ({exc})") from exc
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            case = parse_json(line)
        except json.JSONDecodeError as exc:
            raise KbError(f"{path}:{n}: expected a JSON object ({exc.msg})") from exc
        except RecursionError as exc:
            raise KbError(f"{path}:{n}: expected a JSON object (arrays or objects nested too deeply)") from exc
        if (not isinstance(case, dict) or not isinstance(case.get("query"), str)
                or not isinstance(case.get("gold"), list)):
            raise KbError(f"{path}:{n}: expected an object with 'query' and a 'gold' list")
        cases.append(case)
    if not cases:
        raise KbError(f"{path}: no question in it (an empty file, or blank lines only)", hint=HINT)
    return cases


TOP = 10
"""How many results of each question are scored (MRR@10)."""


Answer = str | Sequence[str]
"""What one result shows a judge: its text, or its text and then the texts of the rulings shown under it
that state the same rule (kb.search.search.Result.same_rule)."""


def evaluate(kb: Kb, path: Path) -> dict[str, Any]:
    """Run every case's query (top 10) and score it with the hit rule, a result's equivalents shown
    under it counting at its rank."""
    snapshot = Snapshot.of(kb)
    searcher = open_searcher(snapshot)
    cases = read_cases(path)
    answers = {c["query"]: [shown(r.data["text"], r.same_rule) for r in searcher.search(c["query"], limit=TOP)]
               for c in cases}
    return {"file": str(path), **score(cases, answers)}


def shown(text: str, same_rule: Sequence[Mapping[str, Any]]) -> list[str]:
    """A result's text and its equivalents' texts, as the judge reads them under it."""
    return [text, *(str(e["text"]) for e in same_rule)]


def score(cases: list[dict[str, Any]], answers: Mapping[str, Sequence[Answer]]) -> dict[str, Any]:
    """The hit rule over cases, given what each one's query found, best first (its top 10): a result
    hits when its text, or the text of a ruling shown under it as stating the same rule, holds a gold
    string; overall (with "via_same_rule": the cases whose first hit is an equivalent's text alone), by
    kind, the misses."""
    rows = []
    for case in cases:
        gold = [norm(g) for g in case["gold"]]
        found = [[a] if isinstance(a, str) else list(a) for a in answers[case["query"]][:TOP]]
        hits = [next((k for k, text in enumerate(texts) if any(g in norm(text) for g in gold)), None)
                for texts in found]
        rank = next((i for i, k in enumerate(hits, 1) if k is not None), None)
        rows.append({"id": case.get("id"), "kind": case.get("kind", "?"), "query": case["query"], "rank": rank,
                     "via_same_rule": rank is not None and hits[rank - 1] != 0,
                     "top": [texts[0][:100] for texts in found[:3]]})
    return {"overall": metrics(rows),
            "by_kind": {k: metrics([r for r in rows if r["kind"] == k]) for k in sorted({r["kind"] for r in rows})},
            "misses": [r for r in rows if r["rank"] is None or r["rank"] > 5]}


def metrics(rows: list[dict[str, Any]]) -> dict[str, float]:
    """hit@1, hit@5 and MRR@10 over rows carrying the 1-based "rank" of their first hit (or None), and
    how many of those hits are an equivalent's text alone (a row's "via_same_rule")."""
    n = len(rows) or 1
    return {"cases": len(rows),
            "hit@1": round(sum(1 for r in rows if r["rank"] == 1) / n, 3),
            "hit@5": round(sum(1 for r in rows if r["rank"] and r["rank"] <= 5) / n, 3),
            "mrr@10": round(sum(1 / r["rank"] for r in rows if r["rank"]) / n, 3),
            "via_same_rule": sum(1 for r in rows if r.get("via_same_rule"))}
