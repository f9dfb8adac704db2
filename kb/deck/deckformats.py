"""A decklist read in its format: told from its content (detect: text, meccg, netmeccg, octgn or json) or
forced, the structured files (OCTGN's XML .o8d, a deck builder's JSON) read to the lines a typed list gives
(kb.deck.decklist), a NetMECCG list's marks read as versions.

site/assets/deckformats.js executes the same steps over the same data (deck-data.js), so the site's deck
page reads every file as `rulings deck` reads it.
"""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import replace
from typing import Any

from kb.deck.decklist import (ALIGNMENTS, EXAMPLE, JSON_FIELDS, LOOK_AHEAD, MAX_LINE, MAX_TITLE, PATTERNS, SECTIONS,
                         VERSION_MARKS, DeckLine, DeckList, json_fault, placed, read_lines, read_name, section_of,
                         split_lines, text_title)
from kb.errors import Refused
from kb.inputs import parse_json
from kb.search.query import clean, fold


def line_starts(text: str) -> list[int]:
    """The offset each line of text starts at (line 1 at 0), line breaks as split_lines knows them."""
    return [0] + [m.end() for m in PATTERNS["break"].finditer(text)]


def line_at(starts: list[int], offset: int) -> int:
    """The line number (from 1) of an offset into the text whose line_starts are given."""
    return bisect.bisect_right(starts, offset)


def xml_text(raw: str) -> str:
    """XML text with its entities read: xml_text("Gollum&apos;s Fate &amp; more") == "Gollum's Fate & more"."""
    def entity(m: re.Match[str]) -> str:
        if m.group(1):
            return {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}[m.group(1).lower()]
        code = int(m.group(2), 10) if m.group(2) else int(m.group(3), 16)
        return chr(code) if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else "\ufffd"
    return PATTERNS["xml_entity"].sub(entity, raw)


def xml_tokens(text: str, name: str) -> list[tuple[int, str, str, dict[str, str], bool]]:
    """Each tag of an XML text, in order: (offset, "open" | "close" | "text", element name, attributes,
    self-closing); text between tags as ("text", its text). Comments, CDATA kept as text, processing
    instructions and the declaration skipped. Each tag is found by searching for its end, so a damaged
    file is read in linear time; Refused for a tag or comment that never ends."""
    out: list[tuple[int, str, str, dict[str, str], bool]] = []
    at, end = 0, len(text)
    while at < end:
        lt = text.find("<", at)
        if lt < 0:
            lt = end
        if lt > at:
            out.append((at, "text", xml_text(text[at:lt]), {}, False))
        if lt >= end:
            break
        for opener, closer, kind in (("<!--", "-->", "skip"), ("<![CDATA[", "]]>", "cdata"), ("<?", "?>", "skip"),
                                     ("<!", ">", "skip"), ("<", ">", "tag")):
            if text.startswith(opener, lt):
                stop = text.find(closer, lt + len(opener))
                if stop < 0:
                    raise Refused(f"{name}: XML whose {'tag' if kind == 'tag' else opener} at line "
                                  f"{line_at(line_starts(text), lt)} never ends", hint=EXAMPLE)
                body = text[lt:stop + len(closer)]
                if kind == "cdata":
                    out.append((lt, "text", body[len(opener):-len(closer)], {}, False))
                elif kind == "tag":
                    m = PATTERNS["xml_name"].match(body)
                    if m:
                        attrs = {a.group(1).lower(): xml_text(a.group(2) if a.group(2) is not None else a.group(3))
                                 for a in PATTERNS["xml_attribute"].finditer(body[m.end():])}
                        out.append((lt, "close" if m.group(1) else "open", m.group(2).lower(), attrs,
                                    body.endswith("/>")))
                at = stop + len(closer)
                break
    return out


