"""Decklists in every format players publish, read into one model by rules that the terminal and the browser share.

Five formats, told apart by their content (kb.deck.deckformats.read_deck; `rulings deck --format` forces one):

- text: a list as players paste it, a tournament report prints it or a forum post writes it, one card
  a line: "2 Gandalf", "2x Gandalf", "3-Dwarven Travellers", "Gandalf x2", "Stealth (x3)", "Pallando *
  2", "Gandalf [TW]", "- Gandalf", "SB: Gandalf", "Gandalf // a note", or a list of cards on one line
  ("Resources: 3x Concealment, 2 Dodge", "Shagrat with Orc-draughts": each item read by the deck check,
  kb.deck.deck.read_list); headers ("Characters:", "Hazards", "## Sideboard (15)", "Sideboard - 12 cards",
  "Hazards (30) [Creatures first]", NetMECCG's "[starting]", "Other Heroes:"), a pool's groups ("Pool:" then "Minor
  Items: Cram", POOL_SECTIONS), starting companies and drafts ("Ideal Starting Companies", "Company 1:",
  "10-character draft:": the part "starting"); comments (`#`, `//`); its title (its first line standing
  alone, title_at); a "Notes:" part and lines of prose (sentences, words too many for a card's name)
  skipped, never read as cards.
- meccg: GCCG and meccg-online files: "####" frames naming each part (Deck, Pool, Sideboard, Sites,
  Notes), GCCG's headings inside a part ("# Hazard (30)", "# Minion Resource (30)": each its own section,
  framed_heading), "1 Saruman [H] (TW)" lines (an alignment tag and a
  set code); the Notes part is prose, skipped.
- netmeccg: NetMECCG's .dck (its first line "[NetMECCG v1.4 Deck]"), read as text, one copy a line, each
  name's mark its version: "Radagast@" the Fallen-wizard one, "Moria*" the minion one, "Moria%" the Balrog
  one, an unmarked name the hero one (VERSION_MARKS).
- octgn: OCTGN's .o8d XML, `<section name="Hazards"><card qty="3" id="...">Twilight</card>`.
- json: a deck builder's JSON: parts and groups as keys ("pool", "deck", "characters", "sideboard",
  "sites"), each card an object with a name, a card id ("tw-116") and a count ("qty"), or a name
  mapped to its count ({"Gandalf [H] (TW)": 1}); "notes" skipped.

Every format gives the same model (DeckList): each card line with its count, the printing asked for
(set code, alignment tag, card id), its part (pool, play deck, sideboard, the Fallen-wizard extra
sideboard, sites), its group (characters, resources, hazards) and its line. The patterns, section
names, tags and JSON field names are plain data: the site's deck page (site/assets/decklist.js) executes
the same steps over the same data, shipped to it in assets/deck-data.js (kb.deck.deck.deck_data);
tests/test_deck.py runs both over the same lists. Each pattern is written to mean the same in Python
(re.IGNORECASE | re.ASCII) and JavaScript (flag "i"), and spells a space " ": a line is cleaned first
(kb.search.query.clean: control characters out, every run of spaces one " "), then capped at MAX_LINE.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import asdict, dataclass, replace
from typing import Any

from kb.errors import Refused
from kb.inputs import MB, size_text
from kb.search.query import clean, distance, fold

MAX_BYTES = 4 * MB
"""A larger input is no decklist (10,000 lines of card names are about 300 KB): the terminal refuses a file or
standard input over it, the site's deck page a file chosen or a list typed, in the same words (too_large)."""
CONTROL_SHARE = 20
"""Text of which more than one character in this many is a control character (not a tab, line or page
break: the rule "control") is binary data, not a decklist (decode)."""
MAX_DIGITS = 300
"""A JSON deck holding a number of more digits is refused (json_fault): no count has more than three, and
JavaScript reads no number of more than 308 digits (it is Infinity there), so both runtimes read every count
they take alike (a count over 999 is 999)."""
MAX_LINE = 200
"""A longer line is no card line (the longest card name is 48 letters); patterns never see it."""
MAX_NAME_WORDS = 10
"""A name of more words is prose, not a card (the longest card name in any language has 10 words)."""
MAX_NAME_LENGTH = 60
"""A name longer than this is prose, not a card (the longest card name has 48 characters)."""
MAX_JOINED = 3
"""At most this many items of a list are read together as one card's name ("Burning Rick, Cot, and Tree":
the most commas in a card's name, in any language, are 2)."""
MAX_LIST_LINE = 10_000
"""A line longer than this is no list of cards (a location deck of two hundred sites on one line is some 4,000
characters): it is read as a long line, and its items are never looked for."""
MAX_TITLE = 80
"""A deck's title is cut to this many characters."""
MAX_DEPTH = 20
"""A JSON deck nested deeper than this is refused (deck builders nest three or four levels): its objects and
arrays inside one another more than MAX_DEPTH + 1 deep (json_fault)."""
LOOK_AHEAD = 4096
"""A JSON deck's card is looked for (its line) this many characters on from the card before: a card
written otherwise (escaped) costs no search to the end of the file, so a huge file is read in linear time."""
FORMATS = ("text", "meccg", "netmeccg", "octgn", "json")
PARTS = ("pool", "play", "sideboard", "fw-sideboard", "sites", "notes", "starting")
"""The parts of a deck a line can be in ("" when its list does not say: then its card's type decides).
"starting": a starting company or a character draft, which names cards of the pool: the deck check
counts each of its cards in the pool once, and not again where the list gives it on another line
(kb.deck.deck.place_starting)."""
POOL_SECTIONS = ("Characters", "Minor items")
"""The groups a pool (or a starting company) is written in ("Pool:", then "Characters: ...", "Minor items:
..."): a header of one of them right under the pool keeps to the pool, "Characters" while the pool has no
card of its own yet, each once (read_lines); any other group header leaves it for the play deck."""
SIDEBOARDS = ("sideboard", "fw-sideboard")
NUL = b"\x00"

