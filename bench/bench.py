"""Benchmark: cold search against bare Python, warm query time, build time, at 1x and a generated Nx corpus,
and each parser's time against the length of a line.

Every figure is a ratio or time measured in this one run with this interpreter, since machines
here are noisy. Usage: python bench/bench.py [--scales 1 10 100] [--runs 15] [--builds-only] [--parse-only]
[--deck-only] [--throttle 4] [--no-browser]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EVAL = ROOT.parent / "shared" / "eval"
QUERIES = ["can a strike be cancelled after the roll?", "annotation 18", "Adunaphel", "M/H non-moving company",
           "how many cards is my opening hand?", "rule 2.IV.iii", "Marvels Tld"]


def timed(cmd: list[str], runs: int, env: dict[str, str] | None = None) -> float:
    """Median wall time of a command, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def make_corpus(scale: int, target: Path) -> Path:
    """A sources folder holding every bundled document `scale` times (ids suffixed), for load tests."""
    manifest = tomllib.loads((ROOT / "rulings" / "sources.toml").read_text("utf-8"))
    target.mkdir(parents=True, exist_ok=True)
    lines = []
    for n in range(scale):
        for entry in manifest["source"]:
            src = ROOT / "rulings" / entry["path"]
            dest = target / f"{n}" / entry["path"]
            dest.parent.mkdir(parents=True, exist_ok=True)
            if not dest.exists():
                os.link(src, dest) if hasattr(os, "link") else shutil.copy(src, dest)
            e = dict(entry, id=f"{entry['id']}-{n}", path=f"{n}/{entry['path']}")
            lines.append("[[source]]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in e.items()))
    (target / "sources.toml").write_text("\n".join(lines).replace("= true", "= true").replace("= false", "= false"),
                                         "utf-8")
    return target


def site_figures(kb_dir: Path, out: Path) -> dict[str, float]:
    """`rulings site` in a child process: wall time, its own peak memory, and what it wrote."""
    code = ("import resource, sys, json\nfrom pathlib import Path\nfrom kb.site.website import build_site\n"
            f"r = build_site(Path({str(kb_dir)!r}), Path({str(out)!r}), strict=True)\n"
            "print(json.dumps({'pages': r.pages, 'mb': r.bytes / 1e6, 'gzip_mb': r.gzip_bytes / 1e6,"
            " 'index_gzip_mb': r.index_gzip_bytes / 1e6, 'broken': len(r.broken),"
            " 'peak_rss_mb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))")
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=ROOT)
    figures = {k: round(v, 2) for k, v in json.loads(done.stdout).items()}
    figures["seconds"] = round(time.perf_counter() - start, 1)
    shutil.rmtree(out, ignore_errors=True)
    return figures


def browser_figures(kb_dir: Path, out: Path, throttle: float) -> dict[str, object]:
    """The site's search at a phone's size and speed (bench/browser.py): first results, transfer."""
    subprocess.run([sys.executable, "-c", "from pathlib import Path\nfrom kb.site.website import build_site\n"
                    f"build_site(Path({str(kb_dir)!r}), Path({str(out)!r}))"], check=True, cwd=ROOT)
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "browser.py"), str(out), "--throttle", str(throttle)],
                          check=True, capture_output=True, text=True, cwd=ROOT)
    shutil.rmtree(out, ignore_errors=True)
    figures: dict[str, object] = json.loads(done.stdout)
    return figures


MEASURED = ("import resource, subprocess, sys, time\n"
            "start = time.perf_counter()\n"
            "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)\n"
            "print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
"""Runs a command as its own child and prints its wall time and the peak resident memory of it and
every process it started (ru_maxrss in KB): one build's own figures, whatever ran before it."""


def build_figures(rulings: str, sources: Path, kb_dir: Path) -> dict[str, float]:
    """`rulings build` of a sources folder: wall seconds and peak memory (MB, the build's process
    and its children)."""
    cmd = [sys.executable, "-c", MEASURED, rulings, "--kb", str(kb_dir), "build", "--sources", str(sources)]
    seconds, maxrss_kb = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.split()
    return {"seconds": round(float(seconds), 1), "peak_rss_mb": round(int(maxrss_kb) / 1024)}


def warm_query_ms(kb_dir: Path, queries: list[str], repeat: int = 5) -> float:
    """Median time of a query inside the library, the index opened once (as in `rulings ask`)."""
    code = (
        "import json,sys,time,statistics\nfrom pathlib import Path\nfrom kb.search.search import Searcher\n"
        f"s=Searcher.open(Path({str(kb_dir)!r}))\nqs={queries!r}\n"
        "for q in qs: s.search(q)\n"
        f"t=[]\nfor _ in range({repeat}):\n  for q in qs:\n    a=time.perf_counter(); s.search(q); "
        "t.append(time.perf_counter()-a)\n"
        "print(statistics.median(t)*1000)")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=ROOT)
    return float(out.stdout.strip())


