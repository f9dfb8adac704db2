"""The `rulings` command: a thin click layer that calls one kb function per command and formats it."""

from __future__ import annotations

import json
import os
import secrets
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from kb import KbError, __version__
from kb.inputs import DEFAULT_MAX_SOURCE_MB
from kb.terminal import printable, valid_unicode

DEFAULT_KB = Path("build") / "kb"
DEFAULT_SOURCES = Path("rulings")
DEFAULT_SITE = Path("build") / "site"


@contextmanager
def translated() -> Iterator[None]:
    """KbError becomes a one-line click error (exit 1), its text made printable."""
    try:
        yield
    except KbError as exc:
        raise click.ClickException(printable(" ".join(str(exc).split("\n")))) from exc


_OURS = f"\x00{secrets.token_hex(8)}\x00"
"""Stands for ESC in the styles style() adds: no data can hold it, so say() restores ours only."""


def style(text: str, **how: Any) -> str:
    """click.style over text made printable, its escape codes marked as ours for say()."""
    return click.style(printable(text), **how).replace("\x1b", _OURS)


def say(message: str = "", err: bool = False) -> None:
    """Every line for people goes out here: any control character in it is shown visibly
    (kb.terminal.printable), save the styles style() added."""
    click.echo("\x1b".join(printable(part) for part in message.split(_OURS)), err=err)


def emit_json(data: Any) -> None:
    """JSON for programs: always valid UTF-8 (a lone surrogate becomes U+FFFD)."""
    click.echo(valid_unicode(json.dumps(data, ensure_ascii=False, indent=2)))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rulings")
@click.option("--kb", "kb_dir", type=click.Path(file_okay=False), envvar="RULINGS_KB",
              default=str(DEFAULT_KB), show_default=True, callback=lambda ctx, param, value: folder(value, "--kb", DEFAULT_KB),
              help="Knowledge base directory (or set RULINGS_KB).")
@click.pass_context
def cli(ctx: click.Context, kb_dir: Path) -> None:
    """A rulings knowledge base for the Middle-earth Collectible Card Game."""
    if os.environ.get("NO_COLOR"):
        ctx.color = False
    if os.environ.get("RULINGS_KB") == "" and ctx.get_parameter_source("kb_dir") != click.core.ParameterSource.COMMANDLINE:
        raise click.ClickException("RULINGS_KB is set but empty; unset it, or set it to the knowledge base folder")
    ctx.obj = kb_dir


def folder(value: str, option: str, example: Path) -> Path:
    """A folder option's value; an empty one is refused, as it would mean the current directory."""
    if not value.strip():
        raise click.ClickException(f"{option} is empty; give a folder, e.g. {option} {example}")
    return Path(value)


@cli.command()
@click.option("--sources", type=click.Path(file_okay=False, path_type=Path), default=DEFAULT_SOURCES,
              show_default=True, help="Folder holding sources.toml and the documents.")
@click.option("--max-source-mb", type=click.FloatRange(min=0, min_open=True), default=DEFAULT_MAX_SOURCE_MB,
              show_default=True, help="The largest source file to read, in MB.")
@click.pass_obj
def build(kb_dir: Path, sources: Path, max_source_mb: float) -> None:
    """Parse every source in the manifest and write the knowledge base.

    Only regular files inside the sources folder are read. The new knowledge base replaces the old
    one only when complete: a failed build leaves the previous one answering.
    """
    from kb.pipeline import build as run_build

    tty = sys.stderr.isatty()

    def progress(source: Any) -> None:
        if tty:
            say(f"  parsing {source.id:<10} {source.path}", err=True)

    with translated():
        report = run_build(sources, kb_dir, progress, max_source_mb)
    say(f"Built {kb_dir}:")
    say(f"  {'source':<10} {'rulings':>7} {'sections':>8} {'lines':>6} {'repairs':>7}  title")
    for row in report.summary():
        say(f"  {row['source']:<10} {row['rulings']:>7} {row['sections']:>8} {row['lines']:>6} "
             f"{row['repairs']:>7}  {row['title']}")
    total = sum(int(str(r["rulings"])) for r in report.summary())
    say(f"  {total} rulings in all. `rulings check` audits every line; `rulings stats` counts by kind.")


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_obj
def stats(kb_dir: Path, as_json: bool) -> None:
    """Per source: title, game, edition, date, lines and rulings by kind."""
    from kb.lookup import stats as get_stats

    with translated():
        rows = get_stats(kb_dir)
    if as_json:
        return emit_json(rows)
    for s in rows:
        edition = "current" if s["current"] else "older edition"
        say(style(s["title"], bold=True) + f"  [{s['id']}, {s['game']}]")
        say(f"  edition {s['edition']} ({s['date'] or 'undated'}, {edition}); {s['line_count']} lines; "
             f"{s['rulings']} rulings")
        say("  " + ", ".join(f"{k} {n}" for k, n in s["rulings_by_kind"].items()))


