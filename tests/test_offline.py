"""The site's offline copy over http (site/templates/sw.js, site/assets/site.js): every file kept after
one visit, one build's files never mixed with another's, only the site's own files kept, two sites on
one origin each keeping its own copy, and the page knowing when it is offline."""

from __future__ import annotations

import functools
import http.server
import json
import re
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kb.site.website import build_site

from .conftest import made_once, write_tiny_sources

RULING = "Adûnaphel cancels only one strike a turn."
"""Adûnaphel's one CRF ruling in the two builds of `two_builds`."""
ERRATUM = "Change «tap» to «untap»"
"""The ruling after it in the first build (Alatar's erratum): what a deck page mixing the first build's
search data with the second's deck data shows as Adûnaphel's ruling."""
READY = "document.getElementById('offline').textContent.includes('work offline')"
"""The footer says the whole site is saved."""


@pytest.fixture(scope="session")
def two_builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two knowledge bases of the tiny corpus with Adûnaphel's CRF ruling, the second with one more
    ruling near the top of the CRF excerpt (so every later ruling's place in the search data moves
    by one), built once: (first, second)."""
    from kb.builder.pipeline import build

    def make(base: Path) -> None:
        for name, inserted in (("a", False), ("b", True)):
            sources = write_tiny_sources(base / name / "rulings")
            crf = sources / "meccg" / "crf.md"
            text = crf.read_text("utf-8").replace("### Alatar", f"### Adûnaphel\n\n- {RULING}\n\n### Alatar")
            if inserted:
                text = text.replace("### General\n\n", "### General\n\n- A ruling inserted near the top.\n\n", 1)
            crf.write_text(text, "utf-8")
            build(sources, base / name / "kb")

    base = made_once(tmp_path_factory, "two-builds", make)
    return base / "a" / "kb", base / "b" / "kb"


@pytest.fixture(scope="session")
def two_sites(two_builds: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The sites of `two_builds`, built once: (first, second), to copy before serving or rebuilding."""
    def make(base: Path) -> None:
        for name, kb in zip("ab", two_builds):
            build_site(kb, base / name)

    base = made_once(tmp_path_factory, "two-sites", make)
    return base / "a", base / "b"


class Server:
    """A static http server on 127.0.0.1 over a folder, every answer with `Cache-Control: max-age=600`
    (a common static host's default) or what `cache` says, that answers 404 for the paths in `refused`."""

    def __init__(self, folder: Path, cache: str = "max-age=600") -> None:
        self.refused: set[str] = set()
        refused = self.refused

        class Handler(http.server.SimpleHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                pass

            def end_headers(self) -> None:
                self.send_header("Cache-Control", cache)
                super().end_headers()

            def do_GET(self) -> None:
                if self.path.split("?")[0].lstrip("/") in refused:
                    self.send_error(404)
                else:
                    super().do_GET()

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                                     functools.partial(Handler, directory=str(folder)))
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.httpd.server_port}/"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture()
def window(browser) -> Iterator[Any]:  # type: ignore[no-untyped-def]
    """A context of its own (its own HTTP cache, service workers and saved copies) at a phone's size."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    yield context
    context.set_offline(False)
    context.close()


def new_page(window: Any) -> tuple[Any, list[str]]:
    """A page of the window, and the script errors it raises."""
    page = window.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page, errors


def deck_ruling(page: Any, base: str) -> str:
    """The deck page's report for a list of one Adûnaphel, once shown."""
    page.goto(base + "deck.html#Ad%C3%BBnaphel")
    page.wait_for_function("document.getElementById('deck-report').textContent.includes('Adûnaphel')")
    return str(page.inner_text("#deck-report"))


def test_a_rebuilt_site_is_never_mixed_with_the_previous_one(window,  # type: ignore[no-untyped-def]
                                                             two_builds: tuple[Path, Path],
                                                              two_sites: tuple[Path, Path], tmp_path: Path) -> None:
    """Served with max-age=600: a first visit (the home and search pages) cut short before its service
    worker is installed, the site rebuilt from another knowledge base, a second visit: the service
    worker's copy is the new build's alone, and the deck page shows Adûnaphel's own ruling (on main,
    the new worker took the search data from the browser's HTTP cache, the first build's, and the
    deck data from the network: the deck page showed Alatar's erratum as Adûnaphel's ruling)."""
    site = tmp_path / "site"
    shutil.copytree(two_sites[0], site)
    server = Server(tmp_path)
    try:
        base = server.base + "site/"
        page, errors = new_page(window)
        server.refused.add("site/sw.js")  # the first visit ends before a service worker is installed
        for rel in ("index.html", "search.html?q=annotation+25a"):
            page.goto(base + rel)
            page.wait_for_load_state("load")
        page.wait_for_selector("#results li")
        build_site(two_builds[1], site)
        server.refused.clear()
        page.goto(base + "index.html")
        page.wait_for_function(READY, timeout=60_000)
        report = deck_ruling(page, base)
        assert RULING in report and ERRATUM not in report
        window.set_offline(True)
        page.reload()
        page.wait_for_function("document.getElementById('deck-report').textContent.includes('Adûnaphel')")
        report = page.inner_text("#deck-report")
        assert RULING in report and ERRATUM not in report
        assert errors == []
    finally:
        server.close()


