"""What changed in the current CRF, one change at a time, as the build found it (kb.editions) and
stored it (kb.store's changes table); `rulings changes` and the site's "What's new" read it back.

A change is one ruling and one kind:

- listed: an entry of the current CRF's "Changes from CRF 21" section, with the ruling it names;
- marked: a ruling the current CRF marks "@" (new or changed since the last CRF);
- reworded: a current ruling whose older-edition wording differs, with the words removed and added
  (kb.wording); the pairing is the build's (same heading, wordings alike);
- tagged: a ruling with an origin tag ("[CoE 2024]", "[Ruled by ICE, added by CoE 2023]"), the mark
  the CRF puts on every entry made after ICE's last CRF (CRF 15);
- absent: an older-edition ruling with no counterpart in the current CRF, and where it went
  (kb.successors): moved (a ruling of the current rules is worded alike), replaced (a ruling new
  since states its matter otherwise), reversed (it says the opposite) or dropped (none states it).
  A pairing checked by hand (kb/data/successors.toml) is stated plainly; the build's own reading
  of the words is "possibly replaced" or "possibly reversed" (unsure), or moved or dropped (the
  build's reading), with its evidence: the shared key words, a negation, the nearest wording.

A reworded (or marked) ruling whose older wording negates what it says, or the reverse, is
"possibly reversed" (unsure) too.

A ruling that is several is the first of listed, marked, reworded, tagged. A card erratum among
them (the CRF says "Card Erratum", or an "@" change quotes words of the card's own text) names its
cards. Each change carries the year the sources date it from, for `rulings changes --since`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from kb.errors import Refused, quote
from kb.wording import Piece

KINDS = ("listed", "marked", "reworded", "tagged", "absent")
"""The kinds of change, in the order the build stores them."""
PARTS = {
    "listed": "The CRF's own list of its changes",
    "marked": "New or changed since the last CRF (marked @)",
    "errata": "Card errata, new or changed",
    "reworded": "Reworded since the older edition",
    "tagged": "Rulings by origin tag, newest first",
    "absent": "Older rulings not in the current CRF in their words: replaced, reversed, moved or dropped",
}
"""The parts `rulings changes` and the site's "What's new" show, in order, with their titles."""


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
    "possibly reversed, unsure", "dropped, the build's reading"; seen from the successor, "replaced
    by this, ...", "moved here, ..."; "" for a change without one."""
    if not verdict:
        return ""
    how = "unsure" if unsure else "the build's reading" if guess else "checked by hand"
    towards = (" here" if verdict == "moved" else " by this") if successor else ""
    return f"{'possibly ' if unsure else ''}{verdict}{towards}, {how}"


def parts_of(kind: str, erratum: bool) -> list[str]:
    """The parts (PARTS) a change is shown in: its kind's; a card erratum in the card errata too (a
    tagged one there alone)."""
    if not erratum:
        return [kind]
    return ["errata"] if kind == "tagged" else [kind, "errata"]


@dataclass(frozen=True, slots=True)
class Change:
    """One change of the current CRF, as the build found it (kb.store's changes table)."""

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
    """How alike the two wordings are (kb.xref.nearest), where the pairing rests on it."""
    guess: bool = False
    """Whether the pairing with other_id is the build's guess (wordings alike) rather than the
    sources' word (the same words under the same heading)."""
    verdict: str = ""
    """absent: where the older ruling went (kb.successors): "moved" (a ruling of the current rules is
    worded alike), "replaced" (a ruling new since states its matter otherwise), "reversed" (one says the
    opposite), "dropped" (none states it); reworded (and marked): "reversed" where one wording negates
    what the other says; "" otherwise."""
    erratum_cards: tuple[str, ...] = ()
    """The cards it is an erratum of, if it is a card erratum."""
    erratum_evidence: str = ""
    """Why it counts as a card erratum (empty if it is none)."""
    erratum_guess: bool = False
    """Whether counting it as an erratum is the build's reading (an "@" change quoting the card's text)."""
    diff: tuple[Piece, ...] = ()
    """Where other_id is an older wording (reworded; marked, when it has one): that wording made
    into this one, word by word."""
    unsure: bool = False
    """Whether the verdict is the build's reading of the words alone, which cannot make it certain:
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


def since_year(text: str) -> int:
    """A year as `--since` takes it ("2015"); Refused, one line, for anything else."""
    value = text.strip()
    if not re.fullmatch(r"[0-9]{4}", value):
        raise Refused(f"--since {quote(value, 20)} is not a year",
                      hint="Give a year of four digits, e.g. `rulings changes --since 2015`.")
    return int(value)


def to_row(c: Change, order: int) -> dict[str, Any]:
    """A change as a row of the changes table (kb.store)."""
    return {"ruling_id": c.ruling_id, "kind": c.kind, "year": c.year, "evidence": c.evidence, "tag": c.tag,
            "other_id": c.other_id, "likeness": c.likeness, "guess": int(c.guess), "verdict": c.verdict,
            "erratum_cards": json.dumps(list(c.erratum_cards), ensure_ascii=False),
            "erratum_evidence": c.erratum_evidence, "erratum_guess": int(c.erratum_guess),
            "diff": json.dumps([[p.op, p.text] for p in c.diff], ensure_ascii=False), "unsure": int(c.unsure), "ord": order}


def from_row(row: dict[str, Any]) -> Change:
    """A change from its row (kb.store.query's: JSON columns decoded)."""
    return Change(row["ruling_id"], row["kind"], row["year"], row["evidence"], row["tag"], row["other_id"],
                  row["likeness"], bool(row["guess"]), row["verdict"], tuple(row["erratum_cards"]),
                  row["erratum_evidence"], bool(row["erratum_guess"]), tuple(Piece(op, text) for op, text in row["diff"]),
                  bool(row["unsure"]))