@cli.command()
@click.argument("ruling_id")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_obj
def show(kb_dir: Path, ruling_id: str, as_json: bool) -> None:
    """Show one ruling in full: text, source, edition, section, number, markers, lines."""
    from kb.lookup import links_of, show_ruling

    with translated():
        r = show_ruling(kb_dir, ruling_id)
        r["links"] = links_of(kb_dir, ruling_id)
    if as_json:
        return emit_json(r)
    head = f"{r['kind']}" + (f" {r['number']}" if r["number"] else "")
    say(style(head, bold=True) + f"   {r['id']}")
    say(f"{r['source_title']} (edition {r['edition']}), {r['path']} lines {r['lines'][0]}-{r['lines'][1]}")
    if r["section"]:
        say(" > ".join(r["section"]))
    if r["markers"]:
        say("markers: " + ", ".join(r["markers"]))
    say()
    say(r["text"])
    labels = {"card": "cards", "phase": "phases", "term": "terms", "annotation": "cites annotations",
              "rule": "cites rules", "section": "see also", "edition": "in CRF 22", "older_editions": "older editions"}
    if r["links"]:
        say()
    for kind, items in r["links"].items():
        shown = ", ".join(f"{i['target'] or '-'}" + (f" ({i['how']})" if i["how"] and kind in ("card", "edition", "older_editions", "section") else "")
                          for i in items[:30])
        say(style(f"{labels.get(kind, kind)}: ", bold=True) + shown)


def _print_ruling_line(r: dict[str, Any], indent: str = "  ") -> None:
    head = f"{r['kind']}" + (f" {r['number']}" if r.get("number") else "")
    where = " > ".join(r["section"][-2:])
    say(f"{indent}[{head}] {where}  " + style(r["id"], dim=True))
    text = r["text"] if len(r["text"]) <= 500 else r["text"][:500] + " ..."
    say(indent + "  " + text.replace("\n", "\n" + indent + "  "))