LINE_RULES: dict[str, str] = {
    "break": r"\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]",
    "frame": r"^#{3,}$",
    "gccg_heading": r"^# ?[A-Za-z][A-Za-z' -]{0,39} \(\d{1,4}\)$",
    "header": r"^[-#=*_/ ]*\[?((?:\d{1,3}[- ])?[A-Za-z][A-Za-z' &/-]{0,39}?)\]? ?(?:[(\[]\d{1,3}[)\]](?: [^:]*)?|- "
              r"?\d{1,3}(?: cards?)?| \d{1,3})? ?(:)? ?(?:[(\[]?\d{1,3}[)\]]?(?: cards?)?)?(?: "
              r"?[(\[][A-Za-z][^()\[\]:]{0,59}[)\]])?[ =*_#-]*$",
    "comment": r"^(?:#|//)",
    "comment_marks": r"^(?:#+|//+) *",
    "banner": r"(?:^gccg|middle earth deck|netmeccg)",
    "netmeccg": r"^\[netmeccg",
    "version_mark": r"^(.*[^ ]) ?([*@%])$",
    "bullet": r"^[-*+\u2022] *",
    "decoration": r"^[-=*_#~+.,;:|/\\ ]*$",
    "sideboard_prefix": r"^(?:SB|sideboard) ?: ?",
    "trailing_comment": r" (?:#|//).*$",
    "placeholder": r"^x (?=[a-z])",
    "trailing_note": r"(?: ?\((?:\+|with |w/|plus |and |backup |or ) ?([^()]*)\)| \+ ([^()+]{1,60}))$",
    "aside": r"^(?:\(.*\)|\[.*\])$",
    "legend": r"^\** ?= ",
    "influence": r"^controlling(?: |$)|,? controlling$",
    "prose": r"[a-z0-9)][.!?] +[a-z]",
    "sentence": r"^[^ ]+ [^ ]+ .*[^.]\.$",
    "label": r"^((?:\d{1,3}[- ])?[A-Za-z][A-Za-z' &/-]{0,39}?) ?(?:[(\[]\d{1,3}[)\]]| \d{1,3})? ?: (.+)$",
    "list_split": r"[()\[\]]|, | / | with ",
    "bracketed": r"^(.*?) \(([^()]*)\)$",
    "tag": r" ?[\[(](h|m|f|fw|b|hero|minion|fallen-wizard|fallen wizard|balrog)[\])]$",
    "set_code": r" ?[\[(] ?(?:me)?(tw|td|dm|le|as|wh|ba) ?[\])]$",
    "any_set_code": r" ?\(([A-Za-z]{2,4})\)$",
    "tag_before": r"^(fallen|fw) (?=(?:gandalf|saruman|radagast|alatar|pallando)$)",
    "count_after": r"^(.*?[^ ]) ?(?:[x\u00d7*] ?(\d{1,3})|\((?:x ?)?(\d{1,3})(?: ?x)?\)|\[(\d{1,3})\]| (\d{1,3}))$",
    "count_before": r"^(\d{1,3}) ?(?:[x\u00d7*] |- ?| )(.+)$",
    "sideboard": r"(?:^| )(?:side ?board|sb)(?: |$)",
    "starting": r"(?:^| )(?:(?:starting|ideal) (?:compan(?:y|ies)|characters?)|(?:character )?draft)(?: |$)",
    "xml": r"^<(?:\?xml|deck[ />])",
    "markup": r"<[^<>]{0,200}>",
    "section_count": r"^\d{1,3} ",
    "fw_sideboard": r"(?:^| )(?:anti ?fw|anti fallen ?wizards?|(?:vs|versus|against|for) (?:fw|fallen ?wizards?)|"
                    r"(?:fw|fallen ?wizards?) (?:side ?board|sb|cards|opponents?))(?: |$)",
    "card_id": r"^([a-z]{2})-(\d{1,4})$",
    "xml_attribute": r"(?<![\w.:-])([A-Za-z_][\w.:-]*)[ \t\r\n]*=[ \t\r\n]*(?:\"([^\"]*)\"|'([^']*)')",
    "xml_name": r"^<(/?)([A-Za-z_][\w.:-]*)",
    "xml_entity": r"&(?:(amp|lt|gt|quot|apos)|#(\d{1,7})|#x([0-9a-f]{1,6}));",
    "control": r"[\x00-\x08\x0e-\x1f]",
    "blank_text": r"^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$",
    "json_token": r'"[^"\\]*(?:\\[\s\S][^"\\]*)*"?|[\[\]{}]|\d{' + str(MAX_DIGITS + 1) + ",}",
    "json_space": r"[ \t\n\r]*",
    "json_number": r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:e[-+]?\d+)?",
    "json_run": r'[^"\\\x00-\x1f]*',
    "json_hex": r"[0-9a-f]{4}",
}
"""The patterns of a decklist, by name. "break" splits the text into lines; "frame" is a GCCG frame
line, "gccg_heading" a heading GCCG writes inside a frame ("# Minion Resource (30)": the cards' alignment and
type, and how many); "header" takes a section name (group 1, maybe in square brackets: NetMECCG's "[starting]") and
whether a colon follows it (group 2), "label" a section named before a card ("Sites: Moria"); "tag",
"set_code" (the card database's sets, "METW" for TW too: a test holds them to its sets; in a GCCG file,
where a line's last brackets always hold its set, "any_set_code") and "trailing_note" (a card carried:
"(+ Cram)") come off the end of a card line,
then its count ("count_after", "count_before"), and "influence" ("Controlling Herion", "Thrain,
controlling": whom a starting company's character controls) off either end of its name; "sentence"
(three words or more ending in a full stop, not an ellipsis), "aside" (a line in brackets), "legend"
("*= Ideal characters") and "placeholder" ("X Card name") are prose, and so is a line too long for a
card's name that holds "prose" (a sentence's end, then more words);
"list_split" parts a line listing cards at a ", ", " / " or " with " outside brackets (list_items),
"bracketed" takes a note in brackets off a name (kb.deck.deck.read_list); "sideboard", "fw_sideboard" and
"starting" (a starting company, a character draft) are run over a folded section name, after
"section_count" ("30 Hazards") is taken off it; "netmeccg" is NetMECCG's banner, "version_mark" the mark
after a NetMECCG card's name (VERSION_MARKS); "card_id" over a card id in a file ("tw-116"); "xml"
tells an OCTGN file from a page opening with a tag (detect), "markup" is a tag taken out of a title line
("<h3>Challenge Deck A</h3>"); the "xml_" patterns read an OCTGN tag's name, its attributes and the
entities of its text. "control" is a control character that makes text binary (decode), "blank_text" a
text of white space alone (what Python's str.strip() takes off), "json_token" a JSON text's strings (skipped
whole), brackets and runs of more than MAX_DIGITS digits (json_fault); "json_space", "json_number", "json_run" (a
string's characters up to a quote, a backslash or a control character) and "json_hex" (a "\\u" escape's digits)
read a JSON text that does not parse, to say where it goes wrong (JsonCheck)."""

