"""Parser for Arda Revised, text extracted from a PDF: headings, lost ligatures, small caps, repeats.

The extraction lost the fi/fl/ff ligatures ("inuence"), dropped the letters small caps drew
differently ("Utap Phase" for "Untap Phase"), doubled heading fragments ("PLA PLAYER YER") and
repeated whole passages where two columns interleaved. Repairs use the vocabulary of the other
documents beside this one, and every repair is recorded.
"""

from __future__ import annotations

import re
from collections import Counter
from itertools import chain
from pathlib import Path

from kb.errors import ParseError
from kb.inputs import read_bytes
from kb.model import ParsedDocument, Source, Span
from kb.parsers.blocks import read_lines
from kb.parsers.document import DocumentBuilder

WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)*")
LIGATURES = ("fi", "fl", "ff", "ffi", "ffl")
SMALL_CAPS_LOST = str.maketrans("", "", "ngzvf")
CHAPTER = re.compile(r"^•([0-9A-Za-z]+)•\s*")
NOTE_MARK = re.compile(
    r"(?P<kind>Designer Notes|Designer notes|Clarification|Tip|Note|Nb\.)\s*:?\s*(?=\S)"
)
NOTE_KINDS = {"designer notes": "designer-note", "clarification": "clarification", "tip": "tip",
              "note": "note", "nb.": "note"}
MAX_WORD = 30
"""Longer "words" are damage of another kind (or hostile input); they are not repaired."""
SENTENCE = re.compile(r"(?<=[.!?»”])\s+")
MAX_HEADING_WORDS = 24
"""A run of capitals longer than this is not a heading (the longest, doubled fragments and all, has
11 words): the heading clean-up compares every word with its neighbours until nothing changes."""


class Vocabulary:
    """Word counts of the corpus, with the lookups the repairs need.

    `known` words are left alone (the other documents' words); repairs may also lead to a word of
    `extra` texts (the damaged document's own intact words), which are never taken as known.
    """

    def __init__(self, texts: list[str], extra: list[str] = ()) -> None:  # type: ignore[assignment]
        self.counts: Counter[str] = Counter()
        for text in texts:
            self.counts.update(w.lower() for w in WORD.findall(text))
        self.targets: Counter[str] = Counter(self.counts)
        for text in extra:
            self.targets.update(w.lower() for w in WORD.findall(text))
        self.small_caps: dict[str, str] = {}
        self._ligatures: dict[str, str | None] = {}
        own = Counter({w: c for w, c in self.targets.items() if w not in self.counts})
        for word, _ in self.counts.most_common() + own.most_common():
            bare = re.sub("ffi|ffl|ff|fi|fl", "", word)
            for key in {word.translate(SMALL_CAPS_LOST), bare.translate(SMALL_CAPS_LOST)}:
                if key != word and len(key) >= 2:
                    self.small_caps.setdefault(key, word)

    def __contains__(self, word: str) -> bool:
        return word.lower() in self.counts

    def _target(self, word: str) -> bool:
        return word in self.targets or (word.endswith("s") and word[:-1] in self.targets)

    def ligature(self, word: str) -> str | None:
        """The word with its lost ligature put back, if exactly one corpus word fits (remembered:
        a document repeats its words)."""
        lower = word.lower()
        if lower not in self._ligatures:
            found = {lower[:i] + lig + lower[i:] for i in range(len(lower) + 1) for lig in LIGATURES}
            found = {c for c in found if self._target(c)}
            self._ligatures[lower] = found.pop() if len(found) == 1 else None
        fixed = self._ligatures[lower]
        return None if fixed is None else _same_case(word, fixed)

    def small_capitals(self, word: str) -> str | None:
        """The word whose small-caps letters were lost ("Utap" -> "Untap"), if the corpus knows one."""
        if len(word) < 2:
            return None
        fixed = self.small_caps.get(word.lower())
        return _same_case(word, fixed) if fixed else None


def _same_case(model: str, word: str) -> str:
    if model.isupper() and len(model) > 1:
        return word.upper()
    if model[0].isupper():
        return word[0].upper() + word[1:]
    return word


