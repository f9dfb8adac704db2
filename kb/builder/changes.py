"""What changed in the current CRF, one change at a time, as the build found it (kb.builder.editions) and
stored it (kb.store.store's changes table), and how `rulings changes` and the site's "What's new" show them
together (ChangesAnswer, arrange, PARTS): what is new in the current CRF first, each ruling once with
all it is, then the earlier changes, folded.

A change is one ruling and one kind:

- listed: an entry of the current CRF's "Changes from CRF 21" section, with the ruling it names;
- marked: a ruling the current CRF marks "@" (new or changed since the last CRF);
- reworded: a current ruling whose older-edition wording differs, with the words removed and added
  (kb.builder.wording); this tool pairs the two (same heading, much the same words), no person did;
- tagged: a ruling with an origin tag ("[CoE 2024]", "[Ruled by ICE, added by CoE 2023]"), the mark
  the CRF puts on every entry made after ICE's last CRF (CRF 15);
- absent: an older-edition ruling with no counterpart in the current CRF, and where it went
  (kb.builder.successors): moved (a ruling of the current rules is worded alike), replaced (a ruling new
  since states its matter otherwise), reversed (it says the opposite) or dropped (none states it).
  A pairing checked by hand (kb/data/successors.toml) is stated plainly; this tool's own reading
  of the words is "possibly replaced" or "possibly reversed" (unsure), or moved or dropped (no
  person checked it), with its evidence: the shared key words, a negation, the nearest wording.

A reworded (or marked) ruling whose older wording negates what it says, or the reverse, is
"possibly reversed" (unsure) too.

New in the current CRF means what the CRF itself says is: "Items marked with a “@” are new or changed
since the last version", and its "Changes from CRF 21" lists them again. An origin tag's year is when
a ruling was made (or added), not the edition it entered: a ruling tagged [CoE 2025] without "@" was,
by the CRF's own word, already in CRF 21. So the listed and marked changes are shown first, one entry
per ruling (its "@", its place in the list, its erratum); the rest come after, folded.

A ruling that is several is the first of listed, marked, reworded, tagged. A card erratum among
them (the CRF says "Card Erratum", or an "@" change quotes words of the card's own text) names its
cards. Each change carries the year the sources date it from, for `rulings changes --since`. A score
(likeness) is data for JSON; what people read says it in words.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from kb.errors import Refused, quote
from kb.builder.wording import Piece

KINDS = ("listed", "marked", "reworded", "tagged", "absent")
"""The kinds of change, in the order the build stores them."""
NEW = "new"
"""The part shown first, whole: what the current CRF lists and marks "@"."""
PARTS = {
    NEW: "New in {edition}",
    "errata": "Card errata of earlier CRFs",
    "tagged": "Other rulings added since ICE's last CRF",
    "reworded": "Rulings worded otherwise than in an older CRF",
    "absent": "Older CRF rulings not in the current CRF in their words",
}
"""The parts `rulings changes` and the site's "What's new" show, in order, with their titles; all
but NEW are the earlier changes, folded (the site's <details>; the terminal's count, `--all` whole)."""
EARLIER = "Earlier changes"
"""The title over the folded parts."""
BY_HAND = "checked by hand"
"""How a verdict a person checked says so."""
OURS = "as this tool reads the words (no person checked it)"
"""How a verdict or a pairing this tool read from the words alone, and sure enough to state, says so."""
T = TypeVar("T")


def other_label(kind: str, verdict: str | None, unsure: bool = False) -> str:
    """What the ruling on the other side of a change is to it, in words ("" for an older wording,
    which is shown word by word instead)."""
    if kind == "listed":
        return "It names"
    if kind != "absent":
        return ""
    if verdict in ("replaced", "reversed", "moved"):
        by = "to" if verdict == "moved" else "by"
        return f"Possibly {verdict} (unsure) {by}" if unsure else f"{verdict.capitalize()} {by}"
    return "The nearest wording found"


def verdict_words(verdict: str | None, unsure: bool, guess: bool, successor: bool = False) -> str:
    """A change's verdict as a judge reads it, saying how sure it is: "replaced, checked by hand",
    "possibly reversed, unsure", "dropped, as this tool reads the words (no person checked it)"; seen
    from the successor, "replaced by this, ...", "moved here, ..."; "" for a change without one."""
    if not verdict:
        return ""
    how = "unsure" if unsure else OURS if guess else BY_HAND
    towards = (" here" if verdict == "moved" else " by this") if successor else ""
    return f"{'possibly ' if unsure else ''}{verdict}{towards}, {how}"


def erratum_words(evidence: str, guess: bool) -> str:
    """Why a change is a card erratum, in words (after "card erratum of X: "): "it changes “on a given
    turn”, words of the card's own text (this tool's reading: the CRF does not call it one)"."""
    return evidence + (" (this tool's reading: the CRF does not call it one)" if guess else "")


def edition_words(how: str) -> str:
    """How a ruling stands in another edition (an edition link's `how`, kb.builder.xref), in words, no score:
    "reworded (0.96)" -> "reworded", "same" -> "same wording"; a verdict's words as they are."""
    word = how.split(" (", 1)[0]
    return {"same": "same wording"}.get(word, word)


