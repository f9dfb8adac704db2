"""Two wordings of a ruling compared word by word (difflib): what was removed, what was added.

The build compares each reworded ruling with its older wording once (kb.builder.changes) and stores the
pieces; the terminal (`rulings changes`) and the site (the ruling's page, "What's new") only
render them.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

WORD = re.compile(r"[^\W_]+(?:[’'-][^\W_]+)*\s*|[^\w\s]+\s*|_+\s*|\s+")
"""A word with the spaces after it ("company’s ", "on-guard "), or a run of punctuation with its
spaces ("), "), so a change of one word or one mark shows as that alone. Each alternative is a
run of one class of characters: the pattern never backtracks."""
TYPOGRAPHY = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "«": '"', "»": '"'})
"""Curly quotes read as straight ones: a quote drawn another way is no change of wording."""


@dataclass(frozen=True, slots=True)
class Piece:
    """A run of words that the two wordings share, or that only one of them has."""

    op: str
    """"same", "removed" (only the older wording has it) or "added" (only the newer one)."""
    text: str
    """The words, with the spaces after them, as the wording that has them writes them (the
    newer one's for words both share)."""


def words(text: str) -> list[str]:
    """The words of a text with their spaces, in order: "".join(words(t)) == t."""
    return WORD.findall(text)


def _key(word: str) -> str:
    return word.strip().translate(TYPOGRAPHY)


def word_diff(older: str, newer: str) -> tuple[Piece, ...]:
    """The pieces that make the older wording into the newer one, in reading order (removed words
    before the words added in their place); runs of one kind are joined.

    >>> [(p.op, p.text) for p in word_diff("Your staring hand", "Your starting hand")]
    [('same', 'Your '), ('removed', 'staring '), ('added', 'starting '), ('same', 'hand')]
    """
    old, new = words(older), words(newer)
    pieces: list[Piece] = []

    def put(op: str, text: str) -> None:
        if not text:
            return
        if pieces and pieces[-1].op == op:
            pieces[-1] = Piece(op, pieces[-1].text + text)
        else:
            pieces.append(Piece(op, text))

    matcher = difflib.SequenceMatcher(None, [_key(w) for w in old], [_key(w) for w in new], autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            put("same", "".join(new[j1:j2]))
            continue
        # the older wording had a space here that the newer one's shared words do not end with
        gap = " " if i1 and j1 and old[i1 - 1][-1:].isspace() and not new[j1 - 1][-1:].isspace() else ""
        if i2 > i1:
            put("removed", gap + "".join(old[i1:i2]))
        put("added", "".join(new[j1:j2]))
    return tuple(pieces)


def shown(pieces: tuple[Piece, ...] | list[Piece]) -> list[tuple[str, str, str]]:
    """The pieces as a reader sees them: (op, words, gap after), the words bare of spaces so a mark
    (struck, underlined, [-...-]) covers words only; removed words and the words added in their
    place are always a space apart.

    >>> shown(word_diff("Your staring hand", "Your starting hand"))
    [('same', 'Your', ' '), ('removed', 'staring', ' '), ('added', 'starting', ' '), ('same', 'hand', '')]
    """
    out: list[list[str]] = []
    for p in pieces:
        core = p.text.strip()
        lead, trail = p.text[:len(p.text) - len(p.text.lstrip())], p.text[len(p.text.rstrip()):]
        if out and lead and not out[-1][2]:
            out[-1][2] = lead
        if not core:
            continue
        if out and out[-1][0] != "same" and p.op != "same" and not out[-1][2]:
            out[-1][2] = " "
        out.append([p.op, core, trail])
    return [(op, core, gap) for op, core, gap in out]

