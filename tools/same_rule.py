"""A maintainer's tool: propose rulings of two documents that state one rule (TF-IDF cosine over the
build's index terms), and write the pairs a person checked as the same rule into kb/data/same_rule.toml.

Usage (a knowledge base built first, RULINGS_KB naming it):
    python tools/same_rule.py propose [--min 0.5] > candidates.toml   # pairs to check, best first
    python tools/same_rule.py ship                                     # checked -> kb/data/same_rule.toml
    python tools/same_rule.py precision                                # the checked sample's figures

`propose` reads every stored ruling of the sources that state the standard game's rules (CRF 22, the
CoE rules, the ICE-era CRF, the rulebook chapter, the timing guide), gives each its index terms
(kb.store.index.analyze, the build's own analyzer) weighted by TF-IDF, and prints every pair from two
different documents whose cosine is at least --min, as [[pair]] tables with an empty verdict. Never
proposed: two rulings of one document; the ICE-era CRF with CRF 22 (its editions are already linked,
kb.builder.xref.edition_links); Arda (a variant: its rules differ by design) and the LOTR wiki (another game);
card texts, cross-references and change logs (no rule of their own). A person reads both texts of
each pair and writes its verdict ("same": a judge could cite either for the same call; "different":
another rule, or a general rule and its exception) and a note into tests/data/same_rule_checked.toml.
`ship` writes every pair checked "same" into kb/data/same_rule.toml with its provenance; the build
reads that file (kb.builder.equivalents); `precision` says how many of the proposals were the same rule, by cosine.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sqlite3
import sys
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.store.index import analyze  # noqa: E402
from kb.builder.searchdata import card_heading  # noqa: E402
from kb.store.snapshot import Snapshot  # noqa: E402

SOURCES = ("crf-22", "coe-rules", "crf-older", "rulebook", "timing")
"""The documents that state the standard game's rules, each by its own words."""
APART = {frozenset(("crf-22", "crf-older"))}
"""Pairs of documents never proposed: one document's editions (kb.xref links them already)."""
KINDS = ("ruling", "rule", "glossary", "annotation", "erratum", "step", "note", "guidance", "example")
"""The kinds of ruling that state a rule (a card's text, a see-also, a change log state none)."""
CHECKED = ROOT / "tests" / "data" / "same_rule_checked.toml"
SHIPPED = ROOT / "kb" / "data" / "same_rule.toml"
MIN_WORDS = 6
"""Rulings of fewer index terms are left out: a heading-like line shares its few words with too many."""


def rulings(conn: sqlite3.Connection) -> list[tuple[str, str, str]]:
    """(id, source, text) of every ruling proposed from, in the build's order: of the kinds that state a
    rule, not under a CRF card's heading (a ruling on one card is no general rule), of MIN_WORDS terms."""
    marks = ",".join("?" * len(SOURCES))
    kinds = ",".join("?" * len(KINDS))
    rows = conn.execute(f"select id, source, text, section from rulings where source in ({marks}) and kind in "
                        f"({kinds}) order by rowid", (*SOURCES, *KINDS)).fetchall()
    return [(i, s, t) for i, s, t, section in rows
            if len(analyze(t)) >= MIN_WORDS and card_heading(json.loads(section)) is None]


def vectors(texts: list[str]) -> list[dict[str, float]]:
    """Each text's TF-IDF vector (log term frequency, idf ln(N/df)), of unit length."""
    counts = [Counter(analyze(t)) for t in texts]
    df = Counter(term for c in counts for term in c)
    n = len(texts)
    out = []
    for c in counts:
        v = {t: (1 + math.log(k)) * math.log(n / df[t]) for t, k in c.items()}
        norm = math.sqrt(sum(x * x for x in v.values())) or 1.0
        out.append({t: x / norm for t, x in v.items()})
    return out


Pair = tuple[float, tuple[str, str, str], tuple[str, str, str]]
"""(cosine, (id, source, text) of one ruling, of the other)."""


