"""The terminal's text: every answer the commands give (a ruling, rulings grouped by source, a card's face, search
results and how the question was read, a deck report, what changed, the audits) rendered once, as lines for people,
styled where colour shows and safe to print.

A renderer fills a Page: each text made safe (every control character of the data shown visibly,
shown()), styled with style() (the only escape codes that reach a terminal), wrapped to the width
and indented. cli.py prints the page (through the pager when it is long) and the JSON; it renders
nothing itself. The rulings here are in the one ruling shape (kb/data/schema/ruling.json), as
--json gives them.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kb.builder.check import CheckReport
    from kb.deck.deck import DeckReport
    from kb.model import Source
    from kb.builder.cardface import CardFace
    from kb.read.answers import CardAnswer, CardsAnswer, LinkGroup, PhaseAnswer, RulingAnswer, TermAnswer
    from kb.builder.changes import ChangesAnswer
    from kb.read.lookup import Found, NumberAnswer
    from kb.read.ruling import Ruling
    from kb.builder.pipeline import BuildReport
    from kb.store.snapshot import Snapshot
    from kb.site.website import SiteReport

CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""C0 controls but tab and newline (so ESC and BEL), DEL, and C1 controls (U+0080-U+009F, CSI among them)."""
SURROGATE = re.compile("[\ud800-\udfff]")
"""A lone surrogate: no UTF-8 encoding exists (an undecodable byte of a command line arrives as one)."""
REPLACEMENT = "\ufffd"


def visible(char: str) -> str:
    """How a control character is shown: visible("\\x1b") == "\\\\x1b", visible("\\x9b") == "\\\\x9b"."""
    return f"\\x{ord(char):02x}"


def printable(text: str) -> str:
    """Text a terminal shows as it is: every control character but newline and tab written out
    visibly (an escape sequence cannot move the cursor, retitle the window or ring the bell), every
    lone surrogate replaced by U+FFFD. printable("a\\x1b[2Jb\\x07") == "a\\\\x1b[2Jb\\\\x07"."""
    return SURROGATE.sub(REPLACEMENT, CONTROL.sub(lambda m: visible(m.group(0)), text))


def valid_unicode(text: str) -> str:
    """Text every lone surrogate of which is replaced by U+FFFD, so that it encodes as UTF-8."""
    return SURROGATE.sub(REPLACEMENT, text)


# -- styles: the only escape codes printed, marked as ours -------------------------------------------------

_OURS = f"\x00{os.urandom(8).hex()}\x00"
"""Stands for ESC in the styles style() adds: no data can hold it, so shown() restores ours only."""
COLOURS = {"red": 31, "green": 32, "yellow": 33, "cyan": 36}
"""The colours the commands use, as ANSI foreground codes."""
RESET = "\x1b[0m"


def style(text: str, *, fg: str | None = None, bold: bool | None = None, dim: bool | None = None,
          italic: bool | None = None) -> str:
    """Text made printable, in a colour and bold, dim or italic (the codes click.style writes for
    these), its escape codes marked as ours for shown(): style("x", bold=True) after shown() is
    "\\x1b[1mx\\x1b[0m". cli.py lets the codes through on a terminal where colour is wanted only."""
    codes = [str(COLOURS[fg])] if fg else []
    for on, off, wanted in ((1, 22, bold), (2, 22, dim), (3, 23, italic)):
        if wanted is not None:
            codes.append(str(on if wanted else off))
    start = "".join(f"\x1b[{code}m" for code in codes)
    return (start + printable(text) + RESET).replace("\x1b", _OURS)


def shown(message: str) -> str:
    """Text for people: any control character in it shown visibly (printable), save the styles
    style() added."""
    return "\x1b".join(printable(part) for part in message.split(_OURS))