def import_costs() -> list[tuple[str, int]]:
    """The slowest top-level imports of a cold `rulings search` (microseconds, cumulative)."""
    code = ("import sys; sys.argv=['rulings','search','annotation 18']; import cli\ntry:\n  cli.cli()\nexcept "
            "SystemExit: pass")
    err = subprocess.run([sys.executable, "-X", "importtime", "-c", code], capture_output=True, text=True,
                         cwd=ROOT).stderr
    rows = []
    for line in err.splitlines():
        if line.startswith("import time:") and "|" in line:
            _, cumulative, name = line.split("|")
            if not name.startswith("  ") or name.strip() in ("click", "whoosh", "sqlite3"):
                if cumulative.strip().isdigit():
                    rows.append((name.strip(), int(cumulative)))
    return sorted(rows, key=lambda r: -r[1])[:10]


PARSE_TARGETS = [("crf", "crf_excerpt.md"), ("coe_rules", "coe_excerpt.md"), ("rulebook", "rulebook_excerpt.md"),
                 ("timing", "timing_excerpt.txt"), ("arda", "arda_excerpt.txt"), ("wiki", "wiki_excerpt.txt"),
                 ("cards", "cards_excerpt.json")]
LINE_TEXT = ("A company [CoE 2026] may tap (see Annotation 18, 2.IV.iii and rule 1.3.F5) - Gandalf (1R12) "
             "<b>Unique.</b> «The hazard limit» PLAYER TURN @ See also Ally and Body Check; ")
"""What a long line is made of: ruling-like text with the markers, numbers, tags and quotes the parsers look for."""