SECTIONS: dict[str, list[str]] = {
    # a part of the deck: [section, part, group]
    "deck": ["Play deck", "play", ""], "play deck": ["Play deck", "play", ""], "playdeck": ["Play deck", "play", ""],
    "main deck": ["Play deck", "play", ""], "main": ["Play deck", "play", ""], "in deck": ["Play deck", "play", ""],
    "pool": ["Pool", "pool", ""], "starting pool": ["Pool", "pool", ""], "character pool": ["Pool", "pool", ""],
    "not in deck": ["Pool", "pool", ""], "starting resources": ["Pool", "pool", ""], "starting": ["Pool", "pool", ""],
    "company": ["Starting company", "starting", ""], "companies": ["Starting company", "starting", ""],
    "starting company": ["Starting company", "starting", ""],
    "starting companies": ["Starting company", "starting", ""],
    "character draft": ["Draft", "starting", ""], "draft": ["Draft", "starting", ""],
    "sideboard": ["Sideboard", "sideboard", ""], "side board": ["Sideboard", "sideboard", ""],
    "side": ["Sideboard", "sideboard", ""], "sb": ["Sideboard", "sideboard", ""],
    "sites": ["Sites", "sites", "sites"], "site": ["Sites", "sites", "sites"], "locations": ["Sites", "sites", "sites"],
    "location deck": ["Sites", "sites", "sites"], "site deck": ["Sites", "sites", "sites"],
    "starting site": ["Sites", "sites", "sites"],
    "notes": ["Notes", "notes", ""], "note": ["Notes", "notes", ""], "description": ["Notes", "notes", ""],
    "strategy": ["Notes", "notes", ""], "comments": ["Notes", "notes", ""],
    # a group inside a part: [section, "", group]
    "character": ["Characters", "", "characters"], "characters": ["Characters", "", "characters"],
    "chars": ["Characters", "", "characters"], "avatar": ["Characters", "", "characters"],
    "avatars": ["Characters", "", "characters"], "wizard": ["Characters", "", "characters"],
    "heroes": ["Characters", "", "characters"], "minions": ["Characters", "", "characters"],
    "wizards": ["Characters", "", "characters"], "ringwraith": ["Characters", "", "characters"],
    "ringwraiths": ["Characters", "", "characters"], "fallen wizard": ["Characters", "", "characters"],
    "resource": ["Resources", "", "resources"], "resources": ["Resources", "", "resources"],
    "events": ["Resources", "", "resources"], "items": ["Resources", "", "resources"],
    "minor items": ["Minor items", "", "resources"], "minor item": ["Minor items", "", "resources"],
    "allies": ["Resources", "", "resources"],
    "factions": ["Resources", "", "resources"], "long events": ["Resources", "", "resources"],
    "short events": ["Resources", "", "resources"], "permanent events": ["Resources", "", "resources"],
    "hazard": ["Hazards", "", "hazards"], "hazards": ["Hazards", "", "hazards"],
    "creatures": ["Hazards", "", "hazards"], "creature": ["Hazards", "", "hazards"],
}
"""Section names (folded) a header may give without a colon, and [the section it is shown as, the part
of the deck it starts, the group it starts]: a part ("Sideboard") starts its part; a group
("Hazards") starts its group in the sideboard when it is in one ("Sideboard:" then "Hazards:"), and in
the play deck otherwise (in a GCCG file, and nested in a JSON deck's part, a group keeps the part it is
in: "# Resource (7)" under Pool). A header ending in a colon may name any section: it keeps its own
words (and the part it is in); "sideboard" or "vs FW" in it make it a sideboard or the Fallen-wizard
extra sideboard."""