def saved_copies(page: Any) -> list[str]:
    """The names of the copies (Cache Storage) the page's origin holds."""
    return sorted(page.evaluate("caches.keys()"))


def test_a_saved_copy_mixing_two_builds_is_never_read(window,  # type: ignore[no-untyped-def]
                                                      two_sites: tuple[Path, Path],
                                                       tmp_path: Path) -> None:
    """A saved copy whose search data is another build's (as one filled from a stale HTTP cache was)
    is never read with the page's deck data: the page takes its build's search data from the server
    and the footer does not claim the saved copy; offline (the HTTP cache emptied), it says so and
    shows no ruling at all (on main it showed Alatar's erratum as Adûnaphel's ruling, and "Saved on this device")."""
    shutil.copytree(two_sites[0], tmp_path / "a")
    shutil.copytree(two_sites[1], tmp_path / "site")
    server = Server(tmp_path)
    try:
        base = server.base + "site/"
        page, errors = new_page(window)
        page.goto(base + "index.html")
        page.wait_for_function(READY, timeout=60_000)
        (copy,) = saved_copies(page)
        older = (tmp_path / "a" / "assets" / "search-index.js").read_text("utf-8")
        page.evaluate("""([name, url, text]) => caches.open(name).then(c => c.put(url, new Response(text,
                           {headers: {"Content-Type": "text/javascript"}})))""",
                      [copy, base + "assets/search-index.js", older])
        report = deck_ruling(page, base)
        assert RULING in report and ERRATUM not in report
        page.wait_for_function("document.getElementById('offline').textContent.includes('another version')")
        assert "Saved" not in page.inner_text("#offline")
        window.new_cdp_session(page).send("Network.clearBrowserCache")  # the search data just taken from the server
        window.set_offline(True)
        page.reload()
        page.wait_for_function(
            "document.getElementById('deck-status').textContent.includes('network cannot be reached')")
        page.wait_for_function("document.getElementById('offline').textContent.startsWith('Offline')")
        assert "Adûnaphel" not in page.inner_text("#deck-report")
        assert errors == []
    finally:
        server.close()


def test_only_the_sites_own_files_are_kept(window, tiny: tuple[Path, Path, Path],  # type: ignore[no-untyped-def]
                                           tmp_path: Path) -> None:
    """The service worker answers from its copy only the files the site lists (a page whatever its
    query); any other file in its scope, or a listed file asked with a query, is the network's and is
    not kept (on main every GET of the scope was kept forever, the query string ignored)."""
    site = tmp_path / "site"
    shutil.copytree(tiny[2], site)
    server = Server(tmp_path)
    try:
        base = server.base + "site/"
        page = window.new_page()
        page.goto(base + "index.html")
        page.wait_for_function(READY, timeout=60_000)
        get = "url => fetch(url, {cache: 'no-store'}).then(r => r.text())"
        (site / "notes.txt").write_text("first", "utf-8")
        assert page.evaluate(get, base + "notes.txt") == "first"
        (site / "notes.txt").write_text("second", "utf-8")
        assert page.evaluate(get, base + "notes.txt") == "second"
        css = (site / "assets" / "style.css").read_text("utf-8")
        (site / "assets" / "style.css").write_text(css + "\n/* changed */\n", "utf-8")
        assert page.evaluate(get, base + "assets/style.css?v=2").endswith("/* changed */\n")
        assert page.evaluate(get, base + "assets/style.css") == css  # the listed file: the saved copy
        (copy,) = saved_copies(page)
        kept = page.evaluate("name => caches.open(name).then(c => c.keys()).then(ks => ks.map(r => r.url))", copy)
        listed = json.loads(  # type: ignore[union-attr]
            re.search(r"var FILES = (\[.*?\]);", (site / "sw.js").read_text("utf-8"), re.S).group(1))
        assert sorted(kept) == sorted(base + f for f in listed)
        window.set_offline(True)
        page.goto(base + "search.html?q=annotation+25a")  # a page with a query: the saved page
        page.wait_for_selector("#results li")
    finally:
        server.close()


REPLACED = """([old, scope]) => {
    window.replaced = null;
    navigator.serviceWorker.getRegistration(scope).then(reg => reg.update())
        .catch(e => { window.replaced = String(e); });
    (function watch() {
        caches.keys().then(names => { if (names.includes(old)) setTimeout(watch, 100); else window.replaced = names; });
    })();
}"""
"""In a page of the origin, once a new build has replaced the site at `scope`, whose copy is `old`: ask
for that site's service worker now (the browser checks for a new one some time after a visit), and
once the old copy has gone set window.replaced to the copies left (or to the update's error)."""


