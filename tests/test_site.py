"""The static site, without a browser: rendering is inert, links and anchors all resolve, every ruling has a
page, the pages say what the terminal says (tests/test_site_browser.py opens the built site in Chromium)."""

from __future__ import annotations

import json
import posixpath
import re
import shutil
import subprocess
import sys
from collections import Counter
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import cli
from kb.errors import KbError
from kb.search.query import fold
from kb.read.render import card_html, linked, plain_spans, render_text
from kb.tables import load_words
from kb.builder.urls import Urls, anchor, slug
from kb.site.website import LinkIndex, build_site, render_files, unstamp

from . import parity
from .conftest import ROOT


# -- small pieces ---------------------------------------------------------------------------------

def test_source_markup_is_shown_as_text() -> None:
    for parser in ("crf", "timing"):
        out = render_text('<script>alert(1)</script> &lt;foo&gt; [x](javascript:alert(1)) <img src=x onerror=y>',
                          parser)
        assert "<script>" not in out and "<img" not in out and "href" not in out
        assert "&lt;script&gt;" in out
        assert "&amp;lt;foo&amp;gt;" in out  # the entity shows as the characters the source has
    assert render_text("a **bold** word", "crf") == "a <strong>bold</strong> word"
    assert render_text("a **bold** word", "arda") == "a **bold** word"


def test_a_text_links_the_spans_given_in_the_words_read_run_by_run() -> None:
    """The spans are places in the words as kb.store.reading reads them ("@" and asterisks gone),
    and a link is placed within the emphasised run it falls in."""
    words = "Gandalf may face the **Balrog**"
    assert render_text("@ " + words, "crf", [(0, 7, "g.html"), (21, 27, "b.html")]) == (
        '<a href="g.html">Gandalf</a> may face the <strong><a href="b.html">Balrog</a></strong>')
    assert plain_spans(" a  Gandalf\n may", [(4, 11), (13, 16)]) == [(2, 9), (10, 13)]


def test_card_text_shows_icons_as_named_glyphs() -> None:
    out = card_html("Playable at [{H}] or {w}{b}. <b>{Q}</b>")
    assert out.count('role="img"') == 3 and 'aria-label="Haven"' in out and 'aria-label="Border-land"' in out
    assert "[" not in out and "&lt;b&gt;{Q}&lt;/b&gt;" in out  # an unknown code stays as text, all escaped


def test_a_sentence_glued_by_card_markup_is_parted_and_recorded(tmp_path: Path) -> None:
    """"<b>Unique.</b>Nazgûl" reads "Unique. Nazgûl" on the card page and in the terminal: the
    cards parser stores it so, as a repair `rulings check` lists."""
    from .conftest import parse_file

    cards = json.loads((ROOT / "tests" / "data" / "cards_excerpt.json").read_text("utf-8"))
    card = next(c for s in cards.values() for c in s["cards"].values())
    card["text"]["en"] = "<p><b><i>Unique.</i></b><i>Nazgûl (2nd).</i> Tap him.</p>"
    (tmp_path / "cards.json").write_text(json.dumps(cards, indent=4, ensure_ascii=False), "utf-8")
    doc = parse_file("cards", tmp_path / "cards.json")
    assert doc.cards[0].text == "Unique. Nazgûl (2nd). Tap him."
    assert [(r.kind, r.after) for r in doc.repairs] == [("sentence glued to the next by markup",
                                                         "Unique. Nazgûl (2nd). Tap him.")]


def test_links_are_inserted_on_the_spans_found() -> None:
    out = linked('see Annotation 18 & "x"', [(4, 17, "../annotation/18.html#annotation-18")])
    assert out == 'see <a href="../annotation/18.html#annotation-18">Annotation 18</a> &amp; "x"'
    assert linked("abc", [(0, 2, "a"), (1, 3, "b")]) == '<a href="a">ab</a>c'  # overlaps: first wins


@pytest.mark.parametrize("name", ["../../etc/passwd", "/abs/path", "a/b\\c", "..", "", "<script>", "CON", "x" * 500,
                                  "Adûnaphel the Ringwraith", "\x00\x1f"])
def test_page_names_never_leave_their_folder(name: str) -> None:
    s = slug(name)
    assert re.fullmatch(r"[a-z0-9][a-z0-9-]*", s) and len(s) <= 60
    urls = Urls()
    path = urls.card(name)
    assert path.startswith("card/") and path.count("/") == 1 and ".." not in path


def test_urls_are_unique_and_relative() -> None:
    urls = Urls()
    a, b = urls.card("Sun"), urls.card("SUN!")  # same slug, different cards
    assert a != b and urls.card("Sun") == a
    assert Urls.href("card/sun.html", "annotation/18.html", "annotation-18") == "../annotation/18.html#annotation-18"
    assert Urls.href("index.html", "doc/crf-22.html") == "doc/crf-22.html"
    assert Urls.href("doc/x.html", "doc/x.html", "crf-22.abc") == "#crf-22.abc"


def links_of(files: dict[str, str]) -> tuple[int, list[str]]:
    """Every internal href/src of the pages checked as build_site checks them (kb.site.website.LinkIndex)."""
    index = LinkIndex()
    for path, text in files.items():
        index.add(path, text)
    return index.check()