def propose(kb: Path, least: float) -> list[Pair]:
    """Every pair of rulings of two documents (not kept APART) whose cosine is at least `least`, best first."""
    with Snapshot.open(kb) as build:
        conn = build.connect()
        try:
            rows = rulings(conn)
        finally:
            conn.close()
    vecs = vectors([t for _, _, t in rows])
    postings: dict[str, list[int]] = {}
    for n, v in enumerate(vecs):
        for t in v:
            postings.setdefault(t, []).append(n)
    pairs: list[Pair] = []
    for a, va in enumerate(vecs):
        dots: dict[int, float] = {}
        for t, x in va.items():
            for b in postings[t]:
                if b > a:
                    dots[b] = dots.get(b, 0.0) + x * vecs[b][t]
        for b, cos in dots.items():
            sa, sb = rows[a][1], rows[b][1]
            if cos >= least and sa != sb and frozenset((sa, sb)) not in APART:
                pairs.append((cos, rows[a], rows[b]))
    return mutual_best(pairs)


def mutual_best(pairs: list[Pair]) -> list[Pair]:
    """The pairs whose rulings are each other's nearest in the other's document, best first: a ruling
    near several of another document's (a general rule and its exceptions, one rule for each kind of
    player) is no one of them."""
    best: dict[tuple[str, str], float] = {}
    for cos, a, b in pairs:
        for one, other in ((a, b), (b, a)):
            key = (one[0], other[1])
            best[key] = max(best.get(key, 0.0), cos)
    kept = [p for p in pairs if best[(p[1][0], p[2][1])] == p[0] == best[(p[2][0], p[1][1])]]
    kept.sort(key=lambda p: (-p[0], p[1][0], p[2][0]))
    return kept


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def print_candidates(pairs: list[Pair]) -> None:
    for cos, a, b in pairs:
        print("[[pair]]")
        print(f"first = {quote(a[0])}\nsecond = {quote(b[0])}\ncosine = {cos:.3f}")
        print('verdict = ""\nnote = ""')
        print(f"first_text = {quote(a[2])}\nsecond_text = {quote(b[2])}\n")


def read_checked(path: Path = CHECKED) -> dict[str, Any]:
    with open(path, "rb") as f:
        return tomllib.load(f)


BANDS = (0.9, 0.8, 0.7, 0.6, 0.5)


def precision(checked: dict[str, Any]) -> list[tuple[float, int, int]]:
    """For each least cosine of BANDS: (that cosine, pairs checked at or above it, how many the same rule)."""
    pairs = checked["pair"]
    return [(least, len(at), sum(1 for p in at if p["verdict"] == "same"))
            for least in BANDS for at in [[p for p in pairs if p["cosine"] >= least]]]


def ship(checked: dict[str, Any], path: Path = SHIPPED) -> int:
    """Write every pair checked "same", with its provenance: what is shipped was read by a person."""
    kept = [p for p in checked["pair"] if p["verdict"] == "same"]
    lines = [HEADER.format(checked=checked["checked"])]
    for p in kept:
        lines += ["[[pair]]", f"first = {quote(p['first'])}", f"second = {quote(p['second'])}",
                  "found = " + quote("tools/same_rule.py propose: TF-IDF cosine %.3f, nearest each way" % p["cosine"]),
                  f"reason = {quote(p['note'])}", "checked = true", ""]
    path.write_text("\n".join(lines), "utf-8")
    return len(kept)


HEADER = """# Rulings of two documents that state one rule in their own words: a judge could cite either for the
# same call. Written by tools/same_rule.py ship from the pairs a person read whole and judged "same" in
# tests/data/same_rule_checked.toml ({checked}).
# Every pair here was read. Never paired: two rulings of one
# document, the ICE-era CRF with CRF 22 (its editions are linked already), Arda, the LOTR wiki, a general
# rule with its exception, two wordings that would decide some call differently. Ids hash a ruling's
# text: a new wording makes a pair stale, and the build then reports it (`rulings check`) naming this
# file's line; run tools/same_rule.py propose again and check what it finds.
#
# Each [[pair]]: first, second, the two rulings' ids; found, how the pair was proposed; reason, the rule
# both state; checked, read by a person.
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("propose", "ship", "precision"))
    parser.add_argument("--min", type=float, default=0.5, help="the least cosine proposed (propose)")
    args = parser.parse_args(argv)
    if args.action == "propose":
        kb = Path(os.environ.get("RULINGS_KB", ROOT / "build" / "kb"))
        print_candidates(propose(kb, args.min))
    elif args.action == "ship":
        print(f"{ship(read_checked())} pairs written to {SHIPPED.relative_to(ROOT)}")
    else:
        for least, total, same in precision(read_checked()):
            print(f"cosine >= {least}: {total} pairs checked, {same} the same rule ({same / max(total, 1):.1%})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
