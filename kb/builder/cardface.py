"""A card's face as a judge reads it (type, race, skills, prowess/body, influence, points, home site, icons as words),
from the card database's row."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from typing import Any

ICONS = {
    "H": "Haven", "DH": "Darkhaven", "F": "Free-hold", "B": "Border-hold", "R": "Ruins & Lairs",
    "S": "Shadow-hold", "D": "Dark-hold",
    "w": "Wilderness", "s": "Shadow-land", "d": "Dark-domain", "c": "Coastal Sea", "f": "Free-domain",
    "b": "Border-land",
}
"""The card database's icon codes: upper case a site type, lower case a region type."""

ICON = re.compile(r"\{(" + "|".join(sorted(ICONS, key=len, reverse=True)) + r")\}")
BRACKETED = re.compile(r"\[\s*((?:\{[A-Za-z]{1,2}\}\s*)+)\]")
RUN = re.compile(r"(?:\{[A-Za-z]{1,2}\})+")
CODE = re.compile(r"\{([A-Za-z]{1,2})\}")
"""One icon code of a run or bracket."""
GLUED = re.compile(r"(?<=[a-z)]\.)(?=[A-Z])")
"""A sentence run into the next where the database's markup closes a tag ("<b>Unique.</b>Nazgûl"):
a space goes between. The cards parser stores the text so repaired (kb.builder.parsers.cards)."""

FLAGS = {"agent": "agent", "avatar": "avatar", "spawn": "spawn", "underDeeps": "Under-deeps site",
         "playableAsStartingMinorItem": "playable as a starting minor item",
         "playableAsResource": "playable as a resource", "playableAsHazard": "playable as a hazard",
         "resourceAvatar": "resource avatar"}


def icon_words(codes: str) -> list[str]:
    """icon_words("{s}{w}{w}") == ["Shadow-land", "Wilderness", "Wilderness"]; unknown codes kept."""
    return [ICONS.get(code, "{" + code + "}") for code in CODE.findall(codes)]


def render_icons(text: str) -> str:
    """Icon codes as words: render_icons("Border-holds [{B}]") == "Border-holds [Border-hold]",
    render_icons("From Lórien:{w}{b}") == "From Lórien: Wilderness, Border-land"."""
    text = BRACKETED.sub(lambda m: "[" + ", ".join(icon_words(m.group(1))) + "]", text)

    def bare(m: re.Match[str]) -> str:
        before = m.string[m.start() - 1] if m.start() else " "
        return ("" if before.isspace() else " ") + ", ".join(icon_words(m.group(0)))

    return RUN.sub(bare, text)


def readable(text: str) -> str:
    """Card text as printed: icons as words, "Unique." parted from the sentence the markup glued to it
    (the cards parser stores it parted; this also parts text of an older knowledge base)."""
    return GLUED.sub(" ", render_icons(text))


def _value(attributes: dict[str, Any], key: str) -> str | None:
    value = attributes.get(key)
    if isinstance(value, dict):  # a localised value ({"en": ..., "es": ...})
        value = value.get("en")
    if value is None or isinstance(value, bool):
        return None
    text = str(value).strip()
    return text or None