def test_two_sites_on_one_origin_keep_each_their_copy(window,  # type: ignore[no-untyped-def]
                                                      two_builds: tuple[Path, Path],
                                                       two_sites: tuple[Path, Path], tmp_path: Path) -> None:
    """Two rulings sites of different builds at /a/ and /b/ of one origin: each keeps its own copy, a
    new build of one replaces only its own, and both work offline (on main, /b/'s service worker
    deleted /a/'s copy)."""
    shutil.copytree(two_sites[0], tmp_path / "a")
    shutil.copytree(two_sites[1], tmp_path / "b")
    server = Server(tmp_path, cache="no-store")  # offline, nothing from the browser's HTTP cache

    def both_offline() -> None:
        window.set_offline(True)
        for name in ("a", "b"):
            page.goto(server.base + f"{name}/card/adunaphel.html")
            assert page.locator("h1").count() == 1
            assert RULING in deck_ruling(page, server.base + f"{name}/")
        window.set_offline(False)
    try:
        page = window.new_page()
        for name in ("a", "b"):
            page.goto(server.base + f"{name}/index.html")
            page.wait_for_function(READY, timeout=60_000)
        both_offline()
        copies = saved_copies(page)  # named after their scopes
        assert len(copies) == 2 and [server.base + "a/" in copies[0], server.base + "b/" in copies[1]] == [True, True]
        build_site(two_builds[1], tmp_path / "a")  # a new build of /a/: its copy replaced, /b/'s kept
        # asked from a page of /b/: while a page of /a/'s old build is open, Chromium may keep the new
        # worker waiting (a skipWaiting worker waits for the old one to have no work, which under load
        # it sometimes has until that page closes, or five minutes)
        page.goto(server.base + "b/index.html")
        page.evaluate(REPLACED, [copies[0], server.base + "a/"])
        page.wait_for_function("window.replaced !== null", timeout=120_000)
        now = page.evaluate("window.replaced")
        assert len(now) == 2 and copies[0] not in now and copies[1] in now
        page.goto(server.base + "a/index.html")
        page.wait_for_function(READY, timeout=60_000)
        both_offline()
    finally:
        server.close()


def test_the_service_worker_keeps_every_file_of_the_real_site(real_site: Path) -> None:
    """sw.js lists every other file of the site, each once, so a visit saves the whole site."""
    text = (real_site / "sw.js").read_text("utf-8")
    listed = json.loads(re.search(r"var FILES = (\[.*?\]);", text, re.S).group(1))  # type: ignore[union-attr]
    on_disk = {p.relative_to(real_site).as_posix() for p in real_site.rglob("*") if p.is_file()}
    assert len(listed) == len(set(listed)) > 2000
    assert set(listed) == on_disk - {"sw.js", ".rulings-site"}


ONLINE_ALWAYS = """
Object.defineProperty(Navigator.prototype, "onLine", {get: () => true, configurable: true});
window.addEventListener("offline", (event) => event.stopImmediatePropagation(), true);
"""
"""A browser whose pages always think they are online (navigator.onLine true, no offline event), as
Chromium 150 with Playwright 1.65 is in a page loaded while the context is offline."""


def test_offline_after_one_visit(window, tiny: tuple[Path, Path, Path]) -> None:  # type: ignore[no-untyped-def]
    """Over http, the service worker keeps the site; with the network off, pages and search still work
    and the page says it is offline, even in a browser whose navigator.onLine says online (the tiny
    corpus's site: the same templates and scripts, 44 files to save instead of 2,000)."""
    site = tiny[2]
    server = Server(site, cache="no-store")  # offline, nothing from the browser's HTTP cache
    try:
        base = server.base
        window.add_init_script(ONLINE_ALWAYS)
        page, errors = new_page(window)
        page.goto(base + "index.html")
        page.wait_for_function(READY, timeout=120_000)
        assert json.loads((site / "manifest.webmanifest").read_text("utf-8"))["start_url"] == "index.html"
        window.set_offline(True)
        for rel, check in (("card/adunaphel.html", "h1"), ("doc/crf-x.html", "nav.toc"),
                           ("annotations.html", "nav.letters")):
            page.goto(base + rel)
            assert page.locator(check).count() >= 1, rel
        page.goto(base + "search.html?q=annotation+25a")
        page.wait_for_selector("#results li")
        assert "Annotation 25" in page.locator("#results").inner_text()
        page.wait_for_function("document.getElementById('offline').textContent.startsWith('Offline')")
        assert page.evaluate("navigator.onLine") is True
        window.set_offline(False)
        page.reload()
        page.wait_for_function(READY)
        assert errors == []
    finally:
        server.close()
