"""The audit behind `rulings check`: every source line stored, skipped with a reason, or reported."""

from __future__ import annotations

from typing import Any

from kb.parsers.document import ends_sentence, untagged
from kb.snapshot import Kb, Snapshot
from kb.store import query


def check(kb: Kb) -> dict[str, Any]:
    """Per source: lines in total, stored, skipped (by reason), unaccounted; the rulings that end
    without a sentence's stop, each with why (unended()); repairs; problems.

    A problem is a warning (something to fix; `check --strict` fails on warnings) or a note about
    the source's own text, kept as it is (a rule numbered out of sequence), which never fails.

    Stored lines are recomputed from the stored spans of rulings and section headings, so the
    audit checks the knowledge base itself, not what a parser claimed.
    """
    conn = Snapshot.of(kb).connect()
    report: dict[str, Any] = {"sources": [], "repairs": [], "problems": [], "warnings": 0}
    for source in query(conn, "select id, title, path, line_count from sources order by rowid"):
        sid, total = source["id"], source["line_count"]
        stored: set[int] = set()
        for table in ("rulings", "sections"):
            for row in query(conn, f"select line_start, line_end from {table} where source = ?", (sid,)):
                stored.update(range(row["line_start"], row["line_end"] + 1))
        skipped: dict[int, str] = {}
        for row in query(conn, "select line_start, line_end, reason from skipped where source = ?", (sid,)):
            for n in range(row["line_start"], row["line_end"] + 1):
                skipped.setdefault(n, row["reason"])
        reasons: dict[str, int] = {}
        for n, reason in skipped.items():
            if n not in stored:
                reasons[reason] = reasons.get(reason, 0) + 1
        outside = sorted(n for n in stored | set(skipped) if not 1 <= n <= total)
        unaccounted = [n for n in range(1, total + 1) if n not in stored and n not in skipped]
        report["sources"].append({
            "source": sid, "title": source["title"], "path": source["path"], "lines": total,
            "stored": len([n for n in stored if 1 <= n <= total]), "skipped": sum(reasons.values()),
            "skipped_by_reason": reasons, "unaccounted": len(unaccounted), "unaccounted_lines": unaccounted[:50],
        })
        for n in unaccounted[:50]:
            report["problems"].append({"source": sid, "path": source["path"], "line": n, "severity": "warning",
                                       "message": "line neither stored nor skipped"})
        for n in outside[:10]:
            report["problems"].append({"source": sid, "path": source["path"], "line": n, "severity": "warning",
                                       "message": "span outside the file"})
    paths = {s["source"]: s["path"] for s in report["sources"]}
    report["unended"] = unended(conn)
    report["repairs"] = query(conn, "select source, line, kind, before, after from repairs order by source, line")
    for p in query(conn, "select source, line, severity, message from problems"):
        report["problems"].append({**p, "path": paths.get(p["source"], "")})
    report["warnings"] = sum(1 for p in report["problems"] if p["severity"] == "warning")
    report["notes"] = sum(1 for p in report["problems"] if p["severity"] == "note")
    return report


LABELS = frozenset({"citation-key", "step"})
"""Kinds of ruling that are labels (a citation's key, a step of the turn), not sentences."""
SHORT = 12
"""At most this many words: a list's item or a legend's line, not a sentence cut short."""


def unended_reason(r: dict[str, Any]) -> str:
    """Why a stored ruling ends without a sentence's stop, by the first that holds (r: a ruling row
    with its source's parser and, for a card, its type)."""
    last = r["text"].rstrip().rsplit("\n", 1)[-1]
    if r["parser"] == "cards":
        if r["card_type"] in ("Site", "Region"):
            return "a site's or region's card: its data lines end it, not a sentence"
        return "a card's text, ended as the card database ends it"
    if r["kind"] in LABELS:
        return "a label (a step of the turn, a citation's key), not a sentence"
    if "\n" in r["text"].strip() and len(last.split()) <= SHORT:
        return "ends with a list, whose last item has no stop"
    if r["parser"] == "arda":
        return (f"cut by the PDF extraction, which interleaved two columns: the next line ({r['line_end'] + 1}) "
                "goes on with another passage")
    end = untagged(r["text"])
    if end.endswith(":"):
        return "opens a list (ends with a colon): its items follow as the next rulings"
    if len(r["text"].split()) <= SHORT or end.endswith((";", " OR")):
        return "a short item of a list or a legend, written without a stop"
    if end.endswith(("»", "”", "…")):
        return "ends with the words it quotes (an erratum's text), which have no stop"
    return "the source ends it without a stop"


def unended(conn: Any) -> dict[str, Any]:
    """The stored rulings whose text does not end as a sentence does (kb.parsers.document
    .ends_sentence), by source, each with its id, last line, how it ends and why (unended_reason):
    {"by_source": {source: n}, "rulings": [{id, source, line, ends, reason}]}."""
    rows = query(conn, "select r.id, r.source, r.kind, r.text, r.line_end, s.parser, c.type as card_type "
                       "from rulings r join sources s on s.id = r.source left join cards c on c.ruling_id = r.id "
                       "order by s.rowid, r.ord")
    found = [{"id": r["id"], "source": r["source"], "line": r["line_end"], "ends": r["text"].rstrip()[-40:],
              "reason": unended_reason(r)} for r in rows if not ends_sentence(r["text"])]
    by_source: dict[str, int] = {}
    for r in found:
        by_source[r["source"]] = by_source.get(r["source"], 0) + 1
    return {"by_source": by_source, "rulings": found}
