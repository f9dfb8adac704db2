"""The current CRF compared with what came before it, at build time: the CRF's own "Changes from ..."
list and the rulings it names, its "@" marks and origin tags, each card erratum among them, and the
older edition's rulings paired with their current wording (kb.xref.edition_links) or found absent.
What it finds is kb.changes' Change values, every guess labelled as one, with its evidence.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace

from kb.changes import KINDS, Change
from kb.headings import title_key
from kb.markers import TAG
from kb.model import Problem, Ruling, Source
from kb.parsers.crf import CHANGES
from kb.query import fold
from kb.wording import word_diff
from kb.xref import REWORDED, likeness, nearest, wording_key

MOVED_TO = ("crf", "coe_rules")
"""The parsers of the current rules documents an older ruling may have moved to."""
YEAR = re.compile(r"\b(\d{4})\b")
"""A year in an origin tag; the last one counts ("Ruled by CoE 2011, added by CoE 2023": 2023,
when it entered the CRF)."""
QUOTED_CHANGE = re.compile(r"^\W*(?:change|replace)\s+[“«\"]([^“”«»\"]+)[”»\"]", re.I)
"""An "@" change that quotes the words it replaces: "@ Change “on a given turn” to ..."."""


def tag_year(tag: str) -> int | None:
    """tag_year("Ruled by CoE 2011, added by CoE 2023") == 2023; None for a tag without a year ("ICE")."""
    years = YEAR.findall(tag)
    return int(years[-1]) if years else None


def edition_year(source: Source) -> int | None:
    """The year of a source's date ("2026-01-21" -> 2026), None if it has none."""
    m = re.match(r"\d{4}", source.date)
    return int(m.group()) if m else None


def _tag(r: Ruling) -> str:
    return next((m[4:] for m in r.markers if m.startswith("tag:")), "")


def _listed_key(text: str) -> str:
    return wording_key(TAG.sub("", text))


@dataclass(frozen=True, slots=True)
class Editions:
    """What the changes are read from, as the build stored it: each document's rulings read when
    asked, a document at a time (the older editions, small, are held whole)."""

    sources: list[Source]
    """Every source, in manifest order."""
    rulings: Callable[[str], list[Ruling]]
    """A source id -> its rulings, in document order."""
    editions: Mapping[str, tuple[str, str]]
    """Each older ruling's edition link (kb.xref.edition_links): its counterpart's id and how."""
    about: Callable[[str], list[str]]
    """A CRF ruling id -> the cards its heading names (kb.xref.detect_cards, "about")."""
    card_texts: Callable[[str], list[str]]
    """A card's English name -> the text of each of its printings."""


def find_changes(e: Editions) -> tuple[list[Change], list[Problem]]:
    """Every change of the current CRFs, in the order shown (KINDS; tagged newest first), and a
    problem for each "Changes from ..." entry that names no ruling."""
    problems: list[Problem] = []
    found: dict[str, list[Change]] = {kind: [] for kind in KINDS}
    crf = [s for s in e.sources if s.parser == "crf"]
    older_by_id = {r.id: (s, r) for s in crf if not s.current for r in e.rulings(s.id)}
    counterparts: dict[str, list[str]] = {}  # a current ruling -> its older wordings that differ
    for older_id, (target, how) in e.editions.items():
        if target and how != "same" and older_id in older_by_id:
            counterparts.setdefault(target, []).append(older_id)
    for source in (s for s in crf if s.current):
        year = edition_year(source)
        rulings = e.rulings(source.id)
        entries = [r for r in rulings if r.section and CHANGES.match(r.section[0])]
        body = [r for r in rulings if r.kind != "note" and not (r.section and CHANGES.match(r.section[0]))]
        named: set[str] = set()
        for r in entries:
            change = _listed(r, body, year)
            found["listed"].append(change)
            named.add(change.other_id)
            if not change.other_id:
                problems.append(Problem(source.id, r.span.start, f"the change listed under {r.section[0]!r} names "
                                        f"no ruling of the document (none is {REWORDED} alike)"))
        for r in body:
            older = [_reworded(r, older_by_id[i], e.editions[i][1]) for i in counterparts.get(r.id, [])]
            if "new" in r.markers:
                evidence = "marked “@”, new or changed since the last CRF"
                if r.id in named:
                    evidence += f"; listed under “{entries[0].section[0]}”"
                marked = Change(r.id, "marked", tag_year(_tag(r)) or year, evidence, _tag(r))
                if older:  # its older wording too
                    marked = replace(marked, other_id=older[0].other_id, likeness=older[0].likeness, guess=True,
                                     diff=older[0].diff, evidence=f"{evidence}; {older[0].evidence}")
                found["marked"].append(_with_erratum(marked, r, e))
            elif older:
                found["reworded"] += older
            elif _tag(r):
                found["tagged"].append(_with_erratum(
                    Change(r.id, "tagged", tag_year(_tag(r)), f"origin tag [{_tag(r)}]", _tag(r)), r, e))
    order = {c.ruling_id: n for n, c in enumerate(found["tagged"])}
    found["tagged"].sort(key=lambda c: (c.year is None, -(c.year or 0), order[c.ruling_id]))
    found["absent"] = list(_absent(e, older_by_id))
    return [c for kind in KINDS for c in found[kind]], problems