# -- the page: wrapped to the terminal, coloured only where colour shows ------------------------------------

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def colour_allowed() -> bool:
    """Colour is never wanted under NO_COLOR (any value) or TERM=dumb; elsewhere it shows on a terminal."""
    return not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def terminal_width() -> int | None:
    """The width to wrap to: COLUMNS when set, else the terminal's; None (no wrapping) into a pipe."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return max(40, int(columns))
    if sys.stdout.isatty():
        import shutil  # (only on a terminal: shutil costs a cold command 2 ms)

        return max(40, shutil.get_terminal_size().columns)
    return None


def screen_lines() -> int:
    """How many lines the terminal shows (LINES when set)."""
    import shutil

    return shutil.get_terminal_size().lines


def width_of(text: str) -> int:
    """The columns text takes: its colour codes none."""
    return len(ANSI.sub("", text))


def wrap(line: str, width: int | None, indent: str = "", hang: str | None = None) -> list[str]:
    """One line of text, indented, broken at spaces to fit width (colour codes take no room);
    continuation lines get hang (default: indent). A line that fits is kept as it is."""
    hang = indent if hang is None else hang
    if not line.strip():
        return [""]  # a blank line, with no indent left at its end
    if width is None or width_of(indent + line) <= width:
        return [indent + line]
    out: list[str] = []
    current, empty = indent, True
    for word in line.split():
        if not empty and width_of(current) + 1 + width_of(word) > width:
            out.append(current)
            current, empty = hang, True
        current += ("" if empty else " ") + word
        empty = False
    out.append(current)
    return out


class Page:
    """A command's text for people, gathered line by line (cli.py prints it, through the pager when
    it is more than a screen of a terminal)."""

    def __init__(self, width: int | None = None) -> None:
        self.width = width
        """The width to wrap to; None: no wrapping."""
        self.lines: list[str] = []

    def __call__(self, text: str = "", indent: str = "", hang: str | None = None) -> None:
        """Add text: each of its lines made safe, wrapped and indented, continuations indented by hang."""
        for line in shown(text).split("\n"):
            self.lines += wrap(line, self.width, indent, hang)

    def plain(self, text: str = "") -> None:
        """Add text made safe, never wrapped (a table, an audit's lines)."""
        self.lines += shown(text).split("\n")

    def text(self) -> str:
        """Every line added, joined."""
        return "\n".join(self.lines)


# -- a ruling, rulings by source, a card's face ------------------------------------------------------------

def lines_of(lines: Sequence[int]) -> str:
    """ "line 295", "lines 12-14"."""
    start, end = lines
    return f"line {start}" if start == end else f"lines {start}-{end}"


def head(kind: str, number: str | None) -> str:
    """ "annotation 18", "ruling"."""
    return kind + (f" {number}" if number else "")


def incomplete_line(reason: str | None) -> str | None:
    """What a reader is told before a ruling the source's text leaves incomplete (a text extraction cut
    it), in bold: "INCOMPLETE in the source's text: it breaks off mid-sentence"; None for a whole one."""
    if not reason:
        return None
    return style("INCOMPLETE in the source's text", bold=True, fg="red") + f": {reason}"


def marks(markers: Sequence[str]) -> str:
    """The markers a reader is told of beside a ruling's kind: " · new or changed" (the CRF's @)."""
    return " · new or changed" if "new" in markers else ""


def styled(text: str, spans: Sequence[tuple[int, int]], emphasis: Sequence[tuple[int, int, bool, bool]] = ()) -> str:
    """Text with the matched spans in bold yellow and the source's emphasis (start, end, strong,
    em) in bold or italics."""
    if not spans and not emphasis:
        return text
    marked = [[False, False, False] for _ in text]  # matched, strong, em
    for start, end in spans:
        for i in range(max(start, 0), min(end, len(text))):
            marked[i][0] = True
    for start, end, strong, em in emphasis:
        for i in range(max(start, 0), min(end, len(text))):
            marked[i][1] |= strong
            marked[i][2] |= em
    out, at = [], 0
    for i in range(1, len(text) + 1):
        if i == len(text) or marked[i] != marked[at]:
            matched, strong, em = marked[at]
            part = text[at:i]
            if matched or strong or em:
                part = style(part, bold=True if matched or strong else None, italic=True if em else None,
                             fg="yellow" if matched else None)
            out.append(part)
            at = i
    return "".join(out)


def text_of(r: Ruling) -> str:
    """A ruling's text for the terminal: the source's emphasis bold or italic where colour shows
    (kb.store.reading.reading), its words alone otherwise."""
    reading = r.reading()
    return styled(reading.text, [], reading.emphasis())


def json_text(r: dict[str, Any]) -> str:
    """text_of() of a ruling in the JSON shape (a report's: what changed, a deck's), read from its `markdown`."""
    if not r.get("markdown"):
        return str(r["text"])
    from kb.store.reading import markdown_reading

    return styled(r["text"], [], markdown_reading(r["markdown"]).emphasis())


def render_ruling(page: Page, r: Ruling, indent: str = "  ", where: int = 2, text: str | None = None) -> None:
    """One ruling whole: its kind and number, where it stands, its id and lines, then its text (or
    the text given: its words marked), then its notes."""
    ruling_lines(page, r.kind, r.number, r.markers, r.section, r.id, r.lines, r.incomplete,
                 text_of(r) if text is None else text, r.notes, indent, where)


def ruling_lines(page: Page, kind: str, number: str | None, markers: Sequence[str], section: Sequence[str], rid: str,
                 lines: Sequence[int], incomplete: str | None, text: str, notes: Sequence[str], indent: str = "  ",
                 where: int = 2) -> None:
    """render_ruling's lines, from a ruling's fields (a typed answer's or a report's JSON)."""
    path = " > ".join(section[-where:])
    page(f"[{head(kind, number)}{marks(markers)}] {path}  " + style(f"{rid} · {lines_of(lines)}", dim=True), indent,
         indent + "    ")
    if warning := incomplete_line(incomplete):
        page(warning, indent + "  ", indent + "    ")
    page(text, indent + "  ")
    for note in notes:
        page(style(f"note on the source: {note}", dim=True), indent + "  ", indent + "    ")


def render_groups(page: Page, title: str, rulings: Iterable[Ruling]) -> None:
    """Rulings by source (kb.read.ruling.grouped) under a bold title, each source with its edition and count."""
    from kb.read.ruling import grouped

    groups = grouped(rulings)
    if not groups:
        return
    page(style(title, bold=True))
    for g in groups:
        page(style(f" {g.source_title} (edition {g.edition}): {len(g.rulings)}", fg="cyan"))
        for r in g.rulings:
            render_ruling(page, r)


def render_json_groups(page: Page, title: str, groups: list[dict[str, Any]]) -> None:
    """render_groups() of groups in the JSON shape (a deck report's mentions)."""
    if not groups:
        return
    page(style(title, bold=True))
    for g in groups:
        page(style(f" {g['source_title']} (edition {g['edition']}): {len(g['rulings'])}", fg="cyan"))
        for r in g["rulings"]:
            ruling_lines(page, r["kind"], r["number"], r["markers"], r["section"], r["id"], r["lines"],
                         r.get("incomplete"), json_text(r), r.get("notes", []))


def render_face(page: Page, face: CardFace) -> None:
    """A card's face as a judge reads it: name, set, kind, the numbers, home site and icons, then its text."""
    page(style(face.name, bold=True) + f"  {face.set_name} ({face.id})")
    page(face.kind_line(), "  ", "    ")
    if face.stat_line():
        page(face.stat_line(), "  ", "    ")
    for label, value in face.detail_lines():
        page(f"{label}: {value}", "  ", "    ")
    page(face.text, "  ")


def render_read_as(page: Page, read_as: str) -> None:
    """How a name typed was read ("'morgul knive' read as Morgul-knife"), dim; nothing for an exact name."""
    if read_as:
        page(style(f"({read_as})", dim=True))


# -- the lookups ---------------------------------------------------------------------------------------------

def render_ruling_answer(page: Page, answer: RulingAnswer) -> None:
    """`rulings show`: one ruling whole, where it is (on the site too), a card's face, what it links to."""
    r = answer.ruling
    page(style(head(r.kind, r.number) + marks(r.markers), bold=True) + f"   {r.id}")
    page(f"{r.source_title} (edition {r.edition}{'' if r.current else ', older edition'}), {lines_of(r.lines)}")
    if r.section:
        page(" > ".join(r.section))
    if r.markers:
        page("markers: " + ", ".join(r.markers))
    page(style(f"on the site: {r.url}", dim=True))
    page()
    if warning := incomplete_line(r.incomplete):
        page(warning, "", "  ")
    if answer.card is not None:
        render_face(page, answer.card)
    else:
        page(text_of(r))
    for note in r.notes:
        page(style(f"note on the source: {note}", dim=True))
    if answer.parent:
        page()
        page(style("part of: ", bold=True) + f"{head(answer.parent.kind, answer.parent.number)} {answer.parent.id}")
    if answer.parts:
        page()
        page(style("its parts:", bold=True))
    for part in answer.parts:
        render_ruling(page, part, where=1)
    successor = answer.other if answer.links.successor and answer.other is not None else None
    render_links(page, answer.links.groups, text_of(successor) if successor else "")


LINKS_SHOWN = 30
"""Links of one group `rulings show` prints (a ruling of the card rulings may name dozens of cards)."""


def render_links(page: Page, groups: Sequence[LinkGroup], successor: str = "") -> None:
    """What a ruling links to, group by group as the site shows them (kb.read.answers.RulingLinks): a
    ruling linked by its id and how it stands ("crf-22.3c164db5e6 (reworded)"), anything else by name;
    an older ruling's successor's words (successor) under it."""
    from kb.read.answers import RULINGS

    if groups:
        page()
    for g in groups:
        told = ", ".join(f"{link.target or '-'} ({link.label})" if link.kind in RULINGS else link.label
                         for link in g.links[:LINKS_SHOWN])
        page(style(f"{g.label}: ", bold=True) + told, "", "  ")
        if g.name == "current" and successor:
            page(successor, "  ")


def render_card(page: Page, answer: CardAnswer | CardsAnswer) -> None:
    """`rulings card`: each printing's face, the other cards an exact name begins, the errata, the
    CRF rulings, every mention; of a name a few cards share, each card so, under its name and number."""
    from kb.read.answers import CardsAnswer

    render_read_as(page, answer.read_as)
    if isinstance(answer, CardsAnswer):
        for n, one in enumerate(answer.answers, 1):
            if n > 1:
                page()
            page(style(f"── {n}/{len(answer.answers)} {one.names[0]} ──", fg="cyan", bold=True))
            render_card(page, one)
        return
    for face in answer.faces:
        render_face(page, face)
        page()
    if answer.also:
        from kb.search.resolve import describe

        page(style("also: ", bold=True) + describe([f.to_json() for f in answer.also])
             + f" (`rulings card \"{answer.also[0].name}\"`)", "", "  ")
        page()
    render_groups(page, "Errata", answer.said.errata)
    render_groups(page, "CRF rulings", answer.said.rulings)
    render_groups(page, "Mentioned in", answer.said.mentions)


def render_phase(page: Page, answer: PhaseAnswer) -> None:
    """`rulings phase`: every ruling of the phase, those under its headings first, each part by source
    (as its page on the site shows them)."""
    render_groups(page, f"{answer.name}: rulings under its headings", answer.headings)
    render_groups(page, f"{answer.name}: rulings that speak of it elsewhere", answer.elsewhere)


def render_term(page: Page, answer: TermAnswer) -> None:
    """`rulings term`: its definitions, its Rulings by Term section, the rulings under its other CRF
    headings, the CoE rules titled by it, the rulings that use it (as its page on the site shows them)."""
    render_read_as(page, answer.read_as)
    page(style(answer.name, bold=True))
    for r in answer.definitions:
        render_ruling(page, r)
    render_groups(page, "Rulings by Term", answer.by_term)
    render_groups(page, "Under its CRF headings", answer.under_headings)
    render_groups(page, "CoE rules titled by it", answer.rules)
    render_groups(page, "Used in", answer.used_in)


def render_numbered(page: Page, answer: NumberAnswer) -> None:
    """`rulings annotation`, `rulings rule`: the rulings of the number (one per edition), its parts, its citations."""
    for r in answer.rulings:
        page(style(r.source_title, fg="cyan") + f" (edition {r.edition})")
        render_ruling(page, r)
    if answer.parts:
        page(style(f"Parts ({len(answer.parts)})", bold=True))
        for r in answer.parts:
            render_ruling(page, r)
    render_groups(page, "Cited by", answer.cited_by)


# -- what changed -----------------------------------------------------------------------------------------

def render_changes(page: Page, answer: ChangesAnswer, since: str | None = None, whole: bool = False) -> None:
    """`rulings changes`: what is new in the current CRF first (kb.builder.changes.PARTS), each ruling once
    with all it is; then the earlier changes, whole with `whole` (--all) or when an option chose them,
    else folded: a line each, its count and what it holds."""
    from kb.builder.changes import EARLIER, NEW, folded_words, from_json, new_lead, part_title

    if since:
        page(style(f"Changes the sources date {since.strip()} or later", bold=True))
    if not answer.found:
        page("No change matches.")
    parts = answer.arranged()
    whole = whole or answer.narrowed
    for part, entries in parts.items():
        if part == NEW:
            page(style(f"{part_title(part, answer.edition)} ({len(entries)})", bold=True))
            lists = list(dict.fromkeys(r["section"][0] for entry in entries for r in entry
                                       if r["change"]["kind"] == "listed"))
            news = [[from_json(r["id"], r["change"]) for r in entry] for entry in entries]
            page(new_lead(answer.edition, answer.published, lists, news), "  ", "  ")
        elif not whole:
            continue
        else:
            page(style(f"{part_title(part, answer.edition)} ({len(entries)})", bold=True))
        year: object = None
        for entry in entries:
            if part in ("errata", "tagged") and entry[0]["change"]["year"] != year:
                year = entry[0]["change"]["year"]
                page(style(f" {year or 'no year'}", fg="cyan"))
            render_change(page, entry)
        page()
    earlier = [part for part in parts if part != NEW]
    if earlier and not whole:
        page(style(f"{EARLIER}, folded (`rulings changes --all` prints them whole)", bold=True))
        for part in earlier:
            changes = [from_json(entry[0]["id"], entry[0]["change"]) for entry in parts[part]]
            page(f"{part_title(part, answer.edition)} ({len(changes)}): {folded_words(part, changes)}", "  ", "    ")


def render_change(page: Page, entry: list[dict[str, Any]]) -> None:
    """One ruling's changes (kb.builder.changes.arrange's entry): the ruling whole (its words marked against
    an older wording), its erratum and verdict, why it is a change, where the CRF's list names it, and
    the ruling on the other side: the one a listed change names, the successor, the nearest."""
    from kb.builder.changes import erratum_words, other_label, verdict_words

    r = entry[0]
    c = r["change"]
    ruling_lines(page, r["kind"], r["number"], r["markers"], r["section"], r["id"], r["lines"], r.get("incomplete"),
                 diff_text(c["diff"]) if c["diff"] else json_text(r), r.get("notes", []))
    if c["erratum"]:
        page(f"card erratum of {', '.join(c['erratum']['cards']) or 'a card'}: "
             + erratum_words(c["erratum"]["evidence"], c["erratum"]["guess"]), "    ", "      ")
    if c["verdict"]:
        page(style("verdict: ", bold=True) + verdict_words(c["verdict"], c["unsure"], c["guess"]), "    ", "      ")
    page(style("why: ", bold=True) + c["evidence"], "    ", "      ")
    for listed in entry[1:]:
        page(style("in the CRF's list: ", bold=True) + f"{' > '.join(listed['section'])}  "
             + style(f"{listed['id']} · {lines_of(listed['lines'])}", dim=True)
             + (f"; {listed['change']['evidence']}" if listed["change"]["guess"] else ""), "    ", "      ")
    other = c["other"]
    if other and c["diff"]:
        page(f"older wording: {other['source_title']} · {other['id']} · {lines_of(other['lines'])} (its words "
             + diff_text([{"op": "removed", "text": "removed"}]) + ", "
             + diff_text([{"op": "added", "text": "added"}]) + ")", "    ", "      ")
    elif other:
        page(f"{other_label(c['kind'], c['verdict'], c['unsure'])}: [{head(other['kind'], other['number'])}] "
             f"{' > '.join(other['section'][-2:])}  " + style(f"{other['id']} · {lines_of(other['lines'])}", dim=True),
             "    ", "      ")
        if c["kind"] == "absent":
            page(other["text"], "      ")


def diff_text(diff: list[dict[str, str]]) -> str:
    """A word diff as text: removed words [-struck-], added ones {+added+} (and red and green where colour shows)."""
    from kb.builder.wording import Piece, shown as pieces_shown

    signs = {"removed": ("[-", "-]", "red"), "added": ("{+", "+}", "green")}
    text = []
    for op, words, gap in pieces_shown([Piece(p["op"], p["text"]) for p in diff]):
        if op == "same":
            text.append(words + gap)
        else:
            start, end, colour = signs[op]
            text.append(style(f"{start}{words}{end}", fg=colour) + gap)
    return "".join(text)


# -- search ---------------------------------------------------------------------------------------------

def render_search(page: Page, found: Found, full: bool = False, explain: bool = False) -> None:
    """`rulings search`: how the question was read (with explain), then the results."""
    if explain:
        render_understanding(page, found.understanding)
    render_results(page, found, full=full, explain=explain)


def render_understanding(page: Page, u: Any) -> None:
    """How a question was read (kb.search.query's Understanding), one labelled line each: `search --explain`."""
    rows = [("annotations", u.annotations), ("rule numbers", u.rules), ("cards", u.cards),
            ("near card names", [f"{a} -> {b}" for a, b in u.near_cards]),
            ("cards in the story only", u.story_cards), ("the story told (weighs less)", u.story),
            ("meaning asked of", u.define),
            ("abbreviations", [f"{a} = {b}" for a, b in u.abbreviations]),
            ("synonyms", [f"{a} -> {b}" for a, b in u.synonyms]),
            ("spelling", [f"{a} -> {b}" for a, b in u.corrections]),
            ("question words dropped", u.dropped), ("games", u.games or ["meccg"]),
            ("terms", [f"{t}^{b:g}" for t, b in u.terms])]
    for label, values in rows:
        if values:
            page(style(f"{label}: ", bold=True) + ", ".join(values), "", "  ")
    page()


def render_results(page: Page, found: Found, first: int = 1, full: bool = False, explain: bool = False) -> None:
    """The results from the first-th on, numbered (or what to try when there are none)."""
    if not found.results:
        page("No ruling matches. Try fewer words, a card name, or `rulings search --explain`.")
    for n, r in enumerate(found.results[first - 1:], first):
        render_result(page, n, r, found, full, explain)


def render_result(page: Page, n: int, r: Any, found: Found, full: bool = False, explain: bool = False) -> None:
    """A numbered result: source, edition and lines; where it stands; a focused excerpt with the
    matched words marked (the whole text when full), as a reader reads it (kb.store.reading.reading); its id."""
    from kb.search.excerpt import cut, window
    from kb.search.search import highlight_spans

    d = r.data
    page(style(f"{n:>2}. ", bold=True) + style(d["source_title"], fg="cyan")
         + f" (edition {d['edition']}{'' if d['current'] else ', older edition'}) · {lines_of(d['lines'])}", "", "    ")
    where = " > ".join(d["section"][-3:])
    page(f"{where}  [{head(d['kind'], d['number'])}]" + (f"  {' '.join(d['markers'])}" if d["markers"] else ""),
         "    ", "      ")
    if warning := incomplete_line(d.get("incomplete")):
        page(warning, "    ", "      ")
    reading = found.reading(r)
    text = reading.text
    spans = highlight_spans(text, found.understanding, found.spec)
    text, (spans, emphasis) = cut(text, (0, len(text)) if full else window(text, spans), spans, reading.emphasis())
    page(styled(text, spans, emphasis), "    ")
    also = f"  (also in {', '.join(r.also_in)})" if r.also_in else ""
    page(style(f"id {d['id']}", dim=True) + also, "    ", "      ")
    for same in found.same_rule(r):
        render_same_rule(page, same, found, full)
    if explain:
        parts = ", ".join(f"{name} {value:+g}" for name, value in r.why.items())
        page(style(f"score {r.score:.2f} = exp({parts})", dim=True), "    ", "      ")
        page(style("matched: " + (", ".join(r.matched) or "(by reference or name only)"), dim=True), "    ", "      ")


SAME_RULE_SHOWN = 160
"""The characters of a ruling stating the same rule shown under a result (all of them when it is read whole)."""


def render_same_rule(page: Page, same: dict[str, Any], found: Found, full: bool) -> None:
    """A line under a result: a ruling of another document that states the same rule, its source and id."""
    title = found.source_title(same["source"])
    text = same["text"] if full or len(same["text"]) <= SAME_RULE_SHOWN else same["text"][:SAME_RULE_SHOWN].rstrip(
        ) + "…"
    page(style("= same rule, ", dim=True) + style(title, fg="cyan") + f": {text} "
         + style(f"(id {same['id']})", dim=True),
         "    ", "      ")


ASK_HELP = """Type a question, a card name, "annotation 18" or "rule 2.IV.iii"; then:
  1, 2, ...   read that result whole (after a name a few cards share, that card)
  more        the next results
  help, ?     this help
  q           leave (Ctrl-D and Ctrl-C leave too)
Arrow keys edit the line and recall earlier questions."""
"""`rulings ask`'s help."""


class Desk:
    """`rulings ask` at the judge's table: each line typed answered on a page, every question from
    the one build opened (a number reads that result whole, "more" the next results, "help" says so);
    a name a few cards share ("khamul") is answered with a numbered choice of them, a number then
    reading that card as `rulings card` does."""

    def __init__(self, kb: Snapshot, limit: int) -> None:
        self.kb = kb
        self.limit = limit
        """Results per question."""
        self.question = ""
        self.found: Found | None = None
        self.choice: CardsAnswer | None = None
        """The cards of a name a few cards share, while the judge chooses among them."""

    def reply(self, line: str, page: Page) -> bool:
        """Answer a line typed (stripped) on page; False when it asks to leave. A knowledge base gone
        or broken raises (KbMissing, KbBroken); any other KbError is answered as one line."""
        from kb.errors import KbBroken, KbError, KbMissing

        word = line.lower()
        if word in ("q", "quit", "exit"):
            return False
        if not line:
            return True
        if word in ("help", "?", "h"):
            page.plain(ASK_HELP)
            return True
        if self.found is None and (line.isdigit() or word == "more"):
            page.plain("Ask a question first; a number then reads that result whole.")
            return True
        try:
            if self.choice is not None and (line.isdigit() or word == "more"):
                self.choose(line, page)
            elif line.isdigit():
                self.read(int(line), page)
            else:
                self.ask(line if word != "more" else "", page)
        except (KbMissing, KbBroken):
            raise
        except KbError as exc:
            page(f"Error: {exc}" + (f". {exc.hint}" if exc.hint else ""))
        return True

    def read(self, n: int, page: Page) -> None:
        """The result numbered n, whole."""
        found = self.found
        if found is not None and 1 <= n <= len(found.results):
            render_result(page, n, found.results[n - 1], found, full=True)
        else:
            page(f"Type a number from 1 to {len(found.results) if found else 0}, \"more\", or a new question.")

    def ask(self, line: str, page: Page) -> None:
        """A new question (line), or the next results of the last one ("")."""
        from kb.read.lookup import search

        if not line and self.found is not None:
            seen = len(self.found.results)
            self.found = search(self.kb, self.question, limit=seen + self.limit)
            if len(self.found.results) == seen:
                page("No more results.")
            return render_results(page, self.found, first=seen + 1)
        self.question, self.choice = line, None
        self.found = search(self.kb, line, limit=self.limit)
        if self.found.understanding.card_query:
            self.choice = shared_by(self.found, line)
        if self.choice is not None:
            return render_choice(page, self.choice)
        render_results(page, self.found)

    def choose(self, line: str, page: Page) -> None:
        """A number among the cards of a name a few cards share: that card; "more": the results found."""
        cards = self.choice.answers if self.choice is not None else ()
        if line.isdigit() and 1 <= int(line) <= len(cards):
            return render_card(page, cards[int(line) - 1])
        if line.isdigit():
            return page(f"Type a number from 1 to {len(cards)}, \"more\" for the rulings found, or a new question.")
        self.choice = None
        if self.found is not None:
            render_results(page, self.found)


def shared_by(found: Found, line: str) -> CardsAnswer | None:
    """The cards a line that is nothing but a name a few cards share names (`rulings card`'s
    answer to it), else None: one card, more, or none is answered by the results found."""
    from kb.read.answers import CardsAnswer
    from kb.errors import Ambiguous, NotFound

    try:
        answer = found.reader.card(line)
    except (Ambiguous, NotFound):
        return None
    return answer if isinstance(answer, CardsAnswer) else None


def render_choice(page: Page, answer: CardsAnswer) -> None:
    """`rulings ask`'s answer to a name a few cards share: each card numbered, with set and type."""
    from kb.errors import quoted
    from kb.search.resolve import describe

    page(f"{quoted(answer.query)} names {len(answer.answers)} cards:")
    for n, one in enumerate(answer.answers, 1):
        page(f"{n}. " + describe([one.faces[0].to_json()] if one.faces else []), " ", "    ")
    page('Type a number to read that card with its rulings, or "more" for the rulings found.')


# -- the deck check -----------------------------------------------------------------------------------------

def render_deck(page: Page, report: DeckReport) -> None:
    """`rulings deck`: the verdict and each finding (its rule quoted), whose deck it is, the names
    not read, then each card with its errata and CRF rulings (and with --mentions the rulings that
    mention it), the cards with nothing to say; or, for a report written as a page, one line saying so."""
    from kb.deck.deck import miss_line, reading_text, whose_text
    from kb.deck.deckrules import counted

    if report.written:
        page.plain(f"Wrote {report.written}: {report.verdict['summary']}; "
                   f"{counted(len(report.cards) + len(report.quiet), 'card')}, "
                   f"{counted(len(report.not_found) + len(report.ambiguous), 'name')} not read.")
        return
    crf = report.crf or {"title": "no CRF", "edition": "-"}
    page(style(f"Deck check of {report.title or report.deck}", bold=True) + f": "
         f"{counted(len(report.cards) + len(report.quiet), 'card')} ({report.copies} copies) on "
         f"{report.lines} lines ({report.format}"
         + (f", {counted(report.skipped['note'], 'line')} of notes and prose skipped" if report.skipped['note'] else "")
         + f") · {crf['title']} edition {crf['edition']} · {report.date}")
    page()
    verdict = report.verdict
    page(style(verdict["summary"], bold=True, fg={True: "green", None: "yellow"}.get(verdict["legal"], "red")))
    page(whose_text(report), "  ")
    quoted_rules: set[str] = set()
    render_findings(page, report, report.findings, quoted_rules)
    for reading in report.readings:
        page(style(reading_text(reading), bold=True), "  ")
        render_findings(page, report, reading["findings"], quoted_rules, "    ")
    for warning in report.warnings:
        page(style(f"note: {warning}", dim=True), "  ", "    ")
    misses = report.not_found + report.ambiguous
    if misses:
        page()
        page(style(f"Not read ({len(misses)}):", bold=True))
        for miss in misses[:50]:
            page(miss_line(miss), "  ", "    ")
        if len(misses) > 50:
            page(f"... and {len(misses) - 50} more (--json lists them all)", "  ")
    for entry in report.cards:
        render_deck_card(page, entry)
    if report.quiet:
        page()
        page(style(f"Nothing to say ({len(report.quiet)}): ", bold=True)
             + ", ".join(f"{q['name']} ×{q['count']}" + "".join(f" ({r})" for r in q["read_as"])
                         for q in report.quiet), "", "  ")
    if report.mentioned and not report.mentions_listed:
        page()
        page(f"Other rulings mention {counted(len(report.mentioned), 'of these cards', 'of these cards')} "
             f"({sum(e['mentions'] for e in report.mentioned)} mentions): --mentions lists them under each card.")


def render_findings(page: Page, report: DeckReport, findings: list[dict[str, Any]], quoted_rules: set[str],
                    indent: str = "  ") -> None:
    """Findings of a deck report, the rule each cites quoted (dim) the first time (quoted_rules: those quoted)."""
    from kb.deck.deck import finding_text

    for finding in findings:
        page(finding_text(finding), indent, indent + "    ")
        rule = report.rules.get(finding["rule"])
        if rule and finding["rule"] not in quoted_rules:
            quoted_rules.add(finding["rule"])
            text = "\n".join(part.strip() for part in rule["text"].split("\n\n"))
            page(style(f"rule {finding['rule']} ({rule['id']}): {text}", dim=True), indent + "    ")


def render_deck_card(page: Page, entry: dict[str, Any]) -> None:
    """A card of a deck report: its count, sections and kind, how its name was read, its errata and
    CRF rulings, and (with --mentions) the rulings that mention it."""
    from kb.deck.deck import kinds_text, sections_text

    page()
    mentioned = f" · mentioned in {entry['mentions']}" if entry["mentions"] else ""
    page(style(f"{entry['name']} ×{entry['count']}", bold=True)
         + f"  {sections_text(entry)} · {kinds_text(entry)}{mentioned}", "", "  ")
    for read_as in entry["read_as"]:
        page(style(f"({read_as})", dim=True), "  ")
    for title, rulings in (("Errata", entry["errata"]), ("CRF rulings", entry["rulings"])):
        if rulings:
            page(style(f"{title} ({len(rulings)})", fg="cyan"), " ")
        for r in rulings:
            page(f"[{head(r['kind'], r['number'])}{marks(r['markers'])}] "
                 + style(f"{r['source_title']} · {r['id']} · {lines_of(r['lines'])}", dim=True), "  ", "      ")
            if warning := incomplete_line(r.get("incomplete")):
                page(warning, "    ", "      ")
            page(json_text(r), "    ")
    if entry.get("mentioned_in"):
        render_json_groups(page, f" Mentioned in {entry['mentions']} other rulings", entry["mentioned_in"])


def deck_misses(report: DeckReport) -> str:
    """What `rulings deck` says on standard error when names were not read: how many, on which lines, what to do."""
    from kb.deck.deckrules import counted

    misses = report.not_found + report.ambiguous
    lines = sorted(n for miss in misses for n in miss["lines"])
    listed = ", ".join(map(str, lines[:8])) + (" ..." if len(lines) > 8 else "")
    nf, am = len(report.not_found), len(report.ambiguous)
    what = [f"{counted(nf, 'name')} match{'es' if nf == 1 else ''} no card"] if nf else []
    what += [f"{counted(am, 'name')} could be several cards"] if am else []
    return (f"Error: {' and '.join(what)} (line{'s' if len(lines) > 1 else ''} {listed}); "
            "fix the names listed (see the suggestions) and check again")


# -- the knowledge base: what it holds, its audit, a build, a site, a scored question file ------------------

def render_stats(page: Page, info: dict[str, Any]) -> None:
    """`rulings stats`: where the knowledge base is and when it was built; per source its edition, lines, rulings."""
    page.plain(style("Knowledge base: ", bold=True)
               + f"{info['kb']} (built {info['built_at'] or 'at an unknown time'})")
    page.plain()
    for s in info["sources"]:
        edition = "current" if s["current"] else "older edition"
        page.plain(style(s["title"], bold=True) + f"  [{s['id']}, {s['game']}]")
        page.plain(f"  edition {s['edition']} ({s['date'] or 'undated'}, {edition}); {s['line_count']} lines; "
                   f"{s['rulings']} rulings")
        page.plain("  " + ", ".join(f"{k} {n}" for k, n in s["rulings_by_kind"].items()))


def render_check(page: Page, report: CheckReport) -> None:
    """`rulings check`: per source the lines stored, skipped and unaccounted; the rulings without a
    sentence's stop, why; those marked incomplete in the source's text, each with why; every repair;
    every problem."""
    echo = page.plain
    echo(f"{'source':<10} {'lines':>6} {'stored':>6} {'skipped':>7} {'unaccounted':>11}")
    for s in report.sources:
        echo(f"{s.source:<10} {s.lines:>6} {s.stored:>6} {s.skipped:>7} {s.unaccounted:>11}")
        for reason, n in sorted(s.skipped_by_reason.items(), key=lambda kv: -kv[1]):
            echo(f"{'':<12}skipped {n:>5}: {reason}")
    unended = report.unended
    echo(f"\nrulings ending without a sentence's stop: {len(unended.rulings)} ("
         + ", ".join(f"{source} {n}" for source, n in unended.by_source.items()) + "); why:")
    why: dict[tuple[str, str], list[int]] = {}
    for u in unended.rulings:
        why.setdefault((u.source, u.reason.split(":")[0]), []).append(u.line)
    for (source, reason), lines in why.items():
        echo(f"  {source} {len(lines)}: {reason} (lines {some(lines)})")
    marked = report.incomplete
    echo(f"\nrulings marked incomplete in the source's text (every reader shows them so): {len(marked.rulings)}"
         + (" (" + ", ".join(f"{source} {n}" for source, n in marked.by_source.items()) + ")" if marked.rulings
            else ""))
    for m in marked.rulings:
        echo(f"  {m.id} (lines {m.lines[0]}-{m.lines[1]}): {m.reason}")
    by_kind: dict[tuple[str, str, str, str], list[int]] = {}
    for r in report.repairs:
        by_kind.setdefault((r.source, r.kind, r.before, r.after), []).append(r.line)
    echo(f"\nrepairs: {len(report.repairs)}")
    for (source, kind, before, after), lines in sorted(by_kind.items()):
        echo(f"  {source} {kind}: {before!r} -> {after!r} x{len(lines)} (lines {some(lines)})")
    echo(f"\nproblems: {len(report.problems)} ({report.warnings} warnings, {report.notes} notes on the "
         "sources' own text)")
    for p in report.problems:
        echo(f"  {p.severity}: {p.path}:{p.line or ''}: {p.message}")


def some(lines: list[int], limit: int = 8) -> str:
    """The first line numbers: "3, 5, 9" or "1, 2, 3, 4, 5, 6, 7, 8 ..."."""
    return ", ".join(map(str, lines[:limit])) + (" ..." if len(lines) > limit else "")


def render_build(page: Page, report: BuildReport, kb_dir: Path) -> None:
    """`rulings build`: where it was written, then per source its rulings, sections, lines and repairs."""
    page.plain(f"Built {kb_dir.absolute()}:")
    page.plain(f"  {'source':<10} {'rulings':>7} {'sections':>8} {'lines':>6} {'repairs':>7}  title")
    for row in report.summary():
        page.plain(
            f"  {row.source:<10} {row.rulings:>7} {row.sections:>8} {row.lines:>6} {row.repairs:>7}  {row.title}")
    total = sum(r.rulings for r in report.summary())
    page.plain(f"  {total} rulings in all. `rulings check` audits every line; `rulings stats` counts by kind.")


def render_site(page: Page, report: SiteReport) -> None:
    """`rulings site`: what was written, how large, the links checked (the broken ones go to standard error)."""
    page.plain(f"Site written to {report.out}: {report.pages} pages, {report.files} files, "
               f"{report.bytes / 1e6:.1f} MB ({report.gzip_bytes / 1e6:.1f} MB gzip) in {report.seconds:.1f} s")
    page.plain(f"  search data {report.index_bytes / 1e6:.2f} MB ({report.index_gzip_bytes / 1e6:.2f} MB gzip); "
               f"{report.links_checked} internal links checked, {len(report.broken)} broken")
    page.plain(f"  open {report.out / 'index.html'}")


def render_eval(page: Page, report: dict[str, Any], name: str) -> None:
    """`rulings eval`: each miss, the scores by kind, then overall."""
    for r in report["misses"]:
        page.plain(f"miss {r['id']} [{r['kind']}] rank {r['rank'] or '-'}: {r['query']}")
    page.plain()
    for kind, m in report["by_kind"].items():
        page.plain(f"  {kind:<12} n={m['cases']:<3} hit@1 {m['hit@1']:.3f}  hit@5 {m['hit@5']:.3f}  "
                   f"MRR@10 {m['mrr@10']:.3f}")
    m = report["overall"]
    page.plain(f"{name}: {m['cases']} cases")
    page.plain(f"hit@1 {m['hit@1']:.3f}  hit@5 {m['hit@5']:.3f}  MRR@10 {m['mrr@10']:.3f}")
    page.plain(f"hits through a ruling shown under a result as the same rule: {m['via_same_rule']}")


def render_version(page: Page, sources: list[Source], version: str) -> None:
    """`rulings --version`: the program's version, then the edition of each bundled source."""
    page.plain(f"rulings, version {version}")  # click's own first line
    page.plain("bundled sources (what `rulings build` reads):")
    wide = max(len(s.edition) for s in sources)  # a manifest has at least one entry
    page.plain(f"  {'source':<10} {'edition':<{wide}} {'date':<10}  title")
    for s in sources:
        page.plain(f"  {s.id:<10} {s.edition:<{wide}} {s.date or 'undated':<10}  {s.title}")
