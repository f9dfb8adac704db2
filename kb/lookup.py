"""Read-side answers from the knowledge base: a ruling by id, statistics, the export stream, the lookups
by card, phase, term and number, and search, each ruling in the one shape of kb/data/schema/ruling.json.

Each answer is read from one build (kb.snapshot): given a knowledge-base folder, a function opens
its current build once and reads everything from it; given a Snapshot, it reads from that."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kb.addresses import Addresses
from kb.cardface import CardFace
from kb.errors import NotFound, Refused
from kb.render import MARKDOWN_PARSERS, Reading, reading
from kb.resolve import quoted, require
from kb.snapshot import Kb, Snapshot
from kb.store import query

if TYPE_CHECKING:
    from kb.searchspec import SearchSpec

RULING_COLUMNS = "r.id, r.source, r.game, r.section, r.kind, r.number, r.title, r.text, r.line_start, " \
                 "r.line_end, r.markers, r.parent, s.title as source_title, s.edition, s.current, s.date, s.path"
RULING_FIELDS = ("id", "source", "source_title", "edition", "current", "game", "section", "kind", "number", "title",
                 "text", "markdown", "lines", "markers", "url")
"""The fields of a ruling in every command's JSON (kb/data/schema/ruling.json), in this order."""
CARD_COLUMNS = "ruling_id, id, set_code, set_name, name, names, type, alignment, text, attributes"


MAX_ID = 80
"""Longer input is no ruling id or number (and would make too long a LIKE pattern)."""


def _like_prefix(text: str) -> str:
    """A LIKE pattern for "starts with text", its % and _ taken literally."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


class Shaper:
    """Turns stored rows into the documented JSON shapes, with site addresses read once, when first needed."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._addresses: Addresses | None = None
        self._parsers: dict[str, str] | None = None

    @property
    def addresses(self) -> Addresses:
        if self._addresses is None:
            self._addresses = planned(self.conn)
        return self._addresses

    def parser(self, source: str) -> str:
        """The parser of a source (which says how its text is written: kb.render.reading)."""
        if self._parsers is None:
            self._parsers = {r["id"]: r["parser"] for r in query(self.conn, "select id, parser from sources")}
        return self._parsers.get(source, "")

    def reading(self, row: dict[str, Any]) -> Reading:
        """A ruling row's text as a reader reads it (kb.render.reading)."""
        return reading(row["text"], self.parser(row["source"]))

    def ruling(self, row: dict[str, Any]) -> dict[str, Any]:
        """A ruling row (from SQL, or a search document's data) in the one ruling shape: its text as
        a reader reads it, and, from a source written in Markdown, its text so written ("markdown")."""
        lines = row["lines"] if "lines" in row else [row["line_start"], row["line_end"]]
        parser = self.parser(row["source"])
        out = {"id": row["id"], "source": row["source"], "source_title": row["source_title"],
               "edition": row["edition"], "current": bool(row["current"]), "game": row["game"],
               "section": list(row["section"]), "kind": row["kind"], "number": row["number"] or None,
               "title": row["title"] or None, "text": reading(row["text"], parser).text,
               "markdown": row["text"] if parser in MARKDOWN_PARSERS else None,
               "lines": [int(lines[0]), int(lines[1])], "markers": list(row["markers"])}
        out["url"] = self.addresses.ruling(out)
        return out

    def rulings(self, ids: list[str]) -> list[dict[str, Any]]:
        """Rulings by id, current editions first, then in source and document order."""
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        rows = query(self.conn, f"select {RULING_COLUMNS} from rulings r join sources s on s.id = r.source "
                                f"where r.id in ({marks}) order by s.current desc, s.rowid, r.ord", tuple(ids))
        return [self.ruling(r) for r in rows]

    def ordered(self, ids: list[str]) -> list[str]:
        """Ruling ids in the order rulings() gives them (current editions first, then source and document order)."""
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        return [r["id"] for r in query(self.conn, f"select r.id from rulings r join sources s on s.id = r.source "
                                                  f"where r.id in ({marks}) order by s.current desc, s.rowid, r.ord",
                                       tuple(ids))]

    def card(self, row: dict[str, Any]) -> dict[str, Any]:
        """A card row in the one card shape (kb/data/schema/card.json)."""
        return CardFace.of(row, self.addresses.card(row["name"])).to_json()

    def cards(self, where: str, params: tuple[Any, ...]) -> list[CardFace]:
        rows = query(self.conn, f"select {CARD_COLUMNS} from cards where {where} order by set_code, id", params)
        return [CardFace.of(r, self.addresses.card(r["name"])) for r in rows]


