"""Benchmark of a cold command: the child CPU time of `rulings annotation 18` and `rulings search` against `python -c
pass`.

CPU time, not wall time, since the machine is shared: each command is run in turn (alternated, so a
busy spell weighs on all alike), the median of the runs is taken, and each command's ratio to bare
Python's. The commands run as an installed copy does, from compiled modules: PYTHONDONTWRITEBYTECODE
is dropped for them and a first run of each (not counted) writes the __pycache__ folders. With --imports, the modules
each command's cold path imports, the slowest first (`python -X importtime`, cumulative microseconds of the top-level
imports cli.py makes). Usage:

    .venv/bin/python bench/cold.py [--kb DIR] [--runs 9] [--imports]

The knowledge base is RULINGS_KB's (or --kb's): build it first.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUESTION = "can a strike be cancelled after the roll?"
LIMITS = {"annotation": 2.5, "search": 4.0}
"""Issue 43's aims: a cold lookup within 2.5x bare Python, a cold search within 4x."""


def commands(kb: str) -> dict[str, list[str]]:
    """The commands timed, by name: bare Python, then the two cold paths as a user runs them."""
    rulings = [sys.executable, "-c", "import cli; cli.main()", "--kb", kb]
    return {"python -c pass": [sys.executable, "-c", "pass"], "annotation": rulings + ["annotation", "18"],
            "search": rulings + ["search", QUESTION]}


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
"""The commands' environment: modules compiled once and read compiled after, as an installed copy's are."""


def child_cpu(cmd: list[str]) -> float:
    """The CPU seconds (user and system) of one run of a command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=ROOT, env=ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def imports(cmd: list[str], top: int = 25) -> list[tuple[str, int]]:
    """The modules a command imports, each with its cumulative import time in microseconds, the slowest first."""
    err = subprocess.run([cmd[0], "-X", "importtime", *cmd[1:]], capture_output=True, text=True, cwd=ROOT,
                         env=ENV).stderr
    rows = []
    for line in err.splitlines():
        if line.startswith("import time:") and "|" in line:
            _, cumulative, name = line.split("|")
            if cumulative.strip().isdigit():
                rows.append((name.rstrip(), int(cumulative)))
    return sorted(rows, key=lambda r: -r[1])[:top]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kb", default=os.environ.get("RULINGS_KB", ""),
                        help="the knowledge base (default RULINGS_KB)")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--imports", action="store_true", help="also list what each command imports, the slowest first")
    args = parser.parse_args()
    if not args.kb:
        sys.exit("name the knowledge base: --kb DIR or RULINGS_KB")
    cmds = commands(args.kb)
    times: dict[str, list[float]] = {name: [] for name in cmds}
    for cmd in cmds.values():
        child_cpu(cmd)  # compiles the modules it imports, once
    for _ in range(args.runs):
        for name, cmd in cmds.items():
            times[name].append(child_cpu(cmd))
    bare = statistics.median(times["python -c pass"])
    report: dict[str, object] = {"runs": args.runs, "load_average": os.getloadavg()[0]}
    for name, runs in times.items():
        median = statistics.median(runs)
        report[name] = {"cpu_ms": round(median * 1000, 1), "ratio": round(median / bare, 2),
                        **({"within": LIMITS[name]} if name in LIMITS else {})}
    if args.imports:
        report["imports_us"] = {name: imports(cmd) for name, cmd in cmds.items() if name in LIMITS}
    print(json.dumps(report, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
