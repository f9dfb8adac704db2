"""The `rulings` command: a thin click layer that calls one kb function per command and formats it."""

from __future__ import annotations

import errno
import json
import os
import re
import secrets
import shutil
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from kb import KbError, __version__
from kb.inputs import DEFAULT_MAX_SOURCE_MB
from kb.terminal import printable, valid_unicode

if TYPE_CHECKING:
    from kb.check import CheckReport

DEFAULT_SITE = Path("build") / "site"


# -- errors: one line of text, or {"error", "hint"} under --json ----------------------------------------

DEFAULT_HINTS = {
    "KbMissing": "Run `rulings build`, or point --kb or RULINGS_KB at a knowledge base.",
    "KbBroken": "Run `rulings build` to rebuild the knowledge base.",
    "ParseError": "Fix the file at the line named, then run `rulings build` again.",
    "ManifestError": "Fix rulings/sources.toml, then run `rulings build` again.",
}
"""What to do about an error whose message does not carry its own hint (for --json's "hint")."""


def fail(message: str, hint: str = "", *, as_json: bool = False, code: int = 1,
         extra: dict[str, Any] | None = None) -> None:
    """Report an error on standard error and exit: one line of text ("Error: ... Hint."), or under
    --json one object {"error", "hint", ...}."""
    message = " ".join(message.split())
    if as_json:
        click.echo(valid_unicode(json.dumps({"error": message, "hint": hint, **(extra or {})}, ensure_ascii=False)),
                   err=True)
    else:
        say(f"Error: {message}" + (f". {hint}" if hint else ""), err=True)
    raise click.exceptions.Exit(code)


# -- terminal safety: every line for people goes out through say() -----------------------------------

_OURS = f"\x00{secrets.token_hex(8)}\x00"
"""Stands for ESC in the styles style() adds: no data can hold it, so say() restores ours only."""


def style(text: str, **how: Any) -> str:
    """click.style over text made printable, its escape codes marked as ours for say()."""
    return click.style(printable(text), **how).replace("\x1b", _OURS)


def shown(message: str) -> str:
    """Text for people: any control character in it shown visibly (kb.terminal.printable), save the
    styles style() added."""
    return "\x1b".join(printable(part) for part in message.split(_OURS))


def say(message: str = "", err: bool = False) -> None:
    """Every line for people goes out here, made safe by shown()."""
    click.echo(shown(message), err=err)


@contextmanager
def translated(as_json: bool = False) -> Iterator[None]:
    """KbError becomes a one-line error, exit 1 (a refused input, exit 2); under --json, a JSON object."""
    from kb.errors import Ambiguous, Refused

    try:
        yield
    except KbError as exc:
        hint = exc.hint or (DEFAULT_HINTS.get(type(exc).__name__, "") if as_json else "")
        extra = {"candidates": exc.candidates} if isinstance(exc, Ambiguous) else None
        fail(str(exc), hint, as_json=as_json, code=2 if isinstance(exc, Refused) else 1, extra=extra)


JSON_ERRORS = "json_errors"
"""ctx.meta's key: whether the command line asked for --json, so that a usage error is JSON too."""


class Commands(click.Group):
    """The root group: under --json, a usage error (a bad option value, a missing argument, an
    unknown option) is the JSON error object as well, exit 2."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        given = args[:args.index("--")] if "--" in args else args  # after --, words of a query
        ctx.meta[JSON_ERRORS] = "--json" in given
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            if not ctx.meta.get(JSON_ERRORS):
                raise
            path = exc.ctx.command_path if exc.ctx is not None else ctx.command_path
            fail(exc.format_message(), f"Try '{path} --help' for help.", as_json=True, code=exc.exit_code)


def emit_json(data: Any) -> None:
    """JSON for programs: always valid UTF-8 (a lone surrogate becomes U+FFFD)."""
    click.echo(valid_unicode(json.dumps(data, ensure_ascii=False, indent=2)))


# -- output: wrapped to the terminal, coloured only where colour shows, paged when long --------------------

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def colour_allowed() -> bool:
    """Colour is never wanted under NO_COLOR (any value) or TERM=dumb; elsewhere click shows it on a terminal."""
    return not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def terminal_width() -> int | None:
    """The width to wrap to: COLUMNS when set, else the terminal's; None (no wrapping) into a pipe."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return max(40, int(columns))
    if sys.stdout.isatty():
        return max(40, shutil.get_terminal_size().columns)
    return None


def visible(text: str) -> int:
    return len(ANSI.sub("", text))


def wrap(line: str, width: int | None, indent: str = "", hang: str | None = None) -> list[str]:
    """One line of text, indented, broken at spaces to fit width (colour codes take no room);
    continuation lines get hang (default: indent). A line that fits is kept as it is."""
    hang = indent if hang is None else hang
    if width is None or visible(indent + line) <= width:
        return [indent + line]
    out: list[str] = []
    current, empty = indent, True
    for word in line.split():
        if not empty and visible(current) + 1 + visible(word) > width:
            out.append(current)
            current, empty = hang, True
        current += ("" if empty else " ") + word
        empty = False
    out.append(current)
    return out


