"""The turn phases: their names as the site and lookups show them, and the words judges ask them by."""

from __future__ import annotations


PHASE_NAMES = {
    "beginning-of-game": "Beginning of the game", "untap": "Untap phase", "organization": "Organization phase",
    "long-event": "Long-event phase", "movement-hazard": "Movement/hazard phase", "site": "Site phase",
    "end-of-turn": "End-of-turn phase", "combat": "Combat", "strike-sequence": "Combat: the strike sequence",
    "body-check": "Combat: body checks", "end-of-game": "End of the game",
}

PHASE_ALIASES = {
    "movement": "movement-hazard",
    "movement/hazard": "movement-hazard", "movement hazard": "movement-hazard", "hazard": "movement-hazard",
    "org": "organization", "organisation": "organization", "organization": "organization",
    "end of turn": "end-of-turn", "end-of-turn": "end-of-turn",
    "long event": "long-event", "long-event": "long-event", "untap": "untap",
    "site": "site", "combat": "combat", "strike": "strike-sequence", "strikes": "strike-sequence",
    "strike sequence": "strike-sequence", "body check": "body-check", "body checks": "body-check",
    "beginning": "beginning-of-game", "start": "beginning-of-game", "setup": "beginning-of-game",
    "end of game": "end-of-game", "end-of-game": "end-of-game", "free council": "end-of-game",
}
"""The phases' own words; judges' abbreviations of them ("M/H", "EOT") are kb/data/abbreviations.toml's,
read by phase_aliases."""


def phase_aliases() -> dict[str, str]:
    """Every word a phase is asked by: its own (PHASE_ALIASES), and each judges' abbreviation
    (kb/data/abbreviations.toml, the one table of them) that stands for one ("M/H", "EOT", "FC", "BC")."""
    from kb.tables import load_table

    out = dict(PHASE_ALIASES)
    for abbreviation, words in load_table("abbreviations").items():
        if words.lower() in PHASE_ALIASES:
            out.setdefault(abbreviation, PHASE_ALIASES[words.lower()])
    return out
