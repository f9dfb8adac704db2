"""Benchmark of the test suite: its time against one `rulings build` of the bundled sources, from one run.

The build is timed just before and just after the suite (the machine is shared and noisy: both
figures are printed, and the ratio is taken to their mean); wall and CPU time (of the child
processes: a browser started by the tests counts only as far as it is waited for) are given for
each, and the load average around them. Where /proc is (Linux), the suite's CPU is also given by
kind of process, the browser's whole: pytest's workers, Chromium, node, ..., read 20 times a second
(a process's last reading counts once it has ended; one that lives under 50 ms may be missed). Usage:

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
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROC = Path("/proc")
"""Where Linux shows its processes (the suite's CPU by kind of process is read there, if it is)."""
SUITE = ["-q", "-n", "auto"]
"""pytest's arguments unless others are given: those of .ci/run and the README."""


@dataclass(frozen=True, slots=True)
class Timed:
    """One child process's wall and CPU seconds, and its exit status."""

    wall: float
    cpu: float
    status: int


def timed(cmd: list[str], quiet: bool, by_kind: dict[str, float] | None = None) -> Timed:
    """Run a command to its end; its wall time and the CPU time of it and what it waited for (and,
    given a dict, add to it the CPU seconds of it and every process under it, by kind: `Descendants`)."""
    def children() -> float:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    cpu, start = children(), time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL if quiet else None)
    tree = Descendants(proc.pid) if by_kind is not None and PROC.is_dir() else None
    sampler = threading.Thread(target=tree.follow, args=(proc,), daemon=True) if tree else None
    if sampler:
        sampler.start()
    status = proc.wait()
    timing = Timed(time.perf_counter() - start, children() - cpu, status)
    if sampler and tree and by_kind is not None:
        sampler.join()
        for kind, seconds in tree.by_kind().items():
            by_kind[kind] = by_kind.get(kind, 0.0) + seconds
    return timing


@dataclass(slots=True)
class Descendants:
    """The CPU seconds of a process and of every process started under it, by kind, from /proc."""

    root: int
    seen: dict[tuple[int, str], tuple[str, float]] = field(default_factory=dict)
    """(pid, start time): (kind, CPU seconds at its last reading)."""

    def follow(self, proc: subprocess.Popen[bytes]) -> None:
        """Read every process under the root 20 times a second until the root has ended."""
        while proc.poll() is None:
            self.read()
            time.sleep(0.05)

    def read(self) -> None:
        """Every process's parent and CPU seconds now; those under the root kept by (pid, start)."""
        tick = os.sysconf("SC_CLK_TCK")
        parent: dict[int, int] = {}
        stats: dict[int, list[str]] = {}
        for entry in os.listdir(PROC):
            if entry.isdigit():
                try:
                    fields = (PROC / entry / "stat").read_text().rsplit(")", 1)[1].split()
                except (OSError, IndexError):
                    continue  # ended meanwhile
                parent[int(entry)], stats[int(entry)] = int(fields[1]), fields
        for pid, fields in stats.items():
            up = pid
            while up not in (self.root, 0, 1) and up in parent:
                up = parent[up]
            if up != self.root:
                continue
            key = (pid, fields[19])  # the start time tells a reused pid apart
            cpu = (int(fields[11]) + int(fields[12])) / tick
            known = self.seen.get(key)  # a program that has not yet become another (a wrapper script)
            kind = known[0] if known and not known[0].startswith("shell") else self.kind(pid)
            self.seen[key] = (kind, cpu)

    def kind(self, pid: int) -> str:
        try:  # the program itself (Chromium starts its helpers as /proc/self/exe), and its arguments
            program = os.path.basename(os.readlink(PROC / str(pid) / "exe"))
            line = (PROC / str(pid) / "cmdline").read_bytes().decode("utf-8", "replace").replace("\0", " ")
        except OSError:
            return "other"
        if pid == self.root:
            return "pytest (controller)"
        if "chrom" in program:
            return "Chromium"
        if program.startswith("node"):
            return "node (Playwright's driver)" if "playwright" in line else "node (search.js, deck.js)"
        if program.startswith("python"):
            return "pytest workers" if "sys.stdin.readline" in line else "python commands the tests run"
        if program in ("sh", "dash", "bash"):
            return "shell (Debian's chromium is a script that runs the browser)"
        return program or "other"

    def by_kind(self) -> dict[str, float]:
        out: dict[str, float] = {}
        for kind, cpu in self.seen.values():
            out[kind] = out.get(kind, 0.0) + cpu
        return out


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
        by_kind: dict[str, float] = {}
        suite = timed([sys.executable, "-m", "pytest", *pytest_args], quiet=False, by_kind=by_kind)
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
    if by_kind:
        print(f"the suite's CPU by kind of process ({sum(by_kind.values()):.1f} s): "
              + ", ".join(f"{kind} {cpu:.1f} s" for kind, cpu in sorted(by_kind.items(), key=lambda kv: -kv[1])))
    return suite.status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
