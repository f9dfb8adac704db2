"""The audit behind `rulings check`: every source line stored, skipped with a reason, or reported."""

from __future__ import annotations

from typing import Any

from kb.snapshot import Kb, Snapshot
from kb.store import query


def check(kb: Kb) -> dict[str, Any]:
    """Per source: lines in total, stored, skipped (by reason), unaccounted; repairs; problems.

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
    report["repairs"] = query(conn, "select source, line, kind, before, after from repairs order by source, line")
    for p in query(conn, "select source, line, severity, message from problems"):
        report["problems"].append({**p, "path": paths.get(p["source"], "")})
    report["warnings"] = sum(1 for p in report["problems"] if p["severity"] == "warning")
    report["notes"] = sum(1 for p in report["problems"] if p["severity"] == "note")
    return report
