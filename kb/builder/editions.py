"""The current CRF compared with what came before it, at build time: the CRF's own "Changes from ..."
list and the rulings it names, its "@" marks and origin tags, each card erratum among them, and the
older edition's rulings paired with their current wording (kb.builder.xref.edition_links), or found gone from it
and where they went (kb.builder.successors: replaced, reversed, moved or dropped).
What it finds is kb.builder.changes' Change values, every guess labelled as one, with its evidence.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace

from kb.builder.changes import BY_HAND, KINDS, OURS, Change
from kb.builder.headings import title_key
from kb.markers import TAG
from kb.model import Problem, Ruling, Source
from kb.builder.parsers.crf import CHANGES
from kb.search.query import fold
from kb.builder.successors import Pairing, Reading, Successors, alike, checked_pairing, reversal
from kb.builder.wording import word_diff
from kb.builder.xref import REWORDED, likeness, nearest, wording_key

MOVED_TO = ("crf", "coe_rules")
"""The parsers of the current rules documents an older ruling may have moved to."""
YEAR = re.compile(r"\b(\d{4})\b")
"""A year in an origin tag; the last one counts ("Ruled by CoE 2011, added by CoE 2023": 2023,
when it entered the CRF)."""
PAIRED = "paired by this tool, no person checked it: the same heading, much the same words"
"""How a reworded ruling's evidence says the pairing with its older wording is this tool's
(kb.builder.xref.edition_links)."""
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
    """Each older ruling's edition link (kb.builder.xref.edition_links): its counterpart's id and how."""
    about: Callable[[str], list[str]]
    """A CRF ruling id -> the cards its heading names (kb.builder.xref.detect_cards, "about")."""
    card_texts: Callable[[str], list[str]]
    """A card's English name -> the text of each of its printings."""
    checked: Mapping[str, Pairing] = field(default_factory=dict)
    """The pairings of older rulings checked by hand (kb.builder.successors.load_pairings), by older ruling id."""


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
                                     diff=older[0].diff, evidence=f"{evidence}; {older[0].evidence}",
                                     verdict=older[0].verdict, unsure=older[0].unsure)
                found["marked"].append(_with_erratum(marked, r, e))
            elif older:
                found["reworded"] += older
            elif _tag(r):
                found["tagged"].append(_with_erratum(
                    Change(r.id, "tagged", tag_year(_tag(r)), f"origin tag [{_tag(r)}]", _tag(r)), r, e))
    order = {c.ruling_id: n for n, c in enumerate(found["tagged"])}
    found["tagged"].sort(key=lambda c: (c.year is None, -(c.year or 0), order[c.ruling_id]))
    found["absent"] = list(_absent(e, older_by_id, problems))
    return [c for kind in KINDS for c in found[kind]], problems


def _reworded(r: Ruling, older: tuple[Source, Ruling], how: str) -> Change:
    """A current ruling and an older edition's wording of it (kb.builder.xref.edition_links paired them)."""
    source, o = older
    cue = reversal(o.text, r.text)
    return Change(r.id, "reworded", tag_year(_tag(r)) or edition_year(source), f"worded otherwise in {source.title}; "
                  f"{PAIRED}" + (f"; but {cue}: it may now say the opposite" if cue else ""), _tag(r), o.id,
                  likeness(how), True, "reversed" if cue else "", diff=word_diff(o.text, r.text), unsure=bool(cue))


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
    for pool, where in ((under, "under the same heading"),
                        ([c for c in body if "new" in c.markers], "among the “@” rulings")):
        best, ratio = nearest(key, ((_listed_key(c.text), c.id) for c in pool))
        if best and ratio >= REWORDED:
            return Change(r.id, "listed", year, f"{evidence}; which ruling it names is this tool's reading (no "
                          f"person checked it): the one worded most like it {where}", _tag(r), best, round(ratio, 2),
                          True)
    return Change(r.id, "listed", year, evidence, _tag(r))


def _with_erratum(change: Change, r: Ruling, e: Editions) -> Change:
    """The change, naming its cards if it is a card erratum: one the CRF calls so, or an "@" change
    under a card's heading that quotes words of that card's text (this tool's reading)."""
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