def part_of(c: Change) -> str:
    """The part (PARTS) a change is shown in: listed and marked, NEW; a tagged card erratum, errata;
    else its kind's."""
    if c.kind in ("listed", "marked"):
        return NEW
    return "errata" if c.kind == "tagged" and c.erratum_evidence else c.kind


def arrange(items: Iterable[T], change_of: Callable[[T], Change]) -> dict[str, list[list[T]]]:
    """The changes by part (PARTS, in order, empty parts left out), each part a list of entries, an
    entry one ruling's changes: a marked ruling with the entries of the CRF's list naming it (the
    marked change first, whose ruling is shown), every other change alone; in the order given."""
    parts: dict[str, dict[str, list[T]]] = {part: {} for part in PARTS}
    for item in items:
        c = change_of(item)
        of = (c.other_id or c.ruling_id) if c.kind == "listed" else c.ruling_id
        parts[part_of(c)].setdefault(of, []).append(item)
    return {part: [sorted(entry, key=lambda i: change_of(i).kind != "marked") for entry in entries.values()]
            for part, entries in parts.items() if entries}


def part_title(part: str, edition: str) -> str:
    """A part's title: "New in CRF 22", "Card errata of earlier CRFs"."""
    return PARTS[part].format(edition=edition or "the current CRF")


def new_lead(edition: str, published: str, lists: Sequence[str], entries: Sequence[Sequence[Change]]) -> str:
    """What "new" means, in a sentence: what the CRF marks "@" and lists under its own heading
    (lists: that heading, "Changes from CRF 21"), how many rulings (entries, arrange's), how many of
    them card errata (and whether by this tool's reading)."""
    when = f" (published {published})" if published else ""
    listed = f" and lists under “{'”, “'.join(lists)}”" if lists else ""
    errata = [next(c for c in entry if c.erratum_evidence) for entry in entries
              if any(c.erratum_evidence for c in entry)]
    n = len(entries)
    count = f"{n} ruling{'s' if n != 1 else ''}" + (f", {len(errata)} of them card errata" if len(errata) > 1 else
                                                   ", 1 of them a card erratum" if errata else "")
    if any(c.erratum_guess for c in errata):
        count += f" (as this tool reads {'them' if len(errata) > 1 else 'it'})"
    return (f"{edition or 'The current CRF'}{when}: what it marks “@” (new or changed since the last CRF){listed}; "
            f"{count}, each shown once with all it is.")


def folded_words(part: str, changes: Sequence[Change]) -> str:
    """What a folded part holds, in a line (after its title and count): the years of its origin tags,
    how many older wordings may now say the opposite, where the older rulings went and how sure."""
    if part in ("errata", "tagged"):
        years = Counter(str(c.year) if c.year else "no year" for c in changes)
        return "by origin tag: " + ", ".join(f"{y} ({n})" for y, n in years.items()) + \
            ("; not marked “@”: by the CRF's own word, unchanged since the last CRF" if part == "errata" else "")
    if part == "reworded":
        flips = sum(1 for c in changes if c.verdict == "reversed")
        return ("each beside its older wording, the words that differ marked; paired by this tool (the same "
                "heading, much the same words)") + (f"; {flips} possibly say{'s' if flips == 1 else ''} the "
                                                    "opposite now (unsure)" if flips else "")
    if part == "absent":
        verdicts = Counter(verdict_words(c.verdict, c.unsure, c.guess) for c in changes)
        return "; ".join(f"{n} {words}" for words, n in verdicts.most_common())
    return ""