def parse_scaling(sizes: tuple[int, ...] = (100_000, 1_000_000), runs: int = 3) -> dict[str, dict[str, float]]:
    """Each parser's time on its excerpt (tests/data) with one line of each size added, no newline
    in it, and the ratio of the largest to the smallest: a linear parser gives about the ratio of the
    sizes (10 for 100 KB against 1 MB); a quadratic one, its square."""
    sys.path.insert(0, str(ROOT))
    from kb.model import Source
    from kb.builder.parsers import parse_document

    report: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="rulings-parse-") as folder:
        for parser, name in PARSE_TARGETS:
            original = (ROOT / "tests" / "data" / name).read_text("utf-8")
            times = {}
            for size in sizes:
                line = (LINE_TEXT * (size // len(LINE_TEXT) + 1))[:size]
                if parser == "cards":
                    text = original.replace('"en": "<p>', '"en": "<p>' + line.replace('"', "'"), 1)
                else:
                    lines = original.split("\n")
                    text = "\n".join(lines[:len(lines) // 2] + ["", line, ""] + lines[len(lines) // 2:])
                path = Path(folder) / name
                path.write_text(text, "utf-8")
                source = Source("bench", "Bench", "meccg", "test", "1", "", "bench", name, parser)
                best = float("inf")
                for _ in range(runs):
                    start = time.perf_counter()
                    parse_document(source, path)
                    best = min(best, time.perf_counter() - start)
                times[f"{size // 1000}kb_s"] = round(best, 3)
            small, large = times[f"{sizes[0] // 1000}kb_s"], times[f"{sizes[-1] // 1000}kb_s"]
            report[parser] = {**times, "ratio": round(large / max(small, 1e-6), 1)}
    return report


def deck_scaling(rulings: str, kb_dir: Path, work: Path, runs: int) -> dict[str, float]:
    """`rulings deck` wall time (ms) on lists of 100, 1,000 and 10,000 lines: the hero test deck repeated,
    every tenth line a different misspelt name (so near-spelling reading and its cap are paid for)."""
    deck = (ROOT / "tests" / "data" / "decks" / "hero.txt").read_text("utf-8").splitlines()
    out: dict[str, float] = {}
    for n in (100, 1_000, 10_000):
        lines = [f"Gandalv Wizzard{i}" if i % 10 == 9 else deck[i % len(deck)] for i in range(n)]
        path = work / f"deck{n}.txt"
        path.write_text("\n".join(lines), "utf-8")
        times = []
        for _ in range(max(3, runs // 5)):
            start = time.perf_counter()
            subprocess.run([rulings, "--kb", str(kb_dir), "deck", str(path), "--json"], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)  # exit 3: the misspelt names match no card
            times.append(time.perf_counter() - start)
        out[f"{n}_lines_ms"] = round(statistics.median(times) * 1000, 1)
    out["ratio_10000_to_1000"] = round(out["10000_lines_ms"] / out["1000_lines_ms"], 2)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scales", type=int, nargs="+", default=[1, 10, 100],
                        help="corpus sizes to build, each timed against the first (1: the bundled sources)")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--site-scale", type=int, default=10,
                        help="corpus size for the site measurement (100 writes about 1.6 GB of pages)")
    parser.add_argument("--throttle", type=float, default=4, help="CPU slow-down for the site's search in Chromium")
    parser.add_argument("--no-browser", action="store_true", help="skip the site's search in Chromium")
    parser.add_argument("--builds-only", action="store_true",
                        help="only the builds at each scale (time, peak memory, cold and warm search)")
    parser.add_argument("--parse-only", action="store_true",
                        help="only each parser's time against line length (100 KB against 1 MB)")
    parser.add_argument("--deck-only", action="store_true",
                        help="only `rulings deck` on lists of 100, 1,000 and 10,000 lines (after one 1x build)")
    args = parser.parse_args()
    if args.parse_only:
        print(json.dumps({"python": sys.version.split()[0], "parse_time_by_line_length": parse_scaling()}, indent=2))
        return
    rulings = str(Path(sys.executable).with_name("rulings"))
    work = Path(tempfile.mkdtemp(prefix="rulings-bench-"))
    report: dict[str, object] = {"python": sys.version.split()[0]}
    try:
        if args.deck_only:
            subprocess.run([rulings, "--kb", str(work / "kb1"), "build", "--sources", str(ROOT / "rulings")],
                           check=True, stdout=subprocess.DEVNULL)
            report["deck_time_by_list_length"] = deck_scaling(rulings, work / "kb1", work, args.runs)
        else:
            measure(args, rulings, work, report)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(report, indent=2))


def measure(args: argparse.Namespace, rulings: str, work: Path, report: dict[str, object]) -> None:
    """Every measurement, into `report`."""
    bare = timed([sys.executable, "-c", "pass"], args.runs)
    report["python_c_pass_ms"] = round(bare * 1000, 1)
    builds: dict[str, dict[str, float]] = {}
    report["builds"] = builds
    for scale in args.scales:
        sources = ROOT / "rulings" if scale == 1 else make_corpus(scale, work / f"sources{scale}")
        kb_dir = work / f"kb{scale}"
        figures = build_figures(rulings, sources, kb_dir)
        first = builds[f"{args.scales[0]}x"]["seconds"] if builds else figures["seconds"]
        figures["time_ratio"] = round(figures["seconds"] / first, 1)
        figures["warm_query_ms"] = round(warm_query_ms(kb_dir, QUERIES, repeat=2 if scale > 1 else 5), 2)
        cold = timed([rulings, "--kb", str(kb_dir), "search", "can a strike be cancelled after the roll?"],
                     args.runs if scale == 1 else max(3, args.runs // 3))
        figures["cold_search_ms"] = round(cold * 1000, 1)
        figures["cold_search_ratio"] = round(cold / bare, 1)
        builds[f"{scale}x"] = figures
        if scale > 1:
            shutil.rmtree(kb_dir, ignore_errors=True)
            shutil.rmtree(work / f"sources{scale}", ignore_errors=True)
        print(f"{scale}x: {figures}", file=sys.stderr, flush=True)
    if args.builds_only or 1 not in args.scales:
        return
    kb1 = work / "kb1"
    lookup = timed([rulings, "--kb", str(kb1), "annotation", "18"], args.runs)
    report["cold_annotation_ms"] = round(lookup * 1000, 1)
    report["cold_annotation_ratio"] = round(lookup / bare, 1)
    report["import_costs_us"] = import_costs()
    report["site_1x"] = site_figures(kb1, work / "site1")
    if Path("/usr/bin/chromium").exists() and not args.no_browser:
        report["site_search_in_chromium"] = browser_figures(kb1, work / "site1", args.throttle)
    report["parse_time_by_line_length"] = parse_scaling()
    report["deck_time_by_list_length"] = deck_scaling(rulings, kb1, work, args.runs)
    if args.site_scale > 1:
        sources = make_corpus(args.site_scale, work / f"sources{args.site_scale}")
        subprocess.run([rulings, "--kb", str(work / "kbS"), "build", "--sources", str(sources)], check=True,
                       stdout=subprocess.DEVNULL)
        report[f"site_{args.site_scale}x"] = site_figures(work / "kbS", work / "siteS")
        shutil.rmtree(work / "kbS", ignore_errors=True)


if __name__ == "__main__":
    main()
