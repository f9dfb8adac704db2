"""Read-side answers from the knowledge base: a ruling by id, statistics, the export stream."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from kb.errors import NotFound
from kb.store import connect, query

RULING_COLUMNS = "r.id, r.source, r.game, r.section, r.kind, r.number, r.title, r.text, r.line_start, " \
                 "r.line_end, r.markers, r.parent, s.title as source_title, s.edition, s.date, s.path"


def _shape(row: dict[str, Any]) -> dict[str, Any]:
    row["lines"] = [row.pop("line_start"), row.pop("line_end")]
    return row


def show_ruling(kb_dir: Path, ruling_id: str) -> dict[str, Any]:
    """One ruling with its source details; for a card, the card's data too. NotFound if unknown."""
    conn = connect(kb_dir)
    rows = query(conn, f"select {RULING_COLUMNS} from rulings r join sources s on s.id = r.source where r.id = ?",
                 (ruling_id,))
    if not rows:
        near = query(conn, "select id from rulings where id like ? order by id limit 5", (ruling_id + "%",))
        hint = f"; did you mean {', '.join(r['id'] for r in near)}?" if near else ""
        raise NotFound(f"no ruling with id {ruling_id!r}{hint}")
    ruling = _shape(rows[0])
    card = query(conn, "select id, set_code, set_name, name, names, type, alignment, text_html, attributes "
                       "from cards where ruling_id = ?", (ruling_id,))
    if card:
        ruling["card"] = card[0]
    if ruling.get("parent"):
        parent = query(conn, "select id, kind, number, text from rulings where id = ?", (ruling["parent"],))
        ruling["parent_ruling"] = parent[0] if parent else None
    return ruling


def stats(kb_dir: Path) -> list[dict[str, Any]]:
    """Per source: title, game, edition, date, lines, and rulings by kind."""
    conn = connect(kb_dir)
    sources = query(conn, "select id, title, game, kind, edition, date, current, line_count from sources order by rowid")
    counts = query(conn, "select source, kind, count(*) as n from rulings group by source, kind order by n desc")
    for s in sources:
        s["current"] = bool(s["current"])
        s["rulings_by_kind"] = {c["kind"]: c["n"] for c in counts if c["source"] == s["id"]}
        s["rulings"] = sum(s["rulings_by_kind"].values())
    return sources


def export(kb_dir: Path) -> Iterator[dict[str, Any]]:
    """Every ruling (cards included, with their card data), in source and document order."""
    conn = connect(kb_dir)
    cards = {c["ruling_id"]: c for c in query(conn, "select ruling_id, id, set_code, set_name, names, type, "
                                                    "alignment, text_html from cards")}
    rows = query(conn, f"select {RULING_COLUMNS} from rulings r join sources s on s.id = r.source "
                       "order by s.rowid, r.ord")
    for row in rows:
        out = _shape(row)
        out["section"] = list(out["section"])
        if row["id"] in cards:
            card = dict(cards[row["id"]])
            card.pop("ruling_id")
            out["card"] = card
        yield out


# -- cross-reference lookups -----------------------------------------------------------------------

def _rulings_by_ids(conn: Any, ids: list[str]) -> list[dict[str, Any]]:
    """Rulings in source and document order, with their source titles."""
    if not ids:
        return []
    marks = ",".join("?" * len(ids))
    rows = query(conn, f"select {RULING_COLUMNS} from rulings r join sources s on s.id = r.source "
                       f"where r.id in ({marks}) order by s.current desc, s.rowid, r.ord", tuple(ids))
    return [_shape(r) for r in rows]


