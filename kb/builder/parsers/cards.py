"""Parser for the Council of Elrond card database (cards.json): every card as a ruling of kind card."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from kb.builder.cardface import GLUED
from kb.errors import ParseError, quote
from kb.model import Card, ParsedDocument, Source, Span
from kb.builder.parsers.blocks import read_lines
from kb.builder.parsers.document import DocumentBuilder

TAG = re.compile(r"<[^<>]+>")
"""A tag ends before the next "<", so a run of "<" without ">" is not scanned from each to its end."""
PARAGRAPH_END = re.compile(r"</p>\s*|<br\s*/?>", re.I)


def plain_text(markup: str) -> str:
    """Card HTML to plain text, its entities left for the builder to read as every source's are
    (kb.builder.normalize.decode_entities):
    plain_text("<p><b>Unique.</b> Tap&nbsp;him.</p>") == "Unique. Tap&nbsp;him."."""
    return TAG.sub("", PARAGRAPH_END.sub("\n", markup)).strip()


def _card_spans(lines: list[str], path: Path, ids: list[str]) -> dict[str, Span]:
    """Each card object's lines, found by its key line and the closing brace at the same indent."""
    opener = re.compile(r'^(\s*)"([A-Za-z]+-[A-Za-z0-9]+)": \{\s*$')
    spans: dict[str, Span] = {}
    wanted = set(ids)
    i = 0
    while i < len(lines):
        m = opener.match(lines[i])
        if m and m.group(2) in wanted:
            close = m.group(1) + "}"
            j = i + 1
            while j < len(lines) and lines[j].rstrip().rstrip(",") != close:
                j += 1
            if j == len(lines):
                raise ParseError(str(path), i + 1, f"the closing brace of card {quote(m.group(2))}")
            spans[m.group(2)] = Span(i + 1, j + 1)
            i = j
        i += 1
    missing = wanted - set(spans)
    if missing:
        raise ParseError(str(path), None, "one pretty-printed object per card",
                         f"no lines for {', '.join(quote(m) for m in sorted(missing)[:3])}")
    return spans


CARD_FIELDS = {"id": str, "set": str, "name": dict, "type": str, "alignment": str}

SHIFTED = "name shifted to the next card in the database"
SPACED_NAME = "spaces around a card's name"
"""The repair kind of a name the database gives with spaces before or after it ("Burglary ")."""
"""The repair kind of a language's names moved one card down a set (see shifted_names)."""


def shifted_names(cards: list[dict[str, Any]]) -> list[tuple[int, str, str, str]]:
    """The names of one language the database moved one card down a run of a set's cards, put back:
    [(index of the card, language, name given, name meant)].

    A run is two or more cards in a row where each card's name in a language is the English name of
    the card before it (and not its own: "Dorelas" (LE-8) is "Dôgrib" in German, LE-7's name). Each
    card of the run takes the name the next card holds; the last takes the name the first holds (the
    German LE-7 to LE-9: "Dunländischer Spion", "Dôgrib", "Dorelas" become "Dôgrib", "Dorelas",
    "Dunländischer Spion"). Cards sharing one English name (reprints) start no run.
    """
    fixes: list[tuple[int, str, str, str]] = []
    languages = sorted({lang for c in cards for lang in c["name"] if lang != "en"})
    for lang in languages:
        i = 1
        while i < len(cards):
            if not _moved(cards, i, lang):
                i += 1
                continue
            end = i
            while end + 1 < len(cards) and _moved(cards, end + 1, lang):
                end += 1
            first = i - 1
            names = [cards[n]["name"].get(lang) or "" for n in range(first, end + 1)]
            for n, meant in zip(range(first, end + 1), names[1:] + names[:1], strict=True):
                fixes.append((n, lang, cards[n]["name"].get(lang) or "", meant))
            i = end + 1
    return fixes


def _moved(cards: list[dict[str, Any]], i: int, lang: str) -> bool:
    """Whether card i's name in lang is the English name of card i - 1 (and neither its own nor a reprint's)."""
    here, before = cards[i]["name"], cards[i - 1]["name"]
    name = here.get(lang) or ""
    return bool(name) and name == before.get("en") and name != here.get("en") != before.get("en")


def _check_card(path: Path, lines: list[str], key: str, card: object) -> None:
    """A card must be an object with the fields the model needs, of the right types."""
    problem = None
    if not isinstance(card, dict):
        problem = "as an object"
    else:
        problem = next((f"with a {n!r} ({k.__name__})" for n, k in CARD_FIELDS.items()
                        if not isinstance(card.get(n), k)), None)
        problem = problem or next((f"with {n!r} as an object" for n in ("text", "attributes")
                                   if card.get(n) is not None and not isinstance(card[n], dict)), None)
        if not problem and not all(isinstance(v, str) for v in card["name"].values()):
            problem = "with names as text"
    if problem:
        line = next((n for n, text in enumerate(lines, 1) if f'"{key}":' in text), None)
        raise ParseError(str(path), line, f"card {quote(key)} {problem}")


CardEntry = tuple[dict[str, Any], dict[str, Any]]
"""A card of the database and the set it is in (both JSON objects)."""


