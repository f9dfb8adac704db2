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
from kb.markers import find_markers
from kb.model import ParsedDocument, Ruling, Source, Span
from kb.parsers.blocks import read_lines
from kb.parsers.document import DocumentBuilder, ends_sentence

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


ENGLISH_DOUBLES = frozenset({"that", "had", "is", "was", "do", "does"})
"""Words English itself writes twice ("that that", "had had", "what it is is"): never repaired."""
END_PUNCTUATION = ".,;:!?"


def _core(token: str) -> tuple[str, str]:
    """A token's word and the punctuation after it: _core("power,") == ("power", ",")."""
    word = token.rstrip(END_PUNCTUATION)
    return word, token[len(word):]


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


POSSESSIVE_ALONE = re.compile(r"[’'][sS][.,;:!?]*")
"""A possessive ending parted from its word by the extraction: "character ’s card"."""


def repair_doubles(text: str, vocab: Vocabulary) -> tuple[str, list[tuple[str, str, str]]]:
    """Undo what the PDF extraction doubled or parted; returns the text and (kind, before, after).

    - a possessive ending parted from its word: "character ’s" -> "character’s" ("split possessive");
    - a word written twice running, as the extraction doubled it: "corrupted corrupted", "power,
      power," (its punctuation repeated too), "player player.." (the punctuation doubled), "company’
      company’s" (a fragment, then the word), "ifif" (joined; not a word, twice one) -> once
      ("doubled word"). A pair English makes is kept: a word English writes twice (ENGLISH_DOUBLES:
      "that that", "had had"), or a repeat whose punctuation differs otherwise ("now, now").

    The extraction kept no line breaks to show where it joined two lines or columns; what shows
    its doubling is the word repeated with its own punctuation, which English does not write.
    """
    changes: list[tuple[str, str, str]] = []
    while True:  # again while a repair makes another pair ("character’s character ’s")
        text, more = _doubles_once(text, vocab)
        if not more:
            return text, changes
        changes += more


def _doubles_once(text: str, vocab: Vocabulary) -> tuple[str, list[tuple[str, str, str]]]:
    """One pass of repair_doubles over the text's tokens."""
    changes: list[tuple[str, str, str]] = []
    out: list[str] = []
    for token in text.split(" "):
        prev = out[-1] if out else ""
        word, mark = _core(token)
        last, last_mark = _core(prev)
        if prev and POSSESSIVE_ALONE.fullmatch(token):
            if re.search(r"[’'][sS]$", last):  # "character’s ’s": the ending twice
                out[-1] = last + (mark or last_mark)
                changes.append(("doubled word", f"{prev} {token}", out[-1]))
                continue
            if last_mark == "" and last[-1:].isalpha():
                out[-1] = prev + token
                changes.append(("split possessive", f"{prev} {token}", out[-1]))
                continue
        if prev and last[-1:] in "’'" and len(last) > 1 and word == last + "s":  # "company’ company’s"
            out[-1] = token
            changes.append(("doubled word", f"{prev} {token}", token))
            continue
        if (prev and word == last and any(c.isalpha() for c in word) and word.lower() not in ENGLISH_DOUBLES
                and (last_mark in ("", mark) or mark == last_mark * 2)
                and (mark == last_mark or len(set(mark)) <= 1)):
            out[-1] = word + (last_mark or mark[:1])
            changes.append(("doubled word", f"{prev} {token}", out[-1]))
            continue
        half = len(word) // 2
        if (half >= 2 and word[:half] == word[half:] and word not in vocab and word[:half] in vocab
                and word.lower() not in ENGLISH_DOUBLES):  # "ifif"
            token = word[:half] + mark
            changes.append(("doubled word", word + mark, token))
        out.append(token)
    return (" ".join(out), changes) if changes else (text, changes)


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
    last: Ruling | None = None  # the ruling the line before ended with
    for number, line in enumerate(lines, start=1):
        span = Span(number, number)
        previous, last = last, None
        if not line.strip():
            continue
        text, changes = repair_words(line.strip(), vocab)
        text, doubles = repair_doubles(text, vocab)
        for kind, before, after in changes + doubles:
            b.repair(number, kind, before, after)
        if m := CHAPTER.match(text):
            chapters += 1
            rest = text[m.end():]
            heading, rest = split_heading(rest)
            label = m.group(1).upper()
            title = clean_heading(heading, vocab) if heading else ""
            b.open_section(f"{label}. {title}".strip() if label.isdigit() else clean_heading(label + " " + heading, vocab), 1, span)
            text, previous = rest, None
        else:
            heading, rest = split_heading(text)
            if heading:
                b.open_section(clean_heading(heading, vocab), 2 if chapters else 1, span)
                text, previous = rest, None
        if not text.strip():
            continue
        last = _add_segments(b, text, span, seen, previous)
    if chapters == 0:
        raise ParseError(str(path), None, "chapter markers such as •1•", "none")
    return b.finish()


def continues(ruling: Ruling | None, text: str) -> bool:
    """Whether a line's text goes on with the ruling the line before ended: that one ends without
    a sentence's end, and this one opens in lower case ("... the “unused direct influence” of the
    item’s" / "controlling character. In all ..."): a paragraph the PDF's page or column broke."""
    return ruling is not None and not ends_sentence(ruling.text) and text[:1].islower()


def _add_segments(b: DocumentBuilder, text: str, span: Span, seen: dict[str, int],
                  before: Ruling | None = None) -> Ruling | None:
    """Store a line's text, split at Designer Notes/Clarification/Tip marks, once per passage; a
    line that continues the ruling the line before ended (`before`, continues()) is joined to it.
    Returns the ruling the line ends with (None if it ends with a repeat, skipped)."""
    pieces: list[tuple[str, str]] = []
    last, kind = 0, "rule"
    for m in NOTE_MARK.finditer(text):
        if m.start() > last:
            pieces.append((kind, text[last:m.start()]))
        kind, last = NOTE_KINDS[m.group("kind").lower()], m.start()
    pieces.append((kind, text[last:]))
    ended: Ruling | None = None
    for n, (kind, piece) in enumerate(pieces):
        piece = piece.strip()
        if not piece:
            continue
        sentences = [_letters(s) for s in SENTENCE.split(piece)]
        long = [s for s in sentences if len(s) >= 25]
        if long and all(s in seen for s in long) and len(_letters(piece)) - sum(map(len, long)) < 25:
            first = seen[long[0]]
            b.skip(span, f"repeated passage (the extraction repeated line {first})")
            ended = None
            continue
        if n == 0 and before is not None and continues(before, piece):
            joined = f"{before.text} {piece}"
            whole = Span(before.span.start, span.end)
            ended = b.update(before, text=joined, span=whole, raw=b.raw(whole), markers=find_markers(joined))
        else:
            ended = b.add(kind, piece, span)
        for s in long:
            seen.setdefault(s, span.start)
    return ended
