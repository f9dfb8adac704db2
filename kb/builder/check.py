"""The audit behind `rulings check`: every source line stored, skipped with a reason, or reported."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from kb.builder.normalize import entities
from kb.builder.parsers.document import ends_sentence, untagged
from kb.store.snapshot import Kb, Snapshot
from kb.store.store import not_json, query


@dataclass(frozen=True, slots=True)
class SourceAudit:
    """One source's lines: how many stored, skipped (by reason) and unaccounted for."""

    source: str
    title: str
    path: str
    lines: int
    """The lines of its file."""
    stored: int
    """Lines inside a stored ruling's or section heading's span."""
    skipped: int
    """Lines stored as no ruling (and in no span), each with its reason."""
    skipped_by_reason: dict[str, int]
    unaccounted: int
    """Lines neither stored nor skipped: each is a warning."""
    unaccounted_lines: list[int]
    """The first 50 of them."""


@dataclass(frozen=True, slots=True)
class Repair:
    """A change the build made to a source's text while parsing (mojibake, lost ligatures)."""

    source: str
    line: int
    kind: str
    before: str
    after: str


@dataclass(frozen=True, slots=True)
class Finding:
    """A problem: a warning (something to fix) or a note about the source's own text."""

    source: str
    path: str
    line: int | None
    severity: str
    message: str
    stored: bool = True
    """Found by the build (the problems table), not by the audit itself."""

    def to_json(self) -> dict[str, Any]:
        """As `check --json` prints it (the build's findings name their path last)."""
        if self.stored:
            return {"source": self.source, "line": self.line, "severity": self.severity, "message": self.message,
                    "path": self.path}
        return {"source": self.source, "path": self.path, "line": self.line, "severity": self.severity,
                "message": self.message}


@dataclass(frozen=True, slots=True)
class UnendedRuling:
    """A stored ruling whose text does not end as a sentence does, and why (unended_reason)."""

    id: str
    source: str
    line: int
    """Its last line."""
    ends: str
    """Its last 40 characters."""
    reason: str


@dataclass(frozen=True, slots=True)
class Unended:
    """The stored rulings that end without a sentence's stop (unended)."""

    by_source: dict[str, int]
    """How many in each source, in manifest order."""
    rulings: list[UnendedRuling]


@dataclass(frozen=True, slots=True)
class IncompleteRuling:
    """A stored ruling the source's text leaves incomplete (kb.model.Ruling.incomplete), and why."""

    id: str
    source: str
    lines: tuple[int, int]
    reason: str


@dataclass(frozen=True, slots=True)
class Incomplete:
    """The stored rulings marked incomplete in the source's text, as every reader shows them."""

    by_source: dict[str, int]
    """How many in each source, in manifest order."""
    rulings: list[IncompleteRuling]


@dataclass(frozen=True, slots=True)
class CheckReport:
    """What `rulings check` reports: per source its lines, the rulings that end without a sentence's
    stop, those marked incomplete, then every repair and problem."""

    sources: list[SourceAudit]
    repairs: list[Repair]
    problems: list[Finding]
    unended: Unended
    incomplete: Incomplete

    @property
    def warnings(self) -> int:
        return sum(1 for p in self.problems if p.severity == "warning")

    @property
    def notes(self) -> int:
        return sum(1 for p in self.problems if p.severity == "note")

    def to_json(self) -> dict[str, Any]:
        """As `check --json` prints it."""
        return {"sources": [asdict(s) for s in self.sources], "repairs": [asdict(r) for r in self.repairs],
                "problems": [p.to_json() for p in self.problems], "warnings": self.warnings,
                "unended": asdict(self.unended), "incomplete": asdict(self.incomplete), "notes": self.notes}


def check(kb: Kb) -> CheckReport:
    """Per source: lines in total, stored, skipped (by reason), unaccounted; the rulings that end
    without a sentence's stop, each with why (unended()); repairs; problems.

    A problem is a warning (something to fix; `check --strict` fails on warnings) or a note about
    the source's own text, kept as it is (a rule numbered out of sequence), which never fails.

    Stored lines are recomputed from the stored spans of rulings and section headings, so the
    audit checks the knowledge base itself, not what a parser claimed.
    """
    conn = Snapshot.of(kb).connect()
    sources: list[SourceAudit] = []
    problems: list[Finding] = []
    for source in query(conn, "select id, title, path, line_count from sources order by rowid"):
        sid, path, total = source["id"], source["path"], source["line_count"]
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
        sources.append(SourceAudit(sid, source["title"], path, total, len([n for n in stored if 1 <= n <= total]),
                                   sum(reasons.values()), reasons, len(unaccounted), unaccounted[:50]))
        problems += [Finding(sid, path, n, "warning", "line neither stored nor skipped", False)
                     for n in unaccounted[:50]]
        problems += [Finding(sid, path, n, "warning", "span outside the file", False) for n in outside[:10]]
    paths = {s.source: s.path for s in sources}
    ended = unended(conn)
    repairs = [Repair(**r) for r in query(conn, "select source, line, kind, before, after from repairs "
                                                "order by source, line")]
    problems += [Finding(p["source"], paths.get(p["source"], ""), p["line"], p["severity"], p["message"])
                 for p in query(conn, "select source, line, severity, message from problems")]
    problems += damaged(conn, paths)
    problems += entities_left(conn, paths)
    return CheckReport(sources, repairs, problems, ended, incomplete(conn))