class Out:
    """A command's text output, gathered, then printed wrapped and, when longer than the screen of a
    terminal, through the pager (PAGER honoured; --no-pager prints straight out)."""

    def __init__(self, pager: bool = True) -> None:
        self.lines: list[str] = []
        self.pager = pager
        self.width = terminal_width()

    def __call__(self, text: str = "", indent: str = "", hang: str | None = None) -> None:
        """Add text: each of its lines wrapped and indented, continuations indented by hang."""
        for line in shown(text).split("\n"):
            self.lines += wrap(line, self.width, indent, hang)

    def flush(self) -> None:
        """Print what was added: through the pager when it is more than a screen on a terminal."""
        if not self.lines:
            return
        text = "\n".join(self.lines)
        self.lines = []
        if self.pager and sys.stdout.isatty() and sys.stdin.isatty() and \
                text.count("\n") + 2 >= shutil.get_terminal_size().lines:
            click.echo_via_pager(text + "\n")
        else:
            click.echo(text)  # already made safe line by line


def pager_option(f: Callable[..., Any]) -> Callable[..., Any]:
    """--no-pager, for every command that can print more than a screen."""
    return click.option("--no-pager", "no_pager", is_flag=True,
                        help="Print straight out, never through the pager (used only on a terminal).")(f)


def kb_location(value: str | None) -> Path:
    """The knowledge base folder from --kb, RULINGS_KB or the user data folder; empty is refused (exit 2)."""
    from kb.location import locate

    with translated():
        return locate(value).path


def show_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    """--version: the program's version, then the edition of each bundled source."""
    if not value or ctx.resilient_parsing:
        return
    from kb.bundle import bundled_editions

    with translated():
        sources = bundled_editions()
    say(f"rulings, version {__version__}")  # click's own first line
    say("bundled sources (what `rulings build` reads):")
    wide = max(len(s.edition) for s in sources)  # a manifest has at least one entry
    say(f"  {'source':<10} {'edition':<{wide}} {'date':<10}  title")
    for s in sources:
        say(f"  {s.id:<10} {s.edition:<{wide}} {s.date or 'undated':<10}  {s.title}")
    ctx.exit()


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=show_version,
              help="Show the version and the edition of each bundled source, then exit.")
@click.option("--kb", "kb_dir", metavar="DIR",
              help="Knowledge base folder. Default: RULINGS_KB if set, else the user data folder "
                   "(~/.local/share/rulings/kb on Linux), which every directory shares.")
@click.pass_context
def cli(ctx: click.Context, kb_dir: str | None) -> None:
    """A rulings knowledge base for the Middle-earth Collectible Card Game."""
    if not colour_allowed():
        ctx.color = False
    ctx.obj = kb_location(kb_dir)


@cli.command()
@click.option("--sources", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder holding sources.toml and the documents. Default: the bundled sources "
                   "(`rulings --version` lists them).")
@click.option("--max-source-mb", type=click.FloatRange(min=0, min_open=True), default=DEFAULT_MAX_SOURCE_MB,
              show_default=True, help="The largest source file to read, in MB.")
@click.pass_obj
def build(kb_dir: Path, sources: Path | None, max_source_mb: float) -> None:
    """Parse every source in the manifest and write the knowledge base.

    The new knowledge base replaces the old one only when complete: a failed build leaves the
    previous one answering. It is written to the user data folder unless --kb or RULINGS_KB says
    otherwise, and every command run from any directory reads it there.
    """
    from kb.bundle import bundled_sources
    from kb.pipeline import build as run_build

    tty = sys.stderr.isatty()

    def progress(source: Any) -> None:
        if tty:
            say(f"  parsing {source.id:<10} {source.path}", err=True)

    with translated():
        report = run_build(sources or bundled_sources(), kb_dir, progress, max_source_mb)
    say(f"Built {kb_dir.absolute()}:")
    say(f"  {'source':<10} {'rulings':>7} {'sections':>8} {'lines':>6} {'repairs':>7}  title")
    for row in report.summary():
        say(f"  {row.source:<10} {row.rulings:>7} {row.sections:>8} {row.lines:>6} {row.repairs:>7}  {row.title}")
    total = sum(r.rulings for r in report.summary())
    say(f"  {total} rulings in all. `rulings check` audits every line; `rulings stats` counts by kind.")


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_obj
def stats(kb_dir: Path, as_json: bool) -> None:
    """Where the knowledge base is and when it was built; per source: title, game, edition, date,
    lines and rulings by kind."""
    from kb.lookup import about

    with translated(as_json):
        info = about(kb_dir)
    if as_json:
        return emit_json(info)
    say(style("Knowledge base: ", bold=True) + f"{info['kb']} (built {info['built_at'] or 'at an unknown time'})")
    say()
    for s in info["sources"]:
        edition = "current" if s["current"] else "older edition"
        say(style(s["title"], bold=True) + f"  [{s['id']}, {s['game']}]")
        say(f"  edition {s['edition']} ({s['date'] or 'undated'}, {edition}); {s['line_count']} lines; "
                   f"{s['rulings']} rulings")
        say("  " + ", ".join(f"{k} {n}" for k, n in s["rulings_by_kind"].items()))


# -- the lookups: every ruling whole -------------------------------------------------------------------

LINK_LABELS = {"card": "cards", "phase": "phases", "term": "terms", "annotation": "cites annotations",
               "rule": "cites rules", "section": "see also", "edition": "in CRF 22", "older_editions": "older editions"}


def _lines(r: dict[str, Any]) -> str:
    start, end = r["lines"]
    return f"line {start}" if start == end else f"lines {start}-{end}"


def _head(r: dict[str, Any]) -> str:
    return r["kind"] + (f" {r['number']}" if r.get("number") else "")