GONE = "not in the current CRF in these words"
"""How the evidence of every older ruling without a counterpart opens."""
UNSURE = "this tool's reading of the words, unsure: "
"""How the evidence of a successor read from the words alone goes on."""


def _absent(e: Editions, older_by_id: Mapping[str, tuple[Source, Ruling]], problems: list[Problem]) -> Iterable[Change]:
    """Each older ruling with no counterpart, and where it went (kb.builder.successors): as a person checked
    it, else this tool's reading: possibly moved (a ruling of the current rules, MOVED_TO, worded
    alike), else possibly replaced or reversed (a ruling new since shares its key words), else
    dropped; each with its evidence. A pairing checked by hand whose wordings are gone is a problem."""
    absent = [older_by_id[i] for i, (target, _) in e.editions.items() if not target and i in older_by_id]
    if not absent:
        return
    current = [r for s in e.sources if s.current and s.parser in MOVED_TO for r in e.rulings(s.id)]
    texts = {r.id: r.text for r in current}
    found = Successors(current, (t for t, _ in e.editions.values() if t), (r.text for _, r in older_by_id.values()))
    for source, r in absent:
        best, ratio = found.moved(r.text)
        pairing = checked_pairing(e.checked, r, texts)
        if r.id in e.checked and pairing is None:
            problems.append(Problem(source.id, r.span.start, f"the pairing of {r.id} checked by hand (kb/data/"
                                    "successors.toml) names a wording the current rules no longer have: check it "
                                    "again"))
        change = _found(r, source, best, ratio, found.read(r), texts)
        yield _checked(change, pairing, r.text, texts) if pairing else change


def _found(r: Ruling, source: Source, best: str | None, ratio: float, reading: Reading | None,
           texts: Mapping[str, str]) -> Change:
    """This tool's own reading of an older ruling gone from the current CRF: possibly moved (the
    nearest wording of the current rules, best, is worded alike; under another heading, wordings alike
    are not always one ruling), else possibly replaced or reversed, all three unsure; else dropped,
    the nearest wording as evidence."""
    year = edition_year(source)
    if best and ratio >= REWORDED:
        cue = reversal(r.text, texts[best])
        return Change(r.id, "absent", year, f"{GONE}: no ruling under its heading is worded like it; "
                      f"{UNSURE}moved: a ruling of {best.split('.')[0]} is worded much like it"
                      + (f"; but {cue}: it may say the opposite" if cue else ""), "", best, round(ratio, 2), True,
                      "reversed" if cue else "moved", unsure=True)
    if reading:
        return Change(r.id, "absent", year, f"{GONE}; {UNSURE}{reading.evidence()}", "", reading.successor,
                      round(alike(r.text, texts[reading.successor]), 2), True, reading.verdict, unsure=True)
    return Change(r.id, "absent", year, f"{GONE}: no ruling new since shares its key words (under its "
                  "heading, nor rarer ones elsewhere), and none of the current rules is worded like it: dropped, "
                  f"{OURS}" + ("; the nearest wording found is given as evidence only" if best else ""), "", best or "",
                  round(ratio, 2) if best else None, True, "dropped")


def _checked(reading: Change, pairing: Pairing, older: str, texts: Mapping[str, str]) -> Change:
    """An older ruling's change as a person checked it (kb/data/successors.toml): their verdict and
    successor, with this tool's own reading beside it as further evidence."""
    agrees = reading.verdict == pairing.verdict and reading.other_id == pairing.successor
    likeness = round(alike(older, texts[pairing.successor]), 2) if pairing.successor else None
    ours = reading.evidence.removeprefix(GONE).lstrip(":; ").replace(UNSURE, "")
    return replace(reading, other_id=pairing.successor, likeness=likeness, guess=False, verdict=pairing.verdict,
                   unsure=False, evidence=f"{GONE}; {BY_HAND} ({pairing.checked}): {pairing.why}; this tool's "
                   f"own reading of the words {'agrees' if agrees else 'differs'}: {ours}")