def group_by_source(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    groups: dict[str, dict[str, Any]] = {}
    for r in rows:
        g = groups.setdefault(r["source"], {"source": r["source"], "title": r["source_title"],
                                            "edition": r["edition"], "rulings": []})
        g["rulings"].append(r)
    return list(groups.values())


def links_of(kb_dir: Path, ruling_id: str) -> dict[str, list[dict[str, str]]]:
    """What a ruling links to, by kind, and what links to it (citations, older editions)."""
    conn = connect(kb_dir)
    out: dict[str, list[dict[str, str]]] = {}
    for row in query(conn, "select kind, target, how from links where ruling_id = ? order by kind, target", (ruling_id,)):
        out.setdefault(row["kind"], []).append({"target": row["target"], "how": row["how"]})
    older = query(conn, "select ruling_id, how from links where kind = 'edition' and target = ?", (ruling_id,))
    if older:
        out["older_editions"] = [{"target": r["ruling_id"], "how": r["how"]} for r in older]
    return out


def card(kb_dir: Path, name: str) -> dict[str, Any]:
    """A card by any language's name (typos and missing accents forgiven): its data, its CRF
    rulings and errata, and every ruling that mentions it, grouped by source."""
    import difflib

    from kb.names import fold

    conn = connect(kb_dir)
    cards = query(conn, "select id, ruling_id, set_code, set_name, name, names, type, alignment, text from cards")
    by_name: dict[str, set[str]] = {}
    for c in cards:
        for n in c["names"].values():
            by_name.setdefault(fold(n), set()).add(c["name"])
    key = fold(name)
    if key not in by_name:
        near = difflib.get_close_matches(key, by_name, n=3, cutoff=0.75)
        if not near:
            raise NotFound(f"no card named {name!r}")
        key = near[0]
    english = sorted(by_name[key])
    versions = [c for c in cards if c["name"] in english]
    marks = ",".join("?" * len(english))
    links = query(conn, f"select ruling_id, how from links where kind = 'card' and target in ({marks})", tuple(english))
    about = [r["ruling_id"] for r in links if r["how"] == "about"]
    mentions = [r["ruling_id"] for r in links if r["how"] == "mention" and r["ruling_id"] not in about]
    return {"query": name, "names": english, "cards": versions,
            "rulings": _rulings_by_ids(conn, about), "mentioned_in": group_by_source(_rulings_by_ids(conn, mentions))}


def phase(kb_dir: Path, name: str) -> dict[str, Any]:
    """Every ruling of a turn phase ("M/H", "mh", "site", "eot", "org" ...), grouped by source."""
    from kb.names import PHASE_ALIASES, PHASE_NAMES

    key = name.strip().lower().replace(" phase", "").strip()
    phase_id = PHASE_ALIASES.get(key, key if key in PHASE_NAMES else "")
    if not phase_id:
        raise NotFound(f"no phase {name!r}; try one of: untap, org, long-event, M/H, site, eot, combat, "
                       "beginning, end-of-game")
    conn = connect(kb_dir)
    ids = [r["ruling_id"] for r in query(conn, "select distinct ruling_id from links where kind = 'phase' "
                                               "and target = ?", (phase_id,))]
    return {"phase": phase_id, "name": PHASE_NAMES[phase_id], "sources": group_by_source(_rulings_by_ids(conn, ids))}


def term(kb_dir: Path, name: str) -> dict[str, Any]:
    """A term: its definition(s), its "Rulings by Term" section, and every ruling that uses it."""
    import difflib

    from kb.names import title_key
    from kb.tables import load_table

    conn = connect(kb_dir)
    terms = {t["key"]: t for t in query(conn, "select key, name, definition, section_id from terms")}
    for s in query(conn, "select id, title from sections where source in (select id from sources where "
                         "parser = 'crf' and current = 1) and depth >= 2 order by ord"):
        terms.setdefault(title_key(s["title"]), {"key": title_key(s["title"]), "name": s["title"],
                                                 "definition": "", "section_id": s["id"]})
    asked = name
    name = load_table("abbreviations").get(name.strip().lower(), name)
    key = title_key(name)
    if key not in terms:
        near = difflib.get_close_matches(key, terms, n=1, cutoff=0.75) or [k for k in terms if k.startswith(key)][:1]
        if not near:
            close = difflib.get_close_matches(key, terms, n=3, cutoff=0.5)
            hint = f"; did you mean {', '.join(terms[k]['name'] for k in close)}?" if close else ""
            raise NotFound(f"no term {asked!r} in the glossary or the CRF's Rulings by Term{hint}")
        key = near[0]
    t = terms[key]
    definition = _rulings_by_ids(conn, [t["definition"]] if t["definition"] else [])
    section = []
    if t["section_id"]:
        section = _rulings_by_ids(conn, [r["id"] for r in query(
            conn, "select r.id from rulings r join sections s on s.source = r.source and r.section = s.titles "
                  "where s.id = ?", (t["section_id"],))])
    shown = {r["id"] for r in definition + section}
    users = [r["ruling_id"] for r in query(conn, "select ruling_id from links where kind = 'term' and target = ?",
                                           (t["name"],)) if r["ruling_id"] not in shown]
    return {"term": t["name"], "definitions": definition, "rulings_by_term": section,
            "used_in": group_by_source(_rulings_by_ids(conn, users))}


def numbered(kb_dir: Path, kind: str, number: str) -> dict[str, Any]:
    """An annotation or a rule by number ("25a", "2.IV.iii"), its parts, and every ruling citing it.

    "2.IV" lists 2.IV.i onward; "25" is not "25a".
    """
    conn = connect(kb_dir)
    wanted = number.strip().lower().removeprefix("annotation").removeprefix("anno").removeprefix("rule").strip()
    rows = query(conn, "select id, number from rulings where kind = ? and lower(number) = ?", (kind, wanted))
    parts = query(conn, "select id, number from rulings where kind = ? and lower(number) like ? order by ord",
                  (kind, wanted + ".%")) if kind == "rule" else []
    if not rows and not parts:
        near = query(conn, "select distinct number from rulings where kind = ? and lower(number) like ? limit 5",
                     (kind, wanted[:2] + "%"))
        hint = f"; did you mean {', '.join(r['number'] for r in near)}?" if near else ""
        raise NotFound(f"no {kind} {number!r}{hint}")
    cites = [r["ruling_id"] for r in query(conn, "select ruling_id from links where kind = ? and target = ?",
                                           (kind, wanted))]
    return {"kind": kind, "number": rows[0]["number"] if rows else number, "rulings": _rulings_by_ids(conn, [r["id"] for r in rows]),
            "parts": _rulings_by_ids(conn, [r["id"] for r in parts]),
            "cited_by": group_by_source(_rulings_by_ids(conn, cites))}
