"""The deck check: every erratum, CRF ruling and mention a judge needs for the cards of a decklist, as one report.

`rulings deck FILE` reads the list (kb.decklist), reads each name as `rulings card` does
(kb.resolve.read_card: any language, accents, plurals, typos), and gathers each card's errata,
rulings and mentions (kb.lookup.card_rulings) into one report in the ruling shape; deck_page()
makes it one printable HTML page, write_page() writes that page safely. deck_data() is what the
site's deck page (site/assets/deck.js) needs to make the same report in the browser.
"""

from __future__ import annotations

import codecs
import html
import os
import stat
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kb.decklist import DeckLine, browser_rules, long_lines, read_lines
from kb.errors import ForeignFile, ParseError, Refused, WriteFailed
from kb.inputs import MB, kind_of, read_bytes, size_text
from kb.lookup import Shaper, card_rulings, group_by_source, search_spec
from kb.query import fold
from kb.resolve import MAX_NAME, CardReading, NameIndex, card_index, quoted, read_card
from kb.searchspec import SearchSpec
from kb.snapshot import Kb, Snapshot
from kb.store import query

MAX_DECK_BYTES = 4 * MB
"""A larger input is no decklist (10,000 lines of card names are about 300 KB)."""
MAX_NEAR = 50
"""At most this many different names not spelt exactly are read for near spellings and given
suggestions (each costs a pass over every card name); the rest are listed as not found. This keeps
a huge list of garbage linear."""
MANY_COPIES = 500
"""More copies than this is more than a deck: the report says so (and checks it all the same)."""
EXAMPLE = 'Write one card a line, e.g. "2 Gandalf", "Gandalf x2" or "Gandalf [TW]".'
NOT_NEAR = "not read for near spellings"
"""The reading of a name beyond the first MAX_NEAR not spelt exactly."""
EXIT_NOT_FOUND = 3
"""`rulings deck`'s exit code when the report is made but some names match no card."""
NUL = b"\x00"
PAGE_MARK = "<!-- made by `rulings deck --html`; it replaces only files carrying this line -->"
"""The first line of every page deck_page() makes: write_page() overwrites only files that have it."""


# -- reading the input -------------------------------------------------------------------------------

FILE_HINT = "Name a decklist file, or - to read standard input."
STDIN_HINT = "Pipe a decklist into it (rulings deck - < deck.txt), or name the file."

def read_input(file: str) -> tuple[str, str]:
    """(name, text) of a decklist file, or of standard input for "-"; Refused (one line) for a
    folder, a pipe that is not standard input, a file too large, binary data or an empty list."""
    if file == "-":
        name = "standard input"
        if sys.stdin is None:
            raise Refused("standard input is closed: there is no decklist to read", hint=STDIN_HINT)
        try:
            data = sys.stdin.buffer.read(MAX_DECK_BYTES + 1)
        except OSError as exc:  # opened for writing only, say
            raise Refused(f"standard input cannot be read ({exc.strerror or exc.__class__.__name__})",
                          hint=STDIN_HINT) from exc
    else:
        name = file
        try:
            info = os.stat(file)
        except OSError as exc:
            raise Refused(f"{file}: {exc.strerror or 'cannot be read'}", hint=FILE_HINT) from exc
        if not stat.S_ISREG(info.st_mode):
            raise Refused(f"{file} is {kind_of(info.st_mode)}, not a decklist file", hint=FILE_HINT)
        if info.st_size > MAX_DECK_BYTES:
            raise Refused(too_large(file, info.st_size))
        try:
            data = read_bytes(Path(file), MAX_DECK_BYTES)
        except ParseError as exc:  # unreadable (permission denied): refused input, as a missing file is
            raise Refused(f"{file}: {exc.found}", hint=FILE_HINT) from exc
    if len(data) > MAX_DECK_BYTES:
        raise Refused(too_large(name, len(data)))
    return name, decode(data, name)