def damaged(conn: Any, paths: dict[str, str]) -> list[Finding]:
    """A warning for each stored value that is not the JSON it should be (kb.store.store.not_json), at the
    source line of its ruling or section: the knowledge base is damaged."""
    found = []
    for name, column in not_json(conn):
        where = conn.execute("select source, line_start from rulings where id = ? union all "
                             "select source, line_start from sections where id = ?", (name, name)).fetchone()
        source, line = where if where else ("", None)
        found.append(Finding(source, paths.get(source, ""), line, "warning", f"the {column} stored for {name} is not "
                             "JSON: the knowledge base is damaged; run `rulings build` to rebuild it", False))
    return found


STORED_TEXT = ("select source, line_start as line, 'ruling ' || id as what, text || char(10) || coalesce(title, '') "
               "|| char(10) || section as text from rulings",
               "select source, line_start as line, 'heading ' || id as what, titles as text from sections",
               "select r.source, r.line_start as line, 'card ' || c.ruling_id as what, c.name || char(10) || c.names "
               "|| char(10) || c.set_name || char(10) || c.text as text from cards c join rulings r on r.id = "
               "c.ruling_id",
               "select coalesce(r.source, '') as source, r.line_start as line, 'term ' || t.key as what, t.name as "
               "text from terms t left join rulings r on r.id = t.definition")
"""Every text the knowledge base stores to be read (the `raw` lines, kept exactly as the source
has them, aside), with where it came from."""


def entities_left(conn: Any, paths: dict[str, str]) -> list[Finding]:
    """A warning for each stored text that still holds an HTML entity (kb.builder.normalize.entities): the
    build reads every source's (kb.builder.parsers.document.DocumentBuilder.decoded), so one left is a text
    that escaped it, shown to a judge as "&Euml;arcaraxë"."""
    return [Finding(row["source"], paths.get(row["source"], ""), row["line"], "warning",
                    f"HTML entity {', '.join(dict.fromkeys(found))} left in the stored text of {row['what']}", False)
            for sql in STORED_TEXT for row in query(conn, sql) if (found := entities(row["text"] or ""))]


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
    if r["incomplete"]:
        return f"incomplete in the source's text, and shown so: {r['incomplete']}"
    if r["kind"] in LABELS:
        return "a label (a step of the turn, a citation's key), not a sentence"
    if "\n" in r["text"].strip() and len(last.split()) <= SHORT:
        return "ends with a list, whose last item has no stop"
    end = untagged(r["text"])
    if end.endswith(":"):
        return "opens a list (ends with a colon): its items follow as the next rulings"
    if len(r["text"].split()) <= SHORT or end.endswith((";", " OR")):
        return "a short item of a list or a legend, written without a stop"
    if end.endswith(("»", "”", "…")):
        return "ends with the words it quotes (an erratum's text), which have no stop"
    return "the source ends it without a stop"


def unended(conn: Any) -> Unended:
    """The stored rulings whose text does not end as a sentence does (kb.builder.parsers.document
    .ends_sentence), by source, each with its id, last line, how it ends and why (unended_reason)."""
    rows = query(conn, "select r.id, r.source, r.kind, r.text, r.line_end, r.incomplete, s.parser, c.type as card_type "
                       "from rulings r join sources s on s.id = r.source left join cards c on c.ruling_id = r.id "
                       "order by s.rowid, r.ord")
    found = [UnendedRuling(r["id"], r["source"], r["line_end"], r["text"].rstrip()[-40:], unended_reason(r))
             for r in rows if not ends_sentence(r["text"])]
    return Unended(counted(found), found)


def incomplete(conn: Any) -> Incomplete:
    """The stored rulings marked incomplete in the source's text (kb.model.Ruling.incomplete), by source."""
    rows = query(conn, "select r.id, r.source, r.line_start, r.line_end, r.incomplete from rulings r join sources s "
                       "on s.id = r.source where r.incomplete != '' order by s.rowid, r.ord")
    found = [IncompleteRuling(r["id"], r["source"], (r["line_start"], r["line_end"]), r["incomplete"]) for r in rows]
    return Incomplete(counted(found), found)


def counted(found: list[UnendedRuling] | list[IncompleteRuling]) -> dict[str, int]:
    """How many of the rulings found are in each source, in the order found (manifest order)."""
    by_source: dict[str, int] = {}
    for r in found:
        by_source[r.source] = by_source.get(r.source, 0) + 1
    return by_source
