"""Parser for Arda Revised, text extracted from a PDF: reading order, headings, lost ligatures, small caps, repeats.

The extraction read the PDF's two columns line by line across (kb.builder.parsers.columns restores the
reading order as kb/data's repair file says), lost the fi/fl/ff ligatures ("inuence"), dropped the
letters small caps drew differently ("Utap Phase" for "Untap Phase"), doubled heading fragments
("PLA PLAYER YER") and repeated whole passages. Repairs use the vocabulary of the other documents
beside this one, and every repair is recorded; a passage the text still leaves cut is marked
incomplete (kb.model.Ruling.incomplete).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from itertools import chain
from pathlib import Path

from kb.errors import ParseError
from kb.inputs import read_bytes
from kb.model import ParsedDocument, Ruling, Source, Span
from kb.builder.parsers.blocks import read_lines
from kb.builder.parsers.columns import NONE, Mark, Piece, ReadingOrder, load_order, read_pieces
from kb.builder.parsers.document import DocumentBuilder, cut_reason, ends_sentence

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


LOST_DASH = re.compile(r"\b([1-9])([1-9])(?= players?\b)")
"""A range of player counts whose dash the extraction lost: "In 25 player games" is "2-5" (the text
writes "In 5-7 player games"); only a rising pair of digits, so "10 players" is left alone."""


def repair_ranges(text: str) -> tuple[str, list[tuple[str, str, str]]]:
    """Put back the dash of a range of player counts ("25 player games" -> "2-5 player games")."""
    changes: list[tuple[str, str, str]] = []

    def dash(m: re.Match[str]) -> str:
        if m.group(1) >= m.group(2):
            return m.group(0)
        changes.append(("lost dash", m.group(0), f"{m.group(1)}-{m.group(2)}"))
        return f"{m.group(1)}-{m.group(2)}"

    return LOST_DASH.sub(dash, text), changes


POSSESSIVE_ALONE = re.compile(r"[’'][sS][.,;:!?]*")
"""A possessive ending parted from its word by the extraction: "character ’s card"."""


def repair_doubles(text: str, vocab: Vocabulary) -> tuple[str, list[tuple[str, str, str]]]:
    """Undo what the PDF extraction doubled or parted; returns the text and (kind, before, after).

    - a possessive ending parted from its word: "character ’s" -> "character’s" ("split possessive");
    - a word written twice running, as the extraction doubled it: "corrupted corrupted", "power,
      power," (its punctuation repeated too), "player player.." (the punctuation doubled), "company’
      company’s" (a fragment, then the word), "ifif" (joined; not a word, twice one) -> once
      ("doubled word"). A pair English makes is kept: a word English writes twice (ENGLISH_DOUBLES:
      "that that", "had had"), or a repeat whose punctuation differs otherwise ("now, now");
    - a word written whole and again in two parts, around it or after it: "Wi Wizard zard",
      "corruption co rruption", "modified mo died" (the parts without the lost ligature) -> the word
      once ("split word").

    The extraction kept no line breaks to show where it joined two lines or columns; what shows
    its doubling is the word repeated with its own punctuation, which English does not write.
    """
    changes: list[tuple[str, str, str]] = []
    while True:  # again while a repair makes another pair ("character’s character ’s")
        text, more = _doubles_once(text, vocab)
        text, split = _split_words_once(text)
        if not more and not split:
            return text, changes
        changes += more + split


def _split_words_once(text: str) -> tuple[str, list[tuple[str, str, str]]]:
    """One pass over the text's tokens, each word written whole and in two parts around or after it
    ("Wi Wizard zard", "corruption co rruption") read once."""
    tokens = text.split(" ")
    out: list[str] = []
    changes: list[tuple[str, str, str]] = []
    i = 0
    while i < len(tokens):
        whole = _split_whole(*tokens[i:i + 3]) if i + 2 < len(tokens) else None
        if whole:
            changes.append(("split word", " ".join(tokens[i:i + 3]), whole))
            out.append(whole)
            i += 3
        else:
            out.append(tokens[i])
            i += 1
    return (" ".join(out), changes) if changes else (text, changes)


def _split_whole(a: str, b: str, c: str) -> str | None:
    """The word of three tokens that are a word and its two parts, "Wi Wizard zard" or "corruption
    co rruption" (the word without a lost ligature: "modified mo died"), with the last one's
    punctuation; None otherwise."""
    (wa, pa), (wb, pb), (wc, pc) = _core(a), _core(b), _core(c)
    if not (wa and wb and wc) or not any(ch.isalpha() for ch in wa + wb + wc):
        return None
    if wa + wc == wb and pa == "":  # "Wi Wizard zard"
        return wb + (pc or pb)
    whole = {wa} | {wa.replace(lig, "", 1) for lig in LIGATURES if lig in wa}
    if wb + wc in whole and pb == "" and len(wa) > 1:  # "corruption co rruption", "in i n"
        return wa + (pc or pa)
    return None


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
    elif n < len(tokens) and n > 1 and tokens[n - 1] == "A" and tokens[n][:1].isupper():
        n -= 1  # "COMPANY VS COMPANY COMBAT A Wizard Company may ...": no heading ends with "A"
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
    return " ".join(t.capitalize() if t.isalpha() else re.sub(r"’S\b", "’s", t.title()) for t in tokens)


def _letters(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


ORDER_FILE = "arda_reading_order.toml"
"""The reading order of the bundled text (kb.builder.parsers.columns), made for it alone."""


def bundled_order(source: Source, path: Path, b: DocumentBuilder) -> ReadingOrder:
    """The repair file's reading order if it was made for this text; else none, with a warning when
    it was made for a text of the same path (the document changed: the repairs must be made again)."""
    order = load_order(ORDER_FILE)
    if order.fits(read_bytes(path)):
        return order
    if order.path == source.path:
        b.problem(None, f"kb/data/{ORDER_FILE} was made for another text of {source.path} (SHA-256 "
                        f"{order.sha256[:12]}...): its reading order is not restored, and what the extraction "
                        "cut is marked incomplete; make the repairs again for this text")
    return NONE


@dataclass(slots=True)
class Passage:
    """A passage being read: its pieces' texts and lines, in reading order (kept until it ends)."""

    kind: str
    texts: list[str]
    lines: list[int]
    section: tuple[str, ...]

    @property
    def text(self) -> str:
        return " ".join(self.texts)