def test_link_checker_finds_missing_pages_and_anchors() -> None:
    files = {"index.html": '<a href="doc/a.html#r1">x</a><a href="doc/a.html#nope">y</a><a href="gone.html">z</a>'
                           '<a href="https://example.org/">ext</a><a href="#top">t</a><p id="top"></p>',
             "doc/a.html": '<p id="r1"></p><a href="../index.html">home</a>'}
    checked, broken = links_of(files)
    assert checked == 5
    assert broken == ["index.html: link to missing anchor doc/a.html#nope",
                      "index.html: link to missing page gone.html"]


# -- the real corpus ---------------------------------------------------------------------------------

def test_every_ruling_is_anchored_once_and_every_link_resolves(real_kb: Path, real_site: Path) -> None:
    files = {p.relative_to(real_site).as_posix(): p.read_text("utf-8") for p in real_site.rglob("*")
             if p.is_file() and not p.name.startswith(".")}
    checked, broken = links_of(files)
    internal = sum(len({h for h in re.findall(r'\b(?:href|src)="([^"]*)"', text) if not re.match(r"[a-z]+:", h)})
                   for path, text in files.items() if path.endswith(".html"))
    assert broken == [] and checked == internal > 40_000  # every distinct internal link of every page
    ids = Counter(i for path, text in files.items() if path.endswith(".html")
                  for i in re.findall(r'\bid="([^"]+)"', text))
    from kb.store.store import connect

    with closing(connect(real_kb)) as conn:  # every ruling the knowledge base holds (what `rulings export` prints)
        rulings = [row[0] for row in conn.execute("select id from rulings")]
    assert len(rulings) > 3700  # (Arda's paragraphs the PDF cut are one ruling each)
    assert [r for r in rulings if ids[r] != 1] == []


def test_browser_search_index_is_the_knowledge_bases_own(real_kb: Path, real_site: Path) -> None:
    """search-index.js is search.json as the build wrote it, made compact (kb.site.browserdata), plus where
    every ruling and card lives: read back by the search page's own decoder (searchspec.js, through the parity
    harness: every table's buckets, each holding exactly the keys kb.site.browserdata.bucket puts there, the
    postings and keys decoded, the documents, the JSON lines, the parts read later), it is search.json again.
    It is ASCII alone (every other character a JSON escape), so that V8 holds the script and its texts one byte
    a character (on main a curly quote made them two, and opening the index took a third longer)."""
    assert (real_site / "assets" / "search-index.js").read_bytes().isascii()
    assert unstamp((real_site / "assets" / "search-index.js").read_text("utf-8"))[0].startswith("build-")
    data = parity.site_index(real_site)
    read = data.pop("read")
    assert read["misplaced"] == [] and sorted(read["later"]) == ["english", "site", "site_cards"]
    site, cards = data.pop("site"), data.pop("site_cards")
    own = json.loads((real_kb / "current" / "search.json").read_text("utf-8"))
    docs = own["docs"]
    assert data.pop("encoding") == "gaps36"
    assert data.pop("buckets") == read["bucketed"] == ["postings", "keys", "vocab", "names"]
    assert data.pop("postings") == own.pop("postings")
    assert data.pop("keys") == own.pop("keys")
    assert data.pop("doc_fields") == ["id", "source", "kind", "section", "text", "lines", "number", "title", "markers",
                                      "about", "prior", "defines", "numbers", "step", "same_words", "incomplete"]
    # every word of a card name, each between line breaks, looked up as text
    words = data.pop("name_words")
    assert words.startswith("\n") and words.endswith("\n") and "\n\n" not in words
    assert words.strip("\n").split("\n") == own.pop("name_words") and "adunaphel" in words.split("\n")
    # every word's index terms begin with its first two letters (search.js reads fewer words for it)
    assert data.pop("terms_keep_prefix") is True
    # of the English words, those a correction could reach in this corpus, and each English
    english = data.pop("english")
    assert {"wherever", "scores", "useless"} <= set(english) and len(english) < 20_000
    assert set(english) <= set(load_words("english")) and not {"movment", "gandalf"} & set(english)
    # each document's source, as runs: [source, first document] where the source changes
    runs = data.pop("source_runs")
    starts = [first for _, first in runs] + [len(docs)]
    assert [s for (s, _), a, b in zip(runs, starts, starts[1:]) for _ in range(a, b)] == [d["source"] for d in docs]
    assert all(a < b for a, b in zip(starts, starts[1:])) and all(x[0] != y[0] for x, y in zip(runs, runs[1:]))
    defaults = own["doc_defaults"]
    assert [{k: v for k, v in d.items() if v != defaults.get(k, ...)} for d in data.pop("docs")] == own.pop("docs")
    assert data.pop("heading_terms") == own.pop("heading_terms") and data.pop("sections") == own.pop("sections")
    assert data == own
    assert len(docs) == len(site["doc_pages"]) > 3700 and site["anchors"] == {}
    ids: dict[str, set[str]] = {}
    for d, doc in enumerate(docs):  # every result's link lands on its ruling
        page = site["pages"][site["doc_pages"][d]]
        if page not in ids:
            ids[page] = set(re.findall(r'\bid="([^"]+)"', (real_site / page).read_text("utf-8")))
        assert doc["id"] in ids[page], (doc["id"], page)
    assert cards["The Arkenstone"] == "card/the-arkenstone.html" and len(cards) > 1400