def read_sets(path: Path, lines: list[str]) -> tuple[dict[str, Any], list[CardEntry]]:
    """The database's sets by code, and every card with its set, each checked (_check_card); ParseError
    for invalid JSON, or a set or card not of the shape the model needs."""
    try:
        data: Any = json.loads("\n".join(lines))
    except json.JSONDecodeError as exc:
        raise ParseError(str(path), exc.lineno, "valid JSON", exc.msg) from exc
    if not isinstance(data, dict):
        raise ParseError(str(path), 1, "an object of sets keyed by set code")
    cards: list[CardEntry] = []
    for code, card_set in data.items():
        if not isinstance(card_set, dict) or not isinstance(card_set.get("cards"), dict):
            raise ParseError(str(path), None, f"set {quote(code)} with a 'cards' object")
        for key, card in card_set["cards"].items():
            _check_card(path, lines, key, card)
            cards.append((card_set, card))
    return data, cards


def repair_shifted_names(b: DocumentBuilder, data: dict[str, Any], spans: dict[str, Span]) -> dict[str, dict[str, str]]:
    """The names each set's shifted run gives back (shifted_names), by card id and language, each
    recorded as a repair."""
    repaired: dict[str, dict[str, str]] = {}
    for card_set in data.values():
        in_set = list(card_set["cards"].values())
        for n, lang, given, meant in shifted_names(in_set):
            card = in_set[n]
            repaired.setdefault(card["id"], {})[lang] = meant
            b.repair(spans[card["id"]].start, SHIFTED, f"{card['id']} {lang}: {given}", f"{card['id']} {lang}: {meant}")
    return repaired


REGION_TEXT = "region card without text: its text is the regions it moves to (moveTo), as every other region card's is"
"""Two region cards of the database (Anfalas, Angmar) have no text; every other region's text is its
"moveTo", the adjacent regions the card prints."""


def add_card(b: DocumentBuilder, path: Path, card_set: dict[str, Any], card: dict[str, Any], span: Span,
             repaired: dict[str, str]) -> None:
    """Store one card: its ruling (plain English text, sentences glued by markup spaced apart, a
    region's missing text made its adjacent regions, each a repair) and its Card; ParseError if it has
    no English name."""
    names = {}
    for lang, name in {**card["name"], **repaired}.items():
        if name and name != name.strip():  # "Burglary ": a name is its words
            b.repair(span.start, SPACED_NAME, f"{card['id']} {lang}: {name!r}",
                     f"{card['id']} {lang}: {name.strip()!r}")
        if name.strip():
            names[lang] = name.strip()
    if "en" not in names:
        raise ParseError(str(path), span.start, f"an English name for card {quote(card['id'])}")
    text_html = str((card.get("text") or {}).get("en") or "")
    set_names = card_set.get("name")
    set_name = str(set_names.get("en", card["set"])) if isinstance(set_names, dict) else card["set"]
    section = ("Cards", set_name, names["en"])
    text = plain_text(text_html)
    if GLUED.search(text):
        spaced = GLUED.sub(" ", text)
        b.repair(span.start, "sentence glued to the next by markup", text, spaced)
        text = spaced
    if not text and card.get("type") == "Region" and (regions := str((card.get("attributes") or {}).get("moveTo")
                                                                     or "")):
        b.repair(span.start, REGION_TEXT, f"{card['id']}: no text", f"{card['id']}: {regions}")
        text = regions
    ruling = b.add("card", text, span, number=card["id"], title=names["en"], key=card["id"],
                   section=section, markers=(f"type:{card.get('type')}", f"alignment:{card.get('alignment')}"))
    attributes = {k: v for k, v in card.items() if k not in ("id", "set", "name", "type", "alignment", "text")}
    b.card(Card(card["id"], card["set"], set_name, names, str(card.get("type")), str(card.get("alignment")),
                ruling.text, text_html, attributes, f"{b.source.id}.{card['id']}"), span.start)


def skip_structure(b: DocumentBuilder, lines: list[str], spans: dict[str, Span]) -> None:
    """Report every run of lines outside the cards' objects as skipped: set metadata and JSON structure."""
    covered = {n for s in spans.values() for n in s.lines()}
    start = None
    for n in range(1, len(lines) + 2):
        outside = n <= len(lines) and n not in covered
        if outside and start is None:
            start = n
        elif not outside and start is not None:
            b.skip(Span(start, n - 1), "set metadata and JSON structure (set names are stored on each card)")
            start = None


def parse_cards(source: Source, path: Path) -> ParsedDocument:
    """Parse cards.json: sets -> cards, each with names, type, alignment, current English text."""
    lines = read_lines(path)
    data, cards = read_sets(path, lines)
    b = DocumentBuilder(source, lines, path)
    spans = _card_spans(lines, path, [str(c.get("id")) for _, c in cards])
    repaired = repair_shifted_names(b, data, spans)
    for card_set, card in cards:
        add_card(b, path, card_set, card, spans[card["id"]], repaired.get(card["id"], {}))
    skip_structure(b, lines, spans)
    return b.finish()