@dataclass(frozen=True, slots=True)
class Stored:
    """A passage as stored: its ruling, the lines it was read from, and the passage stored right
    before it in reading order (None where a heading or a skipped repeat stood between)."""

    ruling: Ruling
    lines: list[int]
    follows: Ruling | None


class ArdaReader:
    """Reads the pieces (kb.builder.parsers.columns) in order: headings open sections, a piece goes on with
    the passage before it or begins one, each ended passage stored once (a repeated one skipped)."""

    def __init__(self, b: DocumentBuilder, vocab: Vocabulary) -> None:
        self.b = b
        self.vocab = vocab
        self.seen: dict[str, int] = {}
        """Sentence letters -> the first line they were read on."""
        self.open: Passage | None = None
        self.stored: list[Stored] = []
        self.last: Ruling | None = None
        """The passage stored last, while nothing (a heading, a skipped repeat) has come after it."""
        self.chapters = 0
        self.untitled: tuple[str, int] | None = None
        """A chapter number whose title is on the next piece ("•8•" alone): its number and line."""

    def read(self, piece: Piece) -> None:
        """One piece: its words repaired, a chapter or heading it opens with, then its text."""
        text, changes = repair_words(piece.text.strip(), self.vocab)
        text, doubles = repair_doubles(text, self.vocab)
        text, ranges = repair_ranges(text)
        for kind, before, after in changes + doubles + ranges:
            self.b.repair(piece.line, kind, before, after)
        if not text:
            return
        span = Span(piece.line, piece.line)
        text = self.headings(text, span)
        if text.strip():
            self.segments(piece, text)

    def headings(self, text: str, span: Span) -> str:
        """Open the chapter or section the text begins with (a chapter's number alone, "•8•", takes
        its title from the heading the next piece begins with); the text after it."""
        untitled, self.untitled = self.untitled, None
        chapter = CHAPTER.match(text)
        heading, rest = split_heading(text[chapter.end():] if chapter else text)
        if heading or chapter or untitled:
            self.end()
            self.last = None
        if untitled:
            label, line = untitled
            if heading and not chapter:
                self.b.open_section(f"{label}. {clean_heading(heading, self.vocab)}", 1, span)
                self.b.skip(Span(line, line), f"chapter number, read with its title on line {span.start}")
                return rest
            self.b.open_section(f"{label}.", 1, Span(line, line))
        if chapter:
            self.chapters += 1
            label = chapter.group(1).upper()
            if label.isdigit() and not heading and not rest.strip():
                self.untitled = (label, span.start)
                return ""
            title = clean_heading(heading, self.vocab) if heading else ""
            self.b.open_section(f"{label}. {title}".strip() if label.isdigit()
                                else clean_heading(label + " " + heading, self.vocab), 1, span)
            return rest
        if heading:
            self.b.open_section(clean_heading(heading, self.vocab), 2 if self.chapters else 1, span)
            return rest
        return text

    def close(self) -> None:
        """The end of the text: the passage read stored, a chapter number left without its title opened."""
        self.end()
        if self.untitled:
            label, line = self.untitled
            self.b.open_section(f"{label}.", 1, Span(line, line))

    def segments(self, piece: Piece, text: str) -> None:
        """The text split at Designer Notes/Clarification/Tip marks: the first part goes on with the
        open passage where it continues it (goes_on()), each other part begins a passage."""
        pieces: list[tuple[str, str]] = []
        last, kind = 0, "rule"
        for m in NOTE_MARK.finditer(text):
            if m.start() > last:
                pieces.append((kind, text[last:m.start()]))
            kind, last = NOTE_KINDS[m.group("kind").lower()], m.start()
        pieces.append((kind, text[last:]))
        for n, (kind, part) in enumerate(pieces):
            part = part.strip()
            if not part:
                continue
            if n == 0 and self.open is not None and ((piece.bound and kind == "rule")
                                                     or goes_on(self.open.text, part, piece.joined)):
                self.open.texts.append(part)
                self.open.lines.append(piece.line)
            else:
                self.end()
                self.open = Passage(kind, [part], [piece.line], self.b.path)

    def end(self) -> None:
        """Store the open passage, or skip it if the extraction repeated it (all its long sentences
        read before)."""
        passage, self.open = self.open, None
        if passage is None:
            return
        text = passage.text
        sentences = [_letters(s) for s in SENTENCE.split(text)]
        long = [s for s in sentences if len(s) >= 25]
        lines = list(dict.fromkeys(passage.lines))
        if long and all(s in self.seen for s in long) and len(_letters(text)) - sum(map(len, long)) < 25:
            for line in lines:
                self.b.skip(Span(line, line), f"repeated passage (the extraction repeated line {self.seen[long[0]]})")
            self.last = None
            return
        ruling = self.b.add(passage.kind, text, Span(min(lines), max(lines)), section=passage.section)
        self.stored.append(Stored(ruling, lines, self.last))
        self.last = ruling
        for s in long:
            self.seen.setdefault(s, lines[0])


