"""The static rulings site: renders every page of the plan (kb.site.siteplan, kb.site.sitepages) with Jinja2,
adds the assets, the browser's search index (kb.site.browserdata), a web app manifest and a service
worker, checks every internal link and anchor, then swaps the finished site into place.

Pages: home, one per document (long ones split by top-level section), card, term, phase,
annotation and rule, the indexes of each, search (offline: site/assets/search.js and its modules run the
knowledge base's own search data) and credits. Every ruling sits on exactly one page (its home)
under an anchor that is its id.
"""

from __future__ import annotations

import gzip
import hashlib
import html
import json
import os
import posixpath
import re
import time
from itertools import chain
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kb.site.browserdata import INDEX_FILE, browser_files
from kb.builder.bundle import site_files
from kb.site.corpus import read_corpus
from kb.deck.deck import deck_data
from kb.errors import SiteError
from kb.read.lookup import Reader
from kb.site.sitepages import Page, Pages
from kb.site.siteplan import SitePlan
from kb.store.snapshot import Kb, Snapshot
from kb.read.templates import environment
from kb.builder.urls import Urls

if TYPE_CHECKING:
    from kb.read.templates import Environment, Markup

LAST = ("manifest.webmanifest", "sw.js")
"""Templates rendered after every other file, from the list of them all (the service worker keeps each)."""
DATA = (INDEX_FILE, "assets/deck-data.js")
"""The data files of the site: each says which build it is of (stamp()), and the page that loads one,
naming that build in its script tag's data-build, checks it (site/assets/searchspec.js fresh())."""

__all__ = ["SiteError", "SiteReport", "build_site", "render_files", "stamp", "unstamp"]


STAMP = ("typeof document!=='undefined'&&document.currentScript&&(document.currentScript.dataset.built=", ");\n")
"""What comes before and after the build, as a JSON string, on a data file's first line (stamp())."""


def stamp(text: str, build: str) -> str:
    """A data file's text with, first, the build it is of, set on the script element that loads it
    (`data-built`); nothing outside a page (node runs the same file in tests/test_parity.py)."""
    return STAMP[0] + json.dumps(build) + STAMP[1] + text


def unstamp(text: str) -> tuple[str, str]:
    """(the build, the data) of a data file's text as stamp() made it; SiteError if it has no stamp."""
    head, found, data = text.partition(STAMP[1])
    if not found or not head.startswith(STAMP[0]) or "\n" in head:
        raise SiteError("a data file of the site does not say which build it is of; run `rulings site` again")
    return str(json.loads(head.removeprefix(STAMP[0]))), data


@dataclass(slots=True)
class SiteReport:
    """What `rulings site` made."""

    out: Path
    pages: int = 0
    files: int = 0
    bytes: int = 0
    gzip_bytes: int = 0
    index_bytes: int = 0
    index_gzip_bytes: int = 0
    links_checked: int = 0
    broken: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """Every figure, the folder as text (`rulings site --json`)."""
        return {**asdict(self), "out": str(self.out)}


TAG = re.compile(r"<[a-zA-Z][^<>]*>")
ATTRIBUTE = re.compile(r'\s(href|src|id)="([^"]*)"')
"""The links and anchors of a page are the attributes of its tags: text never opens one (every "<" of
a source is escaped), so a source that writes `href="x"` or `id="y"` as text is neither."""


ABSOLUTE = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)


