"""The `rulings` command: a thin click layer that calls one kb function per command and formats it."""

from __future__ import annotations

import errno
import functools
import io
import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from kb import KbError, __version__
from kb.inputs import DEFAULT_MAX_SOURCE_MB
from kb.memory import collector_paused, left_to_exit
from kb.terminal import Page, colour_allowed, screen_lines, shown, terminal_width, valid_unicode

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


# -- output: every line for people through say() or a rendered page (kb.terminal), JSON through emit_json() ----

def say(message: str = "", err: bool = False) -> None:
    """One line for people, made safe (kb.terminal.shown)."""
    click.echo(shown(message), err=err)


def echo_page(page: Page, pager: bool = False) -> None:
    """Print a rendered page (its lines already made safe): through the pager (PAGER honoured) when
    asked and it is more than a screen of a terminal."""
    if not page.lines:
        return
    text = page.text()
    if pager and sys.stdout.isatty() and sys.stdin.isatty() and \
            text.count("\n") + 2 >= screen_lines():
        click.echo_via_pager(text + "\n")
    else:
        click.echo(text)


def emit_json(data: Any) -> None:
    """JSON for programs: always valid UTF-8 (a lone surrogate becomes U+FFFD)."""
    click.echo(valid_unicode(json.dumps(data, ensure_ascii=False, indent=2)))


def output(answer: Any, render: Callable[..., None], as_json: bool = False, pager: bool = False, **how: Any) -> None:
    """The one output path: under --json the answer's JSON (its to_json(), or the answer itself),
    else the answer rendered for people (kb.terminal), wrapped to the terminal, paged when asked."""
    if as_json:
        return emit_json(answer.to_json() if hasattr(answer, "to_json") else answer)
    page = Page(terminal_width())
    render(page, answer, **how)
    echo_page(page, pager)


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


def brief(f: Callable[..., Any]) -> Callable[..., Any]:
    """A read command, which answers and ends: it runs with the cyclic garbage collector paused
    (kb.memory), the lookups and searches making many objects and no cycles."""
    @functools.wraps(f)
    def run(*args: Any, **kwargs: Any) -> Any:
        with collector_paused():
            return f(*args, **kwargs)
    return run


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
    from kb.builder.bundle import bundled_editions
    from kb.terminal import render_version

    with translated():
        sources = bundled_editions()
    output(sources, render_version, version=__version__)
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
    from kb.builder.bundle import bundled_sources
    from kb.builder.pipeline import build as run_build
    from kb.terminal import render_build

    tty = sys.stderr.isatty()

    def progress(source: Any) -> None:
        if tty:
            say(f"  parsing {source.id:<10} {source.path}", err=True)

    with translated():
        report = run_build(sources or bundled_sources(), kb_dir, progress, max_source_mb)
    output(report, render_build, kb_dir=kb_dir)


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_obj
@brief
def stats(kb_dir: Path, as_json: bool) -> None:
    """Where the knowledge base is and when it was built; per source: title, game, edition, date,
    lines and rulings by kind."""
    from kb.read.lookup import about
    from kb.terminal import render_stats

    with translated(as_json):
        output(about(kb_dir), render_stats, as_json)


# -- the lookups: every ruling whole -------------------------------------------------------------------

@cli.command()
@click.argument("ruling_id")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pager_option
@click.pass_obj
@brief
def show(kb_dir: Path, ruling_id: str, as_json: bool, no_pager: bool) -> None:
    """Show one ruling whole: text, source, edition, section, number, markers, lines, links."""
    from kb.read.lookup import show_ruling
    from kb.terminal import render_ruling_answer

    with translated(as_json):
        output(show_ruling(kb_dir, ruling_id), render_ruling_answer, as_json, not no_pager)