@dataclass(frozen=True, slots=True)
class CardFace:
    """One card as printed: every value the card database gives, icons as words, None where absent."""

    id: str
    """The card database's id ("TW-47")."""
    ruling_id: str
    """The card's ruling in the knowledge base ("cards.TW-47")."""
    name: str
    """The English name."""
    names: dict[str, str]
    """The name in every language the database has."""
    set_code: str
    set_name: str
    type: str
    """Character, Resource, Hazard, Site or Region."""
    alignment: str
    """Hero, Minion, Neutral, Balrog, Fallen-wizard or Dual."""
    subtype: str | None
    """"Creature/Permanent-event", "Major Item", "Faction" ..."""
    unique: bool
    race: str | None
    skills: str | None
    prowess: str | None
    body: str | None
    mind: str | None
    direct_influence: str | None
    general_influence: str | None
    marshalling_points: str | None
    marshalling_points_type: str | None
    """character, kill, item, faction, ally or miscellaneous."""
    corruption: str | None
    """Corruption points; for a character, the modifier to his corruption checks."""
    home_site: str | None
    strikes: str | None
    keyed_to: list[str] | None
    """A creature's keying icons, as words."""
    playable: str | None
    """What a site lets a company play (resources) or where a card is playable."""
    site_type: str | None
    region: str | None
    region_type: str | None
    site_path: list[str] | None
    """A site's path from its haven, as words in order."""
    haven: str | None
    haven_paths: list[str] | None
    """A haven's paths to other havens ("Lórien: Wilderness, Border-land, ...")."""
    draw: str | None
    draw_opponent: str | None
    automatic_attacks: str | None
    special: str | None
    stage_points: str | None
    magic: str | None
    specific: str | None
    """The one player a card is for ("Balrog", "Gandalf")."""
    keywords: list[str] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)
    """agent, avatar, spawn, Under-deeps site, ..."""
    text: str = ""
    """The card text, readable (icons as words)."""
    url: str = ""
    """Its page on the static site, relative to the site's root."""

    @classmethod
    def of(cls, row: dict[str, Any], url: str = "") -> CardFace:
        """The face of a row of the cards table (its attributes JSON decoded)."""
        extra = row.get("attributes") or {}
        a: dict[str, Any] = extra.get("attributes", {}) if isinstance(extra, dict) else {}
        playable = _value(a, "playable")
        creature = "Creature" in (_value(a, "subtype") or "")
        paths = [readable(v) for k in ("haven1", "haven2") if (v := _value(a, k))]
        keywords = a.get("keywords")
        return cls(
            id=str(row["id"]), ruling_id=str(row["ruling_id"]), name=str(row["name"]), names=dict(row["names"]),
            set_code=str(row["set_code"]), set_name=str(row["set_name"]), type=str(row["type"]),
            alignment=str(row["alignment"]), subtype=_value(a, "subtype"), unique=bool(a.get("unique")),
            race=_value(a, "race"), skills=_value(a, "skills"), prowess=_value(a, "prowess"), body=_value(a, "body"),
            mind=_value(a, "mind"), direct_influence=_value(a, "directInfluence"),
            general_influence=_value(a, "generalInfluence"), marshalling_points=_value(a, "marshallingPoints"),
            marshalling_points_type=_value(a, "marshallingPointsType"), corruption=_value(a, "corruption"),
            home_site=_value(a, "homeSite"), strikes=_value(a, "strikes"),
            keyed_to=icon_words(playable) if playable and creature and ICON.search(playable) else None,
            playable=None if creature or not playable else readable(playable),
            site_type=", ".join(icon_words(v)) if (v := _value(a, "siteType")) else None,
            region=_value(a, "region"),
            region_type=", ".join(icon_words(v)) if (v := _value(a, "regionType")) else None,
            site_path=icon_words(v) if (v := _value(a, "sitePath")) else None,
            haven=_value(a, "haven"), haven_paths=paths or None, draw=_value(a, "draw"),
            draw_opponent=_value(a, "drawOpponent"), automatic_attacks=_value(a, "autoAttack"),
            special=_value(a, "special"), stage_points=_value(a, "stagePoints"), magic=_value(a, "magic"),
            specific=_value(a, "specific"),
            keywords=[str(k) for k in keywords] if isinstance(keywords, list) else [],
            flags=[label for key, label in FLAGS.items() if a.get(key) is True],
            text=readable(str(row.get("text") or "")), url=url)

    def to_json(self) -> dict[str, Any]:
        """Every field in order, its lists and names copied: what dataclasses.asdict gives for these
        values (text, None, a flag, lists and a dict of text), at a fifth of its cost (an export has
        1,683 cards)."""
        return {name: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v)
                for name in FACE_FIELDS for v in (getattr(self, name),)}

    def kind_line(self) -> str:
        """ "Neutral Hazard · Creature/Permanent-event · unique · Nazgûl" """
        parts = [f"{self.alignment} {self.type}"]
        parts += [p for p in (self.subtype, "unique" if self.unique else "", self.magic) if p]
        parts += self.keywords + self.flags
        if self.specific:
            parts.append(f"{self.specific} only")
        return " · ".join(parts)

    def stat_line(self) -> str:
        """Race, skills and the numbers: "Wizard · Warrior/Scout/Sage/Diplomat · prowess/body 6/9 · ..." """
        parts = [p for p in (self.race, self.skills) if p]
        if self.strikes:
            parts.append(f"strikes {self.strikes}")
        body = self.body if self.body != "-" or "Creature" in (self.subtype or "") else None
        if self.prowess and body:
            parts.append(f"prowess/body {self.prowess}/{body.replace('-', '–')}")
        elif self.prowess:
            parts.append(f"prowess {self.prowess}")
        elif body:
            parts.append(f"body {body}")
        for label, value in (("mind", self.mind), ("direct influence", self.direct_influence),
                             ("general influence", self.general_influence)):
            if value:
                parts.append(f"{label} {value}")
        if self.corruption:
            if self.type == "Character":
                sign = "" if self.corruption.startswith(("-", "+")) else "+"
                parts.append(f"corruption checks {sign}{self.corruption}")
            else:
                parts.append(f"corruption points {self.corruption}")
        if self.marshalling_points:
            kind = f" ({self.marshalling_points_type})" if self.marshalling_points_type else ""
            parts.append(f"marshalling points {self.marshalling_points}{kind}")
        if self.stage_points:
            parts.append(f"stage points {self.stage_points}")
        return " · ".join(parts)

    def detail_lines(self) -> list[tuple[str, str]]:
        """The face's other values, labelled: home site, keying, site and region data."""
        rows: list[tuple[str, str]] = []
        if self.home_site:
            rows.append(("home site", self.home_site))
        if self.keyed_to:
            rows.append(("keyed to", ", ".join(self.keyed_to)))
        if self.site_type:
            where = f" in {self.region}" if self.region else ""
            rows.append(("site", self.site_type + where))
        if self.region_type:
            rows.append(("region type", self.region_type))
        if self.haven:
            rows.append(("nearest haven", self.haven))
        if self.site_path:
            rows.append((f"site path from {self.haven}" if self.haven else "site path", ", ".join(self.site_path)))
        for path in self.haven_paths or []:
            to, _, icons = path.partition(" - ")
            rows.append((f"site path to {to}", icons) if icons else ("site path", path))
        if self.draw or self.draw_opponent:
            rows.append(("cards drawn", f"{self.draw or '0'} (you), {self.draw_opponent or '0'} (opponent)"))
        if self.playable and self.type not in ("Site",):
            rows.append(("playable", self.playable))
        return rows


FACE_FIELDS = tuple(f.name for f in fields(CardFace))
"""A card's fields in order: its JSON shape's keys (kb/data/schema/card.json)."""