def _marks(r: dict[str, Any]) -> str:
    """The markers a reader is told of beside a ruling's kind: " · new or changed" (the CRF's @)."""
    return " · new or changed" if "new" in r["markers"] else ""


def _text(r: dict[str, Any]) -> str:
    """A ruling's text for the terminal: the source's emphasis bold or italic where colour shows
    (kb.render.markdown_reading of its `markdown`), its words alone otherwise."""
    if not r.get("markdown"):
        return str(r["text"])
    from kb.render import markdown_reading

    return _styled(r["text"], [], markdown_reading(r["markdown"]).emphasis())


def _ruling(out: Out, r: dict[str, Any], indent: str = "  ", where: int = 2, text: str | None = None) -> None:
    """One ruling whole: its kind and number, where it stands, its id and lines, then its text (or
    the text given: its words marked)."""
    path = " > ".join(r["section"][-where:])
    out(f"[{_head(r)}{_marks(r)}] {path}  " + style(f"{r['id']} · {_lines(r)}", dim=True), indent, indent + "    ")
    out(_text(r) if text is None else text, indent + "  ")
    for note in r.get("notes", []):
        out(style(f"note on the source: {note}", dim=True), indent + "  ", indent + "    ")


def _groups(out: Out, title: str, groups: list[dict[str, Any]]) -> None:
    """Rulings by source under a bold title, each source with its edition and count."""
    if not groups:
        return
    out(style(title, bold=True))
    for g in groups:
        out(style(f" {g['source_title']} (edition {g['edition']}): {len(g['rulings'])}", fg="cyan"))
        for r in g["rulings"]:
            _ruling(out, r)


def _looked_up(as_json: bool, function: str, *args: Any) -> Any:
    """Call one kb.lookup function; print its answer's JSON and return None, or return the answer for text output."""
    import kb.lookup

    with translated(as_json):
        result = getattr(kb.lookup, function)(*args)
    if as_json:
        emit_json(result.to_json() if hasattr(result, "to_json") else result)
        return None
    return result


def _read_as(out: Out, result: dict[str, Any]) -> None:
    if result.get("read_as"):
        out(style(f"({result['read_as']})", dim=True))


@cli.command()
@click.argument("ruling_id")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pager_option
@click.pass_obj
def show(kb_dir: Path, ruling_id: str, as_json: bool, no_pager: bool) -> None:
    """Show one ruling whole: text, source, edition, section, number, markers, lines, links."""
    answer = _looked_up(as_json, "show_ruling", kb_dir, ruling_id)
    if answer is None:
        return
    r = answer.to_json()
    out = Out(not no_pager)
    out(style(_head(r) + _marks(r), bold=True) + f"   {r['id']}")
    out(f"{r['source_title']} (edition {r['edition']}{'' if r['current'] else ', older edition'}), {_lines(r)}")
    if r["section"]:
        out(" > ".join(r["section"]))
    if r["markers"]:
        out("markers: " + ", ".join(r["markers"]))
    out(style(f"on the site: {r['url']}", dim=True))
    out()
    if r.get("card"):
        _face(out, r["card"])
    else:
        out(_text(r))
    for note in r.get("notes", []):
        out(style(f"note on the source: {note}", dim=True))
    if r["parent"]:
        out()
        out(style("part of: ", bold=True) + f"{_head(r['parent'])} {r['parent']['id']}")
    if r["links"]:
        out()
    for kind, items in r["links"].items():
        shown = ", ".join(f"{i['target'] or '-'}" + (f" ({i['how']})" if i["how"] and kind in ("card", "edition", "older_editions", "section") else "")
                          for i in items[:30])
        out(style(f"{LINK_LABELS.get(kind, kind)}: ", bold=True) + shown, "", "  ")
    out.flush()


def _face(out: Out, c: dict[str, Any]) -> None:
    """A card's face as a judge reads it: name, set, kind, the numbers, home site and icons, then its text."""
    from kb.cardface import CardFace

    face = CardFace(**c)
    out(style(face.name, bold=True) + f"  {face.set_name} ({face.id})")
    out(face.kind_line(), "  ", "    ")
    if face.stat_line():
        out(face.stat_line(), "  ", "    ")
    for label, value in face.detail_lines():
        out(f"{label}: {value}", "  ", "    ")
    out(face.text, "  ")