def too_large(name: str, size: int) -> str:
    return (f"{name}: {size_text(size)}, over the {size_text(MAX_DECK_BYTES)} a decklist may be "
            "(10,000 lines of card names are about 300 KB)")


def decode(data: bytes, name: str) -> str:
    """A decklist's text: UTF-8 (with or without a BOM), UTF-16 with a BOM, else Windows-1252; Refused
    for binary data (a NUL byte, or one character in twenty a control character)."""
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
    controls = sum(1 for c in text if c < " " and c not in "\t\n\r\f\v")
    if controls * 20 > len(text):
        raise Refused(binary + f" ({controls} control characters in {len(text)})", hint=EXAMPLE)
    return text


# -- the report --------------------------------------------------------------------------------------

def check_deck(kb: Kb, file: str, *, mentions: bool = False, html_out: Path | None = None) -> dict[str, Any]:
    """The report on the decklist in file ("-": standard input), see deck_report(); with html_out,
    also written there as one printable page (write_page), its path under "written"."""
    name, text = read_input(file)
    report = deck_report(kb, text, name, mentions=mentions)
    if html_out is not None:
        report["written"] = str(write_page(html_out, deck_page(report)))
    return report


def read_names(lines: list[DeckLine], spec: SearchSpec, index: NameIndex) -> dict[str, CardReading]:
    """Each different name of the card lines (folded) read as a card name: exactly, or (for the first
    MAX_NEAR names not spelt exactly) by kb.resolve.read_card's near spellings. The browser's deck
    page reads them the same way (site/assets/deck.js read_names)."""
    readings: dict[str, CardReading] = {}
    near = 0
    for line in lines:
        key = fold(line.name)
        if key in readings:
            continue
        exact = spec.card_names(key) if key and len(key) <= MAX_NAME else None
        if exact:
            readings[key] = CardReading(list(exact))
        elif near < MAX_NEAR:
            near += 1
            readings[key] = read_card(line.name, spec, index)
        else:
            readings[key] = CardReading([], NOT_NEAR)
    return readings