OPENERS = "(“\"‘'["
"""What may stand before a passage's first word: an opening bracket or quote ("(e.g., ...")."""


def goes_on(before: str, text: str, joined: bool) -> bool:
    """Whether a piece's text goes on with the passage before it, which ends without a sentence's
    end: a thread of the repair file says so (`joined`), or it opens in lower case, after any
    bracket or quote ("... the “unused direct influence” of the item’s" / "controlling character.
    In all ..."; "... special abilities" / "(e.g., corruption check modifiers)"): a paragraph the
    PDF's page or column broke."""
    return not ends_sentence(before) and (joined or text.lstrip(OPENERS)[:1].islower())


def parse_arda(source: Source, path: Path, vocab: Vocabulary | None = None,
               order: ReadingOrder | None = None) -> ParsedDocument:
    """Parse Arda Revised piece by piece (the extraction has no blank lines to go by), in the
    reading order its repair file restores (`order`; the bundled one if it fits the text), each
    passage it leaves cut marked incomplete."""
    lines = read_lines(path)
    vocab = vocab or corpus_vocabulary(path, "\n".join(lines))
    b = DocumentBuilder(source, lines, path)
    order = bundled_order(source, path, b) if order is None else order
    record: list[tuple[int, str, str, str]] = []
    reader = ArdaReader(b, vocab)
    for piece in read_pieces(path, lines, order, record):
        reader.read(piece)
    reader.close()
    for repair in record:
        b.repair(*repair)
    if reader.chapters == 0:
        raise ParseError(str(path), None, "chapter markers such as •1•", "none")
    mark_incomplete(b, path, reader.stored, order)
    return b.finish()


FOLLOWS_CUT = "it may begin mid-sentence: the passage before it breaks off"
"""Why a passage that reads whole is marked incomplete all the same: it opens in capitals ("Ring to
Mount Doom, ...") right after a passage cut mid-sentence ("... move The One"), so it may be that
passage's rest, which a capital word begins."""


def mark_incomplete(b: DocumentBuilder, path: Path, stored: list[Stored], order: ReadingOrder) -> None:
    """Mark incomplete each passage the text leaves cut (kb.builder.parsers.document.cut_reason), and each
    one right after a cut passage that may be its rest (FOLLOWS_CUT: not a list's item, nor a note),
    but those the repair file vouches for as whole; and each it finds words missing in (a gap)."""
    whole = {_marked(path, stored, m, True).id for m in order.whole}
    gaps = [(m, _marked(path, stored, m, False).id) for m in order.gaps]
    for s in stored:
        ruling, before = s.ruling, s.follows
        reason = "" if ruling.id in whole else cut_reason(ruling.text)
        if (not reason and ruling.id not in whole and before is not None and before.id not in whole
                and not ends_sentence(before.text) and ruling.kind == "rule" and not ruling.text.startswith("•")):
            reason = FOLLOWS_CUT
        missing = [f"words are missing after “{m.words}”" for m, rid in gaps if rid == ruling.id]
        if reason or missing:
            b.update(ruling, incomplete="; ".join([reason] * bool(reason) + missing))


def _marked(path: Path, stored: list[Stored], mark: Mark, begins: bool) -> Ruling:
    """The one stored passage read from the mark's line that begins with its words (`begins`) or
    holds them; ParseError otherwise."""
    found = [s.ruling for s in stored if mark.line in s.lines
             and (s.ruling.text.startswith(mark.words) if begins else mark.words in s.ruling.text)]
    if len(found) != 1:
        raise ParseError(str(path), mark.line, f"one passage for {mark.words!r} (kb/data repair file)",
                         f"{len(found)} passages")
    return found[0]
