"""The `rulings` command: a thin click layer that calls one kb function per command and formats it."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from kb import KbError, __version__

DEFAULT_KB = Path("build") / "kb"
DEFAULT_SOURCES = Path("rulings")


@contextmanager
def translated() -> Iterator[None]:
    """KbError becomes a one-line click error (exit 1)."""
    try:
        yield
    except KbError as exc:
        raise click.ClickException(str(exc)) from exc


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rulings")
@click.option("--kb", "kb_dir", type=click.Path(file_okay=False, path_type=Path), envvar="RULINGS_KB",
              default=DEFAULT_KB, show_default=True,
              help="Knowledge base directory (or set RULINGS_KB).")
@click.pass_context
def cli(ctx: click.Context, kb_dir: Path) -> None:
    """A rulings knowledge base for the Middle-earth Collectible Card Game."""
    if os.environ.get("NO_COLOR"):
        ctx.color = False
    ctx.obj = kb_dir


@cli.command()
@click.option("--sources", type=click.Path(file_okay=False, path_type=Path), default=DEFAULT_SOURCES,
              show_default=True, help="Folder holding sources.toml and the documents.")
@click.pass_obj
def build(kb_dir: Path, sources: Path) -> None:
    """Parse every source in the manifest and write the knowledge base.

    The new knowledge base replaces the old one only when complete: a failed build leaves the
    previous one answering.
    """
    from kb.pipeline import build as run_build

    tty = sys.stderr.isatty()

    def progress(source: Any) -> None:
        if tty:
            click.echo(f"  parsing {source.id:<10} {source.path}", err=True)

    with translated():
        report = run_build(sources, kb_dir, progress)
    click.echo(f"Built {kb_dir}:")
    click.echo(f"  {'source':<10} {'rulings':>7} {'sections':>8} {'lines':>6} {'repairs':>7}  title")
    for row in report.summary():
        click.echo(f"  {row['source']:<10} {row['rulings']:>7} {row['sections']:>8} {row['lines']:>6} "
                   f"{row['repairs']:>7}  {row['title']}")
    total = sum(int(str(r["rulings"])) for r in report.summary())
    click.echo(f"  {total} rulings in all. `rulings check` audits every line; `rulings stats` counts by kind.")


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
        click.echo(click.style(s["title"], bold=True) + f"  [{s['id']}, {s['game']}]")
        click.echo(f"  edition {s['edition']} ({s['date'] or 'undated'}, {edition}); {s['line_count']} lines; "
                   f"{s['rulings']} rulings")
        click.echo("  " + ", ".join(f"{k} {n}" for k, n in s["rulings_by_kind"].items()))


@cli.command()
@click.argument("ruling_id")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_obj
def show(kb_dir: Path, ruling_id: str, as_json: bool) -> None:
    """Show one ruling in full: text, source, edition, section, number, markers, lines."""
    from kb.lookup import show_ruling

    with translated():
        r = show_ruling(kb_dir, ruling_id)
    if as_json:
        return emit_json(r)
    head = f"{r['kind']}" + (f" {r['number']}" if r["number"] else "")
    click.echo(click.style(head, bold=True) + f"   {r['id']}")
    click.echo(f"{r['source_title']} (edition {r['edition']}), {r['path']} lines {r['lines'][0]}-{r['lines'][1]}")
    if r["section"]:
        click.echo(" > ".join(r["section"]))
    if r["markers"]:
        click.echo("markers: " + ", ".join(r["markers"]))
    click.echo()
    click.echo(r["text"])


@cli.command()
@click.pass_obj
def export(kb_dir: Path) -> None:
    """Every ruling and card as JSON Lines on standard output."""
    from kb.lookup import export as run_export

    with translated():
        for row in run_export(kb_dir):
            click.echo(json.dumps(row, ensure_ascii=False))


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
        _print_check(report, click.echo)
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
    echo(f"\nproblems: {len(report['problems'])} ({report['warnings']} warnings)")
    for p in report["problems"]:
        echo(f"  {p['severity']}: {p['path']}:{p['line'] or ''}: {p['message']}")


if __name__ == "__main__":
    cli()
