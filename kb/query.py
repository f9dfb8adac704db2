"""Query understanding: a judge's words in, weighted index terms and recognised references out.

This is the one specification of how a query is read. Its patterns and tables are plain data
(`RULES`, kb/data/*.toml) that the build ships to the browser inside the search data, and
site/assets/search.js executes the same steps over the same tables, so the terminal and the
phone read a question alike. Every pattern here is written to mean the same in Python (`re.ASCII`)
and JavaScript, and runs over the query with its accents folded.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
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
    "annotation": r"\b(?:annotations?|annot|anno|ann)\.?(?:\s*#)?\s*(\d{1,2}[ab]?)\b",
    "rule": r"(?<![\w.])((?:\d{1,2}|g)(?:\.[A-Za-z0-9]+)+)(?![\w.])",
    "timing": r"\b(?:timing\s+)?rule\s+(\d[A-Da-d]?)(?![.\w])",
    "other_game": r"\b(?:lotr|lord of the rings tcg|decipher)\b",
    "arda": r"\barda\b",
    "card_text": r"^\s*what does\b|\bdo\s*\??\s*$|\bcard text\b|^\s*(?:the\s+)?text of\b|\bcard\s*$",
    "how_many": r"\bhow (?:many|much|few)\b|\bnumber of\b|\bmaximum\b|\bminimum\b",
    "number": r"\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|half|twice)\b",
    "step": r"^[^.\n()]{3,60}?, Step \d+\s*\(([^()\n]{3,60})\)\s+-\s",
}
"""The patterns of query understanding, by name. "how_many" reads the question's intent (a number);
"number" finds a number a ruling gives, "step" the name of a rulebook step ("Movement/Hazard Phase,
Step 3 (Set the Base Hazard Limit) - ...") that a ruling opens with."""

CAPITALISED = r"(?:(?<=[a-z,;] )|^)([A-Z][\w'-]+)"
"""A capitalised word after a lower-case word (or opening a short query): a one-word card name."""

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
}
"""Weights of the index terms a query gives, by where each came from."""

SUFFIXES = ("ings", "ing", "ied", "ies", "ed", "es", "ly", "s")
"""Endings tried off a word the corpus never uses, to find one it does ("cancelling" -> "cancel")."""
PREFIXES = frozenset({"non", "un", "re", "pre", "co", "anti", "semi", "self", "sub"})
"""Parts of a compound that are a prefix, not a word: "non-moving" is not about "non-Darkhaven"."""
MAX_NAME_WORDS = 7
NOT_NAMES = ("council of elrond", "white council")
"""Phrases whose words name cards but that mean something else (the rules committee, an order):
no card is mentioned there."""
FIRST_WORD_NAMES = 3
RARE_NAME_WORD = 40
"""A capitalised word names the cards it begins when it begins at most 3 names and the corpus uses
it at most 40 times (a word of the rules, like "Gates" or "Men", is used far more)."""
RARE = 0.0005
"""A word in fewer than this share of rulings may be a misspelling of a common one."""



LIMITS = {"MAX_QUERY": MAX_QUERY, "MAX_NAME_WORDS": MAX_NAME_WORDS, "FIRST_WORD_NAMES": FIRST_WORD_NAMES,
          "RARE_NAME_WORD": RARE_NAME_WORD, "RARE": RARE}
"""The numbers above, as the search data ships them to the browser."""


def compile_rule(name: str) -> re.Pattern[str]:
    return re.compile(RULES[name], re.I | re.A)


