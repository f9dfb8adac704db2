"""Benchmark of the test suite: its time against one `rulings build` of the bundled sources, from one run.

The build is timed just before and just after the suite (the machine is shared and noisy: both
figures are printed, and the ratio is taken to their mean); wall and CPU time (of the child
processes: a browser started by the tests counts only as far as it is waited for) are given for
each, and the load average around them. Usage:

    .venv/bin/python bench/suite.py                 # the suite as CI runs it
    .venv/bin/python bench/suite.py -- -n 0 -x      # other pytest arguments after --

The exit status is pytest's.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUITE = ["-q", "-n", "auto"]
"""pytest's arguments unless others are given: those of .ci/run and the README."""


@dataclass(frozen=True, slots=True)
class Timed:
    """One child process's wall and CPU seconds, and its exit status."""

    wall: float
    cpu: float
    status: int


def timed(cmd: list[str], quiet: bool) -> Timed:
    """Run a command to its end; its wall time and the CPU time of it and what it waited for."""
    def children() -> float:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    cpu, start = children(), time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL if quiet else None)
    return Timed(time.perf_counter() - start, children() - cpu, done.returncode)


def build(folder: Path) -> Timed:
    """`rulings build` of the bundled sources into a new folder, in its own process as a user runs it."""
    command = [sys.executable, "-c", "import cli; cli.main()", "--kb", str(folder), "build",
               "--sources", str(ROOT / "rulings")]
    result = timed(command, quiet=True)
    if result.status:
        sys.exit(f"rulings build failed (exit {result.status}): run it alone to see why")
    return result


def main(args: list[str]) -> int:
    pytest_args = args[args.index("--") + 1:] if "--" in args else SUITE
    env_note = " PYTHONDONTWRITEBYTECODE is set: every process compiles its modules" if os.environ.get(
        "PYTHONDONTWRITEBYTECODE") else ""
    with tempfile.TemporaryDirectory(prefix="rulings-bench-suite-") as tmp:
        load = [os.getloadavg()[0]]
        before = build(Path(tmp) / "kb-before")
        load.append(os.getloadavg()[0])
        suite = timed([sys.executable, "-m", "pytest", *pytest_args], quiet=False)
        load.append(os.getloadavg()[0])
        after = build(Path(tmp) / "kb-after")
        load.append(os.getloadavg()[0])
    one = (before.wall + after.wall) / 2
    one_cpu = (before.cpu + after.cpu) / 2
    print(f"\nrulings build (bundled sources): {before.wall:.1f} s before the suite, {after.wall:.1f} s after "
          f"(CPU {before.cpu:.1f} s, {after.cpu:.1f} s)")
    print(f"pytest {' '.join(pytest_args)}: {suite.wall:.1f} s (CPU {suite.cpu:.1f} s), exit {suite.status}")
    print(f"suite / build: {suite.wall / one:.1f}x wall, {suite.cpu / one_cpu:.1f}x CPU; "
          f"{os.cpu_count()} CPUs, load average {' -> '.join(f'{x:.1f}' for x in load)}{env_note}")
    return suite.status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