def test_the_stored_addresses_are_where_the_site_puts_everything(real_kb: Path, real_site: Path) -> None:
    """The build decides the site's addresses once (kb.builder.addresses) and stores them: every document's,
    card's, term's, phase's, annotation's, rule's and ruling's stored page is a page of the built site
    (and every term, phase, annotation and rule page of the site is stored), each ruling under its anchor
    there, and the stored plan is the one kb.builder.addresses derives, so no reader derives it again; the
    lookups give the stored page as their "url"."""
    from kb.builder.addresses import Addresses
    from kb.store.store import connect, query

    with closing(connect(real_kb)) as conn:
        stored = query(conn, "select kind, key, part, page, anchor from addresses order by rowid")
        assert stored == list(Addresses.read(conn).rows(conn))
        rulings = {r["id"] for r in query(conn, "select id from rulings")}
        cards = {r["name"] for r in query(conn, "select name from cards")}
    kinds = Counter(row["kind"] for row in stored)
    assert {row["key"] for row in stored if row["kind"] == "ruling"} == rulings and kinds["ruling"] == len(rulings)
    assert {row["key"] for row in stored if row["kind"] == "card"} == cards and kinds["document"] > 8
    ids: dict[str, set[str]] = {}
    for row in stored:
        if row["page"] not in ids:
            ids[row["page"]] = set(re.findall(r'\sid="([^"]+)"', (real_site / row["page"]).read_text("utf-8")))
        assert row["anchor"] in ids[row["page"]] or (row["kind"] != "ruling" and not row["anchor"]), row
    turn = [row for row in stored if row["kind"] == "ruling" and row["key"] == "crf-22.454d048a6d"]
    assert [(row["page"], row["anchor"]) for row in turn] == [("doc/crf-22-turn-sequence-rulings.html",
                                                              "crf-22.454d048a6d")]
    shown = json.loads(CliRunner().invoke(cli, ["--kb", str(real_kb), "show", "crf-22.454d048a6d", "--json"]).stdout)
    assert shown["url"] == "doc/crf-22-turn-sequence-rulings.html#crf-22.454d048a6d"
    for kind in ("term", "phase", "annotation", "rule"):
        made = {p.relative_to(real_site).as_posix() for p in (real_site / kind).glob("*.html")}
        assert {row["page"] for row in stored if row["kind"] == kind} == made and len(made) > 10, kind
    asked = {("term", "hazard limit"): "term/hazard-limit.html", ("term", "GI"): "term/general-influence.html",
             ("phase", "eot"): "phase/end-of-turn.html", ("annotation", "25a"): "annotation/25a.html",
             ("rule", "2.IV.iii"): "rule/2-iv-iii.html", ("rule", "g.hav.3"): "rule/g-hav-3.html"}
    for (kind, name), page in asked.items():
        answer = json.loads(CliRunner().invoke(cli, ["--kb", str(real_kb), kind, name, "--json"]).stdout)
        assert answer["url"] == page and [row for row in stored if row["page"] == page and row["kind"] == kind]