_plans: dict[tuple[Path, str], Addresses] = {}


def planned(conn: sqlite3.Connection) -> Addresses:
    """The site plan of conn's build (Addresses.read), read once per process and build, a copy each
    time: a build never changes once in place (search_spec and kb.search's searchers are kept the
    same way), and a process that answers many questions (`rulings ask`, the tests) reads it once.
    A build is known by its database's real path and the time the database itself says it was built
    (a build swapped in between opening and asking gives a key no later lookup asks for)."""
    name = next((row["file"] for row in query(conn, "pragma database_list") if row["name"] == "main"), "")
    built = [row["value"] for row in query(conn, "select value from meta where key = 'built_at'")]
    if not name or not built:  # a database in memory, or one that does not say when it was built
        return Addresses.read(conn)
    key = (Path(name).resolve(), str(built[0]))
    if key not in _plans:
        _plans[key] = Addresses.read(conn)
    return _plans[key].copy()


def group_by_source(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rulings grouped by source, in the order given: [{source, source_title, edition, rulings}]."""
    groups: dict[str, dict[str, Any]] = {}
    for r in rows:
        g = groups.setdefault(r["source"], {"source": r["source"], "source_title": r["source_title"],
                                            "edition": r["edition"], "rulings": []})
        g["rulings"].append(r)
    return list(groups.values())


def noted(conn: sqlite3.Connection, rulings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rulings, each holding a line `rulings check` notes in the source's own text (a rule
    numbered under the wrong parent) given those notes as "notes"."""
    from kb.corpus import notes_by_ruling

    notes = query(conn, "select source, line, message from problems where severity = 'note'")
    found = notes_by_ruling(notes, ((r["id"], r["source"], *r["lines"]) for r in rulings)) if notes else {}
    for r in rulings:
        if r["id"] in found:
            r["notes"] = found[r["id"]]
    return rulings


def show_ruling(kb: Kb, ruling_id: str) -> dict[str, Any]:
    """One ruling, with what it links to ("links"), the ruling it belongs to ("parent") and, for a
    card, the card's face ("card"). NotFound, with the ids it may have meant, if unknown."""
    ruling_id = require(ruling_id, "ruling id", "rulings show crf-22.454d048a6d")
    conn = Snapshot.of(kb).connect()
    shaper = Shaper(conn)
    found = shaper.rulings([ruling_id])
    if not found:
        near = query(conn, "select id from rulings where id like ? escape '\\' order by id limit 5",
                     (_like_prefix(ruling_id),)) if len(ruling_id) <= MAX_ID else []
        hint = f"Did you mean {', '.join(r['id'] for r in near)}? " if near else ""
        raise NotFound(f"no ruling with id {quoted(ruling_id)}",
                       hint=hint + "Ids are shown by `rulings search` and every lookup (e.g. crf-22.454d048a6d).")
    ruling = noted(conn, found)[0]
    parent = query(conn, "select parent from rulings where id = ?", (ruling_id,))[0]["parent"]
    parents = shaper.rulings([parent]) if parent else []
    ruling["parent"] = parents[0] if parents else None
    ruling["links"] = _links_of(conn, ruling_id)
    if ruling["kind"] == "card":
        faces = shaper.cards("ruling_id = ?", (ruling_id,))
        if faces:
            ruling["card"] = faces[0].to_json()
    return ruling


def _links_of(conn: sqlite3.Connection, ruling_id: str) -> dict[str, list[dict[str, str]]]:
    """What a ruling links to, by kind, and what links to it (citations, older editions)."""
    out: dict[str, list[dict[str, str]]] = {}
    for row in query(conn, "select kind, target, how from links where ruling_id = ? order by kind, target", (ruling_id,)):
        out.setdefault(row["kind"], []).append({"target": row["target"], "how": row["how"]})
    older = query(conn, "select ruling_id, how from links where kind = 'edition' and target = ?", (ruling_id,))
    if older:
        out["older_editions"] = [{"target": r["ruling_id"], "how": r["how"]} for r in older]
    return out


def stats(kb: Kb) -> list[dict[str, Any]]:
    """Per source: title, game, edition, date, lines, and rulings by kind."""
    return _stats(Snapshot.of(kb).connect())


def _stats(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    sources = query(conn, "select id, title, game, kind, edition, date, current, line_count from sources order by rowid")
    counts = query(conn, "select source, kind, count(*) as n from rulings group by source, kind order by n desc")
    for s in sources:
        s["current"] = bool(s["current"])
        s["rulings_by_kind"] = {c["kind"]: c["n"] for c in counts if c["source"] == s["id"]}
        s["rulings"] = sum(s["rulings_by_kind"].values())
    return sources


def about(kb: Kb) -> dict[str, Any]:
    """Where the knowledge base is (the folder and the build it points to), when it was built, and
    stats() per source."""
    snapshot = Snapshot.of(kb)
    conn = snapshot.connect()
    meta = {r["key"]: r["value"] for r in query(conn, "select key, value from meta")}
    return {"kb": str(snapshot.kb_dir.absolute()), "build": str(snapshot.folder),
            "built_at": meta.get("built_at", ""), "sources": _stats(conn)}


def export(kb: Kb) -> Iterator[dict[str, Any]]:
    """Every ruling in the ruling shape (a card's with its face as "card"), in source and document order."""
    conn = Snapshot.of(kb).connect()
    shaper = Shaper(conn)
    cards = {c["ruling_id"]: c for c in query(conn, f"select {CARD_COLUMNS} from cards")}
    rows = query(conn, f"select {RULING_COLUMNS} from rulings r join sources s on s.id = r.source "
                       "order by s.rowid, r.ord")
    for row in rows:
        out = shaper.ruling(row)
        if row["id"] in cards:
            out["card"] = shaper.card(cards[row["id"]])
        yield out


# -- lookups by name and number -------------------------------------------------------------------------

_specs: dict[Path, SearchSpec] = {}


def search_spec(kb: Kb) -> SearchSpec:
    """The search data of a build, read once per process and build (a build never changes once in
    place; kb.search.open_searcher keeps its searcher the same way)."""
    from kb.searchspec import SPEC, SearchSpec

    snapshot = Snapshot.of(kb)
    if snapshot.folder not in _specs:
        _specs[snapshot.folder] = SearchSpec.load(snapshot.file(SPEC))
    return _specs[snapshot.folder]


def card(kb: Kb, name: str) -> dict[str, Any]:
    """A card by any language's name (accents, hyphens, plurals and typos forgiven): every printing's
    face, its errata, its CRF rulings, and every ruling that mentions it, grouped by source; with an
    exact name, the other cards it begins ("also": name, id, set, type and alignment of each).

    A name that begins several cards ("khamul") raises Ambiguous listing them; a miss raises
    NotFound with the nearest names.
    """
    from kb import resolve

    snapshot = Snapshot.of(kb)
    conn = snapshot.connect()
    shaper = Shaper(conn)
    versions: dict[str, list[dict[str, Any]]] = {}
    for c in query(conn, "select id, name, set_name, type, alignment from cards order by set_code, id"):
        versions.setdefault(c["name"], []).append(c)
    match = resolve.card(name, search_spec(snapshot), versions)
    english = sorted(match.names)
    found = card_rulings(conn, shaper, english)
    return {"query": name, "read_as": match.read_as, "names": english,
            "also": resolve.card_candidates(match.also, versions),
            "cards": [f.to_json() for f in shaper.cards(f"name in ({','.join('?' * len(english))})", tuple(english))],
            "errata": found.errata, "rulings": found.rulings,
            "mentioned_in": group_by_source(shaper.rulings(found.mentions))}


@dataclass(frozen=True, slots=True)
class CardRulings:
    """What the knowledge base says about a card: its errata and its own rulings (in the ruling
    shape), and the ids of the other rulings that mention it."""

    errata: list[dict[str, Any]]
    rulings: list[dict[str, Any]]
    mentions: list[str]


def card_answer(links: Iterable[tuple[str, str]]) -> tuple[list[str], list[str]]:
    """What the knowledge base says about a card, from the links to its names ((ruling id, how), in
    any order): the ids of its own rulings (its errata and CRF rulings: "about"), and of the other
    rulings that mention it, its own card text aside (how "card": the face shows it). `rulings
    card`, `rulings deck` and the site's card page all answer with these."""
    links = list(links)
    own = list(dict.fromkeys(rid for rid, how in links if how == "about"))
    face = {rid for rid, how in links if how == "card"}
    mentions = list(dict.fromkeys(rid for rid, how in links
                                  if how == "mention" and rid not in own and rid not in face))
    return own, mentions


def card_rulings(conn: sqlite3.Connection, shaper: Shaper, names: list[str]) -> CardRulings:
    """The errata, rulings and mentions (ordered as rulings are) of the cards of these English names (`rulings card` and
    `rulings deck` both show these, in this order): card_answer()."""
    marks = ",".join("?" * len(names))
    own, mentions = card_answer((r["ruling_id"], r["how"]) for r in query(
        conn, f"select ruling_id, how from links where kind = 'card' and target in ({marks})", tuple(names)))
    about_it = shaper.rulings(own)
    return CardRulings([r for r in about_it if r["kind"] == "erratum"], [r for r in about_it if r["kind"] != "erratum"],
                       shaper.ordered(mentions))


def phase(kb: Kb, name: str) -> dict[str, Any]:
    """Every ruling of a turn phase ("M/H", "mh", "site", "eot", "org" ...), grouped by source."""
    from kb import resolve
    from kb.phases import PHASE_ALIASES, PHASE_NAMES

    phase_id = resolve.phase(name, PHASE_NAMES, PHASE_ALIASES)
    conn = Snapshot.of(kb).connect()
    ids = [r["ruling_id"] for r in query(conn, "select distinct ruling_id from links where kind = 'phase' "
                                               "and target = ?", (phase_id,))]
    return {"query": name, "phase": phase_id, "name": PHASE_NAMES[phase_id],
            "sources": group_by_source(Shaper(conn).rulings(ids))}


def term(kb: Kb, name: str) -> dict[str, Any]:
    """A term: its definition(s), its "Rulings by Term" section, and every ruling that uses it."""
    from kb import resolve
    from kb.headings import title_key
    from kb.tables import load_table

    conn = Snapshot.of(kb).connect()
    terms = {t["key"]: t for t in query(conn, "select key, name, definition, section_id from terms")}
    for s in query(conn, "select id, title from sections where source in (select id from sources where "
                         "parser = 'crf' and current = 1) and depth >= 2 order by ord"):
        terms.setdefault(title_key(s["title"]), {"key": title_key(s["title"]), "name": s["title"],
                                                 "definition": "", "section_id": s["id"]})
    key, read_as = resolve.term(name, {k: t["name"] for k, t in terms.items()}, load_table("abbreviations"))
    t = terms[key]
    shaper = Shaper(conn)
    definition = shaper.rulings([t["definition"]] if t["definition"] else [])
    section = []
    if t["section_id"]:
        section = shaper.rulings([r["id"] for r in query(
            conn, "select r.id from rulings r join sections s on s.source = r.source and r.section = s.titles "
                  "where s.id = ?", (t["section_id"],))])
    shown = {r["id"] for r in definition + section}
    users = [r["ruling_id"] for r in query(conn, "select ruling_id from links where kind = 'term' and target = ?",
                                           (t["name"],)) if r["ruling_id"] not in shown]
    return {"query": name, "read_as": read_as, "term": t["name"], "definitions": definition,
            "rulings_by_term": section, "used_in": group_by_source(shaper.rulings(users))}


def numbered(kb: Kb, kind: str, number: str) -> dict[str, Any]:
    """An annotation or a rule by number ("25a", "2.IV.iii"), its parts, and every ruling citing it.

    "2.IV" lists 2.IV.i onward; "25" is not "25a".
    """
    from kb.resolve import number_hint

    example = "rulings annotation 18" if kind == "annotation" else "rulings rule 2.IV.iii"
    number = require(number, f"{kind} number", example)
    conn = Snapshot.of(kb).connect()
    wanted = number.strip().lower().removeprefix("annotation").removeprefix("anno").removeprefix("rule").strip()
    rows = query(conn, "select id, number from rulings where kind = ? and lower(number) = ?", (kind, wanted))
    parts = query(conn, "select id, number from rulings where kind = ? and lower(number) like ? escape '\\' "
                        "order by ord", (kind, _like_prefix(wanted + "."))) \
        if kind == "rule" and wanted and len(wanted) <= MAX_ID else []
    if not rows and not parts:
        numbers = [r["number"] for r in query(conn, "select distinct number from rulings where kind = ? and "
                                                    "number != ''", (kind,))]
        raise NotFound(f"no {kind} {quoted(number)}", hint=number_hint(kind, wanted, numbers))
    cites = [r["ruling_id"] for r in query(conn, "select ruling_id from links where kind = ? and target = ?",
                                           (kind, wanted))]
    shaper = Shaper(conn)
    return {"kind": kind, "number": rows[0]["number"] if rows else number,
            "rulings": noted(conn, shaper.rulings([r["id"] for r in rows])),
            "parts": noted(conn, shaper.rulings([r["id"] for r in parts])),
            "cited_by": group_by_source(shaper.rulings(cites))}


# -- what changed ---------------------------------------------------------------------------------------

def changes(kb: Kb, since: str | None = None, source: str | None = None,
            phase: str | None = None) -> list[dict[str, Any]]:
    """What changed in the current CRF (kb.changes: listed, marked, reworded, tagged, absent), each
    change a ruling in the ruling shape with its `change`: since a year ("2015": what the sources
    date from then on), of a source (a change a ruling of it takes part in), of a phase. A
    `since` that is not a year, an unknown source or phase, is Refused."""
    from kb import resolve
    from kb.changes import from_row, since_year

    year = since_year(since) if since is not None else None
    conn = Snapshot.of(kb).connect()
    if source is not None:
        source = resolve.source(source, {s["id"]: s["title"] for s in query(conn, "select id, title from sources "
                                                                                  "order by rowid")})
    found = [from_row(row) for row in query(conn, "select * from changes order by ord")]
    if year is not None:
        found = [c for c in found if c.year is not None and c.year >= year]
    if phase is not None:
        from kb.phases import PHASE_ALIASES, PHASE_NAMES

        try:
            target = resolve.phase(phase, PHASE_NAMES, PHASE_ALIASES)
        except NotFound as exc:  # an option's value: a usage error, as an unknown --source is
            raise Refused(str(exc), hint=exc.hint) from exc
        of_phase = {r["ruling_id"] for r in query(conn, "select ruling_id from links where kind = 'phase' and "
                                                        "target = ?", (target,))}
        found = [c for c in found if of_phase & {c.ruling_id, c.other_id}]
    shaped = {r["id"]: r for r in Shaper(conn).rulings(list({i for c in found for i in (c.ruling_id, c.other_id) if i}))}
    out = []
    for c in found:
        other = shaped.get(c.other_id)
        if source is None or source in (shaped[c.ruling_id]["source"], other and other["source"]):
            out.append({**shaped[c.ruling_id], "change": c.to_json(other)})
    return out


# -- search ---------------------------------------------------------------------------------------------

@dataclass(slots=True)
class Found:
    """A search's answer: how the query was read, the results, and what it takes to show them."""

    kb: Snapshot
    """The build searched, which the results are shown from."""
    understanding: Any
    results: list[Any]
    spec: Any
    _shaper: Shaper | None = None

    @property
    def shaper(self) -> Shaper:
        if self._shaper is None:
            self._shaper = Shaper(self.kb.connect())
        return self._shaper

    def reading(self, result: Any) -> Reading:
        """A result's text as a reader reads it (kb.render.reading)."""
        return self.shaper.reading(result.data)

    def to_json(self, explain: bool = False) -> Any:
        """The results in the ruling shape plus score, also_in and matched (and why, with explain);
        with explain, {"understanding", "results"}."""
        from dataclasses import asdict

        shaper = self.shaper
        out = []
        for r in self.results:
            item = shaper.ruling(r.data)
            item.update({"score": round(r.score, 4), "also_in": list(r.also_in), "matched": list(r.matched)})
            if explain:
                item["why"] = dict(r.why)
            out.append(item)
        return {"understanding": asdict(self.understanding), "results": out} if explain else out


def search(kb: Kb, text: str, *, limit: int = 10, game: str | None = None, source: str | None = None,
           raw: bool = False) -> Found:
    """The rulings that answer a question (kb.search); an empty question or an unknown source is Refused."""
    from kb import resolve
    from kb.search import open_searcher

    text = require(text, "question", 'rulings search "can a strike be cancelled after the roll"')
    snapshot = Snapshot.of(kb)
    searcher = open_searcher(snapshot)
    if source is not None:
        known = {s["id"]: s["title"] for s in searcher.spec.raw["sources"]}
        source = resolve.source(source, known)
    understanding = searcher.understand(text)
    results = searcher.search(text, limit=limit, game=game, source=source, raw=raw)
    return Found(snapshot, understanding, results, searcher.spec)
