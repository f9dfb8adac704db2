"""Measure the deck check on published decklists: how many card lines each format reads as the right card,
how many as a wrong one, how many it cannot read, and the verdicts.

Point it at folders of lists (never kept in this repository): .meccg (GCCG, meccg-online), .o8d
(OCTGN), .json (a deck builder's), anything else read as text. What "right" means by format:
- .o8d: the card OCTGN's own set files name for the card's id (--octgn-sets DIR: its o8g/Sets
  folder, each set.xml giving each id's name and type): the same name, and the same alignment where
  OCTGN's type gives one (a Minion Site);
- .json: the card its card id names ("tw-116"); --ignore-ids reads the names alone and holds them
  to the ids;
- .meccg and text: the card whose name (in any language, accents and case aside) the line gives,
  printed in the set it gives; a name read by near spelling is listed for a person to judge
  (--near), and counted apart.
Usage: python bench/decks.py FOLDER... [--octgn-sets DIR] [--ignore-ids] [--near] [--verdicts] [--kb DIR]

With --lines N [N ...] it times instead the whole check of a list of N lines of "1 Gandalf" (no folder
needed), in the terminal (kb.deck.deck.deck_report, CPU seconds in this process) and in the page
(site/assets/deck.js's deck_report in node over the data the site ships, CPU seconds in node), each
the best of --runs: the two should grow as N does (linear), not as N squared.

With --page SITE and --lines N [N ...] it times the built site's deck page itself, in Debian's Chromium
(/usr/bin/chromium, headless, from file:// as a judge opens the site from disk): a file of N lines of "Gandalf"
(8 bytes a line: 480,000 lines are 3.84 MB, under the size cap) chosen on the page, the seconds from the
file input's change to the frame after the report is in the status (report_s: the report on the screen, the
list laid out in the box where the page puts it there), and the longest task on the page's main thread
meanwhile (longest_task_ms, the Long Tasks API: a task of 50 ms or more; "<50" when none), the page freshly
opened each run, the median of --runs. --throttle R slows the CPU R times (CDP), as bench/browser.py does for
a phone. Give a site built from another checkout to compare.
Usage: python bench/decks.py --page build/site --lines 50000 200000 480000 [--runs 3] [--throttle 1]
"""

from __future__ import annotations

import argparse
import html
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.deck.deck import deck_report, read_input  # noqa: E402
from kb.deck.deckformats import read_deck  # noqa: E402
from kb.errors import KbError  # noqa: E402
from kb.location import locate  # noqa: E402
from kb.search.query import fold  # noqa: E402

PAGE = """
const fs = require("fs");
const [specJs, deckJs, specPath, deckPath, counts, runs] = process.argv.slice(2);
const {SearchSpec} = require(specJs);
const D = require(deckJs);
const spec = new SearchSpec(JSON.parse(fs.readFileSync(specPath, "utf8")));
const deck = JSON.parse(fs.readFileSync(deckPath, "utf8"));
D.deck_report("1 Gandalf\\n", spec, deck, {});  // the card facts and name index made once, as a page does
const out = {};
for (const n of JSON.parse(counts)) {
  const text = "1 Gandalf\\n".repeat(n);
  let best = Infinity;
  for (let i = 0; i < Number(runs); i++) {
    const start = process.cpuUsage();
    D.deck_report(text, spec, deck, {});
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / 1e6);
  }
  out[n] = best;
}
process.stdout.write(JSON.stringify(out));
"""
"""Times deck.js's deck_report on N lines of "1 Gandalf" in node (bench_lines)."""

FORMATS = {".meccg": "meccg", ".o8d": "octgn", ".json": "json"}
ALIGNMENT_WORDS = ("Hero", "Minion", "Balrog", "Fallen-wizard", "Stage")
SETS = {"TW", "TD", "DM", "LE", "AS", "WH", "BA"}
"""The card database's sets: a line naming a card by its exact name with another set (a fan-made set's
"(DF)") is counted apart, "other set"."""


def octgn_truth(folder: Path) -> dict[str, tuple[str, str]]:
    """Each OCTGN card id -> (its name, its type) from OCTGN's set.xml files."""
    truth: dict[str, tuple[str, str]] = {}
    for path in folder.rglob("*.xml"):
        text = path.read_text("utf-8-sig")
        for m in re.finditer(r'<card id="([^"]+)" name="([^"]*)">(.*?)</card>', text, re.S):
            kind = re.search(r'<property name="Type" value="([^"]*)"', m.group(3))
            truth[m.group(1).lower()] = (html.unescape(m.group(2)), kind.group(1) if kind else "")
    return truth