def deck_report(kb: Kb, text: str, name: str = "deck", *, mentions: bool = False) -> dict[str, Any]:
    """A decklist's report: each card once (its count, sections and lines, its face, errata and CRF
    rulings, how many other rulings mention it, and with mentions those rulings), cards with nothing
    to say apart ("quiet"), names that match no card with suggestions ("not_found"), and the date and
    CRF edition it was made with. Refused for a list with no card line, or none naming a card."""
    if not text.strip():
        raise Refused(f"{name}: an empty decklist", hint=EXAMPLE)
    lines = read_lines(text)
    cards = [line for line in lines if line.kind == "card"]
    if not cards:
        raise Refused(f"{name}: no card in it ({len(lines)} lines of blanks, comments, headers or overlong lines)",
                      hint=EXAMPLE)
    snapshot = Snapshot.of(kb)  # the rulings and the names read from one build
    conn = snapshot.connect()
    shaper = Shaper(conn)
    spec = search_spec(snapshot)
    index = card_index(spec)
    readings = read_names(cards, spec, index)
    found: dict[tuple[str, ...], dict[str, Any]] = {}
    missed: dict[str, dict[str, Any]] = {}
    for line in cards:
        key = fold(line.name)
        reading = readings[key]
        if not reading.names:
            miss = missed.setdefault(key, {"name": line.name, "lines": [], "count": 0, "choices": reading.choices,
                                           "suggestions": [], "looked_near": reading.read_as != NOT_NEAR})
            miss["lines"].append(line.number)
            miss["count"] += line.count
            continue
        entry = found.setdefault(tuple(sorted(reading.names)), {
            "name": " / ".join(sorted(reading.names)), "names": sorted(reading.names), "count": 0, "sections": [],
            "lines": [], "typed": [], "read_as": [], "set_codes": []})
        entry["count"] += line.count
        entry["lines"].append(line.number)
        for field, value in (("typed", line.name), ("read_as", reading.read_as), ("set_codes", line.set_code)):
            if value and value not in entry[field]:
                entry[field].append(value)
        _add_section(entry["sections"], line)
    if not found:
        first = next(iter(missed.values()))
        raise Refused(f"{name}: no line names a card ({len(cards)} card lines; line {first['lines'][0]} reads "
                      f"{quoted(first['name'])})", hint=EXAMPLE)
    for key, miss in missed.items():
        if miss["looked_near"] and not miss["choices"]:
            miss["suggestions"] = index.rank(miss["name"])
    said: list[dict[str, Any]] = []
    quiet: list[dict[str, Any]] = []
    for entry in found.values():
        about = card_rulings(conn, shaper, entry["names"])
        marks = ",".join("?" * len(entry["names"]))
        entry["cards"] = [f.to_json() for f in shaper.cards(f"name in ({marks})", tuple(entry["names"]))]
        entry.update({"errata": about.errata, "rulings": about.rulings, "mentions": len(about.mentions)})
        if mentions:
            entry["mentioned_in"] = group_by_source(shaper.rulings(about.mentions))
        (said if about.errata or about.rulings or about.mentions else quiet).append(entry)
    copies = sum(line.count for line in cards)
    warnings = [f"{copies} copies on {len(lines)} lines: more than a deck; every card is checked all the same"] \
        if copies > MANY_COPIES else []
    skipped = sum(1 for miss in missed.values() if not miss["looked_near"])
    if skipped:
        warnings.append(f"{skipped} names were not read for near spellings (only the first {MAX_NEAR} are)")
    for line in cards:
        names = tuple(sorted(readings[fold(line.name)].names))
        if line.set_code and names:
            printed = sorted({c["set_code"] for c in found[names]["cards"]})
            if line.set_code not in printed:
                warnings.append(f"line {line.number}: {found[names]['name']} has no printing in {line.set_code} "
                                f"(printed in {', '.join(printed)})")
    if too_long := long_lines(lines):
        warnings.append(too_long)
    return {"deck": name, "date": time.strftime("%Y-%m-%d"), **_editions(conn), "lines": len(lines),
            "card_lines": len(cards), "copies": copies, "warnings": warnings, "cards": said, "quiet": quiet,
            "not_found": list(missed.values()), "written": None}


def _add_section(sections: list[dict[str, Any]], line: DeckLine) -> None:
    for s in sections:
        if s["section"] == line.section and s["sideboard"] == line.sideboard:
            s["count"] += line.count
            return
    sections.append({"section": line.section, "sideboard": line.sideboard, "count": line.count})


def _editions(conn: Any) -> dict[str, Any]:
    """The current CRF (title, edition, date) and when the knowledge base was built."""
    crf = query(conn, "select id, title, edition, date from sources where parser = 'crf' and current = 1 "
                      "order by rowid limit 1")
    built = query(conn, "select value from meta where key = 'built_at'")
    return {"crf": crf[0] if crf else None, "built_at": built[0]["value"] if built else ""}


def sections_text(entry: dict[str, Any]) -> str:
    """ "Characters 1, Sideboard 1" (a section named nothing is "no section")."""
    return ", ".join(f"{s['section'] or 'no section'}"
                     f"{' (sideboard)' if s['sideboard'] and 'side' not in s['section'].lower() else ''} {s['count']}"
                     for s in entry["sections"])


