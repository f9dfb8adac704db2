"""The read API's description of a build: the Datasette metadata a build writes beside its database.

It is made from the manifest's sources, so every document's origin and licence, the Council of
Elrond card database's credit among them, travels with the database it describes. The keys used
are those of Datasette 0.65's metadata file (title, description, license, source, per-table
description, columns, facets, sortable_columns, label_column, and the database's canned queries);
Datasette 0.65 has no setting for a column's type, so JSON columns are named in their column
description, and the JSON API decodes them when asked (`?_json=section`). `rulings serve`
(kb.server) reads the file; nothing here imports Datasette.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kb.model import Source
from kb.store.store import FULL_TEXT, JSON_COLUMNS, SAVED_QUERIES

METADATA = "datasette.json"
"""The metadata file a build writes beside the database."""
DATABASE = "rulings"
"""The database's name in Datasette's URLs: the stem of store.DB_NAME."""

TABLES: dict[str, dict[str, Any]] = {
    "sources": {
        "description": "One row per document the knowledge base is built from, as rulings/sources.toml lists it: "
                       "title, game, kind, edition, date, origin, and the licence it is used under.",
        "facets": ["game", "kind", "edition"],
        "sortable_columns": ["id", "title", "game", "kind", "edition", "date", "line_count", "rulings"],
        "label_column": "title",
        "columns": {"current": "1 for the edition a judge should rely on first, 0 for an older one kept for reference",
                    "licence": "the terms the document is used under, with the credit its publisher asks for",
                    "origin_url": "the publisher's page of the document, where it has one"},
    },
    "rulings": {
        "description": "Every ruling, rule, definition, example and card of every document, with its place "
                       "(source, section, line span). Search with the box: full text over title, section and "
                       "text (words stemmed, accents folded), the rows in id order; the search query gives "
                       "the same rows, the most relevant first.",
        "facets": ["source", "game", "kind", "incomplete"],
        "sortable_columns": ["id", "source", "game", "kind", "number", "title", "line_start", "ord"],
        "label_column": "title",
        "columns": {"id": "stable id: source id, a dot, a hash of the ruling's place and words",
                    "section": "the headings above the ruling, outermost first",
                    "kind": "ruling, rule, annotation, definition, example, card, ...",
                    "number": "the document's own number (annotation 18, rule 2.IV.iii), where it has one",
                    "text": "the ruling's text, Markdown", "raw": "the source lines as they are in the file",
                    "markers": "tags the document puts on the ruling (errata, origin tags)",
                    "line_start": "first line in the source file", "line_end": "last line in the source file",
                    "ord": "position in its document", "parent": "the id of the ruling this one belongs to",
                    "incomplete": "why the source's text of the ruling is not whole (a text extraction cut it and "
                                  "the rest was not found), empty where it reads whole: every reader shows it so"},
    },
    "cards": {
        "description": "The cards of the Council of Elrond card database, one row each: names in every language, "
                       "type, alignment, text and every attribute. Search with the box: names in every language "
                       "and text.",
        "facets": ["type", "alignment", "set_name"],
        "sortable_columns": ["id", "name", "set_code", "set_name", "type", "alignment"],
        "label_column": "name",
        "columns": {"ruling_id": "the card's row in rulings", "id": "the card database's id (TW-47)",
                    "name": "the English name", "names": "the name by language code",
                    "all_names": "every language's name, distinct, \" / \" between (searched)",
                    "text_html": "the text as HTML", "attributes": "every other field of the card database"},
    },
    "sections": {"description": "Every heading of every document, with its path and line span.",
                 "facets": ["source", "depth"], "label_column": "title",
                 "columns": {"titles": "the headings from the top down to this one"}},
    "links": {"description": "Cross-references found in the rulings: kind card (how: card, about, mention), phase, "
                             "term, annotation and rule (cites), section (See also), edition (same, reworded or "
                             "absent, from an older edition's ruling to the current one).",
              "facets": ["kind", "how"]},
    "terms": {"description": "Game terms: the ruling that defines each, its Rulings by Term section, the other CRF "
                             "headings and the CoE rules whose title names it, and the other names it is asked by.",
              "label_column": "name",
              "columns": {"headings": "the other CRF headings that name it (section ids)",
                          "rules": "the CoE rules titled by it, each with its parts (ruling ids)",
                          "aliases": "the other keys `rulings term` reads as it"}},
    "card_headings": {"description": "Every CRF card heading and the card name or names it stands for."},
    "card_keywords": {"description": "Each name `rulings card` reads as a CRF keyword heading's cards (folded: "
                                     "\"mind ring\"), with that heading (its cards: card_headings)."},
    "card_answers": {"description": "What is said of each card, as `rulings card` answers it and the card_rulings "
                                    "query lists it: part card (its own text), erratum, ruling (about it), mention "
                                    "(any other ruling naming it), each ruling once per card, ord the reading order.",
                     "facets": ["part"], "sortable_columns": ["card", "ord"]},
    "addresses": {"description": "Where each document (part), card, term, phase, annotation, rule and ruling lives on "
                                 "the static site, as the build decided it: the page, and a ruling's anchor on it.",
                  "facets": ["kind"]},
    "changes": {"description": "What changed in the current CRF (`rulings changes`): kind listed (in its \"Changes "
                               "from ...\" section), marked (@), reworded (since the older edition, word by word), "
                               "tagged (an origin tag), absent (an older ruling no longer in it in its words: verdict "
                               "replaced, reversed, moved or dropped); each with its evidence, guess 1 where a pairing "
                               "is the build's reading, and unsure 1 where the verdict rests on the words alone.",
                "facets": ["kind", "year", "verdict"], "sortable_columns": ["kind", "year", "ord"],
                "columns": {"ruling_id": "the ruling that changed (the older one, for absent)",
                            "year": "the year the sources date it from (its tag's, else its edition's)",
                            "other_id": "the ruling on the other side: the one a listed change names, the older "
                                        "wording, an older ruling's successor, or the nearest current wording of "
                                        "one dropped",
                            "verdict": "absent: replaced, reversed, moved or dropped; reworded: reversed where "
                                       "one wording negates the other",
                            "unsure": "1 where the verdict is the build's reading of the words alone (say it "
                                      "\"possibly\"); 0 where the sources or a person checking by hand decided",
                            "likeness": "how alike the two wordings are (0 to 1), where the pairing rests on it",
                            "erratum_cards": "the cards it is an erratum of",
                            "diff": "the older wording made into this one: [op, text] pieces (same, removed, added)"}},
    "card_names": {"description": "Every card's name in every language as it may be asked for (folded: no accents, "
                                  "case or apostrophes; and in lower case; a name opening with \"The\" also without "
                                  "it, as `rulings card` reads it), with its English name: what the card_rulings query "
                                  "looks a name up in.",
                   "columns": {"key": "a name as it may be asked for", "name": "the card's English name"}},
    "skipped": {"description": "Source lines stored as no ruling, each with the reason (`rulings check`).",
                "facets": ["source"]},
    "repairs": {"description": "Every repair made to a source's text while parsing (mojibake, lost ligatures).",
                "facets": ["source", "kind"]},
    "problems": {"description": "Warnings and notes about the sources found while building (`rulings check`).",
                 "facets": ["source", "severity"]},
    "meta": {"description": "The build: schema version, time, rulings version."},
}
"""What Datasette shows of each table (Datasette 0.65 metadata keys)."""


QUERIES = {
    "search": "The rulings holding every word of q (words stemmed, accents folded; each word as typed, no "
              "operators), the most relevant first (SQLite's BM25 rank over title, section and text). "
              "`rulings search` ranks them as a judge asks, with cards and references read.",
    "card_rulings": "What is said of the card named card, as `rulings card` answers it: its own text, its errata, "
                    "the rulings about it, then every other ruling mentioning it (part says which), each once. "
                    "The name in any language, any case, with or without accents; a name that begins several "
                    "cards and is none (\"khamul\") gives each of them.",
    "annotation_rulings": "Every ruling that cites the CRF annotation numbered annotation (\"18\", \"25a\"), by "
                          "source and in document order. `rulings annotation` gives the annotation itself.",
}
"""What each saved query of the store (kb.store.store.SAVED_QUERIES) answers, shown under its title on its page."""


def metadata(sources: Sequence[Source], version: str) -> dict[str, Any]:
    """The Datasette metadata of a knowledge base built from these sources.

    Every source's licence appears in the footer of every page (grouped by licence, naming the
    sources each covers); the cards table names the card database as its source and licence.
    """
    by_licence: dict[str, list[str]] = {}
    for s in sources:
        by_licence.setdefault(s.licence or "not recorded in the manifest", []).append(s.id)
    tables = {name: dict(table) for name, table in TABLES.items()}
    for name, table in tables.items():
        columns = dict(table.get("columns", {}))
        for column in JSON_COLUMNS.get(name, ()):
            note = f"(JSON text; ?_json={column} on a .json URL decodes it)"
            columns[column] = f"{columns[column]} {note}" if column in columns else note
        if columns:
            table["columns"] = columns
        if name in FULL_TEXT:
            table["fts_table"] = f"{name}_fts"
    for s in sources:
        if s.parser == "cards":
            tables["cards"].update({"source": s.title, "license": s.licence or "not recorded in the manifest"})
            if s.origin_url:
                tables["cards"]["source_url"] = s.origin_url
    return {
        "title": "MECCG rulings knowledge base",
        "description": (f"Every ruling of {len(sources)} documents, parsed by rulings {version}: "
                        + "; ".join(f"{s.title} ({s.game})" for s in sources) + ". The sources table gives each "
                        "one's edition, origin and licence. Full-text search: the rulings and cards tables. "
                        "Middle-earth CCG and The Lord of the Rings are trademarks of Middle-earth Enterprises "
                        "and/or Iron Crown Enterprises."),
        "license": " | ".join(f"{', '.join(ids)}: {licence}" for licence, ids in by_licence.items()),
        "source": f"{len(sources)} documents (the sources table gives each one's origin)",
        "databases": {DATABASE: {
            "tables": tables,
            "queries": {name: {"title": title, "description": QUERIES[name], "sql": sql}
                        for name, (title, sql) in SAVED_QUERIES.items()},
        }},
    }


def write_metadata(folder: Path, sources: Sequence[Source], version: str) -> Path:
    """Write the metadata file into a knowledge-base build folder; returns its path."""
    path = folder / METADATA
    path.write_text(json.dumps(metadata(sources, version), ensure_ascii=False, indent=2) + "\n", "utf-8")
    return path
