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
