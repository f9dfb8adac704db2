"""Section headings reduced to keys, so that "Trophies" finds "Trophy" and "versus" finds "vs."."""

from __future__ import annotations

from kb.query import fold

PART_ALIASES = {"card rulings": "card errata and rulings", "turn sequence": "turn sequence rulings",
                "card errata": "card errata and rulings"}


def title_key(title: str) -> str:
    """A heading reduced for matching: fold, "versus" -> "vs", plurals dropped, part aliases."""
    key = fold(title).replace(" versus ", " vs ")
    key = PART_ALIASES.get(key, key)
    return " ".join(_singular(w) for w in key.split())


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word