def _groups_of(rulings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rulings grouped by source, as the lookups group their "mentioned in" lists."""
    from kb.lookup import group_by_source

    return group_by_source(rulings)


def _print_groups(title: str, groups: list[dict[str, Any]]) -> None:
    if not groups:
        return
    say(style(title, bold=True))
    for g in groups:
        say(style(f" {g['title']} (edition {g['edition']}): {len(g['rulings'])}", fg="cyan"))
        for r in g["rulings"]:
            _print_ruling_line(r)


def _looked_up(as_json: bool, function: str, *args: Any) -> dict[str, Any] | None:
    """Call one kb.lookup function; print its JSON and return None, or return it for text output."""
    import kb.lookup

    with translated():
        result: dict[str, Any] = getattr(kb.lookup, function)(*args)
    if as_json:
        emit_json(result)
        return None
    return result


@cli.command()
@click.argument("name", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_obj
def card(kb_dir: Path, name: tuple[str, ...], as_json: bool) -> None:
    """A card by name in any language (typos, no accents): its text, its CRF rulings, every mention."""
    result = _looked_up(as_json, "card", kb_dir, " ".join(name))
    if result is None:
        return
    for c in result["cards"]:
        say(style(c["name"], bold=True) + f"  {c['set_name']} ({c['id']}), {c['alignment']} {c['type']}")
        say("  " + c["text"].replace("\n", "\n  "))
    _print_groups("Card errata and rulings", _groups_of(result["rulings"]))
    _print_groups("Mentioned in", result["mentioned_in"])


@cli.command()
@click.argument("name", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_obj
def phase(kb_dir: Path, name: tuple[str, ...], as_json: bool) -> None:
    """Every ruling of a turn phase, by source in document order ("M/H", "mh", "site", "eot", "org")."""
    result = _looked_up(as_json, "phase", kb_dir, " ".join(name))
    if result is not None:
        _print_groups(result["name"], result["sources"])


@cli.command()
@click.argument("name", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_obj
def term(kb_dir: Path, name: tuple[str, ...], as_json: bool) -> None:
    """A game term: its definition(s), its "Rulings by Term" section, every ruling that uses it."""
    result = _looked_up(as_json, "term", kb_dir, " ".join(name))
    if result is None:
        return
    say(style(result["term"], bold=True))
    for r in result["definitions"]:
        _print_ruling_line(r)
    _print_groups("Rulings under its heading", _groups_of(result["rulings_by_term"]))
    _print_groups("Used in", result["used_in"])


def _print_numbered(result: dict[str, Any]) -> None:
    for r in result["rulings"]:
        say(style(r["source_title"], fg="cyan") + f" (edition {r['edition']})")
        _print_ruling_line(r)
    if result["parts"]:
        say(style(f"Parts ({len(result['parts'])})", bold=True))
        for r in result["parts"]:
            _print_ruling_line(r)
    _print_groups("Cited by", result["cited_by"])


@cli.command()
@click.argument("number")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_obj
def annotation(kb_dir: Path, number: str, as_json: bool) -> None:
    """An annotation by number ("18", "25a") in every CRF edition, and every ruling citing it."""
    result = _looked_up(as_json, "numbered", kb_dir, "annotation", number)
    if result is not None:
        _print_numbered(result)


@cli.command()
@click.argument("number")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_obj
def rule(kb_dir: Path, number: str, as_json: bool) -> None:
    """A CoE rule by number ("2.IV.iii", "g.hav.3"), its parts ("2.IV" lists 2.IV.i on), its citations."""
    result = _looked_up(as_json, "numbered", kb_dir, "rule", number)
    if result is not None:
        _print_numbered(result)


@cli.command()
@click.pass_obj
def export(kb_dir: Path) -> None:
    """Every ruling and card as JSON Lines on standard output."""
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

    with translated():
        report = run_check(kb_dir)
    if as_json:
        emit_json(report)
    else:
        _print_check(report, say)
    if strict and report["warnings"]:
        raise click.ClickException(f"{report['warnings']} warning(s) (--strict)")


def _print_check(report: dict[str, Any], echo: Callable[[str], None]) -> None:
    echo(f"{'source':<10} {'lines':>6} {'stored':>6} {'skipped':>7} {'unaccounted':>11}")
    for s in report["sources"]:
        echo(f"{s['source']:<10} {s['lines']:>6} {s['stored']:>6} {s['skipped']:>7} {s['unaccounted']:>11}")
        for reason, n in sorted(s["skipped_by_reason"].items(), key=lambda kv: -kv[1]):
            echo(f"{'':<12}skipped {n:>5}: {reason}")
    by_kind: dict[tuple[str, str, str, str], list[int]] = {}
    for r in report["repairs"]:
        by_kind.setdefault((r["source"], r["kind"], r["before"], r["after"]), []).append(r["line"])
    echo(f"\nrepairs: {len(report['repairs'])}")
    for (source, kind, before, after), lines in sorted(by_kind.items()):
        shown = ", ".join(map(str, lines[:8])) + (" ..." if len(lines) > 8 else "")
        echo(f"  {source} {kind}: {before!r} -> {after!r} x{len(lines)} (lines {shown})")
    echo(f"\nproblems: {len(report['problems'])} ({report['warnings']} warnings, {report['notes']} notes on the "
         "sources' own text)")
    for p in report["problems"]:
        echo(f"  {p['severity']}: {p['path']}:{p['line'] or ''}: {p['message']}")


GAMES = click.Choice(["meccg", "lotr-tcg"])


def _styled(text: str, spans: list[tuple[int, int]]) -> str:
    out, last = [], 0
    for start, end in spans:
        if start < last:
            continue
        out += [text[last:start], style(text[start:end], bold=True, fg="yellow")]
        last = end
    return "".join(out + [text[last:]])


def _print_results(results: list[Any], understanding: Any, spec: Any, full: bool = False, explain: bool = False) -> None:
    from kb.search import highlight_spans

    if not results:
        say("No ruling matches. Try fewer words, a card name, or `rulings search --explain`.")
    for n, r in enumerate(results, 1):
        d = r.data
        head = f"{d['kind']}" + (f" {d['number']}" if d.get("number") else "")
        where = " > ".join(d["section"][-3:])
        say(style(f"{n:>2}. ", bold=True) + style(f"{d['source_title']}", fg="cyan")
                   + f" (edition {d['edition']}{'' if d['current'] else ', older edition'})")
        say(f"    {where}  [{head}]" + (f"  {' '.join(d['markers'])}" if d["markers"] else ""))
        text = d["text"] if full or len(d["text"]) <= 600 else d["text"][:600] + " ..."
        body = _styled(text, highlight_spans(text, understanding, spec))
        say("    " + body.replace("\n", "\n    "))
        also = f"  (also in {', '.join(r.also_in)})" if r.also_in else ""
        say(style(f"    id {d['id']}", dim=True) + also)
        if explain:
            parts = ", ".join(f"{name} {value:+g}" for name, value in r.why.items())
            say(style(f"    score {r.score:.2f} = exp({parts})", dim=True))
            say(style("    matched: " + (", ".join(r.matched) or "(by reference or name only)"), dim=True))


@cli.command()
@click.argument("query", nargs=-1, required=True)
@click.option("--limit", default=10, show_default=True, type=click.IntRange(1, 200), help="How many results.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array of hits.")
@click.option("--explain", is_flag=True, help="Show how the query was understood.")
@click.option("--game", type=GAMES, help="Only this game (default: MECCG unless the query names another).")
@click.option("--source", help="Only this source id (see `rulings stats`).")
@click.option("--raw", is_flag=True, help="Treat the query as whoosh query syntax (AND, OR, \"phrases\", field:term).")
@click.pass_obj
def search(kb_dir: Path, query: tuple[str, ...], limit: int, as_json: bool, explain: bool, game: str | None,
           source: str | None, raw: bool) -> None:
    """Find the rulings that answer a question, a card name, a term, "annotation 18" or "rule 2.IV.iii"."""
    from kb.search import open_searcher

    text = " ".join(query)
    with translated():
        searcher = open_searcher(kb_dir)
        understanding = searcher.understand(text)
        results = searcher.search(text, limit=limit, game=game, source=source, raw=raw)
    if as_json:
        out: Any = [r.to_json(explain) for r in results]
        if explain:
            from dataclasses import asdict

            out = {"understanding": asdict(understanding), "results": out}
        return emit_json(out)
    if explain:
        _print_understanding(understanding)
    _print_results(results, understanding, searcher.spec, explain=explain)


def _print_understanding(u: Any) -> None:
    rows = [("annotations", u.annotations), ("rule numbers", u.rules), ("cards", u.cards),
            ("near card names", [f"{a} -> {b}" for a, b in u.near_cards]),
            ("abbreviations", [f"{a} = {b}" for a, b in u.abbreviations]),
            ("synonyms", [f"{a} -> {b}" for a, b in u.synonyms]),
            ("spelling", [f"{a} -> {b}" for a, b in u.corrections]),
            ("question words dropped", u.dropped), ("games", u.games or ["meccg"]),
            ("terms", [f"{t}^{b:g}" for t, b in u.terms])]
    for label, values in rows:
        if values:
            say(style(f"{label}: ", bold=True) + ", ".join(values))
    say()


@cli.command()
@click.option("--limit", default=5, show_default=True, type=click.IntRange(1, 50), help="Results per question.")
@click.pass_obj
def ask(kb_dir: Path, limit: int) -> None:
    """Ask questions at the table: type a question, then a result number to read it in full.

    Line editing and history work where the terminal allows; an empty line or Ctrl-D leaves.
    """
    from kb.search import open_searcher

    try:
        import readline  # noqa: F401  (line editing and history for input())
    except ImportError:
        pass
    with translated():
        searcher = open_searcher(kb_dir)
    results: list[Any] = []
    understanding: Any = None
    while True:
        try:
            line = input("rulings> " if sys.stdin.isatty() else "").strip()
        except (EOFError, KeyboardInterrupt):
            say()
            return
        if line.lower() in ("", "q", "quit", "exit"):
            return
        if line.isdigit() and results:
            n = int(line)
            if 1 <= n <= len(results):
                _print_results([results[n - 1]], understanding, searcher.spec, full=True)
            else:
                say(f"Type a number from 1 to {len(results)}, or a new question.")
            continue
        with translated():
            understanding = searcher.understand(line)
            results = searcher.search(line, limit=limit)
        _print_results(results, understanding, searcher.spec)


@cli.command("eval")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_obj
def eval_command(kb_dir: Path, file: Path, as_json: bool) -> None:
    """Score a question file (JSON Lines: query, gold, kind): hit@1, hit@5, MRR@10, per kind, misses."""
    from kb.evaluation import evaluate

    with translated():
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

    with translated():
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


def main() -> None:
    """Entry point: any unexpected error is one line (RULINGS_DEBUG=1 shows the traceback)."""
    try:
        cli(standalone_mode=True)
    except Exception as exc:  # a bug, not bad input: say so in one line
        if os.environ.get("RULINGS_DEBUG"):
            raise
        click.echo(printable(f"Error: internal error ({exc.__class__.__name__}: {exc}); "
                             "run again with RULINGS_DEBUG=1 and report the traceback"), err=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
