"""The lexicon: every card name (in every language, folded) and where a text names cards."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any

from kb.builder.headings import singulars
from kb.search.query import fold, not_names

NAME_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
"""A word of running text, apostrophes inside it kept: "Beorn’s", "Gollum's", "O'Brien"."""
POSSESSIVE = re.compile(r"['’]s$", re.I)


@functools.lru_cache(maxsize=1 << 16)
def fold_word(word: str) -> str:
    """fold() of one word of running text, remembered: a corpus repeats its words endlessly."""
    return fold(word)


@dataclass(slots=True)
class Lexicon:
    """Card names (every language, folded) -> English names, and the words the corpus writes in lower case."""

    names: dict[str, list[str]] = field(default_factory=dict)
    lowercase: set[str] = field(default_factory=set)
    """Folded words the corpus writes in lower case, and the names of several words it writes so
    ("left behind", "the white hand"): an ordinary word or phrase, a card only where the words say so."""
    game_words: set[str] = field(default_factory=set)
    """Folded words that name a card but in rulings mean a race or a kind of player ("Hobbits", "Sauron")."""
    headings: dict[str, list[str]] = field(default_factory=dict)
    """Each CRF card heading, as written, -> the English names of the cards it stands for (none for a
    heading that names no card), read once by kb.builder.searchdata.read_heading."""
    keywords: dict[str, str] = field(default_factory=dict)
    """A name (folded) `rulings card` reads as a CRF keyword heading's cards ("mind ring", "dwarven
    rings") -> that heading (kb.builder.searchdata.group_names). No name of a card: a text, a question or a
    decklist that writes it names none ("1 Mind Ring" in a deck is no card)."""
    _starts: dict[str, int] = field(default_factory=dict)
    _prefixes: set[str] = field(default_factory=set)
    """The first words of every name of several words ("doors", "doors of"): a walk over a text's
    words stops as soon as no name goes on that way (a trie of the names, word by word)."""

    def add_name(self, name: str, canonical: str) -> None:
        key = fold(name)
        if key and canonical not in self.names.setdefault(key, []):
            self.names[key].append(canonical)
            words = key.split(" ")
            self._starts[words[0]] = max(self._starts.get(words[0], 0), len(words))
            self._prefixes.update(" ".join(words[:n]) for n in range(1, len(words)))

    def add_words(self, text: str) -> None:
        """Note the words a text writes in lower case (a one-word card name used so is an ordinary word)."""
        self.lowercase.update(re.findall(r"(?<![\w’'-])[a-z]{3,}(?![\w’'-])", text))

    def to_json(self) -> dict[str, object]:
        return {"names": self.names, "lowercase": sorted(self.lowercase),
                "game_words": sorted(self.game_words), "headings": self.headings, "keywords": self.keywords}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Lexicon:
        if not isinstance(data, dict) or not isinstance(data.get("names"), dict):
            raise ValueError("expected an object with a 'names' table")
        lowercase: Any = data.get("lowercase", ())
        game: Any = data.get("game_words", ())
        headings: Any = data.get("headings", {})
        keywords: Any = data.get("keywords", {})
        lex = cls({}, set(lowercase), set(game), {str(k): list(v) for k, v in dict(headings).items()},
                  {str(k): str(v) for k, v in dict(keywords).items()})
        for key, canonicals in dict(data["names"]).items():  # type: ignore[call-overload]
            for canonical in canonicals:
                lex.add_name(key, canonical)
        return lex

    def find_in_text(self, text: str) -> set[str]:
        """English names of the cards a text mentions (see find_spans)."""
        return {name for _, _, names in self.find_spans(text) for name in names}

    def find_spans(self, text: str) -> list[tuple[int, int, list[str]]]:
        """Where a text names cards: (start, end, English names), in text order.

        A name of several words matches anywhere; a one-word name where the text capitalises it,
        and, if the corpus also uses it as an ordinary word ("twilight", "river"), only where it
        does not open a sentence ("Twilight played in response", not "Twilight fell.").
        """
        found: list[tuple[int, int, list[str]]] = []
        tokens = [(m.group(0), m.start()) for m in NAME_WORD.finditer(not_names(text))]
        whole = [fold_word(t) for t, _ in tokens]
        bare = [fold_word(POSSESSIVE.sub("", t)) if POSSESSIVE.search(t) else w for (t, _), w in zip(tokens, whole)]
        starts = self._starts
        i = 0
        while i < len(tokens):
            step = 1
            if not (starts.get(whole[i]) or starts.get(bare[i]) or any(starts.get(w) for w in singulars(whole[i]))):
                i += 1  # no name begins with this word, nor with its singular (most words)
                continue
            for n, key, end_cut in reversed(self._names_at(i, whole, bare)):  # the longest first
                if not any(t[:1].isupper() for t, _ in tokens[i:i + n]):
                    if n > 1 or key == whole[i]:  # (a plain word, add_words noted it as written)
                        self.lowercase.add(key)  # a plain phrase, noted for the queries that write it so
                    continue  # "the white hand", not "The White Hand"
                said = {key, whole[i]}  # a one-word name, and the plural it was written as ("Twilights")
                if key in self.game_words:  # a race of several words ("Half-orcs"), as a one-word one: no card
                    continue
                if n == 1 and (said & self.game_words or not (
                        (tokens[i][0][:1].isupper() and not said & self.lowercase)
                        or _capitalised_mid_sentence(text, tokens[i][0], tokens[i][1]))):
                    continue
                final, start = tokens[i + n - 1]
                found.append((tokens[i][1], start + len(final) - end_cut, list(self.names[key])))
                step = n  # the words of a longer name are not names of their own ("Doors of Night")
                break
            i += step
        return found


    def _names_at(self, i: int, whole: list[str], bare: list[str]) -> list[tuple[int, str, int]]:
        """The names that begin at word i, shortest first: (words, name key, characters of a final
        "’s" left out). Inner words are taken whole ("Beorn’s House"); the last one may be
        possessive ("Alatar’s ability") or plural ("two Twilights", "Orc-patrols": kb.builder.headings.singulars)."""
        starts = [self._starts.get(w, 0) for w in (whole[i], bare[i], *singulars(whole[i]))]
        longest = min(max(starts), len(whole) - i)
        found: list[tuple[int, str, int]] = []
        prefix = ""
        for n in range(1, longest + 1):
            last, cut = whole[i + n - 1], bare[i + n - 1]
            key = f"{prefix} {last}" if prefix and last else prefix or last
            ends = [(key, 0)] + [(f"{prefix} {w}".strip(), 0) for w in singulars(last)] * (last == cut)
            ends += [(f"{prefix} {cut}".strip(), 2)] * (cut != last)
            named = next(((k, c) for k, c in ends if k in self.names), None)
            if named:
                found.append((n, *named))
            prefix = key
            if prefix and prefix not in self._prefixes:
                break  # no name goes on with these words
        return found


def _capitalised_mid_sentence(text: str, token: str, start: int) -> bool:
    if not token[:1].isupper():
        return False
    i = start  # the character before the token, spaces skipped (text[:start] copied the text per token)
    while i > 0 and text[i - 1].isspace():
        i -= 1
    return i > 0 and text[i - 1] not in ".!?:•\n«“\"("