def corpus_vocabulary(path: Path, own: str = "") -> Vocabulary:
    """The vocabulary of the other text documents in the same folder as `path` (and `own` text).

    Only regular files within the size cap whose real place is that folder are read: a symbolic
    link leading elsewhere, a pipe or a device is passed over.
    """
    texts = []
    folder = path.parent.resolve()
    for other in sorted(path.parent.iterdir()):
        if other == path or other.suffix not in (".md", ".txt") or other.resolve().parent != folder:
            continue
        try:
            texts.append(read_bytes(other).decode("utf-8", errors="replace"))
        except ParseError:
            continue
    return Vocabulary(texts, [own])


def repair_words(text: str, vocab: Vocabulary) -> tuple[str, list[tuple[str, str, str]]]:
    """Put back lost ligatures and small-caps letters; returns text and (kind, before, after).

    A word is left alone when the corpus knows it, when it is one letter, or when it joins a
    neighbour into a known word ("ha ve" is "have" split, not "five" without its ligature).
    """
    changes: list[tuple[str, str, str]] = []
    words = WORD.findall(text)
    # most words are known, or too short or long to repair: the text stays as it is around them
    unknown = {w for w in set(words) if 1 < len(w) <= MAX_WORD and w not in vocab}
    if not unknown:
        return text, changes
    between = WORD.split(text)  # the text is between[0] words[0] between[1] ... words[-1] between[-1]
    repaired = list(words)
    decided: dict[tuple[str, str, str, str, str], tuple[str, str] | None] = {}  # a line repeats its words
    for i in [i for i, w in enumerate(words) if w in unknown]:
        context = (words[i - 1] if i else "", words[i], words[i + 1] if i + 1 < len(words) else "",
                   between[i][-1:], between[i + 1][:1])
        if context not in decided:
            decided[context] = _repair(*context, vocab)
        if repair := decided[context]:
            changes.append((repair[0], context[1], repair[1]))
            repaired[i] = repair[1]
    if not changes:
        return text, changes
    return "".join(chain.from_iterable(zip(between, repaired))) + between[-1], changes


def _repair(prev: str, word: str, nxt: str, before: str, after: str, vocab: Vocabulary) -> tuple[str, str] | None:
    """(kind, repaired word) for an unknown word between its neighbours and characters, or None."""
    if (prev + word) in vocab or (word + nxt) in vocab or (nxt.lower().startswith(word.lower()) and nxt != word):
        return None  # a word split in two, not a word missing letters
    if fixed := vocab.ligature(word):
        return "ligature", fixed
    if not word.isupper() and ((word[0].isupper() and len(word) >= 3) or len(word) >= 5 or after in ("-", "/")
                               or before == "-") and (fixed := vocab.small_capitals(word)):
        return "small caps", fixed
    return None


def _caps_like(token: str) -> bool:
    letters = [c for c in token if c.isalpha()]
    if not letters:
        return token in ("(", ")", "&", "-", "/")
    upper = sum(c.isupper() for c in letters)
    return upper * 2 > len(letters) or (len(letters) > 2 and upper >= len(letters) - 2 and letters[0].isupper()
                                        and letters[-1].isupper())


def split_heading(text: str) -> tuple[str, str]:
    """Split a leading all-caps heading from the prose after it: ("HANDS", "Each player ...")."""
    tokens = text.split(" ")
    n = 0
    while n < len(tokens) and _caps_like(tokens[n]):
        n += 1
    if n < len(tokens) and n > 0 and tokens[n - 1] in ("A", "I") and tokens[n][:1].islower():
        n -= 1
    heading = tokens[:n]
    letters = sum(sum(c.isalpha() for c in t) for t in heading)
    if letters < 4 or (len(heading) == 1 and len(heading[0]) < 4) or len(heading) > MAX_HEADING_WORDS:
        return "", text
    return " ".join(heading), " ".join(tokens[n:])


