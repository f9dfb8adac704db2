"""The turn phases: their names as the site and lookups show them, and the aliases judges write."""

from __future__ import annotations

PHASE_NAMES = {
    "beginning-of-game": "Beginning of the game", "untap": "Untap phase", "organization": "Organization phase",
    "long-event": "Long-event phase", "movement-hazard": "Movement/hazard phase", "site": "Site phase",
    "end-of-turn": "End-of-turn phase", "combat": "Combat", "strike-sequence": "Combat: the strike sequence",
    "body-check": "Combat: body checks", "end-of-game": "End of the game",
}

PHASE_ALIASES = {
    "m/h": "movement-hazard", "mh": "movement-hazard", "m-h": "movement-hazard", "movement": "movement-hazard",
    "movement/hazard": "movement-hazard", "movement hazard": "movement-hazard", "hazard": "movement-hazard",
    "org": "organization", "organisation": "organization", "organization": "organization",
    "eot": "end-of-turn", "end of turn": "end-of-turn", "end-of-turn": "end-of-turn",
    "le": "long-event", "long event": "long-event", "long-event": "long-event", "untap": "untap",
    "site": "site", "combat": "combat", "strike": "strike-sequence", "strikes": "strike-sequence",
    "strike sequence": "strike-sequence", "body check": "body-check", "body checks": "body-check",
    "beginning": "beginning-of-game", "start": "beginning-of-game", "setup": "beginning-of-game",
    "end of game": "end-of-game", "end-of-game": "end-of-game", "free council": "end-of-game",
}