@cli.command()
@click.argument("name", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pager_option
@click.pass_obj
def card(kb_dir: Path, name: tuple[str, ...], as_json: bool, no_pager: bool) -> None:
    """A card by name in any language (typos, accents, plurals forgiven): its face (type, race,
    skills, prowess/body, mind, influence, points, home site), its errata and CRF rulings, every mention."""
    answer = _looked_up(as_json, "card", kb_dir, " ".join(name))
    if answer is None:
        return
    result = answer.to_json()
    out = Out(not no_pager)
    _read_as(out, result)
    for c in result["cards"]:
        _face(out, c)
        out()
    if result["also"]:
        from kb.resolve import describe

        out(style("also: ", bold=True) + describe(result["also"]) + f" (`rulings card \"{result['also'][0]['name']}\"`)",
            "", "  ")
        out()
    _groups(out, "Errata", _by_source(answer.said.errata))
    _groups(out, "CRF rulings", _by_source(answer.said.rulings))
    _groups(out, "Mentioned in", result["mentioned_in"])
    out.flush()


@cli.command()
@click.argument("file", metavar="FILE")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON (rulings in the ruling shape).")
@click.option("--mentions", is_flag=True, help="List the rulings that mention each card, not just their number.")
@click.option("--html", "html_out", type=click.Path(dir_okay=False, path_type=Path), metavar="OUT",
              help="Also write the report as one printable HTML page to OUT (a new file, or one this option made).")
@click.option("--format", "form", type=click.Choice(["text", "meccg", "octgn", "json"]),
              help="Read the list in this format (default: told from its content).")
@click.option("--game", type=click.Choice(["short", "long", "campaign", "starter"]), default="short",
              show_default=True, help="The game length, for the sideboard's size (rule 1.6.1).")
@click.option("--alignment", type=click.Choice(["hero", "minion", "fallen-wizard", "balrog"]),
              help="Whose deck it is (default: read from its avatars, its tags, its cards).")
@pager_option
@click.pass_obj
def deck(kb_dir: Path, file: str, as_json: bool, mentions: bool, html_out: Path | None, form: str | None, game: str,
         alignment: str | None, no_pager: bool) -> None:
    """Check a decklist (FILE, or - for standard input) against the CoE deck-construction rules, then
    each card's errata, CRF rulings and mentions. Exit 0 when every name is a card, 3 when some are
    not (they are listed with suggestions)."""
    from kb.deck import check_deck, counted, exit_code, finding_text, miss_line, sections_text

    with translated(as_json):
        report = check_deck(kb_dir, file, mentions=mentions, html_out=html_out, form=form or "", game=game,
                            alignment=alignment or "")
    if as_json:
        emit_json(report)
    elif report["written"]:
        say(f"Wrote {report['written']}: {report['verdict']['summary']}; "
            f"{counted(len(report['cards']) + len(report['quiet']), 'card')}, "
            f"{counted(len(report['not_found']) + len(report['ambiguous']), 'name')} not read.")
    else:
        out = Out(not no_pager)
        crf = report["crf"] or {"title": "no CRF", "edition": "-"}
        out(style(f"Deck check of {report['title'] or report['deck']}", bold=True) + f": "
            f"{counted(len(report['cards']) + len(report['quiet']), 'card')} ({report['copies']} copies) on "
            f"{report['lines']} lines ({report['format']}"
            + (f", {counted(report['skipped']['note'], 'line')} of notes and prose skipped" if report['skipped']['note'] else "")
            + f") · {crf['title']} edition {crf['edition']} · {report['date']}")
        out()
        verdict = report["verdict"]
        out(style(verdict["summary"], bold=True, fg="green" if verdict["legal"] else "red"))
        player = report["alignment"]
        out(f"A {player['name']} deck ({player['how']}), a {report['game']} game." if player["player"]
            else f"Whose deck it is is not known: {player['how']}.", "  ")
        quoted_rules: set[str] = set()
        for finding in report["findings"]:
            out(finding_text(finding), "  ", "      ")
            rule = report["rules"].get(finding["rule"])
            if rule and finding["rule"] not in quoted_rules:
                quoted_rules.add(finding["rule"])
                text = "\n".join(part.strip() for part in rule["text"].split("\n\n"))
                out(style(f"rule {finding['rule']} ({rule['id']}): {text}", dim=True), "      ")
        for warning in report["warnings"]:
            out(style(f"note: {warning}", dim=True), "  ", "    ")
        misses = report["not_found"] + report["ambiguous"]
        if misses:
            out()
            out(style(f"Not read ({len(misses)}):", bold=True))
            for miss in misses[:50]:
                out(miss_line(miss), "  ", "    ")
            if len(misses) > 50:
                out(f"... and {len(misses) - 50} more (--json lists them all)", "  ")
        for entry in report["cards"]:
            out()
            kind = " · " + ", ".join(dict.fromkeys(f"{c['alignment'] or ''} {c['type'] or ''}".strip()
                                                   for c in entry["cards"]))
            mentioned = f" · mentioned in {entry['mentions']}" if entry["mentions"] else ""
            out(style(f"{entry['name']} ×{entry['count']}", bold=True) + f"  {sections_text(entry)}{kind}{mentioned}",
                "", "  ")
            for read_as in entry["read_as"]:
                out(style(f"({read_as})", dim=True), "  ")
            for title, rulings in (("Errata", entry["errata"]), ("CRF rulings", entry["rulings"])):
                if rulings:
                    out(style(f"{title} ({len(rulings)})", fg="cyan"), " ")
                for r in rulings:
                    out(f"[{_head(r)}{_marks(r)}] " + style(f"{r['source_title']} · {r['id']} · {_lines(r)}", dim=True),
                        "  ", "      ")
                    out(_text(r), "    ")
            if entry.get("mentioned_in"):
                _groups(out, f" Mentioned in {entry['mentions']} other rulings", entry["mentioned_in"])
        if report["quiet"]:
            out()
            out(style(f"Nothing to say ({len(report['quiet'])}): ", bold=True)
                + ", ".join(f"{q['name']} ×{q['count']}" for q in report["quiet"]), "", "  ")
        mentioned = [e for e in report["cards"] if e["mentions"]]
        if mentioned and not mentions:
            out()
            out(f"Other rulings mention {counted(len(mentioned), 'of these cards', 'of these cards')} "
                f"({sum(e['mentions'] for e in mentioned)} mentions): --mentions lists them under each card.")
        out.flush()
    if exit_code(report):
        misses = report["not_found"] + report["ambiguous"]
        lines = sorted(n for miss in misses for n in miss["lines"])
        shown = ", ".join(map(str, lines[:8])) + (" ..." if len(lines) > 8 else "")
        if not as_json:
            nf, am = len(report["not_found"]), len(report["ambiguous"])
            what = [f"{counted(nf, 'name')} match{'es' if nf == 1 else ''} no card"] if nf else []
            what += [f"{counted(am, 'name')} could be several cards"] if am else []
            say(f"Error: {' and '.join(what)} (line{'s' if len(lines) > 1 else ''} {shown}); "
                "fix the names listed (see the suggestions) and check again", err=True)
        raise click.exceptions.Exit(exit_code(report))


def _by_source(rulings: Any) -> list[dict[str, Any]]:
    """kb.lookup's rulings grouped by source, in the JSON shape."""
    from kb.lookup import grouped

    return [g.to_json() for g in grouped(rulings)]


@cli.command()
@click.argument("name", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pager_option
@click.pass_obj
def phase(kb_dir: Path, name: tuple[str, ...], as_json: bool, no_pager: bool) -> None:
    """Every ruling of a turn phase, by source in document order ("M/H", "mh", "site", "eot", "org")."""
    answer = _looked_up(as_json, "phase", kb_dir, " ".join(name))
    if answer is not None:
        out = Out(not no_pager)
        _groups(out, answer.name, _by_source(answer.rulings))
        out.flush()


@cli.command()
@click.argument("name", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pager_option
@click.pass_obj
def term(kb_dir: Path, name: tuple[str, ...], as_json: bool, no_pager: bool) -> None:
    """A game term: its definition(s), its "Rulings by Term" section, every ruling that uses it."""
    answer = _looked_up(as_json, "term", kb_dir, " ".join(name))
    if answer is None:
        return
    result = answer.to_json()
    out = Out(not no_pager)
    _read_as(out, result)
    out(style(result["term"], bold=True))
    for r in result["definitions"]:
        _ruling(out, r)
    _groups(out, "Rulings under its heading", _by_source(answer.by_term))
    _groups(out, "Used in", result["used_in"])
    out.flush()


def _numbered(answer: Any, no_pager: bool) -> None:
    result = answer.to_json()
    out = Out(not no_pager)
    for r in result["rulings"]:
        out(style(r["source_title"], fg="cyan") + f" (edition {r['edition']})")
        _ruling(out, r)
    if result["parts"]:
        out(style(f"Parts ({len(result['parts'])})", bold=True))
        for r in result["parts"]:
            _ruling(out, r)
    _groups(out, "Cited by", result["cited_by"])
    out.flush()


@cli.command()
@click.argument("number")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pager_option
@click.pass_obj
def annotation(kb_dir: Path, number: str, as_json: bool, no_pager: bool) -> None:
    """An annotation by number ("18", "25a") in every CRF edition, and every ruling citing it."""
    result = _looked_up(as_json, "numbered", kb_dir, "annotation", number)
    if result is not None:
        _numbered(result, no_pager)


@cli.command()
@click.argument("number")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pager_option
@click.pass_obj
def rule(kb_dir: Path, number: str, as_json: bool, no_pager: bool) -> None:
    """A CoE rule by number ("2.IV.iii", "g.hav.3"), its parts ("2.IV" lists 2.IV.i on), its citations."""
    result = _looked_up(as_json, "numbered", kb_dir, "rule", number)
    if result is not None:
        _numbered(result, no_pager)


@cli.command()
@click.option("--since", metavar="YEAR", help="Only what the sources date from this year on (e.g. 2015).")
@click.option("--source", help="Only the changes a ruling of this source takes part in (see `rulings stats`).")
@click.option("--phase", help='Only the changes of this turn phase ("M/H", "site", "eot", "org" ...).')
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array of rulings (the ruling shape), each with its change.")
@pager_option
@click.pass_obj
def changes(kb_dir: Path, since: str | None, source: str | None, phase: str | None, as_json: bool,
            no_pager: bool) -> None:
    """What changed in the current CRF: its own list of changes, the rulings marked @, card errata,
    rulings reworded since the older edition (word by word), older rulings no longer in it, and the
    rulings by the year of their origin tag; each with what the sources say of it."""
    found = _looked_up(as_json, "changes", kb_dir, since, source, phase)
    if found is not None:
        _print_changes(found, since, no_pager)


def _print_changes(found: Any, since: str | None, no_pager: bool) -> None:
    """Each part of kb.changes.PARTS, its rulings whole, each with why it is a change and the ruling
    on the other side: the one a listed change names, an older wording word by word, the nearest."""
    from kb.changes import PARTS, other_label, parts_of

    out = Out(not no_pager)
    if since:
        out(style(f"Changes the sources date {since.strip()} or later", bold=True))
    if not found:
        out("No change matches.")
    by_part: dict[str, list[dict[str, Any]]] = {}
    for r in found:
        for part in parts_of(r["change"]["kind"], r["change"]["erratum"] is not None):
            by_part.setdefault(part, []).append(r)
    for part, title in PARTS.items():
        if part in by_part:
            out(style(f"{title} ({len(by_part[part])})", bold=True))
        year: object = None
        for r in by_part.get(part, []):
            c = r["change"]
            if part == "tagged" and c["year"] != year:
                year = c["year"]
                out(style(f" {year or 'no year'}", fg="cyan"))
            _ruling(out, r, text=_diff_text(c["diff"]) if c["diff"] else None)
            if c["erratum"] and part == "errata":
                out(f"erratum of {', '.join(c['erratum']['cards']) or 'a card'}: {c['erratum']['evidence']}"
                    + (" (the build's reading)" if c["erratum"]["guess"] else ""), "    ", "      ")
            out(style("why: ", bold=True) + c["evidence"], "    ", "      ")
            other = c["other"]
            if other and c["diff"]:
                out(f"older wording: {other['source_title']} · {other['id']} · {_lines(other)} (its words "
                    + _diff_text([{"op": "removed", "text": "removed"}]) + ", "
                    + _diff_text([{"op": "added", "text": "added"}]) + ")", "    ", "      ")
            elif other:
                alike = f" ({c['likeness']:.2f} alike)" if c["guess"] and c["likeness"] is not None else ""
                out(f"{other_label(c['kind'], c['verdict'])}{alike}: [{_head(other)}] {' > '.join(other['section'][-2:])}  "
                    + style(f"{other['id']} · {_lines(other)}", dim=True), "    ", "      ")
                if c["kind"] == "absent":
                    out(other["text"], "      ")
        if part in by_part:
            out()
    out.flush()


def _diff_text(diff: list[dict[str, str]]) -> str:
    """A word diff as text: removed words [-struck-], added ones {+added+} (and red and green where colour shows)."""
    from kb.wording import Piece, shown

    marks = {"removed": ("[-", "-]", "red"), "added": ("{+", "+}", "green")}
    text = []
    for op, words, gap in shown([Piece(p["op"], p["text"]) for p in diff]):
        if op == "same":
            text.append(words + gap)
        else:
            start, end, colour = marks[op]
            text.append(style(f"{start}{words}{end}", fg=colour) + gap)
    return "".join(text)


@cli.command()
@click.pass_obj
def export(kb_dir: Path) -> None:
    """Every ruling as JSON Lines on standard output, in the ruling shape (a card's with its face)."""
    from kb.lookup import export as run_export

    with translated():
        for row in run_export(kb_dir):
            click.echo(valid_unicode(json.dumps(row, ensure_ascii=False)))


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--strict", is_flag=True, help="Exit 1 on any warning.")
@click.pass_obj
def check(kb_dir: Path, as_json: bool, strict: bool) -> None:
    """Audit the knowledge base: every source line stored or skipped with a reason; repairs; problems."""
    from kb.check import check as run_check

    with translated(as_json):
        report = run_check(kb_dir)
    if as_json:
        emit_json(report.to_json())
    else:
        _print_check(report, say)
    if strict and report.warnings:
        fail(f"{report.warnings} warning(s) (--strict)", "Fix what the warnings name, or run without --strict.",
             as_json=as_json)


def _print_check(report: CheckReport, echo: Callable[[str], None]) -> None:
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
        shown = ", ".join(map(str, lines[:8])) + (" ..." if len(lines) > 8 else "")
        echo(f"  {source} {len(lines)}: {reason} (lines {shown})")
    by_kind: dict[tuple[str, str, str, str], list[int]] = {}
    for r in report.repairs:
        by_kind.setdefault((r.source, r.kind, r.before, r.after), []).append(r.line)
    echo(f"\nrepairs: {len(report.repairs)}")
    for (source, kind, before, after), lines in sorted(by_kind.items()):
        shown = ", ".join(map(str, lines[:8])) + (" ..." if len(lines) > 8 else "")
        echo(f"  {source} {kind}: {before!r} -> {after!r} x{len(lines)} (lines {shown})")
    echo(f"\nproblems: {len(report.problems)} ({report.warnings} warnings, {report.notes} notes on the "
         "sources' own text)")
    for p in report.problems:
        echo(f"  {p.severity}: {p.path}:{p.line or ''}: {p.message}")


GAMES = click.Choice(["meccg", "lotr-tcg"])


def _styled(text: str, spans: list[tuple[int, int]], emphasis: list[tuple[int, int, bool, bool]] = ()) -> str:  # type: ignore[assignment]
    """Text with the matched spans in bold yellow and the source's emphasis (start, end, strong,
    em) in bold or italics."""
    if not spans and not emphasis:
        return text
    marks = [[False, False, False] for _ in text]  # matched, strong, em
    for start, end in spans:
        for i in range(max(start, 0), min(end, len(text))):
            marks[i][0] = True
    for start, end, strong, em in emphasis:
        for i in range(max(start, 0), min(end, len(text))):
            marks[i][1] |= strong
            marks[i][2] |= em
    out, at = [], 0
    for i in range(1, len(text) + 1):
        if i == len(text) or marks[i] != marks[at]:
            matched, strong, em = marks[at]
            part = text[at:i]
            if matched or strong or em:
                part = style(part, bold=True if matched or strong else None, italic=True if em else None,
                             fg="yellow" if matched else None)
            out.append(part)
            at = i
    return "".join(out)


def _result(out: Out, n: int, r: Any, found: Any, full: bool = False, explain: bool = False) -> None:
    """A numbered result: source, edition and lines; where it stands; a focused excerpt with the
    matched words marked (the whole text when full), as a reader reads it (kb.render.reading); its id."""
    from kb.excerpt import cut, window
    from kb.search import highlight_spans

    d = r.data
    out(style(f"{n:>2}. ", bold=True) + style(d["source_title"], fg="cyan")
        + f" (edition {d['edition']}{'' if d['current'] else ', older edition'}) · {_lines(d)}", "", "    ")
    where = " > ".join(d["section"][-3:])
    out(f"{where}  [{_head(d)}]" + (f"  {' '.join(d['markers'])}" if d["markers"] else ""), "    ", "      ")
    reading = found.reading(r)
    text = reading.text
    spans = highlight_spans(text, found.understanding, found.spec)
    text, (spans, emphasis) = cut(text, (0, len(text)) if full else window(text, spans), spans, reading.emphasis())
    out(_styled(text, spans, emphasis), "    ")
    also = f"  (also in {', '.join(r.also_in)})" if r.also_in else ""
    out(style(f"id {d['id']}", dim=True) + also, "    ", "      ")
    if explain:
        parts = ", ".join(f"{name} {value:+g}" for name, value in r.why.items())
        out(style(f"score {r.score:.2f} = exp({parts})", dim=True), "    ", "      ")
        out(style("matched: " + (", ".join(r.matched) or "(by reference or name only)"), dim=True), "    ", "      ")


def _results(out: Out, found: Any, first: int = 1, full: bool = False, explain: bool = False) -> None:
    if not found.results:
        out("No ruling matches. Try fewer words, a card name, or `rulings search --explain`.")
    for n, r in enumerate(found.results[first - 1:], first):
        _result(out, n, r, found, full, explain)


@cli.command()
@click.argument("query", nargs=-1, required=True)
@click.option("--limit", default=10, show_default=True, type=click.IntRange(1, 200), help="How many results.")
@click.option("--full", is_flag=True, help="Print each result whole, not an excerpt around the matched words.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array of hits.")
@click.option("--explain", is_flag=True, help="Show how the query was understood.")
@click.option("--game", type=GAMES, help="Only this game (default: MECCG unless the query names another).")
@click.option("--source", help="Only this source id (see `rulings stats`).")
@click.option("--raw", is_flag=True, help="Treat the query as whoosh query syntax (AND, OR, \"phrases\", field:term).")
@pager_option
@click.pass_obj
def search(kb_dir: Path, query: tuple[str, ...], limit: int, full: bool, as_json: bool, explain: bool,
           game: str | None, source: str | None, raw: bool, no_pager: bool) -> None:
    """Find the rulings that answer a question, a card name, a term, "annotation 18" or "rule 2.IV.iii"."""
    from kb.lookup import search as run_search

    with translated(as_json):
        found = run_search(kb_dir, " ".join(query), limit=limit, game=game, source=source, raw=raw)
        if as_json:
            return emit_json(found.to_json(explain))
    out = Out(not no_pager)
    if explain:
        _print_understanding(out, found.understanding)
    _results(out, found, full=full, explain=explain)
    out.flush()


def _print_understanding(out: Out, u: Any) -> None:
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
            out(style(f"{label}: ", bold=True) + ", ".join(values), "", "  ")
    out()


ASK_HELP = """Type a question, a card name, "annotation 18" or "rule 2.IV.iii"; then:
  1, 2, ...   read that result whole
  more        the next results
  help, ?     this help
  q           leave (Ctrl-D and Ctrl-C leave too)
Arrow keys edit the line and recall earlier questions."""


@cli.command()
@click.option("--limit", default=5, show_default=True, type=click.IntRange(1, 50), help="Results per question.")
@click.pass_obj
def ask(kb_dir: Path, limit: int) -> None:
    """Ask questions at the table: numbered results with source and lines; a number reads one whole,
    "more" shows the next, "help" or "?" says so, "q", Ctrl-D or Ctrl-C leaves."""
    from kb.errors import KbBroken, KbMissing
    from kb.lookup import search as run_search
    from kb.search import open_searcher
    from kb.snapshot import Snapshot

    try:
        import readline  # noqa: F401  (line editing and history for input())
    except ImportError:
        pass
    if sys.stdin is None:
        fail("standard input is closed: there is nothing to ask", "Run `rulings ask` at a terminal, or pipe "
             "questions into it.", code=2)
    with translated():
        kb = Snapshot.open(kb_dir)  # every question answered from this one build
        open_searcher(kb)
    tty = sys.stdin.isatty()
    if tty:
        say('Ask a rules question. "help" or "?" for help, "q" to leave.')
    out = Out(pager=False)
    question, found = "", None
    try:
        while True:
            try:
                line = input("rulings> " if tty else "").strip()
            except EOFError:
                say()
                return
            except OSError as exc:  # standard input opened for writing only, say
                fail(f"standard input cannot be read ({exc.strerror or exc.__class__.__name__})", code=2)
            word = line.lower()
            if word in ("q", "quit", "exit"):
                return
            if not line:
                continue
            if word in ("help", "?", "h"):
                say(ASK_HELP)
                continue
            if (line.isdigit() or word == "more") and found is None:
                say("Ask a question first; a number then reads that result whole.")
                continue
            if line.isdigit():
                n = int(line)
                if 1 <= n <= len(found.results):
                    _result(out, n, found.results[n - 1], found, full=True)
                else:
                    out(f"Type a number from 1 to {len(found.results)}, \"more\", or a new question.")
                out.flush()
                continue
            try:
                if word == "more":
                    shown = len(found.results)
                    found = run_search(kb, question, limit=shown + limit)
                    if len(found.results) == shown:
                        out("No more results.")
                    _results(out, found, first=shown + 1)
                else:
                    question = line
                    found = run_search(kb, line, limit=limit)
                    _results(out, found)
            except (KbMissing, KbBroken) as exc:
                fail(str(exc))
            except KbError as exc:
                out(f"Error: {exc}" + (f". {exc.hint}" if exc.hint else ""))
            out.flush()
    except KeyboardInterrupt:
        say()


@cli.command("eval")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_obj
def eval_command(kb_dir: Path, file: Path, as_json: bool) -> None:
    """Score a question file (JSON Lines: query, gold, kind): hit@1, hit@5, MRR@10, per kind, misses."""
    from kb.evaluation import evaluate

    with translated(as_json):
        report = evaluate(kb_dir, file)
    if as_json:
        return emit_json(report)
    for r in report["misses"]:
        say(f"miss {r['id']} [{r['kind']}] rank {r['rank'] or '-'}: {r['query']}")
    say()
    for kind, m in report["by_kind"].items():
        say(f"  {kind:<12} n={m['cases']:<3} hit@1 {m['hit@1']:.3f}  hit@5 {m['hit@5']:.3f}  MRR@10 {m['mrr@10']:.3f}")
    m = report["overall"]
    say(f"{file.name}: {m['cases']} cases")
    say(f"hit@1 {m['hit@1']:.3f}  hit@5 {m['hit@5']:.3f}  MRR@10 {m['mrr@10']:.3f}")


@cli.command()
@click.option("--out", type=click.Path(file_okay=False), default=str(DEFAULT_SITE), show_default=True,
              callback=lambda ctx, param, value: folder(value, "--out", DEFAULT_SITE),
              help="Folder to write the site into (replaced whole once the new site is complete; only a folder "
                   "`rulings site` made, or an empty one).")
@click.option("--strict", is_flag=True, help="Exit 1 on any broken internal link or anchor.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_obj
def site(kb_dir: Path, out: Path, strict: bool, as_json: bool) -> None:
    """Generate the static site: every document, ruling, card, term, phase, annotation and rule,
    cross-linked, with a search that works offline (open OUT/index.html)."""
    from dataclasses import asdict

    from kb.website import build_site

    with translated(as_json):
        report = build_site(kb_dir, out, strict=strict)
    if as_json:
        return emit_json({**asdict(report), "out": str(report.out)})
    say(f"Site written to {report.out}: {report.pages} pages, {report.files} files, "
               f"{report.bytes / 1e6:.1f} MB ({report.gzip_bytes / 1e6:.1f} MB gzip) in {report.seconds:.1f} s")
    say(f"  search data {report.index_bytes / 1e6:.2f} MB ({report.index_gzip_bytes / 1e6:.2f} MB gzip); "
               f"{report.links_checked} internal links checked, {len(report.broken)} broken")
    for line in report.broken[:20]:
        say(f"  broken: {line}", err=True)
    say(f"  open {report.out / 'index.html'}")


@cli.command(context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False,
                               "help_option_names": ["--help"]})
@click.argument("datasette_options", nargs=-1, type=click.UNPROCESSED)
@click.pass_obj
def serve(kb_dir: Path, datasette_options: tuple[str, ...]) -> None:
    """Run Datasette over the knowledge base: browse, facet and full-text search every table, with a
    JSON API. Needs the serve extra: pip install 'rulings[serve]'.

    Read-only (Datasette's --immutable), with the metadata the build wrote: titles, descriptions,
    each document's origin and licence. DATASETTE_OPTIONS go to `datasette serve` as they are: -p PORT,
    -h/--host HOST, --get PATH (answer one request on standard output, no server; exit 1 unless
    200 OK), --setting NAME VALUE; `rulings serve -- --help` lists them all.
    """
    from kb.server import serve as run_datasette

    with translated():
        code = run_datasette(kb_dir, datasette_options)
    if code:
        raise click.exceptions.Exit(code)


def folder(value: str, option: str, example: Path) -> Path:
    """A folder option's value; an empty one is refused (exit 2), as it would mean the current directory."""
    if not value.strip():
        fail(f"{option} is empty; give a folder, e.g. {option} {example}", code=2)
    return Path(value)


def unwritable(exc: OSError) -> None:
    """Standard output cannot be written (a full disk): one line on standard error (the JSON error
    object under --json), exit 1; a closed pipe (`rulings export | head -1`) quietly, exit 1, as
    click does when it sees one first. What is left of the output then goes nowhere, so that
    Python's last flush at exit does not fail again."""
    from kb.errors import trouble

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    if exc.errno == errno.EPIPE:
        sys.exit(1)
    problem, advice = trouble(exc, "the folder it goes to", "run the command again")
    try:
        fail(f"cannot write the output to standard output: {problem}", advice[0].upper() + advice[1:] + ".",
             as_json="--json" in sys.argv[1:])
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)


def main() -> None:
    """Entry point: any unexpected error is one line (RULINGS_DEBUG=1 shows the traceback), and so is
    output that cannot be written (see unwritable)."""
    try:
        try:
            cli(standalone_mode=True)
        finally:
            if sys.stdout is not None:
                sys.stdout.flush()  # now, so that a full disk is reported here rather than ignored at exit
    except OSError as exc:
        unwritable(exc)
    except Exception as exc:  # a bug, not bad input: say so in one line
        if os.environ.get("RULINGS_DEBUG"):
            raise
        say(f"Error: internal error ({exc.__class__.__name__}: {exc}); "
            "run again with RULINGS_DEBUG=1 and report the traceback", err=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