def clean_heading(heading: str, vocab: Vocabulary) -> str:
    """Undo doubled fragments: "BRIEF PLA PLAYER YER TURN T URN" -> "Brief Player Turn"."""
    tokens = [t for t in heading.upper().split() if any(c.isalpha() for c in t) or t == "&"]

    def core(t: str) -> str:
        return "".join(c for c in t if c.isalpha())

    changed = True
    while changed:
        changed = False
        for i in range(len(tokens) - 1):
            a, b = core(tokens[i]), core(tokens[i + 1])
            if a and b and (a + b) in vocab and not (a in vocab and b in vocab and len(a) > 2 and len(b) > 2):
                tokens[i:i + 2] = [tokens[i] + tokens[i + 1]]
                changed = True
                break
        for i, t in enumerate(tokens):
            c = core(t)
            nxt = core(tokens[i + 1]) if i + 1 < len(tokens) else ""
            prev = core(tokens[i - 1]) if i else ""
            prev2 = core(tokens[i - 2]) if i > 1 else ""
            if c and ((nxt != c and nxt.startswith(c)) or (prev != c and prev.endswith(c))
                      or (prev2 != c and prev2.endswith(c) and len(c) > 1) or c == prev):
                lead = t[: len(t) - len(t.lstrip("(«“"))]
                del tokens[i]
                if lead and i < len(tokens) and not tokens[i].startswith(lead):
                    tokens[i] = lead + tokens[i]
                changed = True
                break
    half = len(tokens) // 2
    if half and len(tokens) % 2 == 0 and tokens[:half] == tokens[half:]:
        tokens = tokens[:half]
    return " ".join(t.capitalize() if t.isalpha() else t.title() for t in tokens)


def _letters(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def parse_arda(source: Source, path: Path, vocab: Vocabulary | None = None) -> ParsedDocument:
    """Parse Arda Revised line by line (the extraction has no blank lines to go by)."""
    lines = read_lines(path)
    vocab = vocab or corpus_vocabulary(path, "\n".join(lines))
    b = DocumentBuilder(source, lines)
    seen: dict[str, int] = {}  # sentence letters -> first line
    chapters = 0
    for number, line in enumerate(lines, start=1):
        span = Span(number, number)
        if not line.strip():
            continue
        text, changes = repair_words(line.strip(), vocab)
        for kind, before, after in changes:
            b.repair(number, kind, before, after)
        if m := CHAPTER.match(text):
            chapters += 1
            rest = text[m.end():]
            heading, rest = split_heading(rest)
            label = m.group(1).upper()
            title = clean_heading(heading, vocab) if heading else ""
            b.open_section(f"{label}. {title}".strip() if label.isdigit() else clean_heading(label + " " + heading, vocab), 1, span)
            text = rest
        else:
            heading, rest = split_heading(text)
            if heading:
                b.open_section(clean_heading(heading, vocab), 2 if chapters else 1, span)
                text = rest
        if not text.strip():
            continue
        _add_segments(b, text, span, seen)
    if chapters == 0:
        raise ParseError(str(path), None, "chapter markers such as •1•", "none")
    return b.finish()


def _add_segments(b: DocumentBuilder, text: str, span: Span, seen: dict[str, int]) -> None:
    """Store a line's text, split at Designer Notes/Clarification/Tip marks, once per passage."""
    pieces: list[tuple[str, str]] = []
    last, kind = 0, "rule"
    for m in NOTE_MARK.finditer(text):
        if m.start() > last:
            pieces.append((kind, text[last:m.start()]))
        kind, last = NOTE_KINDS[m.group("kind").lower()], m.start()
    pieces.append((kind, text[last:]))
    for kind, piece in pieces:
        piece = piece.strip()
        if not piece:
            continue
        sentences = [_letters(s) for s in SENTENCE.split(piece)]
        long = [s for s in sentences if len(s) >= 25]
        if long and all(s in seen for s in long) and len(_letters(piece)) - sum(map(len, long)) < 25:
            first = seen[long[0]]
            b.skip(span, f"repeated passage (the extraction repeated line {first})")
            continue
        for s in long:
            seen.setdefault(s, span.start)
        b.add(kind, piece, span)
