"""Section headings reduced to keys, so that "Trophies" finds "Trophy" and "versus" finds "vs."; the plural rule."""

from __future__ import annotations

import functools
import re

from kb.search.query import fold

PART_ALIASES = {"card rulings": "card errata and rulings", "turn sequence": "turn sequence rulings",
                "card errata": "card errata and rulings"}


def title_key(title: str) -> str:
    """A heading reduced for matching: fold, "versus" -> "vs", plurals dropped, part aliases."""
    key = fold(title).replace(" versus ", " vs ")
    key = PART_ALIASES.get(key, key)
    return " ".join((singulars(w) or (w,))[0] for w in key.split())


PLURAL_ES = re.compile(r"(?:[sxz]|[cs]h)es$")
"""A plural that may add "es" ("Witches"): its singular may drop both letters."""


@functools.lru_cache(maxsize=1 << 16)
def singulars(word: str) -> tuple[str, ...]:
    """The singulars a folded word may be the plural of, likeliest first: singulars("twilights") ==
    ("twilight",), singulars("allies") == ("ally",), singulars("witches") == ("witche", "witch");
    () for a word that is no plural ("grass", "its")."""
    if len(word) <= 3 or not word.endswith("s") or word.endswith("ss"):
        return ()
    if len(word) > 4 and word.endswith("ies"):
        return (word[:-3] + "y",)
    return (word[:-1], word[:-2]) if PLURAL_ES.search(word) else (word[:-1],)