TAGS: dict[str, str] = {"h": "Hero", "hero": "Hero", "m": "Minion", "minion": "Minion", "f": "Fallen-wizard",
                        "fw": "Fallen-wizard", "fallen": "Fallen-wizard", "fallen wizard": "Fallen-wizard",
                        "fallen-wizard": "Fallen-wizard", "b": "Balrog", "balrog": "Balrog"}
"""An alignment tag ("[H]", "(Minion)", "Fallen Gandalf"), folded, and the card database's alignment it asks for."""

JSON_FIELDS: dict[str, list[str]] = {
    "name": ["name", "title", "card name", "cardname", "card", "code"],
    "id": ["card", "id", "card id", "cardid", "code"],
    "count": ["qty", "count", "quantity", "copies", "amount", "number"],
    "title": ["name", "title", "deck name", "deckname"],
    "alignment": ["alignment", "side", "player"],
    "notes": ["notes", "note", "description", "comments", "comment", "strategy"],
}
"""The keys (folded) a JSON deck gives its cards' names, card ids and counts under, and its own title,
alignment and notes. A "card" or "code" that is a card id ("tw-116") is its id, else its name."""

VERSION_MARKS: dict[str, str] = {"*": "Minion", "@": "Fallen-wizard", "%": "Balrog", "": "Hero"}
"""The mark after a card's name in a NetMECCG file ("Moria*"), and the card database's alignment it asks for:
NetMECCG names the versions of a card so, the hero one unmarked (its Fallen-wizard decks list "Rivendell" and
"Rivendell*", its avatars "Alatar@", its Balrog's sites "Moria%"). A card with no version of that alignment
(an unmarked Orc Captain, a minion card) is any of its versions."""
NEAR_SECTION = 6
"""A header's one word that begins with the same two letters as a section's name (SECTIONS) of this many letters
or more, and is a letter off it ("Sidebord"), or two off one of NEAR_SECTION + 3 letters or more ("Sidebar"), is
that section (known_section)."""

ALIGNMENTS: dict[str, str] = {"hero": "hero", "wizard": "hero", "minion": "minion", "ringwraith": "minion",
                              "fallen wizard": "fallen-wizard", "fw": "fallen-wizard", "balrog": "balrog"}
"""A player's alignment as a file or `--alignment` names it (folded), and the name the deck check uses."""


@dataclass(frozen=True, slots=True)
class DeckLine:
    """One line of a decklist (or one card of a structured file), as read."""

    number: int
    """Its line number, from 1."""
    kind: str
    """blank, comment, header, title (the list's own name), card, note (prose or a notes part, skipped),
    long (too long for a card's name, listing none: the deck check names it in its verdict as not read), or
    list: items short enough to be cards ("Sites: Dol Guldur, Minas Morgul", "3x Concealment, 2 Dodge"), which
    the deck check reads as cards or as one (kb.deck.deck.read_list), or labelled: such a list after a label that
    names no section ("Items and factions: Glamdring, Orcrist"), cards when most of its items are, else prose."""
    text: str
    """The line cleaned (spaces collapsed, control characters out); "" for a long line."""
    name: str = ""
    """A card line's card name as typed."""
    count: int = 1
    """How many copies a card line gives (1 when it gives none)."""
    set_code: str = ""
    """A card line's set code ("TW"), upper-cased."""
    tag: str = ""
    """The alignment a card line's tag asks for ("Hero" for "[H]"), or ""."""
    card_id: str = ""
    """A card id the file gives ("TW-116" for "tw-116"; an OCTGN id as it is), or ""."""
    section: str = ""
    """The section it is in, as its list names it (a header's own section), "" before any header."""
    part: str = ""
    """The part of the deck it is in (PARTS), or "" when its list does not say."""
    group: str = ""
    """The group it is in: characters, resources, hazards, sites, or ""."""
    sideboard: bool = False
    """Whether it is in a sideboard (a sideboard part, or an "SB:" line)."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class DeckList:
    """A decklist read: its format, its own name and declared alignment, and every line."""

    format: str
    """text, meccg, octgn or json."""
    title: str
    """The deck's own name as the file gives it ("A - Stewards of Gondor"), or ""."""
    alignment: str
    """The alignment the file declares (a JSON deck's "alignment": hero, minion, fallen-wizard, balrog), or ""."""
    lines: list[DeckLine]
    """Every line of a text list; each card, note and line of a structured file."""
    line_count: int
    """How many lines the file has."""

    def cards(self) -> list[DeckLine]:
        return [line for line in self.lines if line.kind in ("card", "list", "labelled")]

    def to_json(self) -> dict[str, Any]:
        return {"format": self.format, "title": self.title, "alignment": self.alignment,
                "lines": [line.to_json() for line in self.lines], "line_count": self.line_count}


def near_keys() -> dict[str, list[str]]:
    """The SECTIONS keys a header's one word may spell nearly (known_section), by their first two letters."""
    out: dict[str, list[str]] = {}
    for key in SECTIONS:
        if " " not in key and len(key) >= NEAR_SECTION:
            out.setdefault(key[:2], []).append(key)
    return out


NEAR_KEYS = near_keys()


def compile_rule(name: str) -> re.Pattern[str]:
    return re.compile(LINE_RULES[name], re.I | re.A)


PATTERNS = {name: compile_rule(name) for name in LINE_RULES}


# -- the input: bytes to text, within the limits both runtimes share ---------------------------------------

EXAMPLE = 'Write one card a line, e.g. "2 Gandalf", "Gandalf x2" or "Gandalf [TW]".'
"""What to do about a list refused (every Refused of the deck check carries it as its hint)."""
TOO_LARGE_HINT = "Give the decklist alone: a deck's list is a few hundred lines."
CP1252 = bytes(range(0x80, 0xA0)).decode("cp1252", errors="replace")
"""The characters Windows-1252 gives the bytes 0x80 to 0x9F (U+FFFD for the five it has none for; every other
byte is its Latin-1 character): the page decodes with them (no browser's decoder is the same as Python's)."""