@cli.command()
@click.argument("name", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pager_option
@click.pass_obj
@brief
def card(kb_dir: Path, name: tuple[str, ...], as_json: bool, no_pager: bool) -> None:
    """A card by name in any language (typos, accents, plurals forgiven): its face (type, race,
    skills, prowess/body, mind, influence, points, home site), its errata and CRF rulings, every mention."""
    from kb.read.lookup import card as look_up
    from kb.terminal import render_card

    with translated(as_json):
        output(look_up(kb_dir, " ".join(name)), render_card, as_json, not no_pager)


@cli.command()
@click.argument("file", metavar="FILE")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON (rulings in the ruling shape).")
@click.option("--mentions", is_flag=True, help="List the rulings that mention each card, not just their number.")
@click.option("--html", "html_out", type=click.Path(dir_okay=False, path_type=Path), metavar="OUT",
              help="Also write the report as one printable HTML page to OUT (a new file, or one this option made).")
@click.option("--format", "form", type=click.Choice(["text", "meccg", "netmeccg", "octgn", "json"]),
              help="Read the list in this format (default: told from its content).")
@click.option("--game", type=click.Choice(["short", "long", "campaign", "starter"]), default="short",
              show_default=True, help="The game length, for the sideboard's size (rule 1.6.1).")
@click.option("--alignment", type=click.Choice(["hero", "minion", "fallen-wizard", "balrog"]),
              help="Whose deck it is (default: read from its avatars, its tags, its cards).")
@pager_option
@click.pass_obj
@brief
def deck(kb_dir: Path, file: str, as_json: bool, mentions: bool, html_out: Path | None, form: str | None, game: str,
         alignment: str | None, no_pager: bool) -> None:
    """Check a decklist (FILE, or - for standard input) against the CoE deck-construction rules, then
    each card's errata, CRF rulings and mentions. Exit 0 when every name is a card, 3 when some are
    not (they are listed with suggestions)."""
    from kb.deck.deck import check_deck, exit_code
    from kb.terminal import deck_misses, render_deck

    with translated(as_json):
        report = check_deck(kb_dir, file, mentions=mentions, html_out=html_out, form=form or "", game=game,
                            alignment=alignment or "")
        output(report, render_deck, as_json, not no_pager)
    if exit_code(report):
        if not as_json:
            say(deck_misses(report), err=True)
        raise click.exceptions.Exit(exit_code(report))


@cli.command()
@click.argument("name", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pager_option
@click.pass_obj
@brief
def phase(kb_dir: Path, name: tuple[str, ...], as_json: bool, no_pager: bool) -> None:
    """Every ruling of a turn phase, those under its headings first ("M/H", "mh", "site", "eot", "org")."""
    from kb.read.lookup import phase as look_up
    from kb.terminal import render_phase

    with translated(as_json):
        output(look_up(kb_dir, " ".join(name)), render_phase, as_json, not no_pager)


@cli.command()
@click.argument("name", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pager_option
@click.pass_obj
@brief
def term(kb_dir: Path, name: tuple[str, ...], as_json: bool, no_pager: bool) -> None:
    """A game term: its definition(s), its "Rulings by Term" section, every ruling that uses it."""
    from kb.read.lookup import term as look_up
    from kb.terminal import render_term

    with translated(as_json):
        output(look_up(kb_dir, " ".join(name)), render_term, as_json, not no_pager)


@cli.command()
@click.argument("number")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pager_option
@click.pass_obj
@brief
def annotation(kb_dir: Path, number: str, as_json: bool, no_pager: bool) -> None:
    """An annotation by number ("18", "25a") in every CRF edition, and every ruling citing it."""
    from kb.read.lookup import numbered
    from kb.terminal import render_numbered

    with translated(as_json):
        output(numbered(kb_dir, "annotation", number), render_numbered, as_json, not no_pager)


@cli.command()
@click.argument("number")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pager_option
@click.pass_obj
@brief
def rule(kb_dir: Path, number: str, as_json: bool, no_pager: bool) -> None:
    """A CoE rule by number ("2.IV.iii", "g.hav.3"), its parts ("2.IV" lists 2.IV.i on), its citations."""
    from kb.read.lookup import numbered
    from kb.terminal import render_numbered

    with translated(as_json):
        output(numbered(kb_dir, "rule", number), render_numbered, as_json, not no_pager)


@cli.command()
@click.option("--since", metavar="YEAR", help="Only what the sources date from this year on (e.g. 2015).")
@click.option("--source", help="Only the changes a ruling of this source takes part in (see `rulings stats`).")
@click.option("--phase", help='Only the changes of this turn phase ("M/H", "site", "eot", "org" ...).')
@click.option("--all", "whole", is_flag=True, help="Print the earlier changes whole too, not folded into a count.")
@click.option("--json", "as_json", is_flag=True,
              help="Print a JSON array of rulings (the ruling shape), each with its change.")
@pager_option
@click.pass_obj
@brief
def changes(kb_dir: Path, since: str | None, source: str | None, phase: str | None, whole: bool, as_json: bool,
            no_pager: bool) -> None:
    """What is new in the current CRF, then what changed before it.

    First, whole: what CRF 22 itself calls new, the rulings it marks @ ("new or changed since the last
    version") and lists under "Changes from CRF 21", one entry per ruling (its @, its place in the list,
    the card it is an erratum of). An origin tag's year ([CoE 2025]) is when a ruling was made, not
    when it entered the CRF: a ruling without @ was already in the last CRF.

    Then the earlier changes, folded into a line each (a count, the years, the verdicts); --all prints
    them whole, as do --since, --source and --phase for what they choose: card errata of earlier CRFs
    and the other rulings added since ICE's last CRF, by origin tag; rulings worded otherwise than in
    the ICE-era CRF, word by word; ICE-era rulings no longer in it in their words (replaced, reversed,
    moved or dropped, with the ruling in their place). Each says what the sources say of it, and how
    sure it is: checked by hand, or this tool's reading ("possibly ..., unsure")."""
    from kb.read.lookup import changes as look_up
    from kb.terminal import render_changes

    with translated(as_json):
        output(look_up(kb_dir, since, source, phase), render_changes, as_json, not no_pager, since=since, whole=whole)


@cli.command()
@click.pass_obj
def export(kb_dir: Path) -> None:
    """Every ruling as JSON Lines on standard output, in the ruling shape (a card's with its face)."""
    from kb.read.lookup import export as run_export

    with translated():
        for row in run_export(kb_dir):
            click.echo(valid_unicode(json.dumps(row, ensure_ascii=False)))


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--strict", is_flag=True, help="Exit 1 on any warning.")
@pager_option
@click.pass_obj
def check(kb_dir: Path, as_json: bool, strict: bool, no_pager: bool) -> None:
    """Audit the knowledge base: every source line stored or skipped with a reason; the rulings marked
    incomplete in the source's text; repairs; problems."""
    from kb.builder.check import check as run_check
    from kb.terminal import render_check

    with translated(as_json):
        report = run_check(kb_dir)
    output(report, render_check, as_json, not no_pager)
    if strict and report.warnings:
        fail(f"{report.warnings} warning(s) (--strict)", "Fix what the warnings name, or run without --strict.",
             as_json=as_json)


GAMES = click.Choice(["meccg", "lotr-tcg"])


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
@brief
def search(kb_dir: Path, query: tuple[str, ...], limit: int, full: bool, as_json: bool, explain: bool,
           game: str | None, source: str | None, raw: bool, no_pager: bool) -> None:
    """Find the rulings that answer a question, a card name, a term, "annotation 18" or "rule 2.IV.iii"."""
    from kb.read.lookup import search as run_search
    from kb.terminal import render_search

    with translated(as_json):
        found = run_search(kb_dir, " ".join(query), limit=limit, game=game, source=source, raw=raw)
        if as_json:
            return emit_json(found.to_json(explain))
        output(found, render_search, pager=not no_pager, full=full, explain=explain)


@cli.command()
@click.option("--limit", default=5, show_default=True, type=click.IntRange(1, 50), help="Results per question.")
@click.pass_obj
def ask(kb_dir: Path, limit: int) -> None:
    """Ask questions at the table: numbered results with source and lines; a number reads one whole,
    "more" shows the next, "help" or "?" says so, "q", Ctrl-D or Ctrl-C leaves."""
    from kb.errors import KbBroken, KbMissing
    from kb.search.search import open_searcher
    from kb.store.snapshot import Snapshot
    from kb.terminal import Desk

    try:
        import readline  # noqa: F401  (line editing and history for input())
    except ImportError:
        pass
    if sys.stdin is None:
        fail("standard input is closed: there is nothing to ask", "Run `rulings ask` at a terminal, or pipe "
             "questions into it.", code=2)
    with translated():
        desk = Desk(Snapshot.open(kb_dir), limit)  # every question answered from this one build
        open_searcher(desk.kb)
    tty = sys.stdin.isatty()
    if tty:
        say('Ask a rules question. "help" or "?" for help, "q" to leave.')
    try:
        while True:
            try:
                line = input("rulings> " if tty else "").strip()
            except EOFError:
                return say()
            except OSError as exc:  # standard input opened for writing only, say
                fail(f"standard input cannot be read ({exc.strerror or exc.__class__.__name__})", code=2)
            page = Page(terminal_width())
            try:
                going = desk.reply(line, page)
            except (KbMissing, KbBroken) as exc:
                fail(str(exc))
            echo_page(page)
            if not going:
                return
    except KeyboardInterrupt:
        say()


@cli.command("eval")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_obj
def eval_command(kb_dir: Path, file: Path, as_json: bool) -> None:
    """Score a question file (JSON Lines: query, gold, kind): hit@1, hit@5, MRR@10, per kind, misses."""
    from kb.search.evaluation import evaluate
    from kb.terminal import render_eval

    with translated(as_json):
        output(evaluate(kb_dir, file), render_eval, as_json, name=file.name)


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
    from kb.terminal import render_site
    from kb.site.website import build_site

    with translated(as_json):
        report = build_site(kb_dir, out, strict=strict)
    output(report, render_site, as_json)
    for line in [] if as_json else report.broken[:20]:
        say(f"  broken: {line}", err=True)


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


class ClosedOutput(io.TextIOBase):
    """Standard output when the command was started with it closed (`rulings show ID >&-`): writing
    to it fails as writing to a closed descriptor does (EBADF), so the first output is reported
    (unwritable) rather than lost."""

    encoding, errors = "utf-8", "strict"

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if text:
            raise OSError(errno.EBADF, os.strerror(errno.EBADF))
        return 0


def closed_output() -> None:
    """When standard output is closed, its descriptor is taken by /dev/null (so that no file opened
    later becomes standard output) and sys.stdout is a ClosedOutput."""
    if sys.stdout is not None:
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    if devnull != 1:
        os.dup2(devnull, 1)
        os.close(devnull)
    sys.stdout = ClosedOutput()


def unwritable(exc: OSError) -> None:
    """Standard output cannot be written (a full disk; closed, or open for reading only): one line
    on standard error (the JSON error object under --json), exit 1; a closed pipe (`rulings export |
    head -1`) quietly, exit 1, as click does when it sees one first. What is left of the output then
    goes nowhere, so that Python's last flush at exit does not fail again."""
    from kb.errors import trouble

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    if exc.errno == errno.EPIPE:
        sys.exit(1)
    problem, advice = trouble(exc, "the folder it goes to", "run the command again")
    if exc.errno == errno.EBADF:
        problem, advice = "it is closed (or open for reading only)", "give the command a standard output (a " \
                                                                       "terminal, a file or a pipe)"
    try:
        fail(f"cannot write the output to standard output: {problem}", advice[0].upper() + advice[1:] + ".",
             as_json="--json" in sys.argv[1:])
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)


def main() -> None:
    """Entry point: any unexpected error is one line (RULINGS_DEBUG=1 shows the traceback), and so is
    output that cannot be written, standard output closed too (see closed_output, unwritable)."""
    closed_output()
    try:
        try:
            cli(standalone_mode=True)
        finally:
            left_to_exit()
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