@dataclass(slots=True)
class LinkIndex:
    """What the link check needs of every file: its anchors and its links (not its text)."""

    ids: dict[str, set[str]] = field(default_factory=dict)
    links: dict[str, list[str]] = field(default_factory=dict)

    def add(self, path: str, text: str) -> None:
        if path.endswith(".html"):
            ids, links = set(), set()
            for tag in TAG.findall(text):
                for name, value in ATTRIBUTE.findall(tag):
                    if name == "id":
                        ids.add(value)
                    else:
                        links.add(html.unescape(value) if "&" in value else value)
            self.ids[path], self.links[path] = ids, sorted(links)
        else:
            self.ids[path] = set()

    def check(self) -> tuple[int, list[str]]:
        """Every internal href/src resolves to a file, and its #anchor to an id there."""
        broken, checked = [], 0
        resolved_in: dict[tuple[str, str], str] = {}  # (folder, link): the page it names (few folders)
        for path, hrefs in self.links.items():
            folder = posixpath.dirname(path)
            for href in hrefs:
                if ABSOLUTE.match(href):
                    continue  # absolute: not ours to check (the site itself makes none)
                checked += 1
                target, _, frag = href.partition("#")
                target = target.split("?", 1)[0]
                if not target:
                    resolved = path
                elif (resolved := resolved_in.get((folder, target), "")) == "":
                    resolved = resolved_in[(folder, target)] = posixpath.normpath(posixpath.join(folder, target))
                if resolved not in self.ids:
                    broken.append(f"{path}: link to missing page {href}")
                elif frag and frag not in self.ids[resolved]:
                    broken.append(f"{path}: link to missing anchor {href}")
        return checked, broken


def render_files(kb: Kb, templates: Path | None = None) -> Iterator[tuple[str, str]]:
    """Every file of the site as (path, text), one at a time: pages, assets, the search index, then
    the manifest and the service worker (which lists every other file and a hash of them all), all
    read from one build (kb.store.snapshot): the pages, the search index and the deck page's data, which
    points into the search index by position, agree. templates: the folder of `templates/` and
    `assets/` (default: those rulings ships, kb.builder.bundle)."""
    templates = templates or site_files()
    if not (templates / "templates").is_dir():
        raise SiteError(f"no site templates at {templates / 'templates'}")
    snapshot = Snapshot.of(kb)
    reader = Reader(snapshot)  # every page's answers and addresses (kb.read.lookup)
    corpus = read_corpus(reader)
    plan = SitePlan(corpus, reader.addresses)
    # the knowledge base's build folder, the one every file is read from: unique to each build
    build = snapshot.folder.name
    env = site_environment(templates / "templates", build)
    files = chain(page_files(env, Pages(corpus, plan, reader)), asset_files(templates),
                  browser_files(snapshot, plan, list(corpus.cards)), deck_files(reader))
    yield from listed_files(files, env, build)


def site_environment(folder: Path, build: str) -> Environment:
    """The templates of folder (kb.read.templates), with the build's name and `ruling`: a ruling's HTML
    (macros.html `ruling_html`), made once for each way a page shows it (whole, or as an excerpt around
    a card's name): its links are placed (kb.site.sitepages), so the same HTML serves every page."""
    env = environment(folder)
    shown: dict[tuple[str, bool, str, bool, bool], Markup] = {}
    macros: list[Any] = []  # the macros' module, made once (after the globals it sees are set)

    def ruling(r: dict[str, Any], show_place: bool = False) -> Markup:
        """A ruling's HTML (show_place: with its section's path above it), made once."""
        key = (r["id"], r["full"], r["focus"], r["on_home"], show_place)
        made = shown.get(key)
        if made is None:
            if not macros:
                macros.append(env.get_template("macros.html").module)
            made = shown[key] = macros[0].ruling_html(r, show_place)
        return made
    env.globals["ruling"] = ruling
    env.globals["build"] = build
    return env


def page_files(env: Environment, pages: Pages) -> Iterator[tuple[str, str]]:
    """Every page rendered (render_page)."""
    for page in pages.all():
        yield page.path, render_page(env, page)


def render_page(env: Environment, page: Page) -> str:
    """A page's HTML, rendered again with its spare contents when it proves long without (long_page),
    the rulings' links made relative to it."""
    root = "../" * page.path.count("/")

    def to(target: str, fragment: str = "") -> str:
        """The address of a target (and an anchor in it) from this page (kb.builder.urls)."""
        return Urls.href(page.path, target, fragment)
    template = env.get_template(page.template)
    text = template.render(page=page, title=page.title, root=root, to=to, toc=page.toc, letters=page.letters,
                           **page.values)
    if page.spare_toc and not page.toc and long_page(text):
        text = template.render(page=page, title=page.title, root=root, to=to, toc=page.spare_toc,
                               letters=page.letters, **page.values)
    return Urls.resolve(page.path, text)