def too_large(name: str, size: int) -> Refused:
    """A list of `size` bytes, over MAX_BYTES."""
    return Refused(f"{name}: {size_text(size)}, over the {size_text(MAX_BYTES)} a decklist may be "
                   "(10,000 lines of card names are about 300 KB)", hint=TOO_LARGE_HINT)


def decode(data: bytes, name: str) -> str:
    """A decklist's text from its bytes (at most MAX_BYTES): UTF-8 (with or without a BOM), UTF-16 with a BOM,
    else Windows-1252; Refused for more bytes than MAX_BYTES, for binary data (a NUL byte, or more than one
    character in CONTROL_SHARE a control character). The site's deck page reads a file chosen, and the UTF-8 of
    a list typed or carried in its address, the same way (site/assets/decklist.js decode)."""
    if len(data) > MAX_BYTES:
        raise too_large(name, len(data))
    binary = f"{name}: binary data, not a decklist"
    if data[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise Refused(binary + " (not UTF-16 after its byte-order mark)", hint=EXAMPLE) from exc
    elif NUL in data:
        raise Refused(binary + f" (a NUL byte at byte {data.index(NUL)})", hint=EXAMPLE)
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("cp1252", errors="replace")
    controls = len(PATTERNS["control"].findall(text))
    if controls * CONTROL_SHARE > len(text):
        raise Refused(binary + f" ({controls} control characters in {len(text)})", hint=EXAMPLE)
    return text


def json_fault(text: str) -> tuple[int, str] | None:
    """Where a JSON text goes past the limits, and how: a number of more than MAX_DIGITS digits, objects and
    arrays nested more than MAX_DEPTH + 1 deep (its strings skipped whole); None within them. Looked for
    before the text is parsed, in one pass, so both runtimes refuse the same files in the same words."""
    depth = 0
    for m in PATTERNS["json_token"].finditer(text):
        token = m.group()
        if token in ("[", "{"):
            depth += 1
            if depth > MAX_DEPTH + 1:
                return m.start(), f"nested more than {MAX_DEPTH} levels deep"
        elif token in ("]", "}"):
            depth = max(0, depth - 1)
        elif token[0] != '"':
            return m.start(), f"holding a number of more than {MAX_DIGITS} digits"
    return None


def split_lines(text: str) -> list[str]:
    """The lines of a text (every line break Python's str.splitlines knows; a final break ends the
    last line, it does not start another)."""
    lines = PATTERNS["break"].split(text)
    return lines[:-1] if len(lines) > 1 and lines[-1] == "" else lines


def section_key(name: str) -> str:
    """A section's name as SECTIONS keys it: folded, a count before it off ("30 Hazards" is "hazards")."""
    return PATTERNS["section_count"].sub("", fold(name))


def names_part(key: str) -> bool:
    """Whether a section's key (section_key) names a section: a known one, a sideboard, a starting company or draft."""
    return key in SECTIONS or any(PATTERNS[rule].search(key) for rule in ("sideboard", "fw_sideboard", "starting"))


def known_section(key: str) -> str:
    """The SECTIONS key a header's key (section_key) is, or spells nearly when it is one word beginning with the
    same two letters (NEAR_SECTION), the nearest if one is: known_section("sidebord") == known_section("sidebar")
    == "sideboard"; else ""."""
    if key in SECTIONS or " " in key or len(key) < NEAR_SECTION - 1:
        return key if key in SECTIONS else ""
    near: dict[int, list[str]] = {}
    for known in NEAR_KEYS.get(key[:2], []):
        limit = 1 if len(known) < NEAR_SECTION + 3 else 2
        if (d := distance(key, known, limit)) <= limit:
            near.setdefault(d, []).append(known)
    best = near[min(near)] if near else []
    return best[0] if len(best) == 1 else ""


def section_of(name: str, part: str) -> tuple[str, str, str]:
    """(section, part, group) a header starts inside `part`: section_of("Side-board", "play") ==
    ("Sideboard", "sideboard", ""); section_of("Hazards", "sideboard") == ("Hazards", "sideboard", "hazards");
    section_of("Vs FW:", "play") == ("Vs FW", "fw-sideboard", ""); section_of("Ideal Starting Companies",
    "pool") == ("Ideal Starting Companies", "starting", ""); section_of("Other Characters", "starting") ==
    ("Other Characters", "play", "characters"); section_of("Sidebord", "sites") == ("Sideboard", "sideboard", "")."""
    key = section_key(name)
    known = SECTIONS.get(key)
    if known:
        section, starts, group = known
        if not starts:
            starts = part if part in SIDEBOARDS else "play"
        return section, starts, group
    words = " ".join(name.split())
    if PATTERNS["fw_sideboard"].search(key):
        return words, "fw-sideboard", ""
    if PATTERNS["sideboard"].search(key):
        return words, "sideboard", ""
    if PATTERNS["starting"].search(key):
        return words, "starting", ""
    if near := known_section(key):
        return section_of(near, part)
    return words, *named_within(key, part)


def named_within(key: str, part: str) -> tuple[str, str]:
    """(part, group) a section's key (section_key) names by its words when it is none of SECTIONS: its
    first word naming a group ("Other Characters", "Hazard Events", "MP Resources") gives the group, its
    part as section_of gives a group's, or as a word of it names ("Pool characters"); else `part` and
    no group ("My favourites")."""
    named = [SECTIONS[word] for word in key.split() if word in SECTIONS]
    groups = [entry[2] for entry in named if not entry[1]]
    if not groups:
        return part, ""
    parts = [entry[1] for entry in named if entry[1]]
    return (parts[0] if parts else part if part in SIDEBOARDS else "play"), groups[0]


def framed_section(name: str) -> tuple[str, str, str]:
    """The part a GCCG frame names ("Pool"): a known part, the sideboards as section_of reads them,
    else prose (notes)."""
    section, part, group = section_of(name, "notes")
    return (section, part, "") if part in PARTS else (section, "notes", "")


def framed_heading(name: str, part: str) -> tuple[str, str, str]:
    """(section, part, group) a GCCG heading starts inside its frame's part: its own words, and the group they
    name, its cards' type: framed_heading("Minion Resource", "play") == ("Minion Resource", "play", "resources"),
    framed_heading("Balrog Site", "sites") == ("Balrog Site", "sites", "sites"). Each heading starts its own, so a
    card is in the last heading above it."""
    section, _, group = section_of(name, part)
    named = [SECTIONS[word][2] for word in section_key(name).split() if word in SECTIONS and SECTIONS[word][2]]
    return section, part, group or (named[-1] if named else "")


def read_name(text: str, framed: bool = False) -> tuple[str, str, str, int | None, str]:
    """(name, set code, alignment tag, count or None, what it carries) of a card as a line or a file
    gives it: its tag, set code and a note in brackets off the end (a card it carries: "Shagrat (+
    Orc-draughts)"), then its count: read_name("1 Saruman [H] (TW)") == ("Saruman", "TW", "Hero", 1, ""),
    read_name("Stealth (x3)") == ("Stealth", "", "", 3, ""). framed: a GCCG line, whose last brackets
    hold its set whatever they say ("swan of amroth (wr)": a set of fan-made cards)."""
    rest, set_code, tag, carried = PATTERNS["influence"].sub("", text), "", "", ""
    m = PATTERNS["any_set_code"].search(rest) if framed else None
    if m and not PATTERNS["set_code"].search(rest):
        set_code, rest = m.group(1).upper(), rest[:m.start()]
    for _ in range(3):
        m = PATTERNS["tag"].search(rest)
        if m and not tag:
            tag, rest = TAGS[fold(m.group(1))], rest[:m.start()]
            continue
        m = PATTERNS["set_code"].search(rest)
        if m and not set_code:
            set_code, rest = m.group(1).upper(), rest[:m.start()]
            continue
        m = PATTERNS["trailing_note"].search(rest)
        if m:
            rest, carried = rest[:m.start()], carried or (m.group(1) or m.group(2) or "").strip(" ,;.")
            continue
        break
    count: int | None = None
    m = PATTERNS["count_after"].match(rest)
    if m:
        count, rest = int(m.group(2) or m.group(3) or m.group(4) or m.group(5)), m.group(1)
    else:
        m = PATTERNS["count_before"].match(rest)
        if m:
            count, rest = int(m.group(1)), m.group(2)
    m = PATTERNS["tag_before"].match(rest)
    if m and not tag:
        tag, rest = TAGS[fold(m.group(1))], rest[m.end():]
    return rest.strip(" ,;."), set_code, tag, count, carried


def placed(number: int, kind: str, text: str, section: str, part: str, group: str, name: str = "", count: int = 1,
           set_code: str = "", tag: str = "", card_id: str = "") -> DeckLine:
    """A DeckLine in its place (a sideboard part makes it a sideboard line)."""
    return DeckLine(number, kind, text, name, count, set_code, tag, card_id, section, part, group, part in SIDEBOARDS)


def part_words(name: str) -> bool:
    """Whether a header of a few words names a part without a colon ("Sideboard resources", "Anti FW cards",
    "Ideal Starting Companies")."""
    key = section_key(name)
    return len(key.split()) <= 4 and names_part(key)


def short_name(name: str) -> bool:
    """Whether a name is short enough to be a card's (MAX_NAME_WORDS, MAX_NAME_LENGTH): a longer one is prose."""
    return len(name.split()) <= MAX_NAME_WORDS and len(name) <= MAX_NAME_LENGTH


def read_line(number: int, raw: str, section: str, part: str, group: str, mode: str = "text") -> list[DeckLine]:
    """One line read in its place (section, part, group): blank, a header, a comment, a note, a long
    line or a card line with its count, set code and tag (and a card it carries, "(+ Cram)", as a card
    line of its own); "Sites: Moria" is a header and a card line, "Round 1: we won" a note. mode is
    "text", or for a GCCG file "framed" (headers only in frames and "# Group" lines, its Notes part all
    prose) or "frame" (the line between two frames, naming a part)."""
    text = clean(raw, len(raw) + 1)  # spaces collapsed first, then the line capped
    whole = whole_line(number, text, section, part, group, mode)
    lines = [whole] if whole is not None else labelled_line(number, text, section, part, group, mode)
    return [replace(line, text="") for line in lines] if len(text) > MAX_LINE else lines


def list_spans(text: str) -> list[tuple[int, int]]:
    """Where each item of a line listing cards is (start, end), the line parted at each ", ", " / " or
    " with " outside brackets, blank items left out (list_items)."""
    spans, start, depth = [], 0, 0
    for m in PATTERNS["list_split"].finditer(text):
        mark = m.group(0)
        if mark in ("(", "["):
            depth += 1
        elif mark in (")", "]"):
            depth = max(0, depth - 1)
        elif depth == 0:
            spans.append((start, m.start()))
            start = m.end()
    spans.append((start, len(text)))
    return [(a, b) for a, b in spans if text[a:b].strip(" ,;.")]


def list_items(text: str) -> list[str]:
    """The items of a line listing cards: list_items("Moria (Glamdring, Orcrist), Bree / Weathertop") ==
    ["Moria (Glamdring, Orcrist)", "Bree", "Weathertop"]; list_items("Shagrat with Orc-draughts") ==
    ["Shagrat", "Orc-draughts"]."""
    return [text[a:b].strip(" ") for a, b in list_spans(text)]


def item_lines(line: DeckLine, text: str) -> list[DeckLine]:
    """Some items of a list line (their text, items and the marks between them) read as one line of
    its own in the list line's place: its card with its count, set code and tag, and any card it
    carries ("Glorfindel II (+ Cram)"), or a note or comment."""
    return card_lines(line.number, line.text, text.strip(" "), line.section, line.part, line.group, False)


def long_line(number: int, text: str, section: str, part: str, group: str) -> DeckLine:
    """A line too long to be a card's that lists none: prose (a note) in the Notes part, or when it is a
    sentence or holds one's end, else a long line (which the deck check names as not read)."""
    prose = part == "notes" or bool(PATTERNS["sentence"].match(text) or PATTERNS["prose"].search(text))
    return placed(number, "note" if prose else "long", "", section, part, group)


def whole_line(number: int, text: str, section: str, part: str, group: str, mode: str) -> DeckLine | None:
    """A line that names no card, read whole: too long, blank, a frame's name, a frame, a header, a
    note of the Notes part or a comment; None for a line that may name cards (read_line's modes)."""
    if len(text) > MAX_LINE and (mode != "text" or part == "notes" or len(text) > MAX_LIST_LINE or
                                 len(list_items(text)) < 2):
        return long_line(number, text, section, part, group)
    if not text:
        return placed(number, "blank", text, section, part, group)
    if mode == "frame":
        return placed(number, "header", text, *framed_section(text))
    if PATTERNS["frame"].match(text):
        return placed(number, "comment", text, section, part, group)
    header = PATTERNS["header"].match(text)
    if mode == "framed":
        if part == "notes":
            return placed(number, "note", text, section, part, group)
        if header and text.startswith("#") and (section_key(header.group(1)) in SECTIONS or
                                                 (part and PATTERNS["gccg_heading"].match(text))):
            return placed(number, "header", text, *framed_heading(header.group(1), part))
    elif header and (header.group(2) or part_words(header.group(1))):  # "[characters]" names a part of its own
        return placed(number, "header", text, *section_of(header.group(1), "" if text.startswith("[") else part))
    elif part == "notes":
        return placed(number, "note", text, section, part, group)
    if PATTERNS["comment"].match(text):
        return placed(number, "comment", text, section, part, group)
    return None


def labelled_line(number: int, text: str, section: str, part: str, group: str, mode: str) -> list[DeckLine]:
    """A line that may name cards, after its bullet: a "Sideboard:" prefix moves its card to the
    sideboard, a label naming a section ("Sites: Moria", "Sideboard: Stealth, Twilight") is a header line
    first; a label naming none makes the line a note ("Round 1: we won"), or when a list follows it
    ("Items and factions: Glamdring, Orcrist") a "labelled" line; then what it names (named_cards)."""
    rest = PATTERNS["bullet"].sub("", text)
    prefix = PATTERNS["sideboard_prefix"].match(rest)
    label = PATTERNS["label"].match(rest) if mode == "text" else None
    header: list[DeckLine] = []
    if label and (not prefix or len(list_items(label.group(2))) > 1):
        if not names_part(section_key(label.group(1))):
            listed = named_cards(number, text, label.group(2), section, part, group, False)
            kind = "labelled" if listed[0].kind == "list" else "note"
            return [replace(listed[0], kind=kind, name=listed[0].name if kind == "labelled" else "")]
        section, part, group = section_of(label.group(1), part)
        header.append(placed(number, "header", text, section, part, group))
        rest = label.group(2)
    elif prefix:
        rest, part = rest[prefix.end():], "sideboard"
    return header + named_cards(number, text, rest, section, part, group, mode == "framed")


def named_cards(number: int, text: str, rest: str, section: str, part: str, group: str, framed: bool) -> list[DeckLine]:
    """What the rest of a line names: a list of items each short enough to be a card with its count
    ("3x Concealment, 2 Dodge", "Shagrat with Orc-draughts": the deck check reads each, kb.deck.deck.read_list),
    a card with its count, set code and tag (and the card it carries), else a note (a placeholder, an
    aside, a sentence, words too many for a card's name), a long line or a comment. A GCCG line is one card."""
    rest = PATTERNS["trailing_comment"].sub("", rest)
    if any(PATTERNS[rule].match(rest) for rule in ("placeholder", "aside", "legend")):
        return [placed(number, "note", text, section, part, group)]
    items = [] if framed else list_items(rest)
    if len(items) > 1 and all(short_name(item) for item in items):
        return [placed(number, "list", text, section, part, group, rest)]
    return card_lines(number, text, rest, section, part, group, framed)


def card_lines(number: int, text: str, rest: str, section: str, part: str, group: str, framed: bool) -> list[DeckLine]:
    """What the rest of a line names read as one card: the card with its count, set code and tag (and
    the card it carries), else a note (a sentence, words too many for a card's name), a long line or a comment."""
    if len(rest) > MAX_LINE:
        return [long_line(number, rest, section, part, group)]
    name, set_code, tag, count, carried = read_name(rest, framed)
    if PATTERNS["decoration"].match(name) or count == 0:
        return [placed(number, "comment", text, section, part, group)]
    if count is None and (PATTERNS["sentence"].match(rest) or not short_name(name)):
        return [placed(number, "note", text, section, part, group)]
    card = placed(number, "card", text, section, part, group, name, 1 if count is None else count, set_code, tag)
    if carried and not PATTERNS["decoration"].match(carried):
        return [card, placed(number, "card", text, section, part, group, carried)]
    return [card]


def read_lines(text: str, framed: bool = False) -> list[DeckLine]:
    """Every line of a text list (a byte-order mark before the first left out), each in the place the
    headers above it give; framed: a GCCG file (read_line's "framed" mode)."""
    raws = split_lines(text.removeprefix("\ufeff"))
    names = frame_names([bool(PATTERNS["frame"].match(clean(raw, len(raw) + 1))) for raw in raws]) if framed else set()
    out: list[DeckLine] = []
    section = part = group = ""
    given: list[str] = []  # the groups the pool has been written in so far ("" for a card of its own)
    for i, raw in enumerate(raws):
        mode = "text"
        if framed:
            mode = "frame" if i in names else "framed"
        lines = read_line(i + 1, raw, section, part, group, mode)
        head = lines[0]
        if head.kind == "header" and part in ("pool", "starting") and keeps_pool(head, given):
            lines = [replace(line, part=part, sideboard=False) for line in lines]
            given.append(head.section)
        elif head.kind == "header":
            given = []
        if any(line.kind in ("card", "list") and not line.group for line in lines):
            given.append("")
        for line in lines:
            if line.kind == "header":
                section, part, group = line.section, line.part, line.group
            out.append(line)
    return titled(out)


def keeps_pool(header: DeckLine, given: list[str]) -> bool:
    """Whether a group's header in the pool keeps to it (POOL_SECTIONS): "Minor items" once,
    "Characters" once while the pool has no card of its own (given: the groups the pool has been
    written in, "" for a card of its own)."""
    return header.section in POOL_SECTIONS and header.section not in given and \
        not (header.section == "Characters" and "" in given)


def title_at(lines: list[DeckLine]) -> int | None:
    """Where a text list's own title may be: its first line, when it stands alone (a blank line or a
    header after it), is no longer than a title (MAX_TITLE) nor a program's banner, and names no count,
    tag or set code: a note ("Tournament report: ...") or a line that may name cards (the deck check
    makes it the title when it names none, kb.deck.deck.read_title)."""
    first = next((i for i, line in enumerate(lines) if line.kind != "blank"), None)
    if first is None or lines[first].kind not in ("note", "card", "list", "labelled"):
        return None
    line = lines[first]
    after = next((other for other in lines[first + 1:] if other.number > line.number), None)
    if after is None or after.kind not in ("blank", "header") or len(line.text) > MAX_TITLE or \
            PATTERNS["banner"].search(fold(line.text)):
        return None
    return first if line.kind in ("note", "labelled") or line.name == line.text else None


def titled(lines: list[DeckLine]) -> list[DeckLine]:
    """The lines, a note standing alone as a list's first line its title (title_at)."""
    at = title_at(lines)
    if at is None or lines[at].kind != "note":
        return lines
    return lines[:at] + [replace(lines[at], kind="title")] + lines[at + 1:]


def frame_names(frames: list[bool]) -> set[int]:
    """Which lines name a GCCG frame's part, given which lines are "####": a line between a frame's
    opening and closing "####", the frames read in turn from the top, so a closing "####" opens no
    frame of its own ("####", "Pool", "####", "1 Saruman", "####", "Deck", "####": Pool and Deck)."""
    names, i = set(), 0
    while i + 2 < len(frames):
        if frames[i] and not frames[i + 1] and frames[i + 2]:
            names.add(i + 1)
            i += 3
        else:
            i += 1
    return names


def text_title(lines: list[DeckLine]) -> str:
    """A text list's own name: its title line (titled), or the first of the comments it opens with that is
    not GCCG's banner ("# A - Stewards of Gondor"; "// Hero deck: Gandalf and the Fellowship"), or ""."""
    for line in lines:
        if line.kind == "blank":
            continue
        if line.kind == "title":
            return line.text[:MAX_TITLE]
        if line.kind != "comment" or PATTERNS["frame"].match(line.text):
            break
        words = PATTERNS["comment_marks"].sub("", line.text).strip(" ")
        if words and not PATTERNS["banner"].search(fold(words)):
            return words[:MAX_TITLE]
    return ""


def browser_rules() -> dict[str, Any]:
    """What the browser's deck page reads lists by: the patterns, section names, tags, JSON fields and limits."""
    return {"rules": LINE_RULES, "sections": SECTIONS, "pool_sections": list(POOL_SECTIONS), "tags": TAGS,
            "version_marks": VERSION_MARKS, "near_section": NEAR_SECTION, "near_keys": NEAR_KEYS,
            "json_fields": JSON_FIELDS,
            "alignments": ALIGNMENTS, "max_line": MAX_LINE, "max_name_words": MAX_NAME_WORDS,
            "max_name_length": MAX_NAME_LENGTH, "max_title": MAX_TITLE, "max_joined": MAX_JOINED,
            "max_list_line": MAX_LIST_LINE, "max_depth": MAX_DEPTH, "max_digits": MAX_DIGITS, "max_bytes": MAX_BYTES,
            "control_share": CONTROL_SHARE, "look_ahead": LOOK_AHEAD, "example": EXAMPLE, "cp1252": CP1252,
            "too_large_hint": TOO_LARGE_HINT}