PATTERNS = {name: compile_rule(name) for name in RULES}
TOKEN = re.compile(r"\w+(?:[./\-]\w+)*")
"""A word as the index sees it: "on-guard", "m/h", "2.iv.iii", "25a" kept whole."""
COMPOUND = re.compile(r"[./\-]")
"""What joins the parts of a compound word ("M/H", "non-unique", "2.IV.iii"): search.js's COMPOUND."""
QUERY_WORD = re.compile(r"[^\s,;:!?()\[\]{}\"]+")
APOSTROPHES = re.compile(r"['`\u00b4\u02b9\u2018\u2019]")
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


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
    """Edit distance (insert, delete, substitute, swap two neighbours), or limit + 1 once beyond it."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    before: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        best = i
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], before[j - 2] + 1)
            best = min(best, cur[j])
        if best > limit:
            return limit + 1
        before, prev = prev, cur
    return prev[len(b)]


class Vocabulary(Protocol):
    """What understanding needs of the corpus (kb.searchspec.SearchSpec provides it)."""

    docs_count: int

    def terms_of(self, key: str) -> list[str] | None: ...
    def count_of(self, key: str) -> int: ...
    def df(self, term: str) -> int: ...
    def spelling_pool(self, first: str) -> list[str]: ...
    def card_names(self, key: str) -> list[str] | None: ...
    def name_keys(self, first: str) -> list[str]: ...
    def is_name_word(self, word: str) -> bool: ...
    def is_common_word(self, word: str) -> bool: ...
    def expansion(self, table: str, key: str) -> str | None: ...
    def phrases(self, table: str) -> re.Pattern[str]: ...


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


def correct(word: str, vocab: Vocabulary) -> str | None:
    """The common corpus word a rare or unknown word most likely misspells ("movment" -> "movement")."""
    if len(word) < 4 or not word.isalpha():
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


def find_cards(query: str, vocab: Vocabulary) -> tuple[list[str], list[tuple[str, str]], bool]:
    """Card names a query names: (names, [(typed, name)] for near spellings, whether the query is
    nothing but a name)."""
    folded = fold(query)
    for phrase in NOT_NAMES:
        folded = re.sub(rf"\b{phrase}\b", " ", folded)
    words = folded.split()
    whole = " ".join(words)
    if not whole:
        return [], [], False
    exact = vocab.card_names(whole)
    if exact:
        return list(exact), [], True
    found: list[str] = []
    i = 0
    while i < len(words):
        for n in range(min(MAX_NAME_WORDS, len(words) - i), 1, -1):
            names = vocab.card_names(" ".join(words[i:i + n]))
            if names:
                found += [c for c in names if c not in found]
                i += n - 1
                break
        i += 1
    for m in re.finditer(CAPITALISED, not_names(strip_marks(query)), re.A):
        key = fold(m.group(1))
        if m.start() == 0 and len(words) > 4 and vocab.is_common_word(key):
            continue  # "Twilight fell ..." opens a sentence; "Gandalf taps ..." names a card
        names = vocab.card_names(key) or first_word_names(key, vocab)
        if names and len(key) > 3:
            found += [c for c in names if c not in found]
    near: list[tuple[str, str]] = []
    if not found and len(words) <= 5 and all(vocab.count_of(w) < 3 or vocab.is_name_word(w) for w in words):
        match = near_name(whole, vocab)
        if match:
            found = match
            near.append((whole, match[0]))
    return found, near, bool(near)


def not_names(text: str) -> str:
    """The text with each NOT_NAMES phrase blanked out (same length, so positions hold)."""
    for phrase in NOT_NAMES:
        text = re.sub(rf"\b{phrase.replace(' ', '[^a-z0-9]+')}\b", lambda m: " " * len(m.group(0)), text,
                      flags=re.I | re.A)
    return text


def first_word_names(key: str, vocab: Vocabulary) -> list[str]:
    """The cards a capitalised word is the first word of, when it names at most FIRST_WORD_NAMES
    cards and the corpus seldom uses it otherwise ("Indur" for Indûr Dawndeath)."""
    if " " in key or not vocab.is_name_word(key) or vocab.count_of(key) > RARE_NAME_WORD:
        return []
    keys = [k for k in vocab.name_keys(key) if k.startswith(key + " ")]
    names: list[str] = []
    for k in sorted(keys):
        names += [n for n in vocab.card_names(k) or [] if n not in names]
    return names if 0 < len(names) <= FIRST_WORD_NAMES else []


def near_name(whole: str, vocab: Vocabulary) -> list[str]:
    """The names a short query nearly spells ("morgul knive"), or begins ("khamul": every Khamûl)."""
    limit = len(whole) // 6 if len(whole) >= 5 else 0
    limit = max(limit, 1) if len(whole) >= 5 else 0
    best: tuple[int, str] | None = None
    starts: list[str] = []
    for key in vocab.name_keys(whole[0]):
        if key.startswith(whole + " ") and len(whole) >= 4:
            starts.append(key)
        if abs(len(key) - len(whole)) <= limit:
            d = distance(whole, key, limit)
            if d <= limit and (best is None or (d, key) < best):
                best = (d, key)
    if best is not None:
        return list(vocab.card_names(best[1]) or [])
    names: list[str] = []
    for key in sorted(starts)[:6]:
        names += [n for n in vocab.card_names(key) or [] if n not in names]
    return names


def understand(query: str, vocab: Vocabulary) -> Understanding:
    """Read a query: references, cards, abbreviations, synonyms, typos, question words -> weighted
    index terms."""
    q = clean(query)
    u = Understanding(q)
    a = strip_marks(q)
    if PATTERNS["other_game"].search(a):
        u.games.append("lotr-tcg")
    u.arda = bool(PATTERNS["arda"].search(a))
    u.how_many = bool(PATTERNS["how_many"].search(a))
    u.numbers = sorted({m.group(0).lower() for m in PATTERNS["number"].finditer(a)})
    rest = a
    for m in PATTERNS["annotation"].finditer(a):
        u.annotations.append(m.group(1).lower())
        rest = rest.replace(m.group(0), " ")
    for m in PATTERNS["timing"].finditer(rest):
        u.rules.append(m.group(1).lower())
    for m in PATTERNS["rule"].finditer(rest):
        u.rules.append(m.group(1).lower())
        rest = rest.replace(m.group(0), " ")
    u.cards, u.near_cards, near = find_cards(rest, vocab) if rest.strip() else ([], [], False)
    u.card_text = bool(PATTERNS["card_text"].search(rest))
    bare = fold(PATTERNS["card_text"].sub(" ", rest))
    named = {w for c in u.cards for w in fold(c).split()}
    u.card_query = bool(u.cards) and (near or bool(vocab.card_names(bare)) or all(
        w in named or vocab.count_of(w) == 0 for w in bare.split()))
    u.dropped += [m.group(0) for m in PATTERNS["filler"].finditer(rest)]
    rest = PATTERNS["filler"].sub(" ", rest)
    weights: dict[str, float] = {}

    def add(terms: list[str], weight: float) -> None:
        for t in terms:
            weights[t] = max(weights.get(t, 0.0), weight)

    synonyms: list[str] = []
    said_spans: list[tuple[int, int]] = []
    for m in vocab.phrases("synonyms").finditer(rest):
        said = m.group(0)
        rules_words = vocab.expansion("synonyms", said.lower()) or ""
        u.synonyms.append((said, rules_words))
        synonyms.append(rules_words)
        said_spans.append((m.start(), m.end()))
    expanded: list[str] = []
    typed: list[tuple[list[str], float]] = []
    for m in QUERY_WORD.finditer(rest):
        word = m.group(0).strip(".'-")
        if not word:
            continue
        weight = WEIGHTS["said"] if any(a <= m.start() < b for a, b in said_spans) else WEIGHTS["typed"]
        expansion = vocab.expansion("abbreviations", word.lower())
        if expansion:
            u.abbreviations.append((word, expansion))
            expanded.append(expansion)
            terms = [t for token in TOKEN.findall(word) for t in analyze_word(token, vocab)]
            u.content.append(word)
            typed.append((terms, weight))
            continue
        key = fold(word)
        if not key or key in QUESTION_WORDS:
            u.dropped.append(word)
            continue
        before = len(u.corrections)
        terms = [t for token in TOKEN.findall(word) for t in analyze_word(token, vocab, u)]
        u.content.append(" ".join(c for _, c in u.corrections[before:]) or word)
        typed.append((terms, weight))
    for expansion in expanded:
        for m in vocab.phrases("synonyms").finditer(expansion):
            synonyms.append(vocab.expansion("synonyms", m.group(0).lower()) or "")
    add([t for text in synonyms for token in TOKEN.findall(text) for t in analyze_word(token, vocab)],
        WEIGHTS["synonym"])
    add([t for text in expanded for token in TOKEN.findall(text) for t in analyze_word(token, vocab)],
        WEIGHTS["abbreviation"])
    for terms, weight in typed:
        u.typed += terms
        add(terms, weight)
    weighted = list(weights.items())
    for name in u.cards:
        key = fold(name)
        weighted.append((f"about:{key}", WEIGHTS["about"] if u.card_query else WEIGHTS["about_named"]))
        weighted.append((f"mention:{key}", WEIGHTS["mentions"]))
    for n in u.annotations:
        weighted += [(f"number:annotation:{n}", WEIGHTS["number"]), (f"cites:annotation:{n}", WEIGHTS["cites_annotation"])]
    for n in u.rules:
        weighted += [(f"number:{n}", WEIGHTS["number"]), (f"cites:rule:{n}", WEIGHTS["cites_rule"])]
    u.terms = weighted
    u.question = "?" in q or len(u.dropped) >= 2 or len(q.split()) >= 6
    return u