def counted(n: int, noun: str, plural: str = "") -> str:
    """counted(1, "card") == "1 card", counted(2, "card") == "2 cards", counted(2, "copy", "copies") == "2 copies"."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def exit_code(report: dict[str, Any]) -> int:
    """0 when every name was found, EXIT_NOT_FOUND when some match no card."""
    return EXIT_NOT_FOUND if report["not_found"] else 0


# -- the printable page --------------------------------------------------------------------------------

PRINT_CSS = """
body { font: 11pt/1.35 Georgia, serif; max-width: 48em; margin: 1.5em auto; padding: 0 1em; color: #111; }
h1 { font-size: 1.5em; margin-bottom: .2em; } h2 { font-size: 1.2em; border-bottom: 1px solid #999; }
h3 { font-size: 1.05em; margin: 1em 0 .2em; } .meta, .where { color: #444; font-size: .9em; }
.card { break-inside: avoid; page-break-inside: avoid; margin-bottom: 1em; }
.ruling { margin: .3em 0 .3em 1em; white-space: pre-wrap; } .kind { font-weight: bold; }
section + section { break-before: page; page-break-before: always; }
@media print { body { margin: 0; max-width: none; } a { color: inherit; text-decoration: none; } }
"""


def _ruling_html(r: dict[str, Any]) -> str:
    head = r["kind"] + (f" {r['number']}" if r["number"] else "")
    where = f"{r['source_title']} (edition {r['edition']}), {' › '.join(r['section'][-2:])}, {r['id']}"
    return (f'<div class="ruling"><span class="kind">[{html.escape(head)}]</span> '
            f'<span class="where">{html.escape(where)}</span>\n{html.escape(r["text"])}</div>')


def deck_page(report: dict[str, Any]) -> str:
    """The report as one printable HTML page: date and CRF edition at the top, each card kept on one
    page, a page break before the cards with nothing to say and before the names not found."""
    e = html.escape
    crf = report["crf"]
    edition = f"{crf['title']} (edition {crf['edition']}{', ' + crf['date'] if crf['date'] else ''})" if crf else "no CRF"
    parts = [PAGE_MARK, "<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>Deck check: {e(report['deck'])}</title><style>{PRINT_CSS}</style></head><body>",
             f"<h1>Deck check: {e(report['deck'])}</h1>",
             f'<p class="meta">Checked {e(report["date"])} against {e(edition)}; knowledge base built '
             f'{e(report["built_at"] or "at an unknown time")}. '
             f'{counted(len(report["cards"]) + len(report["quiet"]), "card")}, {counted(report["copies"], "copy", "copies")}, '
             f'{counted(len(report["not_found"]), "name")} not found.</p>']
    parts += [f'<p class="meta">{e(w)}</p>' for w in report["warnings"]]
    parts.append("<section><h2>Cards with errata, rulings or mentions</h2>")
    for entry in report["cards"]:
        kind = " · " + ", ".join(dict.fromkeys(f"{c['alignment'] or ''} {c['type'] or ''}".strip()
                                               for c in entry["cards"]))
        parts.append(f'<div class="card"><h3>{e(entry["name"])} ×{entry["count"]}</h3>'
                     f'<p class="where">{e(sections_text(entry))}{e(kind)}'
                     + "".join(f"; {e(r)}" for r in entry["read_as"]) + "</p>")
        for title, rulings in (("Errata", entry["errata"]), ("CRF rulings", entry["rulings"])):
            if rulings:
                parts.append(f"<h4>{title} ({len(rulings)})</h4>" + "".join(_ruling_html(r) for r in rulings))
        if entry["mentions"]:
            parts.append(f'<p>Mentioned in {counted(entry["mentions"], "other ruling")}.</p>')
            for group in entry.get("mentioned_in", []):
                parts += [_ruling_html(r) for r in group["rulings"]]
        parts.append("</div>")
    parts.append("</section>")
    if report["quiet"]:
        parts.append(f"<section><h2>Nothing to say ({len(report['quiet'])})</h2><p>"
                     + ", ".join(f"{e(q['name'])} ×{q['count']}" for q in report["quiet"]) + "</p></section>")
    if report["not_found"]:
        parts.append(f"<section><h2>Not found ({len(report['not_found'])})</h2><ul>")
        for miss in report["not_found"]:
            parts.append(f"<li>{_miss_text(miss, html.escape)}</li>")
        parts.append("</ul></section>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _miss_text(miss: dict[str, Any], escape: Callable[[str], str] = str) -> str:
    lines = ", ".join(map(str, miss["lines"][:10])) + (" ..." if len(miss["lines"]) > 10 else "")
    text = f"line{'s' if len(miss['lines']) > 1 else ''} {lines}: {escape(quoted(miss['name']))}"
    if miss["choices"]:
        return text + " could be " + escape(", ".join(miss["choices"]))
    if miss["suggestions"]:
        return text + ": did you mean " + escape(", ".join(miss["suggestions"])) + "?"
    return text + ": no card near it"


def miss_line(miss: dict[str, Any]) -> str:
    """A name not found, for people: "line 14: 'Gandalff the gray': did you mean Gandalf, ...?"."""
    return _miss_text(miss)


def write_page(path: Path, text: str) -> Path:
    """Write text to path, and nowhere else but a temporary file beside it that is renamed over it
    (so path is never half-written). A file already at path is replaced only if deck_page() made it
    (its first line is PAGE_MARK); a folder, a link or someone else's file is ForeignFile; a missing
    folder is Refused (nothing is created but the file)."""
    path = path.absolute()
    if path.is_symlink() or (path.exists() and not path.is_file()):
        raise ForeignFile(f"{path} is {'a link' if path.is_symlink() else 'not a regular file'}; "
                          "rulings deck --html writes only a regular file", hint="Name a new file.")
    if path.exists():
        with path.open("rb") as f:
            first = f.read(len(PAGE_MARK.encode()) + 2)
        if not first.startswith(PAGE_MARK.encode()):
            raise ForeignFile(f"{path} exists and `rulings deck --html` did not make it; it is left as it is",
                              hint="Name a new file, or remove that one first.")
    if not path.parent.is_dir():
        raise Refused(f"no folder {path.parent} to write {path.name} into",
                      hint="Create it, or name a file in an existing folder.")
    tmp = path.parent / f".{path.name}.tmp-{os.getpid()}"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o644)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(text.encode("utf-8"))
            os.replace(tmp, path)
        finally:
            if tmp.exists():
                tmp.unlink()
    except OSError as exc:
        raise WriteFailed.of(exc, "the deck page", path, path.parent, "run `rulings deck --html` again",
                             "nothing else was written") from exc
    return path


# -- the site's deck page -------------------------------------------------------------------------------

def deck_data(kb: Kb) -> dict[str, Any]:
    """What site/assets/deck.js needs beside the search data: how to read a list (kb.decklist), the
    limits, for every card with anything to say [errata, rulings, mentions], each a list of indexes
    into the search data's documents, in the order `rulings deck` gives them, and every card's sets."""
    snapshot = Snapshot.of(kb)  # the indexes point into this build's search data: the site ships the same
    conn = snapshot.connect()
    shaper = Shaper(conn)
    spec = search_spec(snapshot)
    position = {doc[0]: n for n, doc in enumerate(spec.raw["docs"])}
    cards: dict[str, list[list[int]]] = {}
    sets: dict[str, list[str]] = {}
    for row in query(conn, "select name, set_code from cards order by name, set_code"):
        if row["set_code"] not in sets.setdefault(row["name"], []):
            sets[row["name"]].append(row["set_code"])
    for row in query(conn, "select distinct name from cards order by name"):
        about = card_rulings(conn, shaper, [row["name"]])
        lists = [[position[r["id"]] for r in about.errata if r["id"] in position],
                 [position[r["id"]] for r in about.rulings if r["id"] in position],
                 [position[i] for i in about.mentions if i in position]]
        if any(lists):
            cards[row["name"]] = lists
    return {**browser_rules(), "max_near": MAX_NEAR, "max_name": MAX_NAME, "many_copies": MANY_COPIES,
            "exit_not_found": EXIT_NOT_FOUND, "cards": cards, "sets": sets, **_editions(conn)}