def asset_files(templates: Path) -> Iterator[tuple[str, str]]:
    """Every file of the templates' `assets/` folder, in name order."""
    for asset in sorted((templates / "assets").iterdir()):
        if asset.is_file():
            yield f"assets/{asset.name}", asset.read_text("utf-8")


def deck_files(reader: Reader) -> Iterator[tuple[str, str]]:
    """The deck page's own data (kb.deck.deck.deck_data): how lists are read, and each card's rulings."""
    deck = json.dumps(deck_data(reader), ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    yield "assets/deck-data.js", f"window.RULINGS_DECK={deck};\n"


def listed_files(files: Iterable[tuple[str, str]], env: Environment, build: str) -> Iterator[tuple[str, str]]:
    """The files, the data files stamped with their build (stamp()), then the LAST templates rendered
    from the list of them all and a hash of them all (the service worker keeps the manifest too)."""
    made: list[str] = []
    digest = hashlib.sha256()
    for path, text in files:
        if path in DATA:
            text = stamp(text, build)
        made.append(path)
        digest.update(path.encode("utf-8") + b"\0" + text.encode("utf-8"))
        yield path, text
    version = digest.hexdigest()[:16]
    for name in LAST:
        yield name, env.get_template(name).render(files=made, version=version, root="")
        made.append(name)


SCREENS = 2 * 844
"""Two screens of a phone (844 px high, 390 wide): a page longer than this gets contents."""
MAIN = re.compile(r"<main\b[^>]*>(.*)</main>", re.S)
TAG_OR_END = re.compile(r"<[^<>]*>")
BLOCK = re.compile(r"<(?:p|li|h[1-6]|dt|dd|div|article|section)\b")
RULING_TEXT = re.compile(r'<div class="text">(.*?)</div>', re.S)


def height(html_text: str) -> float:
    """About how high a page is on a phone (390 px wide), in px, from its main part: 500 (header,
    menu, footer), 0.385 a character, 13 a block (paragraph, item, heading, ruling), 6 a line break
    in a ruling's text. Fitted to every page of the real site measured in Chromium: within 3% for
    half of them; each page over two screens estimated over 0.8 of that."""
    main = MAIN.search(html_text)
    body = main.group(1) if main else html_text
    characters = len(" ".join(html.unescape(TAG_OR_END.sub(" ", body)).split()))
    breaks: int = sum(str(text).count("\n") for text in RULING_TEXT.findall(body))
    return 500 + 0.385 * characters + 13 * len(BLOCK.findall(body)) + 6 * breaks


def long_page(html_text: str) -> bool:
    """Whether a page may be longer than two screens of a phone (its height() over 0.8 x SCREENS)."""
    return height(html_text) > 0.8 * SCREENS


def build_site(kb: Kb, out: Path, strict: bool = False) -> SiteReport:
    """Render, check and write the site into out (replaced whole, only once complete).

    out must be absent, empty or a site rulings made (kb.owned); the new site is written into a
    marked folder beside it, and what a killed run left there is removed first. A failure to write
    (disk full, permission denied) is WriteFailed, one line, with the previous site in place.
    """
    from kb.errors import WriteFailed
    from kb.owned import check_replaceable, die_at, mark, remove

    started = time.perf_counter()
    out = out.absolute()
    check_replaceable(out, "site", "choose another --out, or empty it")
    report = SiteReport(out)
    tmp = out.parent / f".{out.name}.tmp-{os.getpid()}"
    old = out.parent / f".{out.name}.old-{os.getpid()}"
    made = False
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        clear_left_overs(out, (tmp, old))
        tmp.mkdir()
        made = True
        mark(tmp, "site", os.getpid())
        _write_site(kb, tmp, report)
        if strict and report.broken:
            raise SiteError(f"{len(report.broken)} broken internal links, first: {report.broken[0]}")
        die_at("site-written")  # the new site stays marked as being written until it is in place
        swap_in(tmp, out, old)
        made = False
        mark(out, "site")
    except OSError as exc:
        writable = out.parent if out.parent.is_dir() else next(p for p in out.parents if p.is_dir())
        raise WriteFailed.of(exc, "the site", out, writable, "run `rulings site` again",
                             "the previous site is still in place") from exc
    finally:
        if made:
            remove(tmp, "site")
    report.seconds = time.perf_counter() - started
    return report


def clear_left_overs(out: Path, mine: tuple[Path, ...]) -> None:
    """What killed runs left beside out, cleared: a previous site moved aside comes back when out is
    gone, a half-written one is removed, so is what a killed removal left; ForeignFolder when one of
    this run's folders (mine) is taken by something rulings did not make."""
    from kb.errors import ForeignFolder
    from kb.owned import left_over, mark, remove, remove_graves

    remove_graves(out.parent, "site")  # what a killed run's clean-up left (kb.owned.bury)
    for entry in sorted(out.parent.iterdir()):
        if entry.name.startswith(f".{out.name}.") and left_over(entry, "site"):
            if entry.name.startswith(f".{out.name}.old-") and not out.exists():
                entry.rename(out)  # a run killed between its two renames: the previous site comes back
                mark(out, "site")
            else:
                remove(entry, "site")  # a killed run's half-written site
    for folder in mine:
        if folder.exists() and not remove(folder, "site"):
            raise ForeignFolder(f"{folder} is in the way and rulings did not make it; remove it")


def swap_in(tmp: Path, out: Path, old: Path) -> None:
    """The finished site tmp put in out's place: a previous site moved to old first (marked as being
    replaced, so a kill from then on leaves it recognisable), put back if tmp cannot move, removed once
    tmp is in."""
    from kb.owned import die_at, mark, read_mark, remove

    if not out.exists():
        tmp.rename(out)
        return
    if read_mark(out, "site") is not None:
        mark(out, "site", os.getpid())  # being replaced: a kill from here on leaves it recognisable
    out.rename(old)
    die_at("site-moved")
    try:
        tmp.rename(out)
    except OSError:
        old.rename(out)
        raise
    if not remove(old, "site"):
        old.rmdir()  # the empty folder that was there


WRITES_AHEAD = 64
"""Files rendered at most ahead of those written (memory stays bounded)."""


def _write_site(kb: Kb, folder: Path, report: SiteReport) -> None:
    """Write every file of the site into folder, counting them into report, and check every link.

    The files are written, and their gzip sizes measured, by a thread of their own while the next are
    rendered (both wait on the disk or on zlib, outside Python's lock), in the order they are made;
    a failed write is raised here, as the page after it is made."""
    links = LinkIndex()
    folders: set[str] = set()
    pending: deque[Future[int]] = deque()
    sizes: list[tuple[str, int]] = []  # (path, bytes) of the files sent to be written, in order

    def written() -> None:
        """The oldest write waited for and counted (its error raised)."""
        packed = pending.popleft().result()
        path, size = sizes[report.files]
        report.files += 1
        report.gzip_bytes += packed
        if path == INDEX_FILE:
            report.index_bytes, report.index_gzip_bytes = size, packed

    # pages are written as they are rendered; the caller swaps the site in only once every link has
    # been checked
    writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="site-writer")
    try:
        for path, text in render_files(kb):
            inside = posixpath.normpath(path)  # the folder is new and ours: no link in it leads out
            if inside.startswith(("/", "../")) or inside in (".", ".."):
                raise SiteError(f"page path {path!r} would leave the output folder")
            parent = posixpath.dirname(inside)
            data = text.encode("utf-8")
            pending.append(writer.submit(_write_file, folder / inside, data, parent not in folders))
            folders.add(parent)
            sizes.append((path, len(data)))
            links.add(path, text)
            report.pages += path.endswith(".html")
            report.bytes += len(data)
            while len(pending) > WRITES_AHEAD or (pending and pending[0].done()):
                written()
        while pending:
            written()
    finally:
        writer.shutdown(cancel_futures=True)  # (after a failure, what was still to write is not written)
    report.links_checked, report.broken = links.check()


def _write_file(target: Path, data: bytes, new_folder: bool) -> int:
    """Write a file of the site (its folder made first if new); its size gzipped (level 6)."""
    if new_folder:
        target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    return len(gzip.compress(data, 6))