def read_octgn(text: str, name: str) -> DeckList:
    """An OCTGN deck (.o8d): each <card qty="N" id="...">Name</card> in its <section name="...">, the
    <notes> skipped. Refused (one line) for XML that is not an OCTGN deck."""
    tokens = xml_tokens(text, name)
    starts = line_starts(text)
    root = next((t for t in tokens if t[1] == "open"), None)
    if root is None or root[2] != "deck":
        seen = f"whose root element is <{root[2]}>" if root else "with no element"
        raise Refused(f"{name}: XML {seen}, not an OCTGN deck (<deck> holding <section> and <card> elements)",
                      hint=EXAMPLE)
    lines: list[DeckLine] = []
    section = part = group = ""
    card: dict[str, str] | None = None
    card_at, words = 0, ""
    in_notes, notes_at = False, 0
    for offset, kind, element, attrs, closed in tokens:
        if kind == "open" and element == "section":
            section, part, group = section_of(attrs.get("name", ""), "")
        elif kind == "open" and element == "notes" and not closed:
            in_notes, notes_at = True, line_at(starts, offset)
            lines.append(placed(notes_at, "note", "notes", "Notes", "notes", ""))
        elif kind == "close" and element == "notes":  # every line of the notes is a line of notes skipped
            in_notes = False
            lines.extend(placed(n, "note", "notes", "Notes", "notes", "")
                         for n in range(notes_at + 1, line_at(starts, offset) + 1))
        elif kind == "open" and element == "card" and not in_notes:
            card, card_at, words = attrs, offset, ""
            if closed:
                card = None
        elif kind == "text" and card is not None:
            words += element
        elif kind == "close" and element == "card" and card is not None:
            lines.append(structured_card(line_at(starts, card_at), words, card.get("qty", "1"), card.get("id", ""),
                                         section, part, group))
            card = None
    if not any(line.kind == "card" for line in lines):
        raise Refused(f"{name}: an OCTGN deck with no <card> in it", hint=EXAMPLE)
    return DeckList("octgn", "", "", lines, len(split_lines(text)))


def as_count(value: Any) -> int | None:
    """A count as a structured file gives it: a whole number, or up to six digits in a string; else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"[0-9]{1,6}", value.strip(" \t\r\n")):
        return int(value.strip(" \t\r\n"))
    return None


def structured_card(number: int, typed: str, count: Any, card_id: str, section: str, part: str, group: str) -> DeckLine:
    """A card of a structured file: its name read as a line's is (tag, set code), its count (as_count;
    1 when it gives none), its card id ("tw-116" -> "TW-116", "tw-020" -> "TW-20"). A count below 1 is
    no card."""
    text = clean(typed, len(typed) + 1)[:MAX_LINE]
    name, set_code, tag, _, _ = read_name(text)
    given = as_count(count)
    n = 1 if given is None else given
    ident = clean(card_id, len(card_id) + 1)[:40]
    m = PATTERNS["card_id"].match(ident)
    if m:
        ident = f"{m.group(1).upper()}-{int(m.group(2))}"  # "tw-020" is TW-20
    if n < 1 or not (name or ident):
        return placed(number, "comment", text, section, part, group)
    return placed(number, "card", text, section, part, group, name, min(n, 999), set_code, tag, ident)


def _field(entry: dict[str, Any], kind: str) -> Any:
    for key, value in entry.items():
        if fold(key) in JSON_FIELDS[kind]:
            if kind == "id" and not (isinstance(value, str) and PATTERNS["card_id"].match(value.strip(" \t\r\n"))):
                continue
            if kind == "name" and (not isinstance(value, str) or PATTERNS["card_id"].match(value.strip(" \t\r\n"))):
                continue
            if kind == "count" and as_count(value) is None:
                continue
            return value
    return None


class _JsonReader:
    """Walks a JSON deck in document order, each card found at its line (by its name's text, searched
    on from the card before)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = line_starts(text)
        self.cursor = 0
        self.lines: list[DeckLine] = []

    def locate(self, *values: str) -> int:
        for value in values:
            if value:
                found = self.text.find(json.dumps(value, ensure_ascii=False), self.cursor, self.cursor + LOOK_AHEAD)
                if found >= 0:
                    self.cursor = found + 1
                    return line_at(self.starts, found)
        return line_at(self.starts, self.cursor)

    def walk(self, value: Any, section: str, part: str, group: str, top: bool = False) -> None:
        """Each card of a value, in its part and group (json_fault has bounded how deep it is nested)."""
        if isinstance(value, list):
            for item in value:
                if isinstance(item, str):
                    self.card(item, 1, "", section, part, group)
                else:
                    self.walk(item, section, part, group)
            return
        if not isinstance(value, dict):
            return
        name, ident = _field(value, "name"), _field(value, "id")
        if not top and (name is not None or ident is not None):
            count = _field(value, "count")
            self.card(name or "", 1 if count is None else count, ident or "", section, part, group)
            return
        for key, item in value.items():
            folded = fold(key)
            if folded in JSON_FIELDS["notes"] and isinstance(item, str):
                number = self.locate(key)
                self.lines.append(placed(number, "note", folded, "Notes", "notes", ""))
            elif top and (folded in JSON_FIELDS["title"] or folded in JSON_FIELDS["alignment"]) \
                    and not isinstance(item, dict | list):
                continue
            elif folded in SECTIONS or PATTERNS["sideboard"].search(folded) or PATTERNS["fw_sideboard"].search(folded):
                self.locate(key)
                named, starts, grouped = section_of(key, part)
                if folded in SECTIONS and not SECTIONS[folded][1]:  # a group, nested in a part, keeps it
                    starts = part
                self.walk(item, named, starts, grouped or group)
            elif as_count(item) is not None and not isinstance(item, str) and (part or group):
                self.card(key, item, "", section, part, group)
            else:
                self.walk(item, section, part, group)

    def card(self, name: str, count: Any, ident: str, section: str, part: str, group: str) -> None:
        number = self.locate(name, ident)
        self.lines.append(structured_card(number, name, count, ident, section, part, group))


