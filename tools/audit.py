"""A judge's audit: draw, by a fixed seed, rulings of every source, changes of every kind and every deck of
the audit set, and print each beside what a judge checks it against (the source's own lines, the other
side of a change, the hand verdict recorded for a deck), so that a person marks each right, wrong or
marked unsure; with --judged, tally a file of such marks.

Usage (a knowledge base built first, RULINGS_KB or --kb naming it):
    python tools/audit.py --seed 40 > audit.md                 # the sample, as Markdown
    python tools/audit.py --seed 40 --json > audit.json        # the same sample, one item a line
    python tools/audit.py --seed 40 --judged docs/audit/marks.toml   # the tally of a judge's marks

The sample depends only on the seed and the build: the same seed on the same sources draws the same
items, and each item's place in the draw on its own id alone (a reworded ruling is another item; the
others stay drawn). A marks file (TOML) holds one table per item id: `["crf-22.454d048a6d"] mark = "right"`, with
`note` where the judge has something to say; mark is right, wrong or unsure (the tool itself said
it is unsure, or marks the text incomplete, and it is).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tomllib
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.builder.bundle import bundled_editions, bundled_sources  # noqa: E402
from kb.deck.deck import deck_report, read_input, verdict_lines  # noqa: E402
from kb.read.lookup import Reader, changes  # noqa: E402
from kb.terminal import ANSI, Page, render_changes, render_ruling_answer  # noqa: E402
from kb.location import locate  # noqa: E402

RULINGS = 30
"""Rulings drawn of every source."""
SMALL = {"arda": 20}
"""Sources drawn fewer of (Arda, a variant extracted from two columns, is judged apart)."""
CHANGES = 20
"""Changes drawn of every kind."""
AUDIT_DECKS = ROOT / "tests" / "data" / "decks" / "audit"
MARKS = ("right", "wrong", "unsure")
T = TypeVar("T")


@dataclass
class Item:
    """One thing a judge checks: a ruling, a change or a deck, and what to check it against."""

    id: str
    part: str
    """"ruling:SOURCE", "change:KIND" or "deck"."""
    shown: str
    """What the tool shows of it (a ruling's text as `rulings show` prints it, a change's verdict)."""
    against: str
    """What a judge checks it against."""
    flags: list[str] = field(default_factory=list)
    """What the tool says of its own certainty (incomplete, unsure, guess)."""

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "part": self.part, "shown": self.shown, "against": self.against, "flags": self.flags}


def plain(page: Page) -> str:
    """A page's text as a terminal without colour shows it."""
    return ANSI.sub("", page.text())


def drawn(seed: int, items: list[T], key: Callable[[T], str], k: int) -> list[T]:
    """k of the items, by a fixed seed: those whose id hashes lowest with the seed. Each item's place
    depends on its own id alone, so a build that adds, drops or rewords some rulings leaves the rest of
    the draw as it was (the marks a judge made of them still stand)."""
    return sorted(items, key=lambda item: hashlib.sha256(f"{seed}:{key(item)}".encode()).hexdigest())[:k]


def source_lines(paths: dict[str, Path], source: str, lines: tuple[int, int]) -> str:
    """A ruling's lines as its source file has them (the lines it was stored from, with one line of
    context each side, the context marked)."""
    path = paths.get(source)
    if path is None:
        return "(no source file)"
    text = path.read_text("utf-8").splitlines()
    start, end = lines
    out = []
    for n in range(max(1, start - 1), min(len(text), end + 1) + 1):
        mark = "  " if start <= n <= end else "~ "
        out.append(f"{mark}{n:5} {text[n - 1]}")
    return "\n".join(out)


def ruling_flags(r: Any) -> list[str]:
    """What a ruling says of its own wholeness, if the build marks it (incomplete)."""
    shown = r.to_json()
    return [key for key in ("incomplete",) if shown.get(key)]


def draw_rulings(reader: Reader, seed: int, paths: dict[str, Path]) -> list[Item]:
    by_source: dict[str, list[Any]] = defaultdict(list)
    for r in reader.every():
        by_source[r.source].append(r)
    items = []
    for source in sorted(by_source):
        pool = sorted(by_source[source], key=lambda r: r.id)
        for r in sorted(drawn(seed, pool, lambda r: r.id, SMALL.get(source, RULINGS)), key=lambda r: r.ord):
            page = Page(None)
            render_ruling_answer(page, reader.ruling(r.id))
            items.append(Item(r.id, f"ruling:{source}", plain(page), source_lines(paths, source, r.lines),
                              ruling_flags(r)))
    return items