def test_the_site_needs_no_whoosh(tiny: tuple[Path, Path, Path], tmp_path: Path) -> None:
    """A whole site build (tiny corpus) in a fresh interpreter never imports whoosh."""
    code = ("import sys\nfrom pathlib import Path\nfrom kb.site.website import build_site\n"
            f"build_site(Path({str(tiny[1])!r}), Path({str(tmp_path / 'site')!r}))\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'whoosh'))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]" and (tmp_path / "site" / "search.html").is_file()


def test_pages_for_every_kind_of_entry(real_site: Path) -> None:
    for page in ("index.html", "search.html", "credits.html", "cards.html", "terms.html", "annotations.html",
                 "rules.html", "annotation/25a.html", "annotation/25.html", "rule/10-3-iii.html", "rule/2-2-f1.html",
                 "phase/site.html",
                 "card/the-arkenstone.html", "card/adunaphel-the-ringwraith.html", "doc/crf-22.html",
                 "doc/lotr-wiki.html"):
        assert (real_site / page).is_file(), page
    credits = (real_site / "credits.html").read_text("utf-8")
    assert "Council of Elrond MeCCG Cards Database" in credits and "rulings/meccg/crf-22.md" in credits
    # every document's licence and publisher's page, as the manifest gives them
    from markupsafe import escape

    from kb.builder.manifest import read_manifest
    for source in read_manifest(ROOT / "rulings"):
        for value in (source.licence, source.origin_url):
            if value:
                assert str(escape(value)) in credits, (source.id, value)
    # the older CRF page says which CRF 22 ruling it became
    older = (real_site / "doc" / "crf-older.html").read_text("utf-8")
    assert re.search(r'<dt>in CRF 22</dt><dd><a href="crf-22-[a-z-]+\.html#crf-22\.[0-9a-f]{10}">same wording</a>',
                     older)


def test_text_references_become_links(real_site: Path) -> None:
    page = (real_site / "doc" / "crf-22-turn-sequence-rulings.html").read_text("utf-8")
    assert re.search(r'<a href="\.\./annotation/18\.html#annotation-18">18</a>', page)
    arkenstone = (real_site / "card" / "the-arkenstone.html").read_text("utf-8")
    assert "Card Erratum (minion version)" in arkenstone  # its CRF erratum, in full


def test_the_report_counts_the_files_written(tiny: tuple[Path, Path, Path], tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The files are written by a thread of their own while the next are rendered, a few at most
    ahead: the report's counts are still those of the files on disk, each in its own place."""
    import gzip

    from kb.site import website
    from kb.owned import MARKERS
    from kb.site.browserdata import INDEX_FILE

    monkeypatch.setattr(website, "WRITES_AHEAD", 2)
    report = build_site(tiny[1], tmp_path / "site")
    files = {p.relative_to(report.out).as_posix(): p.read_bytes() for p in report.out.rglob("*")
             if p.is_file() and p.name != MARKERS["site"]}
    assert report.files == len(files) > 40 and report.pages == sum(p.endswith(".html") for p in files)
    assert report.bytes == sum(map(len, files.values()))
    assert report.gzip_bytes == sum(len(gzip.compress(data, 6)) for data in files.values())
    index = files[INDEX_FILE]
    assert (report.index_bytes, report.index_gzip_bytes) == (len(index), len(gzip.compress(index, 6)))


def test_strict_fails_on_broken_links_and_keeps_the_previous_site(tiny: tuple[Path, Path, Path], tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    kb_dir, out = tiny[1], tmp_path / "site"
    build_site(kb_dir, out)
    before = (out / "index.html").read_text("utf-8")
    from kb.site.website import LinkIndex

    monkeypatch.setattr(LinkIndex, "check", lambda self: (1, ["index.html: link to missing page x.html"]))
    result = CliRunner().invoke(cli, ["--kb", str(kb_dir), "site", "--out", str(out), "--strict"])
    assert result.exit_code == 1 and "broken internal link" in result.output
    assert (out / "index.html").read_text("utf-8") == before
    monkeypatch.undo()
    assert [p.name for p in tmp_path.iterdir()] == ["site"]  # no temporary folder left behind


def test_site_refuses_to_overwrite_a_folder_it_did_not_make(real_kb: Path, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    result = CliRunner().invoke(cli, ["--kb", str(real_kb), "site", "--out", str(tmp_path)])
    assert result.exit_code == 1 and "not a site made by rulings" in result.output
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_site_without_a_knowledge_base_says_what_to_run(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["--kb", str(tmp_path / "none"), "site", "--out", str(tmp_path / "s")])
    assert result.exit_code == 1 and "rulings build" in result.output
    with pytest.raises(KbError):
        next(render_files(tmp_path / "none"))


# -- in a real browser -------------------------------------------------------------------------------


# (query, a passage of the ruling it must find in the first ten): a question, a card typed without its
# accent, a card, an annotation, an abbreviation (CC), a CRF 22 question


def test_opening_the_search_index_parses_little_of_it(real_site: Path) -> None:
    """What the search page parses before its first question is a small part of its index: the sections'
    paths and their headings' terms are JSON lines, an entry parsed when a candidate of that section is
    ranked; the English words are parsed only for a word the corpus lacks (on main the page parsed all
    three at open, 0.3 MB of JSON, a quarter of its script time on a phone), the cards' pages only
    for a question naming a card (on main with every ruling's page, when the results were shown)."""
    got = parity.run("opened", real_site, query="can a strike be cancelled after the roll?")
    whole = (real_site / "assets" / "search-index.js").stat().st_size
    assert got["results"] == 20 and got["index"] < whole / 20
    assert 0 < got["read"] <= got["heads"] < got["sections"] / 5 and got["english"] is False
    assert got["pages"] is True and got["cards"] is False


HOSTILE_CRF = """---
layout: default
title: Hostile <script>alert('front')</script>
---

# CRF — hostile excerpt

## Turn Sequence Rulings

## Site Phase "><img src=x onerror=alert(1)>

### ../../../etc/passwd

- A ruling with <script>alert('x')</script> inside, and &lt;foo&gt; as the source wrote it.

- A [link](javascript:alert(1)) and <a href="https://evil.example/" onclick="x()">an anchor</a>, see Annotation 99.

- Odd characters: #hash ?query %20 "quotes" 'single' \\backslash <b>bold</b> \u202e reversed.

- Record separators, as a rendered ruling's links are placed before their page is known: \
\x1ecard/x.html#crf-x.1\x1e stay text.

- Markup written as text, not a link nor an anchor to check: href="nowhere.html" src="none.png" id="fake".

## Card Errata and Rulings

### -= AAA =-

### <iframe src="//evil"></iframe>

- A ruling under a heading made of markup.
"""


def _tags(page: str) -> list[tuple[str, list[tuple[str, str | None]]]]:
    """Every real element of a page (not escaped text), with its attributes."""
    from html.parser import HTMLParser

    found: list[tuple[str, list[tuple[str, str | None]]]] = []

    class Collect(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            found.append((tag, attrs))

    Collect().feed(page)
    return found


def test_placed_links_are_made_relative_to_each_page_and_text_is_left_alone() -> None:
    """A ruling is rendered once for every page that shows it, its links placed (Urls.placed); each
    page makes them relative to itself. Only a link's whole href is one: the same characters in text
    (where "<" is always escaped, so no tag opens) stay as they are."""
    from kb.builder.urls import Urls

    html_ = (f'<a class="permalink" href="{Urls.placed("doc/crf.html", "crf-22.1")}">¶</a> '
             f'<a href="{Urls.placed("card/gandalf.html")}">Gandalf</a> '
             f'text: href="{Urls.placed("card/x.html")}" and &lt;a href="{Urls.placed("card/x.html")}"')
    on_home = Urls.resolve("doc/crf.html", html_)
    assert on_home.startswith('<a class="permalink" href="#crf-22.1">¶</a> <a href="../card/gandalf.html">Gandalf</a>')
    elsewhere = Urls.resolve("card/gandalf.html", html_)
    assert elsewhere.startswith('<a class="permalink" href="../doc/crf.html#crf-22.1">¶</a> <a href="gandalf.html">')
    assert on_home.endswith(html_[html_.index(" text: "):]) and elsewhere.endswith(html_[html_.index(" text: "):])
    assert Urls.resolve("index.html", "no links") == "no links"


def test_a_template_reads_a_dicts_names_as_jinja_does(tmp_path: Path) -> None:
    """kb.read.templates reads `x.name` of a dict (the pages' values) as its key at once, as Jinja2 gives
    it: a dict's method where the name is one ("items"), else its key, else undefined (an error);
    any other object (a dict's subclass too) as Jinja2 reads it."""
    from collections import OrderedDict

    from kb.read.templates import environment

    (tmp_path / "t.html").write_text("{{ d.kind }} {{ d['items'] }} {{ d.items()|list|length }} {{ d.get('kind') }} "
                                     "{{ d.nothing is defined }} {{ o.kind }} {{ o.items()|list|length }}")
    (tmp_path / "missing.html").write_text("{{ d.nothing }}")
    env = environment(tmp_path)
    d = {"kind": "rule <1>", "items": "its own", "get": "shadowed"}
    assert env.get_template("t.html").render(d=d,
                                             o=OrderedDict(
                                                 d)) == "rule &lt;1&gt; its own 3 rule &lt;1&gt; False rule &lt;1&gt; 3"
    with pytest.raises(Exception, match="has no attribute 'nothing'"):
        env.get_template("missing.html").render(d=d)


def test_a_template_is_compiled_once_a_process_and_again_when_it_changes(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Each site a process makes (the tests make many) renders with a new environment; a template's
    compiled code is kept for the next (kb.read.templates), and made again when its text has changed."""
    from kb.read.templates import environment

    (tmp_path / "t.html").write_text("one {{ x }}")
    env = environment(tmp_path)
    assert env.get_template("t.html").render(x=1) == "one 1"
    compiled: list[object] = []
    original = type(env).compile
    monkeypatch.setattr(type(env), "compile", lambda self, *a, **k: compiled.append(a) or original(self, *a, **k))
    assert environment(tmp_path).get_template("t.html").render(x=2) == "one 2" and not compiled
    (tmp_path / "t.html").write_text("two {{ x }}")
    assert environment(tmp_path).get_template("t.html").render(x=3) == "two 3" and len(compiled) == 1


def test_hostile_source_text_renders_inert(tmp_path: Path) -> None:
    sources = tmp_path / "rulings"
    (sources / "meccg").mkdir(parents=True)
    (sources / "meccg" / "crf.md").write_text(HOSTILE_CRF, "utf-8")
    (sources / "sources.toml").write_text(
        '[[source]]\nid = "crf-x"\ntitle = "Hostile <b>CRF</b>"\ngame = "meccg"\nkind = "CRF"\nedition = "1"\n'
        'date = "2026-01-01"\norigin = "<script>alert(2)</script>"\npath = "meccg/crf.md"\nparser = "crf"\n'
        'current = true\n', "utf-8")
    runner = CliRunner()
    kb_dir, out = tmp_path / "kb", tmp_path / "out" / "site"
    assert runner.invoke(cli, ["--kb", str(kb_dir), "build", "--sources", str(sources)]).exit_code == 0
    result = runner.invoke(cli, ["--kb", str(kb_dir), "site", "--out", str(out), "--strict"])
    assert result.exit_code == 0, result.output
    written = [p for p in (tmp_path / "out").rglob("*") if p.is_file()]
    assert all(p.resolve().is_relative_to(out.resolve()) for p in written)
    pages = {p.relative_to(out).as_posix(): p.read_text("utf-8") for p in written if p.suffix == ".html"}
    for path, text in pages.items():
        tags = _tags(text)
        assert not [t for t, a in tags if t in ("img", "iframe", "object", "embed", "b", "foo")], path
        assert not [a for t, a in tags for k, _ in a if k.startswith("on")], path
        scripts = [posixpath.normpath(posixpath.join(posixpath.dirname(path), v or ""))
                   for t, a in tags if t == "script" for k, v in a if k == "src"]
        assert scripts and all(src.startswith("assets/") for src in scripts), path  # only the site's own
        hrefs = [v or "" for t, a in tags for k, v in a if k == "href"]
        assert not [h for h in hrefs if ":" in h.split("#")[0]], path  # only relative links: no javascript:, no https:
    doc = pages["doc/crf-x.html"]
    assert ("&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in doc
            or "&lt;script&gt;alert('x')&lt;/script&gt;" in doc)
    assert "&lt;foo&gt;" in doc  # the CRF's entity, decoded as its web page shows it, then escaped: visible <foo>
    assert "&lt;iframe" in doc
    assert "\x1ecard/x.html#crf-x.1\x1e stay text." in doc  # as the source has it, not made a link
    # every anchor id is made of safe characters, and the link checker found nothing broken
    assert all(re.fullmatch(r"[A-Za-z0-9._:-]+", i) for text in pages.values()
               for i in re.findall(r'\bid="([^"]*)"', text))
    data = (out / "assets" / "search-index.js").read_text("utf-8")
    assert "</script" not in data.lower()  # cannot close the script element it is loaded by


def test_the_site_reads_no_lexicon(tiny: tuple[Path, Path, Path], tmp_path: Path) -> None:
    """The site links the words the build found (the links' stored spans), so it needs no card
    lexicon: without lexicon.json it writes the same pages (on main it stopped: "cannot read the card
    lexicon")."""
    kb_copy, out = tmp_path / "kb", tmp_path / "site"
    shutil.copytree(tiny[1] / "current", kb_copy / "current")
    (kb_copy / "current" / "lexicon.json").unlink()
    result = CliRunner().invoke(cli, ["--kb", str(kb_copy), "site", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert sorted(p.relative_to(out) for p in out.rglob("*.html")) == sorted(
        p.relative_to(tiny[2]) for p in tiny[2].rglob("*.html"))


# -- issue 30: pages a judge can navigate, results in the reader's words, one answer for a card --------------

def _main_ids(text: str) -> set[str]:
    """The rulings a page shows (each "read it whole" or ¶ link names one), by anchor."""
    return set(re.findall(r'class="permalink" href="[^"#]*#([^"]+)"', text))


def test_every_long_page_has_contents(real_site: Path) -> None:
    """Every page that may be longer than two screens of a phone (kb.site.website.long_page: the estimate
    the browser test below holds to real heights) opens with its contents; the CoE rules' long parts
    without headings of their own list their rules, the glossary its letters."""
    from kb.site.website import long_page

    pages = sorted(real_site.rglob("*.html"))
    without = [p.relative_to(real_site).as_posix() for p in pages
               if long_page(text := p.read_text("utf-8")) and not re.search(r'<nav class="(toc|letters)"', text)]
    assert without == []
    combat = (real_site / "doc" / "coe-rules-3-combat.html").read_text("utf-8")
    assert re.search(r'<nav class="toc".*?>3\.1 An attack involves.*?>3\.I ', combat, re.S)
    assert re.search(r'<nav class="toc"',
                     (real_site / "doc" / "coe-rules-1-getting-ready-to-play.html").read_text("utf-8"))
    glossary = (real_site / "doc" / "coe-rules-glossary.html").read_text("utf-8")
    letters = re.search(r'<nav class="letters".*?</nav>', glossary, re.S)
    assert letters and re.findall(r">([A-Z#])</a>", letters.group(0))[:3] == ["A", "B", "C"]
    assert all(anchor in glossary for anchor in re.findall(r'href="#([^"]+)"', letters.group(0)))


def test_a_ruling_of_one_line_says_line(real_site: Path) -> None:
    pages = [p for p in real_site.rglob("*.html") if re.search(r"\blines (\d+)–\1\b", p.read_text("utf-8"))]
    assert pages == []
    assert "line 315<" in (real_site / "doc" / "crf-22-turn-sequence-rulings.html").read_text("utf-8")


@pytest.mark.parametrize("name", ["Gandalf", "Adûnaphel", "The One Ring", "Morgul-knife", "Dwarven Travelers"])
def test_a_card_page_gives_the_answer_rulings_card_gives(real_kb: Path, real_site: Path, name: str) -> None:
    """The card page lists exactly the errata, rulings and mentions `rulings card` lists (kb.read.lookup's
    card answer), and each mention's excerpt shows where it names the card."""
    from kb.read.lookup import card
    from kb.builder.urls import anchor

    answer = card(real_kb, name).to_json()
    mentions = [r for g in answer["mentioned_in"] for r in g["rulings"]]
    text = (real_site / answer["cards"][0]["url"]).read_text("utf-8")
    assert _main_ids(text) == {anchor(r["id"]) for r in answer["errata"] + answer["rulings"] + mentions}
    block = text[text.index('<h2 id="mentions">'):] if mentions else ""
    excerpts = re.findall(r'class="permalink" href="[^"#]*#([^"]+)".*?<div class="text">(.*?)</div>', block, re.S)
    named = {anchor(r["id"]) for r in mentions if fold(name) in fold(r["text"])}  # (not an alias: "My Precious")
    assert len(excerpts) == len(mentions) and (named or not mentions)
    for shown, excerpt in excerpts:
        assert shown not in named or fold(name) in fold(excerpt), excerpt
    for other in answer["also"]:
        assert f'>{other["name"]}</a>' in text


@pytest.mark.parametrize("kind, name", [("term", "general influence"), ("term", "Corruption"), ("term", "Haven"),
                                        ("term", "On-Guard Cards"), ("term", "ally"),
                                        ("phase", "site"), ("phase", "untap"), ("annotation", "18"),
                                        ("rule", "2.IV"), ("rule", "1.5.F6")])
def test_a_lookup_page_gives_the_answer_the_terminal_gives(real_kb: Path, real_site: Path, kind: str,
                                                           name: str) -> None:
    """A term's, a phase's, an annotation's and a rule's page show exactly the rulings `rulings term`,
    `phase`, `annotation` and `rule` give (kb.read.lookup's answers, the site's only reading of them)."""
    from kb.read import lookup
    from kb.builder.urls import Urls, anchor

    urls = Urls()
    if kind == "term":
        answer = lookup.term(real_kb, name)
        page = urls.term(answer.name)
        shown = answer.definitions + answer.by_term + answer.under_headings + answer.rules + answer.used_in
    elif kind == "phase":
        phase = lookup.phase(real_kb, name)
        page, shown = urls.phase(phase.phase), phase.rulings
    else:
        number = lookup.numbered(real_kb, kind, name)
        page = urls.annotation(name) if kind == "annotation" else urls.rule(name.lower())
        shown = number.rulings + number.parts + number.cited_by
    text = (real_site / page).read_text("utf-8")
    assert shown and _main_ids(text) == {anchor(r.id) for r in shown}
    noted = [r for r in shown if r.notes]  # a note on the source's own text, beside the ruling wherever it is
    assert all(f"Note on the source: {r.notes[0]}" in text for r in noted) and (name != "1.5.F6" or noted)


# -- what a reader meets first (issue 42) -----------------------------------------------------------

HEADING = re.compile(r"<h([1-6])\b[^>]*>(.*?)</h\1>|<(/?)details\b", re.S)
LINK_TEXT = re.compile(r"<a\b[^>]*>(.*?)</a>", re.S)


def _words(fragment: str) -> str:
    """An HTML fragment's text as a reader sees it (tags off, entities decoded, spaces as one)."""
    import html

    return " ".join(html.unescape(re.sub(r"<[^>]*>", "", fragment)).split())


def repeated_headings(page: str) -> list[str]:
    """The headings of a page's main part that say again what a heading they sit under says, or what
    another heading under the same one says ("Card Errata and Rulings" as the h1 and the h2 under it);
    a <details> is a part of its own, named by its summary ("What's new" gives years in two)."""
    main = re.search(r"<main\b.*</main>", page, re.S)
    stack: list[tuple[float, str, set[str]]] = [(0, "", set())]  # (level, words, the words of its subheadings)
    repeated = []
    for level, inner, close in HEADING.findall(main.group(0) if main else page):
        if not level:  # a <details> opens a part under the heading above it, </details> closes it
            if close:
                while stack[-1][1] != "<details>":
                    stack.pop()
                stack.pop()
            else:
                stack.append((stack[-1][0] + 0.5, "<details>", set()))
            continue
        words = _words(inner)
        while stack[-1][0] >= int(level) and stack[-1][1] != "<details>":
            stack.pop()
        if any(words == above for _, above, _ in stack[1:]) or words in stack[-1][2]:
            repeated.append(words)
        stack[-1][2].add(words)
        stack.append((int(level), words, set()))
    return repeated


def test_no_page_says_a_thing_twice_where_a_reader_meets_it(real_site: Path) -> None:
    """Every page: its title names each thing once ("MECCG rulings", never "MECCG rulings · MECCG
    rulings"); no heading repeats one it sits under or a sibling's; no link's text begins or ends
    with a space (its underline ran on: "Belegaer "); the home page has one search box."""
    titles, headings, links = {}, {}, {}
    for path in real_site.rglob("*.html"):
        page, rel = path.read_text("utf-8"), str(path.relative_to(real_site))
        title = _words(re.search(r"<title>(.*?)</title>", page, re.S).group(1))
        parts = re.split(r" · | — ", title)
        if len(parts) != len(set(parts)):
            titles[rel] = title
        if repeated := repeated_headings(page):
            headings[rel] = repeated
        spaced = [t for t in LINK_TEXT.findall(page) if (w := re.sub(r"<[^>]*>", "", t)) != w.strip()]
        if spaced:
            links[rel] = spaced[:3]
    assert (titles, headings, links) == ({}, {}, {})
    home = (real_site / "index.html").read_text("utf-8")
    assert home.count("<form") == 1 and 'role="search"' in home and "<title>MECCG rulings</title>" in home
    assert repeated_headings("<main><h1>A</h1><h2>B</h2><h3>A</h3><h2>C</h2><h2>C</h2><h2>B</h2></main>") == [
        "A", "C", "B"]
    assert repeated_headings("<main><h2>B</h2><details><h3>Y</h3></details><details><h3>Y</h3><h3>Y</h3></details>"
                             "<h3>Y</h3></main>") == ["Y"]


def test_a_document_opens_with_its_title_edition_and_date(real_site: Path) -> None:
    """A document's page (each part's too) says under its heading which document, edition and date it
    is, and links to its entry on the credits page, where its file and origin (the commit it was
    taken from) are; the page itself names neither."""
    import html

    from kb.builder.manifest import read_manifest

    sources = {s.id: s for s in read_manifest(ROOT / "rulings")}
    seen = set()
    for path in sorted((real_site / "doc").glob("*.html")):
        page = path.read_text("utf-8")
        line = re.search(r'<p class="provenance">(.*?)</p>', page, re.S)
        href = re.search(r'href="\.\./credits\.html#src-([^"]+)"', line.group(1)) if line else None
        assert line and href, path.name
        s = sources[href.group(1)]
        seen.add(s.id)
        said = _words(line.group(1))
        assert said.startswith(f"{s.title} · edition {s.edition}") and (s.date or "undated") in said, path.name
        assert s.path not in html.unescape(page) and s.origin not in html.unescape(page), path.name
    assert seen == set(sources)
    credits = html.unescape((real_site / "credits.html").read_text("utf-8"))
    for s in sources.values():
        entry = re.search(rf'<section class="provenance-entry" id="src-{s.id}">(.*?)</section>', credits, re.S)
        assert entry and f"rulings/{s.path}" in entry.group(1) and s.origin in entry.group(1), s.id


def test_a_citation_in_another_case_is_linked_in_the_text_where_its_cites_link_says(real_kb: Path,
                                                                                      real_site: Path) -> None:
    """The build decides once where a ruling's text names a card or cites a number (kb.builder.xref's
    spans, stored with the links) and the site links those words, and only those: CoE rule 3.V's
    "Steps 1-6 (3.v.1-6)" cites rules 3.V.1 to 3.V.6 (no 3.v.1 exists: kb.keys.numbers_meant), and its
    page links "3.v.1-6" to 3.V.1 (on main the site looked the number up exactly, found no 3.v.1
    and linked nothing, though the ruling's "cites" links named it)."""
    from kb.read.lookup import Reader
    from kb.store.snapshot import Snapshot

    with Snapshot.open(real_kb) as snapshot:
        reader = Reader(snapshot)
        cites = [k for k in reader.links() if (k.kind, k.target) == ("rule", "3.V.1") and k.spans]
        assert len(cites) == 1
        ruling = reader.rulings([cites[0].ruling_id])[0]
        spans = {(k.kind, k.target): k.spans for k in reader.links() if k.ruling_id == ruling.id}
    words = ruling.reading().text
    assert [words[a:b] for a, b in cites[0].spans] == ["3.v.1-6"]
    assert spans[("rule", "3.V.5")] == cites[0].spans  # a range: one span of each rule it cites
    page = (real_site / ruling.page).read_text("utf-8")
    block = page[page.index(f'id="{anchor(ruling.id)}"'):]
    block = block[:block.index("</article>") if "</article>" in block else len(block)]
    text = block[block.index('<div class="text">'):]
    text = text[:text.index("</div>")]
    linked = re.findall(r'<a href="([^"]+)">([^<]+)</a>', text)
    assert linked == [("../rule/3-v-1.html#rule-3.V.1", "3.v.1-6")]


def test_the_site_finds_no_name_or_number_in_a_text_itself(tiny: tuple[Path, Path, Path], tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The site links what the build stored, so it reads no text for names or numbers: with the
    readers that find them broken, it writes the same pages."""
    from kb.builder import lexicon, searchdata
    from kb.site import sitepages
    from kb.site.website import build_site

    def broken(*args: object, **kwargs: object) -> None:
        raise AssertionError("the site read a text for names or numbers")

    monkeypatch.setattr(lexicon.Lexicon, "find_spans", broken)
    monkeypatch.setattr(searchdata, "reference_spans", broken)
    monkeypatch.setattr(sitepages, "reference_spans", broken, raising=False)  # (main's sitepages imported it)
    build_site(tiny[1], tmp_path / "site", strict=True)
    for page in tiny[2].rglob("*.html"):
        assert (tmp_path / "site" / page.relative_to(tiny[2])).read_text("utf-8") == page.read_text("utf-8")


def test_the_site_makes_the_pages_the_build_stored_and_no_others(tiny: tuple[Path, Path, Path], tmp_path: Path) -> None:
    """The site walks the plan the build stored (kb.builder.addresses): its card, term, phase, annotation
    and rule pages and its documents' parts are the stored addresses, none derived again from the
    rulings (on main the annotation and rule pages were the rulings' numbers, whatever was stored)."""
    import sqlite3

    kb_copy = tmp_path / "kb"
    shutil.copytree(tiny[1] / "current", kb_copy / "current")
    (kb_copy / "current" / "rulings.db").chmod(0o644)
    with closing(sqlite3.connect(kb_copy / "current" / "rulings.db")) as conn:
        gone = [tuple(row) for row in conn.execute(
            "select kind, page from addresses where (kind, key) in (values ('rule', '3.i'), ('annotation', '25a'), "
            "('term', 'end-of-game'), ('phase', 'untap'))")]
        conn.execute("delete from addresses where (kind, key) in (values ('rule', '3.i'), ('annotation', '25a'), "
                     "('term', 'end-of-game'), ('phase', 'untap'))")
        conn.commit()
    assert len(gone) == 4
    build_site(kb_copy, tmp_path / "site")
    written = {p.relative_to(tmp_path / "site").as_posix() for p in (tmp_path / "site").rglob("*.html")}
    before = {p.relative_to(tiny[2]).as_posix() for p in tiny[2].rglob("*.html")}
    assert before - written == {page for _, page in gone} and written <= before