class JsonFault(Exception):
    """Where a JSON text goes wrong (an offset) and what was expected there (JsonCheck)."""

    def __init__(self, at: int, what: str) -> None:
        super().__init__(what)
        self.at, self.what = at, what


class JsonCheck:
    """A JSON text that does not parse read again as JSON is written, to say where it first goes wrong and what
    was expected there, in the same words in both runtimes (site/assets/deckformats.js JsonCheck), whichever the JSON
    parser and its version. Its nesting is bounded first (json_fault)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def fault(self) -> JsonFault | None:
        """The first fault of the text; None where it has none (NaN or Infinity, which the parser takes)."""
        try:
            at = self.space(self.value(self.space(0)))
            if at < len(self.text):
                raise JsonFault(at, "nothing more expected")
        except JsonFault as fault:
            return fault
        return None

    def space(self, at: int) -> int:
        return PATTERNS["json_space"].match(self.text, at).end()  # type: ignore[union-attr]

    def value(self, at: int) -> int:
        """Where the value at `at` ends."""
        c, number = self.text[at:at + 1], PATTERNS["json_number"].match(self.text, at)
        if c in ("{", "["):
            return self.items(self.space(at + 1), "}" if c == "{" else "]")
        if c == '"':
            return self.string(at)
        if number and number.end() > at:
            return number.end()
        word = next((w for w in ("true", "false", "null") if self.text.startswith(w, at)), "")
        if word:
            return at + len(word)
        raise JsonFault(at, "a value expected")

    def items(self, at: int, close: str) -> int:
        """Where an object's members or an array's values, from `at` to its close, end."""
        if self.text[at:at + 1] == close:
            return at + 1
        while True:
            if close == "}":
                if self.text[at:at + 1] != '"':
                    raise JsonFault(at, "a name in double quotes expected")
                at = self.space(self.string(at))
                if self.text[at:at + 1] != ":":
                    raise JsonFault(at, "':' expected")
                at = self.space(at + 1)
            at = self.space(self.value(at))
            if self.text[at:at + 1] == close:
                return at + 1
            if self.text[at:at + 1] != ",":
                raise JsonFault(at, f"',' or '{close}' expected")
            at = self.space(at + 1)

    def string(self, at: int) -> int:
        """Where the string opening at `at` ends."""
        i = at + 1
        while True:
            i = PATTERNS["json_run"].match(self.text, i).end()  # type: ignore[union-attr]
            c = self.text[i:i + 2]
            if not c or c == "\\":
                raise JsonFault(at, "a string that never ends")
            if c[0] == '"':
                return i + 1
            if c[0] != "\\":
                raise JsonFault(i, "a control character in a string")
            if c[1] in '"\\/bfnrt':
                i += 2
            elif c[1] == "u" and PATTERNS["json_hex"].match(self.text, i + 2):
                i += 6
            else:
                raise JsonFault(i, "an unknown escape")


def read_json(text: str, name: str) -> DeckList:
    """A deck builder's JSON deck: its cards in their parts and groups, its title and alignment.
    Refused (one line) for JSON that is not valid, or holds no card."""
    def constant(word: str) -> Any:
        raise ValueError(f"{word} is not JSON")
    fault = json_fault(text)
    if fault is not None:
        raise Refused(f"{name}: JSON {fault[1]} at line {line_at(line_starts(text), fault[0])}: no deck builder's file",
                      hint=EXAMPLE)
    try:
        data = parse_json(text, parse_constant=constant)
    except (ValueError, RecursionError) as exc:
        wrong = JsonCheck(text).fault()
        where = f" at line {line_at(line_starts(text), wrong.at)} ({wrong.what})" if wrong else ""
        raise Refused(f"{name}: not valid JSON{where}", hint=EXAMPLE) from exc
    reader = _JsonReader(text)
    reader.walk(data, "", "", "", top=True)
    if not any(line.kind == "card" for line in reader.lines):
        keys = ", ".join(list(data)[:5]) if isinstance(data, dict) else f"a list of {len(data)}" \
            if isinstance(data, list) else type(data).__name__
        raise Refused(f"{name}: JSON with no card in it (it holds {keys or 'nothing'}), not a deck builder's deck "
                      "(parts such as \"pool\" or \"deck\" listing cards with a name or card id and a count)",
                      hint=EXAMPLE)
    title = alignment = ""
    if isinstance(data, dict):
        title = next((clean(v, MAX_TITLE * 2)[:MAX_TITLE] for k, v in data.items()
                      if fold(k) in JSON_FIELDS["title"] and isinstance(v, str)), "")
        alignment = next((ALIGNMENTS.get(fold(v), "") for k, v in data.items()
                          if fold(k) in JSON_FIELDS["alignment"] and isinstance(v, str)), "")
    return DeckList("json", title, alignment, reader.lines, len(split_lines(text)))


# -- any format ---------------------------------------------------------------------------------------

def detect(text: str) -> str:
    """The format of a decklist, from its content: json (it opens with "{", or "[" and parses), octgn
    (it opens with XML: "<?xml", "<deck"; a page opening with "<h3>" is text), netmeccg (it opens with
    NetMECCG's banner), meccg (a GCCG "####" frame around a part's name), else text."""
    start = text.lstrip("\ufeff \t\r\n")[:1]
    if start == "{":
        return "json"
    if PATTERNS["netmeccg"].match(text.lstrip("\ufeff \t\r\n")):
        return "netmeccg"
    if start == "[":  # JSON, past the limits (refused as such) or parsed
        if json_fault(text.lstrip("\ufeff")) is not None:
            return "json"
        try:
            json.loads(text.lstrip("\ufeff"))
            return "json"
        except (ValueError, RecursionError):
            return "text"
    if start == "<" and PATTERNS["xml"].match(text.lstrip("\ufeff \t\r\n")):
        return "octgn"
    raws = split_lines(text.removeprefix("\ufeff"))
    frames = [i for i, raw in enumerate(raws) if PATTERNS["frame"].match(clean(raw, len(raw) + 1))]
    return "meccg" if any(b - a == 2 for a, b in zip(frames, frames[1:], strict=False)) else "text"


def read_deck(text: str, name: str = "deck", form: str = "") -> DeckList:
    """A decklist read in its format (form, or detect()'s)."""
    form = form or detect(text)
    if form == "json":
        return read_json(text.removeprefix("\ufeff"), name)
    if form == "octgn":
        return read_octgn(text.removeprefix("\ufeff"), name)
    lines = read_lines(text, framed=form == "meccg")
    if form == "netmeccg":
        lines = [version_marked(line) for line in lines]
    return DeckList(form, text_title(lines), "", lines, len(split_lines(text.removeprefix("\ufeff"))))


def version_marked(line: DeckLine) -> DeckLine:
    """A NetMECCG card line, its name's mark read as the version it asks for (VERSION_MARKS): "Radagast@" is
    Radagast tagged Fallen-wizard, an unmarked "Radagast" Radagast tagged Hero."""
    if line.kind != "card" or line.tag:
        return line
    m = PATTERNS["version_mark"].match(line.name)
    return replace(line, name=m.group(1), tag=VERSION_MARKS[m.group(2)]) if m else replace(line, tag=VERSION_MARKS[""])
