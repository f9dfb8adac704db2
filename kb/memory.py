"""The process's memory: Python's cyclic garbage collector paused where a run makes many objects and no cycles."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Run a block with the cyclic collector paused, and leave it as it was found after (paused
    blocks may nest). Reference counting still frees every object the block lets go; only cycles
    would wait, so this is for blocks that make some hundred thousand objects and few cycles: each
    automatic collection would only walk them again (a fifth of a cold search's CPU time)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def left_to_exit() -> None:
    """Leave every object made so far to the process's end: the cyclic collector never walks them
    again (gc.freeze). For the end of a command: the collections Python runs as it exits would
    walk every object the command made (the search data, the modules) only to find no cycle, a
    fifteenth of a cold search's instructions; memory is freed with the process all the same."""
    gc.freeze()