def main() -> int:
    args = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    args.add_argument("folders", nargs="*", type=Path)
    args.add_argument("--octgn-sets", type=Path, help="OCTGN's o8g/Sets folder: the truth for .o8d card ids")
    args.add_argument("--ignore-ids", action="store_true", help="read JSON cards by their names alone")
    args.add_argument("--near", action="store_true", help="list every name read by near spelling")
    args.add_argument("--verdicts", action="store_true", help="print each list's verdict and findings")
    args.add_argument("--kb", help="the knowledge base (default: RULINGS_KB or the user data folder)")
    args.add_argument("--lines", nargs="+", type=int, help="time the check of N lines of '1 Gandalf' instead")
    args.add_argument("--runs", type=int, default=3, help="with --lines: the best of this many runs")
    args.add_argument("--page", type=Path, help="with --lines: time this built site's deck page in Chromium instead")
    args.add_argument("--throttle", type=float, default=1, help="with --page: slow the CPU this many times")
    opts = args.parse_args()
    if opts.page and opts.lines:
        return bench_page(opts.page, opts.lines, opts.runs, opts.throttle)
    kb = locate(opts.kb).path
    if opts.lines or not opts.folders:
        return bench_lines(kb, opts.lines, opts.runs) if opts.lines else args.error("name a folder, or give --lines")
    truth = octgn_truth(opts.octgn_sets) if opts.octgn_sets else {}
    table: dict[str, Counter[str]] = {}
    near: list[str] = []
    wrong: list[str] = []
    for path in sorted(p for folder in opts.folders for p in folder.rglob("*") if p.is_file()):
        form = FORMATS.get(path.suffix.lower(), "text")
        name, text = read_input(str(path))
        if opts.ignore_ids and form == "json":
            text = re.sub(r'"card": "[a-z]{2}-\d+"', '"card": null', text)
        row = table.setdefault(form, Counter())
        row["lists"] += 1
        try:
            report = deck_report(kb, text, path.name, title=path.stem)
        except KbError as exc:
            row["refused"] += 1
            print(f"refused: {exc}", file=sys.stderr)
            continue
        lines: dict[int, list] = {}
        for line in read_deck(text, path.name).cards():
            lines.setdefault(line.number, []).append(line)
        given = read_deck(read_input(str(path))[1], path.name).cards() if opts.ignore_ids else []
        ids = {line.number: line.card_id for line in given}
        for entry in report.cards + report.quiet:
            faces = entry["cards"]
            for number in dict.fromkeys(entry["lines"]):
                typed = {fold(t) for t in entry["typed"]}
                line = next((x for x in lines[number] if fold(x.name) in typed), lines[number][0])
                if fold(line.name) not in typed:  # a part of a list, or a name without its note in brackets
                    line = replace(line, name=next(t for t in entry["typed"] if fold(t) in fold(line.text)))
                copies = sum(1 for n in entry["lines"] if n == number)
                row["card lines"] += copies
                verdict = judge(form, line, entry, faces, truth, ids.get(number, ""))
                row[verdict] += copies
                if verdict == "wrong":
                    wrong.append(f"{path.name}:{number}: {line.text!r} read as {entry['name']} {entry['printings']}")
                if verdict == "near":
                    near.append(f"{path.name}:{number}: {line.text!r} -> {entry['name']}")
        for miss in report.not_found + report.ambiguous:
            row["card lines"] += len(miss["lines"])
            row["not read"] += len(miss["lines"])
            near.append(f"{path.name}:{miss['lines'][0]}: {miss['name']!r} NOT READ"
                        + (f" (could be {', '.join(miss['choices'])})" if miss["choices"] else ""))
        v = report.verdict
        row["legal" if v["legal"] else "not legal" if v["problems"] else "not checked"] += 1
        if opts.verdicts:
            print(f"{path.name}: {v['summary']} [{report.alignment['player'] or '?'}]")
            for f in report.findings:
                print(f"    {f['status']} {f['rule']}: {f['message']} {f['lines'][:6]}")
    print("| format | lists | card lines | read right | read by near spelling | exact name, other set | read wrong | "
          "not read | legal | not legal | not checked |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for form, row in table.items():
        print(f"| {form} | {row['lists']} | {row['card lines']} | {row['right']} | {row['near']} | {row['other set']} "
              f"| {row['wrong']} | {row['not read']} | {row['legal']} | {row['not legal']} | {row['not checked']} |")
    for line in wrong:
        print("wrong:", line)
    if opts.near:
        for line in near:
            print("near:", line)
    return 0


def bench_lines(kb: Path, counts: list[int], runs: int) -> int:
    """Print, for each N of counts, the CPU seconds of the whole deck check of N lines of "1 Gandalf" in the
    terminal and in the page (deck.js in node), the best of runs each, and their ratio to the first N's."""
    from kb.site.browserdata import packed
    from kb.deck.deck import deck_data
    from kb.store.store import CURRENT

    deck_report(kb, "1 Gandalf\n")  # the card facts read once, as a second check in one process finds them
    terminal: dict[int, float] = {}
    for n in counts:
        best = float("inf")
        for _ in range(runs):
            start = time.process_time()
            deck_report(kb, "1 Gandalf\n" * n)
            best = min(best, time.process_time() - start)
        terminal[n] = best
    node = shutil.which("node")
    page: dict[int, float] = {}
    if node:
        with tempfile.TemporaryDirectory() as tmp:
            spec = json.loads((kb / CURRENT / "search.json").read_text("utf-8"))
            (Path(tmp) / "spec.json").write_text(json.dumps(packed(spec), ensure_ascii=False), "utf-8")
            (Path(tmp) / "deck.json").write_text(json.dumps(deck_data(kb)), "utf-8")
            (Path(tmp) / "page.js").write_text(PAGE, "utf-8")
            done = subprocess.run([node, str(Path(tmp) / "page.js"), str(ROOT / "site" / "assets" / "searchspec.js"),
                                   str(ROOT / "site" / "assets" / "deck.js"), str(Path(tmp) / "spec.json"),
                                   str(Path(tmp) / "deck.json"), json.dumps(counts), str(runs)],
                                  capture_output=True, text=True, check=True)
            page = {int(n): t for n, t in json.loads(done.stdout).items()}
    print("| lines | terminal s | ratio | page s | ratio |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    first = counts[0]
    for n in counts:
        shown = f"{page[n]:.3f} | {page[n] / page[first]:.1f}" if n in page else "no node | -"
        print(f"| {n} | {terminal[n]:.3f} | {terminal[n] / terminal[first]:.1f} | {shown} |")
    return 0


WATCH = """() => {
  const w = window.__bench = {start: 0, report: 0, tasks: []};
  new PerformanceObserver(list => list.getEntries().forEach(e => w.tasks.push([e.startTime, e.duration])))
    .observe({type: "longtask", buffered: true});
  document.querySelector("#deck-file").addEventListener("change", () => { w.start = performance.now(); }, true);
  const status = document.querySelector("#deck-status");
  new MutationObserver(() => {
    if (w.report || !/ lines? · /.test(status.textContent)) return;
    w.report = performance.now();
    requestAnimationFrame(() => setTimeout(() => { w.painted = performance.now(); }));
  }).observe(status, {childList: true, subtree: true, characterData: true});
}"""
"""Installed on the deck page before a file is chosen: when the file input changes, when the report is in the
status and when the frame after it begins (it is on the screen), and every long task of the main thread."""


def bench_page(site: Path, counts: list[int], runs: int, throttle: float) -> int:
    """Print, for each N of counts, the deck page's seconds from a file of N lines chosen to its report and the
    longest main-thread task meanwhile (the median of runs, each in a page freshly opened)."""
    import statistics

    from playwright.sync_api import sync_playwright

    url = (site / "deck.html").resolve().as_uri()
    rows = []
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
        for n in counts:
            path = Path(tmp) / f"lines-{n}.txt"
            path.write_bytes(b"Gandalf\n" * n)
            times, longest = [], []
            for _ in range(runs):
                page = browser.new_page()
                page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": throttle})
                page.goto(url)
                page.wait_for_function("document.querySelector('#deck-status').textContent.indexOf('Paste') === 0")
                page.evaluate(WATCH)
                page.set_input_files("#deck-file", str(path))
                page.wait_for_function("window.__bench.painted > 0", timeout=900_000, polling=250)
                w = page.evaluate("window.__bench")
                times.append((w["painted"] - w["start"]) / 1000)
                longest.append(max([d for t, d in w["tasks"] if t + d >= w["start"] and t <= w["painted"]], default=0))
                page.close()
            rows.append((n, statistics.median(times), statistics.median(longest)))
        browser.close()
    print(f"| lines | report_s | longest_task_ms |  ({site}, throttle {throttle}, median of {runs})")
    print("| ---: | ---: | ---: |")
    for n, seconds, task in rows:
        print(f"| {n} | {seconds:.2f} | {f'{task:.0f}' if task else '<50'} |")
    return 0


def judge(form: str, line, entry, faces, truth, given_id: str) -> str:  # type: ignore[no-untyped-def]
    """right, wrong or near: what a card line was read as, against what it means (see the module's note)."""
    names = {fold(n) for face in faces for n in face["names"].values()} | {fold(entry["name"])}
    if form == "octgn" and line.card_id.lower() in truth:
        name, kind = truth[line.card_id.lower()]
        if fold(name) not in names and fold(name.replace("’", "'")) not in names:
            return "wrong"
        word = next((w for w in ALIGNMENT_WORDS if kind.startswith(w)), "")
        aligned = {face["alignment"] for face in faces}  # a Dual card is the hero's and the minion's
        return "wrong" if word and len(aligned) == 1 and word not in aligned | ({"Hero", "Minion"} if "Dual" in aligned
                                                                                  else set()) else "right"
    if form == "json" and (line.card_id or given_id):
        wanted = (line.card_id or given_id).upper()
        return "right" if wanted in entry["printings"] else "wrong"
    if entry["read_as"] and fold(line.name) not in names:
        return "near"
    if fold(line.name) not in names:
        return "wrong"
    if line.set_code and line.set_code not in {face["set_code"] for face in faces}:
        return "other set" if line.set_code not in SETS else "wrong"
    if line.tag and line.tag not in {face["alignment"] for face in faces} and \
            not (line.tag == "Fallen-wizard" and "Stage" in {face["alignment"] for face in faces}):
        return "wrong"
    return "right"


if __name__ == "__main__":
    raise SystemExit(main())
