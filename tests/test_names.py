"""Card names as a judge types them, read alike in the terminal (kb.search.resolve.read_card over kb.search.query)
and the browser (site/assets/resolve.js over query.js): a typo within reach finds the card, a name
typed as it sounds is one typo, a typo as near several cards is a choice between them, an exact
name is never read as another card, and a miss suggests the nearest names. The typos are drawn at
random from the real card names, with a fixed seed."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from kb.read import lookup
from kb.errors import Ambiguous, NotFound
from kb.read.lookup import search_spec
from kb.search.query import distance, fold, name_reach
from kb.search.resolve import CardReading, read_card
from kb.search.searchspec import SearchSpec

from . import parity

SEED = 20261128
LETTERS = "abcdefghijklmnopqrstuvwxyz"
SPELLINGS = [("f", "ph"), ("ph", "f"), ("k", "kh"), ("kh", "k"), ("ck", "k"), ("k", "ck"), ("g", "gh")]
"""A letter or two of a name spelt by its sound otherwise."""


def typo(rng: random.Random, key: str) -> str:
    """key with one random edit: a letter inserted, deleted or replaced, or two neighbours swapped."""
    i, edit = rng.randrange(len(key)), rng.choice("idst")
    if edit == "i":
        return key[:i] + rng.choice(LETTERS) + key[i:]
    if edit == "d":
        return key[:i] + key[i + 1:]
    if edit == "s":
        return key[:i] + rng.choice(LETTERS.replace(key[i], "")) + key[i + 1:]
    i = min(i, len(key) - 2)
    return key[:i] + key[i + 1] + key[i] + key[i + 2:]


def as_sounded(key: str) -> list[str]:
    """key spelt by its sound otherwise (SPELLINGS, the first after its first letter), and with its
    first doubled letter single."""
    out = []
    for a, b in SPELLINGS:
        if (i := key.find(a, 1)) > 0:
            out.append(key[:i] + b + key[i + len(a):])
            break
    doubled = next((i for i in range(1, len(key) - 1) if key[i] == key[i + 1] and key[i].isalpha()), 0)
    return out + ([key[:doubled] + key[doubled + 1:]] if doubled else [])


@pytest.fixture(scope="module")
def spec(real_kb: Path) -> SearchSpec:
    return search_spec(real_kb)


@pytest.fixture(scope="module")
def typed(spec: SearchSpec) -> list[tuple[str, str, bool]]:
    """(card name, what a judge typed for it, whether it is spelt by its sound) for 400 names drawn
    at random: one random typo each, two in each of 9 letters or more, and the name spelt by its
    sound; none that is a card's exact name."""
    rng = random.Random(SEED)
    english = sorted({n for names in spec.raw["names"].values() for n in names})
    out = []
    for name in rng.sample(english, 400):
        key = fold(name)
        if len(key) >= 3:
            out.append((name, typo(rng, key), False))
        if len(key) >= 9:
            out.append((name, typo(rng, typo(rng, key)), False))
        out += [(name, t, True) for t in as_sounded(key)]
    return [(name, fold(t), n) for name, t, n in out if fold(t) and not spec.card_names(fold(t))]


def found(reading: CardReading) -> list[str]:
    return reading.names + reading.choices


def test_a_name_misspelt_or_spelt_as_it_sounds_is_its_card(real_kb: Path) -> None:
    """The issue's names: "gandalph" (ph for f: two edits, one typo by sound) as "gandolf",
    "gandalv", "sarumon", "radagst"; Adûnaphel and Akhôrahil spelt by sound, a letter doubled."""
    for typed, name in [("gandalph", "Gandalf"), ("gandolf", "Gandalf"), ("gandalv", "Gandalf"),
                        ("sarumon", "Saruman"), ("radagst", "Radagast"), ("adunafel", "Adûnaphel"),
                        ("akorahil", "Akhôrahil"), ("shellob", "Shelob"), ("glorfindal", "Glorfindel II")]:
        card = lookup.card(real_kb, typed)
        assert card.names == (name,) and card.read_as == f"'{typed}' read as {name}", typed