def _reworded(r: Ruling, older: tuple[Source, Ruling], how: str) -> Change:
    """A current ruling and an older edition's wording of it (kb.xref.edition_links paired them)."""
    source, o = older
    ratio = likeness(how)
    alike = "wordings alike" + (f" ({ratio:.2f})" if ratio is not None else "")
    return Change(r.id, "reworded", tag_year(_tag(r)) or edition_year(source), f"worded otherwise in {source.title}; "
                  f"the pairing is the build's: the same heading, {alike}", _tag(r), o.id, ratio, True,
                  diff=word_diff(o.text, r.text))


def _listed(r: Ruling, body: list[Ruling], year: int | None) -> Change:
    """An entry of the "Changes from ..." list and the ruling it names: the same words under the
    same heading, else the wording most like it under that heading, else among the "@" rulings."""
    key = _listed_key(r.text)
    heading = title_key(r.section[-1]) if len(r.section) > 1 else ""
    under = [c for c in body if c.section and title_key(c.section[-1]) == heading]
    evidence = f"listed under “{r.section[0]}”"
    for c in under:
        if _listed_key(c.text) == key:
            return Change(r.id, "listed", year, f"{evidence}, naming the ruling of the same words under the same "
                          "heading", _tag(r), c.id, 1.0)
    for pool, where in ((under, "under the same heading"), ([c for c in body if "new" in c.markers], "among the “@” rulings")):
        best, ratio = nearest(key, ((_listed_key(c.text), c.id) for c in pool))
        if best and ratio >= REWORDED:
            return Change(r.id, "listed", year, f"{evidence}; the ruling it names is the build's reading: the "
                          f"wording most like it {where} ({ratio:.2f} alike)", _tag(r), best, round(ratio, 2), True)
    return Change(r.id, "listed", year, evidence, _tag(r))


def _with_erratum(change: Change, r: Ruling, e: Editions) -> Change:
    """The change, naming its cards if it is a card erratum: one the CRF calls so, or an "@" change
    under a card's heading that quotes words of that card's text (the build's reading)."""
    cards = tuple(e.about(r.id))
    if "card-erratum" in r.markers:
        return replace(change, erratum_cards=cards, erratum_evidence="the CRF calls it a Card Erratum")
    m = QUOTED_CHANGE.match(r.text)
    if m and cards and "new" in r.markers:
        quoted = fold(m.group(1))
        having = tuple(name for name in cards if any(quoted in fold(t) for t in e.card_texts(name)))
        if quoted and having:
            return replace(change, erratum_cards=having, erratum_guess=True,
                           erratum_evidence=f"it changes “{m.group(1)}”, words of the card's own text")
    return change


LIKELY = 25
"""How many current wordings, those sharing the most words with an absent older ruling, are
compared with it letter by letter (difflib over every ruling of the current rules took seconds)."""


def _absent(e: Editions, older_by_id: Mapping[str, tuple[Source, Ruling]]) -> Iterable[Change]:
    """Each older ruling with no counterpart, and the current wording most like it in the current
    rules (MOVED_TO): of the LIKELY wordings sharing the most words with it, the one most alike
    letter by letter (each distinct wording compared once)."""
    absent = [older_by_id[i] for i, (target, _) in e.editions.items() if not target and i in older_by_id]
    candidates: dict[str, str] = {}  # each distinct wording of the current rules -> its first ruling
    source_of: dict[str, str] = {}
    having: dict[str, list[str]] = {}  # a word -> the wordings that have it
    for s in e.sources if absent else []:
        for r in e.rulings(s.id) if s.current and s.parser in MOVED_TO else []:
            key = wording_key(r.text)
            if r.kind not in ("note", "card") and key not in candidates:
                candidates[key], source_of[r.id] = r.id, r.source
                for word in set(fold(r.text).split()):
                    having.setdefault(word, []).append(key)
    found: dict[str, tuple[str | None, float]] = {}
    for source, r in absent:
        key = wording_key(r.text)
        if key not in found:
            shared = Counter(k for word in set(fold(r.text).split()) for k in having.get(word, ()))
            found[key] = nearest(key, ((k, candidates[k]) for k, _ in shared.most_common(LIKELY)))
        best, ratio = found[key]
        if best and ratio >= REWORDED:
            verdict = "moved"
            evidence = (f"not in the current CRF: no ruling under its heading is worded alike ({REWORDED}); the build "
                        f"reads it as moved: a ruling of {source_of[best]} is worded {ratio:.2f} alike")
        else:
            verdict = "dropped"
            evidence = (f"not in the current CRF: no ruling under its heading, nor any of the current rules, is worded "
                        f"alike ({REWORDED}); the build reads it as dropped"
                        + (f"; the nearest wording found is {ratio:.2f} alike" if best else ""))
        yield Change(r.id, "absent", edition_year(source), evidence, "", best or "", round(ratio, 2) if best else None,
                     bool(best), verdict)
