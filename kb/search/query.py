"""A query's words read: cleaned, folded, spelt (typos, a name typed as it sounds), analysed into index
terms, and the card names it gives; kb.search.question understands a whole question with them.

This is the one specification of how a query's words are read. Its patterns and tables are plain data
(`RULES`, kb/data/*.toml) that the build ships to the browser inside the search data, and
site/assets/query.js executes the same steps over the same tables, so the terminal and the
phone read a question alike. Every pattern here is written to mean the same in Python (`re.ASCII`)
and JavaScript, and runs over the query with its accents folded.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass, field
from collections.abc import Iterator, Mapping
from typing import Protocol


MAX_QUERY = 2000

QUESTION_WORDS = frozenset("""
a an the i me my mine we our you your he his she her they their them it its is are was were be been being
am do does did doing done can could would should shall will may might must what whats which who whom
whose when where why how many much if then than there here this that these those just still also
happen happens happened legal allowed okay ok possible please tell anyone someone some any really
get gets got so too very about into onto or and but not no yes
""".split())
"""Words that frame a question rather than say what it asks (dropped before the index is asked)."""

RULES: dict[str, str] = {
    # each a regular expression, case-insensitive, ASCII, valid in Python and JavaScript alike
    "filler": r"\b(?:(?:ends?|ended|ending) up|at all|in the first place|(?:kinds?|sorts?) of|a lot of)\b",
    # "annotation" also misspelt ("annotaton", "anotation"), yet not "another 2"
    "annotation": r"\b(?:an(?:n|no|o)t+a[a-z]{0,6}|annot|anno|ann)\.?(?:\s*#)?\s*(\d{1,2}[ab]?)\b",
    "rule": r"(?:\brules?\s+)?(?<![\w.])((?:\d{1,2}|g)(?:\.[A-Za-z0-9]+)+)(?![\w.])",  # its word "rule" with it
    "timing": r"\b(?:timing\s+)?rule\s+(\d[A-Da-d]?)(?![.\w])",
    "other_game": r"\b(?:lotr|lord of the rings tcg|decipher)\b",
    "arda": r"\barda\b",
    "card_text": r"^\s*what does\b|\bdo\s*\??\s*$|\bcard text\b|^\s*(?:the\s+)?text of\b|\bcard\s*$",
    "how_many": r"\bhow (?:many|much|few)\b|\bnumber of\b|\bmaximum\b|\bminimum\b",
    "number": r"\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|half|twice)\b",
    "step": r"^[^.\n()]{3,60}?, Step \d+\s*\(([^()\n]{3,60})\)\s+-\s",
    "sentence_end": r"[.?!]+(?=\s|$)|\[\.\.\.\]",
    "define": r"^\s*(?:(?:what(?:'?s| is| are)|define|definition of|meaning of)\s+(?:an?\s+|the\s+)?([^?]{2,60}?)"
              r"|what does\s+(?:an?\s+|the\s+)?([^?]{2,60}?)\s+mean)\s*\??\s*$",
    "asked": r"^\s*(?:what happens?|what goes on|how (?:does|do|is|are|can)|what (?:does|do|can)|"
             r"who(?:'?s| is| are| was)|tell me about|explain)\s+(?:(?:in|during|at|on|with)\s+)?"
             r"(?:an?\s+|the\s+)?([^?]{2,60}?)"
             r"(?:\s+(?:work|works|do|does|mean|means))?\s*\??\s*$",
}
"""The patterns of query understanding, by name. "how_many" reads the question's intent (a number);
"number" finds a number a ruling gives, "step" the name of a rulebook step ("Movement/Hazard Phase,
Step 3 (Set the Base Hazard Limit) - ...") that a ruling opens with. "define" reads what a question
asks the meaning of ("what is a haven"), "asked" what else it asks about as a whole ("what happens
in the site phase", "how does the hazard limit work", "what does Gandalf do"): its subject is read as
a meaning asked (Understanding.define), the glossary entry or the overview of a section (a rule its
heading numbers) that defines it first."""

WEIGHTS = {
    "typed": 1.0,         # a word the judge typed
    "abbreviation": 1.0,  # an abbreviation's expansion: what the judge typed, spelt out
    "synonym": 0.7,       # the rules' words a player's word stands for
    "said": 0.7,          # the player's word itself, once a synonym has given the rules' words
    "about": 3.0,         # a ruling on the card the query is the name of
    "about_named": 1.5,   # a ruling on a card a question names (as much as one naming it)
    "mentions": 1.5,      # a ruling that names a card the query names
    "number": 12.0,       # the annotation or rule the query gives by number
    "cites_annotation": 4.0,
    "cites_rule": 3.0,
    "story": 0.5,         # times the above, for the words of the story told around a question
}
"""Weights of the index terms a query gives, by where each came from."""

SUFFIXES = ("ings", "ing", "ied", "ies", "ed", "es", "ly", "s")
"""Endings tried off a word the corpus never uses, to find one it does ("cancelling" -> "cancel")."""
PREFIXES = frozenset({"non", "un", "re", "pre", "co", "anti", "semi", "self", "sub"})
"""Parts of a compound that are a prefix, not a word: "non-moving" is not about "non-Darkhaven"."""
MAX_NAME_WORDS = 7
NOT_NAMES = ("council of elrond", "council of lorien", "white council")
"""Phrases whose words name cards but that mean something else (the rules committee, and the one before
it, whose tournament policy the CoE rules and the timing guide cite; an order): no card is mentioned there."""
MAX_NAME = 120
"""Folded input longer than this names nothing (the longest card name is about 40 letters)."""
SUGGESTIONS = 5
FIRST_WORD_NAMES = 3
RARE_NAME_WORD = 40
"""A capitalised word names the cards it begins when it begins at most 3 names and the corpus uses
it at most 40 times, never in lower case (a word of the rules, like "Gates" or "Men", is used far
more; "Healing" is an ordinary word: first_word_names)."""
RARE = 0.0005
"""A word in fewer than this share of rulings may be a misspelling of a common one."""



NEAR_RUN = 4
"""The most words of a run the corpus does not know that are read as one misspelt name."""
NEAR_TRIES = 8
"""The most words the corpus does not know that a query has read as misspelt names: each is a few
near-spelling searches over every card name, and a pasted page of unknown words would otherwise
take seconds (no question of the dev sets has more than 4)."""

LIMITS = {"MAX_QUERY": MAX_QUERY, "MAX_NAME_WORDS": MAX_NAME_WORDS, "FIRST_WORD_NAMES": FIRST_WORD_NAMES,
          "NEAR_RUN": NEAR_RUN, "NEAR_TRIES": NEAR_TRIES,
          "RARE_NAME_WORD": RARE_NAME_WORD, "RARE": RARE}
"""The numbers above, as the search data ships them to the browser."""


def compile_rule(name: str) -> re.Pattern[str]:
    return re.compile(RULES[name], re.I | re.A)


PATTERNS = {name: compile_rule(name) for name in RULES}
TOKEN = re.compile(r"\w+(?:[./\-]\w+)*")
"""A word as the index sees it: "on-guard", "m/h", "2.iv.iii", "25a" kept whole."""
COMPOUND = re.compile(r"[./\-]")
"""What joins the parts of a compound word ("M/H", "non-unique", "2.IV.iii"): query.js's COMPOUND."""
QUERY_WORD = re.compile(r"[^\s,;:!?()\[\]{}\"]+")
APOSTROPHES = re.compile(r"['`\u00b4\u02b9\u2018\u2019]")
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def asked_about(typed: str) -> str:
    """What a question typed to a lookup asks about, read past the words that frame it: asked_about(
    "what is a haven?") == "haven" (RULES "define", as the search reads it), asked_about("what happens
    in the site phase") == "site phase" (RULES "asked"); anything else as typed, a closing "?" off."""
    text = clean(typed)
    meaning = PATTERNS["define"].match(text) or PATTERNS["asked"].match(text)
    subject = next((g for g in meaning.groups() if g), "") if meaning else ""
    return subject.strip() or text.rstrip("?").strip() or text


def clean(text: str, limit: int = MAX_QUERY) -> str:
    """User text made safe to analyse: control characters out, length capped, spaces collapsed."""
    text = CONTROL.sub(" ", unicodedata.normalize("NFC", text))[:limit]
    return " ".join(text.split())


def strip_marks(text: str) -> str:
    """Accents off, case kept; curly quotes made straight: strip_marks("Adûnaphel’s") == "Adunaphel's"."""
    if text.isascii():
        return text  # nothing to take off (most words and rulings): NFKD leaves ASCII as it is
    text = unicodedata.normalize("NFKD", text)
    marks = {ord(c): None for c in set(text) if unicodedata.combining(c)}  # each distinct character once
    text = text.translate(marks) if marks else text
    return text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')


def fold_key(token: str) -> str:
    """A token as the vocabulary keys it: accents off, lower case."""
    return strip_marks(token).lower()


def fold(text: str) -> str:
    """Lower-case ASCII words joined by single spaces: fold("Gollum’s  Fate!") == "gollums fate"."""
    ascii_text = strip_marks(APOSTROPHES.sub("", text)).encode("ascii", "ignore").decode()
    return " ".join(re.findall(r"[a-z0-9]+", ascii_text.lower()))


def distance(a: str, b: str, limit: int) -> int:
    """Edit distance (insert, delete, substitute, swap two neighbours), or limit + 1 once beyond it.
    Only the cells within `limit` of the diagonal are worked out: any other lies beyond the limit."""
    n, m = len(a), len(b)
    if abs(n - m) > limit:
        return limit + 1
    big = limit + 1
    before: list[int] = []
    prev = [j if j <= limit else big for j in range(m + 1)]
    for i in range(1, n + 1):
        cur = [big] * (m + 1)
        cur[0] = best = i if i <= limit else big
        for j in range(max(1, i - limit), min(m, i + limit) + 1):
            v = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                v = min(v, before[j - 2] + 1)
            cur[j] = v = min(v, big)
            best = min(best, v)
        if best > limit:
            return big
        before, prev = prev, cur
    return prev[m]


SOUNDS = {"ph": "f", "kh": "k", "gh": "g", "ck": "k"}
"""Spellings of one sound: a name typed as it sounds ("gandalph" for Gandalf, "akorahil" for
Akhôrahil) is one typo from it (near_distance), as is a letter doubled or not ("shellob").
The search data ships it (kb.search.searchspec, query.sounds); site/assets/query.js reads it from there."""
SOUND = re.compile("|".join(SOUNDS))
DOUBLED = re.compile(r"([a-z])\1")


@functools.lru_cache(maxsize=1 << 14)  # (each card name's once: near_name() measures against them all)
def sounded(key: str) -> str:
    """A folded name as it sounds: each spelling of SOUNDS as its sound, then each letter doubled
    once: sounded("gandalph") == "gandalf", sounded("shellob") == "shelob", sounded("wophfung") == "wofung"."""
    return DOUBLED.sub(r"\1", SOUND.sub(lambda m: SOUNDS[m.group(0)], key))


def reach(length: int) -> int:
    """The typos forgiven in a typed name (or a word of one) this many letters long: none below 5
    letters, one below 9, then two (a sixth of a longer one): a longer name carries more typos, and
    a short one is a typo away from too many others."""
    return 0 if length < 5 else 1 if length < 9 else max(2, length // 6)


def name_reach(key: str) -> int:
    """The typos forgiven in a typed name (folded): reach() of its length, but a second in one under
    12 letters only where its words carry two, each word its own reach(): "glorfindal" does, "mind
    ring" does not (Minor Ring is two from it, both in a word of four letters)."""
    return min(reach(len(key)), max(1, len(key) // 6, sum(reach(len(w)) for w in key.split())))


def near_distance(a: str, b: str, limit: int) -> int:
    """distance(), but a name typed as it sounds counts one typo, however many letters it changes
    (SOUNDS, a doubled letter): near_distance("gandalph", "gandalf", 1) == 1 where distance() is 2."""
    d = distance(a, b, limit)
    if d <= 1:
        return d
    said, heard = sounded(a), sounded(b)
    if said == heard:
        return 1
    return d if limit < 2 else min(d, distance(said, heard, limit - 1) + 1)


class PhraseFinder(Protocol):
    """The phrases of a table, found in a text as whole words, longest first (kb.search.searchspec.Phrases)."""

    def finditer(self, text: str) -> Iterator[re.Match[str]]: ...


class Vocabulary(Protocol):
    """What understanding needs of the corpus (kb.search.searchspec.SearchSpec provides it)."""

    docs_count: int

    def terms_of(self, key: str) -> list[str] | None: ...
    def count_of(self, key: str) -> int: ...
    def df(self, term: str) -> int: ...
    def spelling_pool(self, first: str) -> list[str]: ...
    def card_names(self, key: str) -> list[str] | None: ...
    def name_keys(self, first: str) -> list[str]: ...
    def is_name_word(self, word: str) -> bool: ...
    def is_common_word(self, word: str) -> bool: ...
    def is_game_word(self, word: str) -> bool: ...
    def is_english(self, word: str) -> bool: ...
    def name_index(self) -> NameIndex: ...
    def expansion(self, table: str, key: str) -> str | None: ...
    def phrases(self, table: str) -> PhraseFinder: ...


@dataclass(slots=True)
class Understanding:
    """How a query was read: every step, for --explain."""

    query: str
    annotations: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)
    near_cards: list[tuple[str, str]] = field(default_factory=list)
    abbreviations: list[tuple[str, str]] = field(default_factory=list)
    synonyms: list[tuple[str, str]] = field(default_factory=list)
    corrections: list[tuple[str, str]] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    content: list[str] = field(default_factory=list)
    """The words kept, as typed (corrected where misspelt)."""
    typed: list[str] = field(default_factory=list)
    """The index terms of the words kept, in query order."""
    terms: list[tuple[str, float]] = field(default_factory=list)
    """Index terms and their weights: plain terms, and "about:", "mention:", "number:", "cites:"."""
    games: list[str] = field(default_factory=list)
    arda: bool = False
    card_text: bool = False
    card_query: bool = False
    how_many: bool = False
    question: bool = False
    numbers: list[str] = field(default_factory=list)
    """Numbers the query itself gives (no answer to a "how many")."""
    story_cards: list[str] = field(default_factory=list)
    """Cards named only in the story told around the question, not in the question itself."""
    story: list[str] = field(default_factory=list)
    """The words kept from the story told around the question (a post of several sentences)."""
    define: list[str] = field(default_factory=list)
    """The index terms of what a "what is X" / "what does X mean" question asks the meaning of, or a
    "what happens in X" / "how does X work" question asks about (RULES "asked")."""



def analyze_word(word: str, vocab: Vocabulary, u: Understanding | None = None) -> list[str]:
    """The index terms of one typed word: from the corpus's own vocabulary (the build's analyzer
    gave them), else by an ending off, else by the nearest common spelling; recorded in u."""
    key = fold_key(word)
    terms = vocab.terms_of(key)
    if terms is not None:
        if u is not None and len(key) >= 4 and not key.isdigit() and not vocab.is_name_word(key) and \
                vocab.count_of(key) <= 2 and all(vocab.df(t) < RARE * vocab.docs_count for t in terms):
            fixed = correct(key, vocab)
            if fixed:
                u.corrections.append((key, fixed))
                return vocab.terms_of(fixed) or []
        return terms
    if COMPOUND.search(key):  # a compound the corpus lacks: whole, and its parts (as the build's analyzer)
        if key[0].isdigit():
            return [key]
        parts = [p for p in COMPOUND.split(key) if p and p not in PREFIXES]
        return [key] + [t for part in parts for t in analyze_word(part, vocab, u)]
    for suffix in SUFFIXES:
        if key.endswith(suffix) and len(key) - len(suffix) >= 3:
            base = key[:-len(suffix)]
            for candidate in (base, base + "e", base[:-1] if len(base) > 3 and base[-1] == base[-2] else "",
                              base + "y" if suffix in ("ies", "ied") else ""):
                found = vocab.terms_of(candidate) if candidate else None
                if found:
                    return found
    if u is not None and not vocab.is_name_word(key):
        fixed = correct(key, vocab)
        if fixed:
            u.corrections.append((key, fixed))
            return vocab.terms_of(fixed) or []
    return [key] if key.isalnum() else []


def analyze_text(text: str, vocab: Vocabulary, u: Understanding | None = None) -> list[str]:
    """The index terms of each word of a text (analyze_word; its corrections recorded in u)."""
    return [t for token in TOKEN.findall(text) for t in analyze_word(token, vocab, u)]


def english_words(english: list[str], counts: Mapping[str, int]) -> list[str]:
    """The English words whose being English changes what correct() does over a corpus whose words
    are used `counts` times: those the corpus uses at most twice, within correct()'s reach of a word
    it uses at least three times ("scores" of "shores", "wherever" of "whenever"). The browser's
    index ships only these (kb.site.browserdata); of any other word, correct() says the same either way.

    Within reach: the same first letter, and distance() at most correct()'s limit for the word (2
    from 7 letters, else 1), so a length at most `limit` apart. Two words that close share, their
    first letter aside, what is left of each once at most `limit` letters are deleted (an edit costs
    the part they share at most one letter of each), so only the common words that share such a
    deletion with the English word are measured. Of the rest of the English word, such a deletion
    keeps one half whole, or (limit 2) each half but one letter: only the deletions whose halves
    begin or end a common word's deletion are made (most words make none). Same answers as measuring
    every common word of that letter (tests/test_search.py)."""
    near: dict[int, dict[str, dict[str, set[str]]]] = {1: {}, 2: {}}
    """limit -> first letter -> what deleting at most limit letters of the rest leaves -> common words"""
    for w, n in counts.items():
        if n >= 3 and w.isalpha() and w.isascii():
            for limit, fits in ((1, 3 <= len(w) <= 7), (2, len(w) >= 5)):  # (limit from 4-6 letters; from 7)
                if fits:
                    by = near[limit].setdefault(w[0], {})
                    for d in _deletions(w[1:], limit):
                        by.setdefault(d, set()).add(w)
    halves = {limit: {first: _halves(by) for first, by in letters.items()} for limit, letters in near.items()}
    out = []
    for word in english:
        n = len(word)
        limit = 2 if n >= 7 else 1
        if n < 4 or word[0] not in near[limit] or counts.get(word, 0) > 2:
            continue
        by, (heads, tails) = near[limit][word[0]], halves[limit][word[0]]
        half = 1 + (n - 1) // 2
        head, tail = word[1:half], word[half:]  # the halves of the rest (after the first letter)
        deleted = [head + d for d in _deletions(tail, limit)] if head in heads else []
        if tail in tails:
            deleted += [d + tail for d in _deletions(head, limit)]
        if limit == 2 and (ones := [d for d in _deletions(head, 1) if d in heads]):
            deleted += [one + d for d in _deletions(tail, 1) if d in tails for one in ones]
        if any(w != word and (n + len(w) - 2 - 2 * len(d) <= limit or distance(word, w, limit) <= limit)
               for d in deleted if d in by for w in by[d]):
            out.append(word)  # (the letters deleted from both, when no more than limit, are an edit)
    return out


def _halves(deleted: Mapping[str, object]) -> tuple[set[str], set[str]]:
    """The heads and tails of the deletions (of common words) that an English word's halves may be, whole
    or for one letter less (english_words): half a deletion's length (the tail's rounded up), or one
    letter more, as a word up to 2 letters longer than the deletion is halved."""
    heads = {d[:len(d) // 2 + k] for d in deleted for k in (0, 1)}
    tails = {d[len(d) - (len(d) + 1) // 2 - k:] for d in deleted for k in (0, 1)}
    return heads, tails


def _deletions(text: str, limit: int) -> list[str]:
    """The text and what deleting one letter, or (limit 2) two, of it leaves; repeats allowed."""
    ones = [text[:i] + text[i + 1:] for i in range(len(text))]
    if limit > 1:
        ones += [one[:j] + one[j + 1:] for i, one in enumerate(ones) for j in range(i, len(one))]
    ones.append(text)
    return ones


def correct(word: str, vocab: Vocabulary) -> str | None:
    """The common corpus word a rare or unknown word most likely misspells ("movment" -> "movement");
    never for an English word ("scores" stays scores)."""
    if len(word) < 4 or not word.isalpha() or vocab.is_english(word):
        return None
    seen = vocab.count_of(word)
    if seen > 2:
        return None
    limit = 2 if len(word) >= 7 else 1
    best: tuple[int, int, str] | None = None
    for w in vocab.spelling_pool(word[0]):
        if w == word or abs(len(w) - len(word)) > limit:
            continue
        n = vocab.count_of(w)
        if n < 10 * (seen + 1) * (1 if seen else 0) + 3:
            continue
        d = distance(word, w, limit)
        if d <= limit and (best is None or (d, -n, w) < best):
            best = (d, -n, w)
    return best[2] if best else None


@dataclass(slots=True)
class NameIndex:
    """Folded names -> what they stand for, searched for the names nearest a misspelling."""

    keys: Mapping[str, list[str]]
    """A folded name -> the display names it stands for."""
    _words: dict[str, set[str]] | None = None
    _near: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    """_near_words' answers, by typed word (rank and all_words_in_one ask for the same words)."""

    def words(self) -> dict[str, set[str]]:
        if self._words is None:
            self._words = {}
            for key in self.keys:
                for w in key.split():
                    self._words.setdefault(w, set()).add(key)
        return self._words

    def _near_words(self, w: str) -> list[tuple[str, int]]:
        """The name words a typed word may mean, with their distance: itself, a word it begins (four
        letters or more), or a typo of it within reach() (one from five letters, two from nine)."""
        if w in self._near:
            return self._near[w]
        if len(w) < 3:
            return [(w, 0)] if w in self.words() else []
        limit = reach(len(w))
        out = []
        for word in self.words():
            if word == w or (len(w) >= 4 and word.startswith(w)):
                out.append((word, 0))
            elif limit and (d := _close(w, word, limit)) <= limit:
                out.append((word, d))
        self._near[w] = out
        return out

    def rank(self, typed: str, n: int = SUGGESTIONS) -> list[str]:
        """The display names nearest to typed, best first: a name it begins, or spells within a
        third of its letters (nearest first), then names sharing the most of its words (each word
        forgiven a typo or an ending)."""
        key = fold(typed)
        if not key or len(key) > MAX_NAME:
            return []
        best: dict[str, tuple[int, int, int]] = {}

        def offer(k: str, score: tuple[int, int, int]) -> None:
            for name in self.keys[k]:
                if name not in best or score < best[name]:
                    best[name] = score

        limit = max(1, len(key) // 3)
        compact = key.replace(" ", "")
        for k in self.keys:
            if k.startswith(key) or (len(k) >= 4 and key.startswith(k)) or k.replace(" ", "").startswith(compact):
                offer(k, (0, abs(len(k) - len(key)), 0))
            elif (d := _close(key, k, limit)) <= limit:
                offer(k, (1, d, 0))
        hits: dict[str, list[int]] = {}
        for w in key.split():
            for word, d in self._near_words(w):
                for k in self.words()[word]:
                    h = hits.setdefault(k, [0, 0])
                    h[0] += 1
                    h[1] += d
        for k, (count, total) in hits.items():
            offer(k, (2, -count, total * 100 + len(k)))
        return sorted(best, key=lambda name: (best[name], fold(name)))[:n]

    def all_words_in_one(self, typed: str) -> list[str]:
        """The display names whose words hold every typed word (a typo or an ending forgiven)."""
        words = [w for w in fold(typed).split() if len(w) >= 3]
        if not words:
            return []
        sets = []
        for w in words:
            found: set[str] = set()
            for word, _ in self._near_words(w):
                found |= self.words()[word]
            sets.append(found)
        common = set.intersection(*sets)
        return sorted({name for k in common for name in self.keys[k]}, key=fold)




def _close(a: str, b: str, limit: int) -> int:
    """near_distance(a, b, limit), or limit + 1 where cheap tests tell it is beyond (a typo seldom
    changes both ends; a name typed as it sounds may be a letter longer or shorter still)."""
    if abs(len(a) - len(b)) > limit + 1 or not b or (a[0] != b[0] and a[-1] != b[-1]):
        return limit + 1
    return near_distance(a, b, limit)


def read_name(typed: str, vocab: Vocabulary, index: NameIndex) -> tuple[list[str], bool]:
    """The card names a typed name may mean, and whether they were read from a near spelling: an
    exact name (any language), else a near spelling ("morgul knive"), else the names whose words
    hold every word typed ("khamul easterling"); kb.search.resolve.read_card and the names in a question
    read alike. A "The" typed before a name that has none is read past ("the old forest": Old Forest);
    the reverse is the names' own table's (kb.search.searchspec.name_table)."""
    key = fold(typed)
    if not key or len(key) > MAX_NAME:
        return [], False
    exact = vocab.card_names(key) or (vocab.card_names(key[4:]) if key.startswith("the ") else None)
    if exact:
        return list(exact), False
    return (near_name(key, vocab) or index.all_words_in_one(typed)), True


NAME_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*")
"""A word of a query as names are read from it, an apostrophe inside it kept ("Beorn's"): kb.builder.lexicon's
NAME_WORD, on text whose apostrophes strip_marks has made straight."""
POSSESSIVE = re.compile(r"'s$", re.I)
NAME_CONTEXT = re.compile(r"[a-z,;] $")
"""What a capitalised word follows when it is a one-word name mid-question: a lower-case word or a
comma, and a space."""
CASED = re.compile(r"[a-z,;] [A-Z][a-z]")
"""A capitalised word mid-sentence: a query that has one writes names capitalised."""


@dataclass(frozen=True, slots=True)
class NameSpan:
    """Where a query names a card: its characters, the English names, and whether it was a near spelling."""

    start: int
    end: int
    names: list[str]
    near: bool = False


def name_spans(query: str, vocab: Vocabulary) -> tuple[list[NameSpan], bool]:
    """Where a query names cards, in query order, and whether it is nothing but a name.

    Read as the rulings are read (kb.builder.lexicon.find_spans): the longest name first, left to right,
    and the words of a name are not read again as names of their own ("Doors of Night" is not
    Night, "Witch King" not King under the Mountain); a name of several words anywhere, except a
    phrase the rules also write as plain words ("left behind"), which is a name only capitalised;
    a one-word name where the query capitalises it mid-sentence. A run of words the corpus does
    not know is read as `rulings card` reads a name ("Shadowfacs" is Shadowfax).
    """
    text = not_names(query)
    whole = fold(text)
    if not whole:
        return [], False
    exact = vocab.card_names(whole)
    if exact:
        return [NameSpan(0, len(query), list(exact))], True
    tokens = [(m.group(0), m.start(), m.end()) for m in NAME_WORD.finditer(text)]
    keys = [fold(t) for t, _, _ in tokens]
    bare = [fold(POSSESSIVE.sub("", t)) for t, _, _ in tokens]
    if len(tokens) <= 5 and all(vocab.count_of(w) < 3 or vocab.is_name_word(w) for w in keys):
        match = near_name(whole, vocab)  # a short query that nearly spells one name is that name
        if match:
            return [NameSpan(0, len(query), match, True)], True
    cased = CASED.search(text) is not None
    spans: list[NameSpan] = []
    i = 0
    while i < len(tokens):
        step = 1
        for n in range(min(MAX_NAME_WORDS, len(tokens) - i), 1, -1):
            found = _name_of(keys[i:i + n - 1], keys[i + n - 1], bare[i + n - 1], vocab)
            if found and (any(t[:1].isupper() for t, _, _ in tokens[i:i + n])
                          or not (cased or vocab.is_common_word(found[0]))):
                spans.append(NameSpan(tokens[i][1], tokens[i + n - 1][2], found[1]))
                step = n
                break
        else:
            run = i + 1 < len(tokens) and tokens[i + 1][0][:1].isupper()
            one = _one_word_name(tokens[i], bare[i], i == 0 and len(tokens) > 4, run, text, vocab)
            if one:
                spans.append(NameSpan(tokens[i][1], tokens[i][2], one))
        i += step
    spans += near_spans(tokens, keys, bare, spans, cased, vocab)
    return sorted(spans, key=lambda sp: sp.start), False


def near_spans(tokens: list[tuple[str, int, int]], keys: list[str], bare: list[str], taken: list[NameSpan],
               cased: bool, vocab: Vocabulary) -> list[NameSpan]:
    """Misspelt names in a question: around each word the corpus does not know, the longest run of
    at most NEAR_RUN such words and name words that reads as one card (read_name, as `rulings
    card` reads it), capitalised where the query capitalises names, and never one lower-case word
    that misspells a common word; the first NEAR_TRIES such words only."""
    free = [not any(sp.start <= start < sp.end for sp in taken) for _, start, _ in tokens]

    def unknown(j: int) -> bool:
        return (free[j] and len(keys[j]) >= 4 and keys[j].isalpha() and keys[j] not in QUESTION_WORDS
                and vocab.count_of(keys[j]) == 0 and vocab.count_of(bare[j]) == 0)

    def namish(j: int) -> bool:
        return free[j] and keys[j] not in QUESTION_WORDS and (unknown(j) or vocab.is_name_word(bare[j]))

    found: list[NameSpan] = []
    i = tries = 0
    while i < len(tokens) and tries < NEAR_TRIES:
        if not unknown(i):
            i += 1
            continue
        tries += 1
        lo, hi = i, i + 1
        while lo > 0 and i - lo < NEAR_RUN - 1 and namish(lo - 1):
            lo -= 1
        while hi < len(tokens) and hi - i < NEAR_RUN and namish(hi):
            hi += 1
        span = _near_run(tokens, keys, lo, hi, i, cased, vocab)
        if span is None:
            i += 1
            continue
        found.append(span[0])
        free[span[1]:span[2]] = [False] * (span[2] - span[1])
        i = span[2]
    return found


def _near_run(tokens: list[tuple[str, int, int]], keys: list[str], lo: int, hi: int, i: int, cased: bool,
              vocab: Vocabulary) -> tuple[NameSpan, int, int] | None:
    """The longest run of tokens[lo:hi] holding token i that reads as one card, and its bounds."""
    for n in range(min(hi - lo, NEAR_RUN), 0, -1):
        for a in range(max(lo, i - n + 1), min(i, hi - n) + 1):
            if cased and not any(t[:1].isupper() for t, _, _ in tokens[a:a + n]):
                continue
            names, near = read_name(" ".join(t for t, _, _ in tokens[a:a + n]), vocab, vocab.name_index())
            if len(names) != 1:
                continue
            if n == 1 and not tokens[i][0][:1].isupper() and (vocab.is_english(keys[i]) or correct(keys[i], vocab)):
                return None  # "charcter" a common word misspelt, "care" a word: not cards
            return NameSpan(tokens[a][1], tokens[a + n - 1][2], names, near), a, a + n
    return None


def _name_of(inner: list[str], last: str, bare_last: str, vocab: Vocabulary) -> tuple[str, list[str]] | None:
    """The name key and names these words make, the last one also without a final "'s"."""
    for end in dict.fromkeys((last, bare_last)):
        key = " ".join([*inner, end])
        names = vocab.card_names(key)
        if names:
            return key, list(names)
    return None


def _one_word_name(token: tuple[str, int, int], bare: str, opens_long: bool, run: bool, text: str,
                   vocab: Vocabulary) -> list[str]:
    """The cards a capitalised word names: mid-sentence (after a lower-case word) or opening the
    query, except an ordinary word opening a long question ("Twilight fell ..."); a rare word for
    the few cards it begins ("Indur"), unless the next word is capitalised too and so not theirs
    ("True Fana" names neither True Cold-drake nor True Fire-drake)."""
    typed, start, _ = token
    if not typed[:1].isupper() or len(bare) <= 3 or not (start == 0
                                                         or NAME_CONTEXT.search(text[max(0, start - 2):start])):
        return []
    if (opens_long and vocab.is_common_word(bare)) or vocab.is_game_word(bare):
        return []
    plural = bare[:-1] if bare.endswith("s") else ""  # "Gandalfs" typed for Gandalf's
    return list(vocab.card_names(bare) or (plural and vocab.card_names(plural))
                or ([] if run else first_word_names(bare, vocab)))


def not_names(text: str) -> str:
    """The text with each NOT_NAMES phrase blanked out (same length, so positions hold)."""
    for phrase in NOT_NAMES:
        text = re.sub(rf"\b{phrase.replace(' ', '[^a-z0-9]+')}\b", lambda m: " " * len(m.group(0)), text,
                      flags=re.I | re.A)
    return text


def first_word_names(key: str, vocab: Vocabulary) -> list[str]:
    """The cards a capitalised word is the first word of, when it names at most FIRST_WORD_NAMES
    cards and is a word of their names alone: the corpus seldom uses it and never writes it in lower
    case ("Indur" for Indûr Dawndeath; "Healing" is an ordinary word, neither Healing Herbs nor
    Healing of Nimrodel, which a question names by more of their words)."""
    if " " in key or not vocab.is_name_word(key) or vocab.count_of(key) > RARE_NAME_WORD or vocab.is_common_word(key):
        return []
    keys = [k for k in vocab.name_keys(key) if k.startswith(key + " ")]
    names: list[str] = []
    for k in sorted(keys):
        names += [n for n in vocab.card_names(k) or [] if n not in names]
    return names if 0 < len(names) <= FIRST_WORD_NAMES else []


def near_name(whole: str, vocab: Vocabulary) -> list[str]:
    """The names a short query nearly spells within name_reach() ("morgul knive", "gandalph": the
    nearest, each of them where several are as near), or begins ("khamul": every Khamûl)."""
    limit = name_reach(whole)
    best, nearest = limit + 1, []
    starts: list[str] = []
    for key in vocab.name_keys(whole[0]):
        if key.startswith(whole + " ") and len(whole) >= 4:
            starts.append(key)
        if limit and abs(len(key) - len(whole)) <= limit + 1:
            d = near_distance(whole, key, min(limit, best))
            if d < best:
                best, nearest = d, [key]
            elif d == best <= limit:
                nearest.append(key)
    names: list[str] = []
    for key in sorted(nearest) or sorted(starts)[:6]:
        names += [n for n in vocab.card_names(key) or [] if n not in names]
    return names