def draw_changes(reader: Reader, seed: int) -> list[Item]:
    """CHANGES of each kind (all, of a kind with fewer), each as `rulings changes --all` prints it, against the
    text of the ruling on its other side."""
    answer = changes(reader)
    by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for found in answer.found:
        by_kind[change_kind(found["change"])].append(found)
    items = []
    for kind in sorted(by_kind):
        pool = by_kind[kind]
        for found in drawn(seed, pool, lambda found: str(found["id"]), CHANGES):
            page = Page(None)
            render_changes(page, replace(answer, found=[found]), whole=True)  # whole, where it would be folded
            change = found["change"]
            other = change.get("other")
            against = (f"{other['id']} ({' > '.join(other['section'])}): {other['text']}" if other
                       else "(no ruling on the other side)")
            flags = [flag for flag in ("guess", "unsure") if change.get(flag)]
            items.append(Item(f"{found['id']}@{kind}", f"change:{kind}", plain(page), against, flags))
    return items


def change_kind(change: dict[str, Any]) -> str:
    """A change's kind as a judge reads it: absent ones by their verdict (dropped, replaced, ...)."""
    return f"{change['kind']}:{change['verdict']}" if change.get("verdict") else change["kind"]


def draw_decks(kb: Path) -> list[Item]:
    """Every list of the audit set (tests/data/decks/audit/audit.toml), the tool's verdict, whose deck it
    reads it as and each finding, against the verdict, alignment and counts a judge recorded by hand."""
    manifest = AUDIT_DECKS / "audit.toml"
    if not manifest.is_file():
        return []
    items = []
    for entry in tomllib.loads(manifest.read_text("utf-8")).get("list", []):
        path = AUDIT_DECKS / entry["file"]
        name, text = read_input(str(path))
        report = deck_report(kb, text, name)
        verdict = report.verdict
        against = "\n".join(f"{key}: {value}" for key, value in entry.items()
                            if key in ("alignment", "verdict", "unsure", "broken", "counts", "copy_problems", "games"))
        flags = [] if verdict["legal"] is not None else ["unsure"]
        items.append(Item(entry["file"], "deck", "\n".join(verdict_lines(report)), against, flags))
    return items


def markdown(items: list[Item], seed: int) -> str:
    out = [f"# A judge's audit, seed {seed}", "",
           "Mark each item right, wrong or unsure (the tool says it is unsure, or marks the text incomplete, "
           "and it is) in a marks file; `--judged FILE` tallies it.", ""]
    part = ""
    for n, item in enumerate(items, 1):
        if item.part != part:
            part = item.part
            out += [f"## {part}", ""]
        flags = f" [{', '.join(item.flags)}]" if item.flags else ""
        out += [f"### {n}. {item.id}{flags}", "", "shown:", "```", item.shown, "```", "against:", "```", item.against,
                "```", ""]
    return "\n".join(out)


def tally(items: list[Item], marks_file: Path) -> str:
    marks = tomllib.loads(marks_file.read_text("utf-8"))
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    missing = []
    for item in items:
        mark = marks.get(item.id, {}).get("mark")
        if mark not in MARKS:
            missing.append(item.id)
            continue
        counts[item.part][mark] += 1
    rows = ["| part | drawn | right | wrong | unsure |", "|---|---|---|---|---|"]
    for part, c in counts.items():
        rows.append(f"| {part} | {sum(c.values())} | {c['right']} | {c['wrong']} | {c['unsure']} |")
    wrong = [i.id for i in items if marks.get(i.id, {}).get("mark") == "wrong"]
    rows.append("")
    rows.append(f"{len(items)} drawn, {len(items) - len(missing)} marked, {len(wrong)} wrong"
                + (f": {', '.join(wrong)}" if wrong else ""))
    if missing:
        rows.append(f"not marked ({len(missing)}): {', '.join(missing)}")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=40)
    parser.add_argument("--kb", type=Path, default=None)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--judged", type=Path, default=None, help="a marks file (TOML) to tally")
    args = parser.parse_args(argv)
    kb = locate(str(args.kb) if args.kb else None).path
    reader = Reader(kb)
    paths = {s.id: bundled_sources() / s.path for s in bundled_editions()}
    items = draw_rulings(reader, args.seed, paths) + draw_changes(reader, args.seed) + draw_decks(kb)
    if args.judged:
        print(tally(items, args.judged))
        return 1 if any(tomllib.loads(args.judged.read_text("utf-8")).get(i.id, {}).get("mark") == "wrong"
                        for i in items) else 0
    if args.json:
        for item in items:
            print(json.dumps(item.to_json(), ensure_ascii=False))
    else:
        print(markdown(items, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