def test_a_typo_within_reach_finds_the_card_or_one_nearer(spec: SearchSpec,
                                                           typed: list[tuple[str, str, bool]]) -> None:
    """Within reach (kb.search.query.name_reach: one edit from 5 letters typed, two from 12, or from 9 where
    its words carry two; a spelling by sound is one) and the first letter kept, the card is read: alone, or among the
    cards as near, unless another is nearer still. Beyond reach, within a third of 5 letters or more typed, it is read
    or suggested, unless the typos changed both its first and its last letter (kb.search.query._close: a typo
    seldom does)."""
    index = spec.name_index()
    within = 0
    for name, t, by_sound in typed:
        key, reading = fold(name), read_card(t, spec, index)
        nearer = bool(found(reading)) and all(distance(t, fold(n), 3) < distance(t, key, 3) for n in found(reading))
        if t[0] == key[0] and name_reach(t) and (by_sound or distance(t, key, 3) <= name_reach(t)):
            within += 1
            assert name in found(reading) or nearer, (name, t, reading)
        elif len(t) >= 5 and distance(t, key, 9) <= len(t) // 3 and (t[0] == key[0] or t[-1] == key[-1]):
            assert name in found(reading) or nearer or name in index.rank(t), (name, t, reading)
    assert within > 600


def test_two_typos_are_forgiven_only_where_the_words_carry_them(spec: SearchSpec) -> None:
    """"Mind Ring" (a CRF keyword, no card) is two edits from Minor Ring, both in its word of four
    letters: no card. "Glorfindal", as long, carries two: Glorfindel II (one edit)."""
    assert found(read_card("Mind Ring", spec)) == []
    assert found(read_card("glorfimdal", spec)) == ["Glorfindel II"]


def test_an_exact_name_is_never_read_as_another_card(spec: SearchSpec) -> None:
    """Names one typo apart (Ford and Forod, Orc-guard and Orc-guards...): each, typed exactly, is
    itself, not the other."""
    index = spec.name_index()
    keys = sorted(spec.raw["names"])
    pairs = [(a, b) for i, a in enumerate(keys) for b in keys[i + 1:i + 40] if distance(a, b, 1) <= 1]
    assert len(pairs) > 50
    for a, b in pairs:
        for key in (a, b):
            reading = read_card(key, spec, index)
            assert (reading.names, reading.read_as) == (spec.card_names(key), ""), key


def test_a_typo_as_near_several_cards_is_a_choice(real_kb: Path) -> None:
    """"fordo" is a typo of Ford, Forod and Frodo alike: none is picked for the judge."""
    with pytest.raises(Ambiguous) as caught:
        lookup.card(real_kb, "fordo")
    assert sorted(c["name"] for c in caught.value.candidates) == ["Ford", "Forod", "Frodo"]


def test_a_miss_suggests_the_nearest_names(real_kb: Path, spec: SearchSpec) -> None:
    """Beyond reach ("gandlaph": a swap and a sound, three edits) the card is suggested."""
    with pytest.raises(NotFound) as caught:
        lookup.card(real_kb, "gandlaph")
    assert "Did you mean Gandalf" in (caught.value.hint or "")
    assert spec.name_index().rank("zqxwv kjhg") == []  # nothing near: nothing suggested


def test_the_browser_reads_names_as_the_terminal(real_site: Path, spec: SearchSpec,
                                                 typed: list[tuple[str, str, bool]]) -> None:
    """resolve.js's read_card, and query.js's suggestions where it reads nothing, give for every typo
    above and the issue's names what kb.search.resolve and kb.search.query give (the deck page reads names so; the
    parity harness runs them over the site's own index)."""
    words = [t for _, t, _ in typed] + ["gandalph", "fordo", "gandlaph", "khamul", "hte reviled ring", "zqxwv kjhg"]
    js = parity.run("names", real_site, typed=words)
    index = spec.name_index()
    python: list[Any] = []
    for t in words:
        r = read_card(t, spec, index)
        python.append([r.names, r.read_as, r.choices, [] if r.names or r.choices else index.rank(t)])
    assert js == python