@dataclass(frozen=True, slots=True)
class Change:
    """One change of the current CRF, as the build found it (kb.store.store's changes table)."""

    ruling_id: str
    """The ruling that changed: the current one (the older one, for absent)."""
    kind: str
    """listed, marked, reworded, tagged or absent (KINDS)."""
    year: int | None
    """The year the sources date it from: its tag's, else its edition's (the older edition's for
    reworded and absent: the change came after it); None when they give none."""
    evidence: str
    """What the sources say that makes it a change, in a sentence."""
    tag: str = ""
    """Its origin tag as the CRF writes it ("CoE 2024"), if it has one."""
    other_id: str = ""
    """The ruling on the other side: listed, the one it names; reworded, the older wording;
    absent, the nearest current wording."""
    likeness: float | None = None
    """How alike the two wordings are (kb.builder.xref.nearest), where the pairing rests on it: data for
    JSON, never shown to people as a number."""
    guess: bool = False
    """Whether the pairing with other_id is this tool's reading (wordings alike) rather than the
    sources' word (the same words under the same heading) or a person's."""
    verdict: str = ""
    """absent: where the older ruling went (kb.builder.successors): "moved" (a ruling of the current rules is
    worded alike), "replaced" (a ruling new since states its matter otherwise), "reversed" (one says the
    opposite), "dropped" (none states it); reworded (and marked): "reversed" where one wording negates
    what the other says; "" otherwise."""
    erratum_cards: tuple[str, ...] = ()
    """The cards it is an erratum of, if it is a card erratum."""
    erratum_evidence: str = ""
    """Why it counts as a card erratum (empty if it is none)."""
    erratum_guess: bool = False
    """Whether counting it as an erratum is this tool's reading (an "@" change quoting the card's text)."""
    diff: tuple[Piece, ...] = ()
    """Where other_id is an older wording (reworded; marked, when it has one): that wording made
    into this one, word by word."""
    unsure: bool = False
    """Whether the verdict is this tool's reading of the words alone, which cannot make it certain:
    shown as "possibly replaced (unsure)"; a pairing checked by hand is not."""

    @property
    def parties(self) -> tuple[str, ...]:
        """The rulings that take part in it (for `rulings changes --source`, `--phase`): this one and
        the one on the other side, but for a ruling dropped, whose nearest wording is evidence alone."""
        return (self.ruling_id,) if self.verdict == "dropped" or not self.other_id else (self.ruling_id, self.other_id)

    def to_json(self, other: dict[str, Any] | None) -> dict[str, Any]:
        """The `change` of a ruling in `rulings changes --json` (kb/data/schema/ruling.json), with
        the ruling on the other side already in the ruling shape."""
        return {"kind": self.kind, "year": self.year, "tag": self.tag or None, "evidence": self.evidence,
                "guess": self.guess, "other": other, "likeness": self.likeness, "verdict": self.verdict or None,
                "unsure": self.unsure,
                "erratum": {"cards": list(self.erratum_cards), "evidence": self.erratum_evidence,
                            "guess": self.erratum_guess} if self.erratum_evidence else None,
                "diff": [{"op": p.op, "text": p.text} for p in self.diff] or None}


def from_json(ruling_id: str, change: dict[str, Any]) -> Change:
    """A change from its JSON (Change.to_json's, the ruling's id beside it): its other side by id."""
    erratum = change["erratum"] or {}
    return Change(ruling_id, change["kind"], change["year"], change["evidence"], change["tag"] or "",
                  (change["other"] or {}).get("id", ""), change["likeness"], change["guess"], change["verdict"] or "",
                  tuple(erratum.get("cards", ())), erratum.get("evidence", ""), bool(erratum.get("guess")),
                  tuple(Piece(p["op"], p["text"]) for p in change["diff"] or ()), change["unsure"])


@dataclass(frozen=True, slots=True)
class ChangesAnswer:
    """`rulings changes`: the changes found, each a ruling in the ruling shape with its `change`
    (Change.to_json), and the current CRF they are of."""

    found: list[dict[str, Any]]
    edition: str = ""
    """The current CRF's name ("CRF 22"); "" where the knowledge base has none."""
    published: str = ""
    """Its date as the manifest gives it ("2026-01-21")."""
    narrowed: bool = False
    """Whether --since, --source or --phase chose them: each is then shown whole, none folded."""

    def to_json(self) -> list[dict[str, Any]]:
        return self.found

    def arranged(self) -> dict[str, list[list[dict[str, Any]]]]:
        """The changes by part, an entry per ruling (arrange)."""
        return arrange(self.found, lambda r: from_json(r["id"], r["change"]))


def edition_name(kind: str, edition: str) -> str:
    """A source's short name, as judges say it: edition_name("CRF", "22") == "CRF 22"."""
    return f"{kind} {edition}".strip()


def since_year(text: str) -> int:
    """A year as `--since` takes it ("2015"); Refused, one line, for anything else."""
    value = text.strip()
    if not re.fullmatch(r"[0-9]{4}", value):
        raise Refused(f"--since {quote(value, 20)} is not a year",
                      hint="Give a year of four digits, e.g. `rulings changes --since 2015`.")
    return int(value)


def to_row(c: Change, order: int) -> dict[str, Any]:
    """A change as a row of the changes table (kb.store.store)."""
    return {"ruling_id": c.ruling_id, "kind": c.kind, "year": c.year, "evidence": c.evidence, "tag": c.tag,
            "other_id": c.other_id, "likeness": c.likeness, "guess": int(c.guess), "verdict": c.verdict,
            "erratum_cards": json.dumps(list(c.erratum_cards), ensure_ascii=False),
            "erratum_evidence": c.erratum_evidence, "erratum_guess": int(c.erratum_guess),
            "diff": json.dumps([[p.op, p.text] for p in c.diff], ensure_ascii=False), "unsure": int(c.unsure),
            "ord": order}


def from_row(row: dict[str, Any]) -> Change:
    """A change from its row (kb.store.store.query's: JSON columns decoded)."""
    return Change(row["ruling_id"], row["kind"], row["year"], row["evidence"], row["tag"], row["other_id"],
                  row["likeness"], bool(row["guess"]), row["verdict"], tuple(row["erratum_cards"]),
                  row["erratum_evidence"], bool(row["erratum_guess"]),
                  tuple(Piece(op, text) for op, text in row["diff"]),
                  bool(row["unsure"]))
