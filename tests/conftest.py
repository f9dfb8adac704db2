"""Fixtures: the real sources, a knowledge base built from them once, and excerpt parsing."""

from __future__ import annotations

import atexit
import fcntl
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import hypothesis
import pytest

if TYPE_CHECKING:
    from kb.model import ParsedDocument, Source
# kb's modules (the pipeline brings whoosh and markdown-it) are imported where a fixture or helper
# needs them, not here: under pytest-xdist the controller, which runs no test, loads this file too.

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "rulings"
DATA = Path(__file__).resolve().parent / "data"
CHROMIUM = Path("/usr/bin/chromium")
EVAL = ROOT.parent / "shared" / "eval"
"""The judge questions with their answers (../shared/eval/*.jsonl), when present beside the checkout."""
NO_EVAL = f"needs the judge questions, ../shared/eval beside the checkout ({EVAL} is not there; CI has it)"
"""Why a test on the judge questions is skipped (pytest's summary says it)."""
EXAMPLES = int(os.environ.get("RULINGS_FUZZ_EXAMPLES", "15"))
"""How many random inputs each property test tries: a quick run by default, a long one when asked."""
EXPLORE = "RULINGS_FUZZ_EXAMPLES" in os.environ
"""The quick run tries the same inputs every time (hypothesis derandomized: a suite that passes passes
again, on any machine); a long run, asked for, explores new ones (and keeps what it finds)."""
hypothesis.settings.register_profile("suite", derandomize=True, database=None)
hypothesis.settings.register_profile("explore")
hypothesis.settings.load_profile("explore" if EXPLORE else "suite")

# Tests never touch the user's own knowledge base: the default location (the user data folder) is
# a temporary one, for this process and every command it starts, removed when the process ends.
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="rulings-test-data-")
atexit.register(shutil.rmtree, os.environ["XDG_DATA_HOME"], ignore_errors=True)
os.environ.pop("RULINGS_KB", None)
# Text output wraps to the terminal's width: every test sees the same width, whatever runs it (a
# terminal, CI, a pytest-xdist worker); the tests of wrapping set their own.
os.environ["COLUMNS"] = "100"


REAL_CORPUS = frozenset({"real_kb", "real_site", "browser"})
"""The fixtures of the real corpus: a test that uses one is an acceptance test."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test on the real corpus `acceptance` (registered in pyproject.toml); under
    pytest-xdist, order the tests so that no worker waits for another to build (`shares`)."""
    for item in items:
        if REAL_CORPUS & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.acceptance)
    if os.environ.get("PYTEST_XDIST_WORKER"):
        items[:] = shares(items, int(config.workerinput["workercount"]))  # type: ignore[attr-defined]


def shares(items: list[pytest.Item], workers: int) -> list[pytest.Item]:
    """The tests on the real corpus, those on the real site (or in the browser) first, with the tests
    on excerpts right after the first worker's share.

    pytest-xdist's `worksteal` (pyproject.toml's addopts) gives each worker a share of the tests in
    collection order (the first len/workers to one, the next to another, ...), and a worker whose
    share runs out takes half of the longest queue left. The first share builds the real knowledge
    base and then the site (once, `made_once`) and goes on to the tests that need them, the longest
    chain of the run; the other shares start with the tests on excerpts, which need neither, rather
    than wait for that build. Every worker collects the same order (xdist checks it); the tests'
    fixtures are session-scoped, so a worker that goes from one file to another and back makes none
    twice.
    """
    real = [i for i in items if i.get_closest_marker("acceptance")]
    # stable: file order kept; the tests in a browser with those on the site, so one worker starts it
    real.sort(key=lambda i: not {"real_site", "browser"} & set(getattr(i, "fixturenames", ())))
    excerpts = [i for i in items if not i.get_closest_marker("acceptance")]
    first = len(items) // max(workers, 1)
    return real[:first] + excerpts + real[first:]


def source_for(parser: str, path: Path, sid: str = "test") -> Source:
    """A manifest entry for a test file."""
    from kb.model import Source

    return Source(id=sid, title="Test", game="meccg", kind="test", edition="1", date="", origin="test",
                  path=path.name, parser=parser)


def parse_file(parser: str, path: Path) -> ParsedDocument:
    """Parse a file with the named parser."""
    from kb.builder.parsers import parse_document

    return parse_document(source_for(parser, path), path)


def made_once(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]) -> Path:
    """A folder made once for the whole run by make(folder): in this process, or, when pytest-xdist
    runs the tests in several worker processes, by the first worker that needs it while the others
    wait for it (a lock file in the run's temporary folder, which every worker shares)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        folder = tmp_path_factory.mktemp(name)
        make(folder)
        return folder
    shared = tmp_path_factory.getbasetemp().parent
    folder, done = shared / name, shared / f"{name}.done"
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, whatever happens
        if not done.exists():
            if folder.exists():
                shutil.rmtree(folder)  # a worker that failed to make it: made again, whole
            folder.mkdir()
            make(folder)
            done.touch()
    return folder


@pytest.fixture(scope="session")
def real_kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A knowledge base built once from the real rulings/ folder."""
    from kb.builder.pipeline import build

    return made_once(tmp_path_factory, "kb", lambda folder: build(SOURCES, folder))


TINY_MANIFEST = """\
[[source]]
id = "crf-x"
title = "CRF excerpt"
game = "meccg"
kind = "CRF"
edition = "1"
date = "2026-01-01"
origin = "tests/data"
path = "meccg/crf.md"
parser = "crf"

[[source]]
id = "coe-x"
title = "CoE rules excerpt"
game = "meccg"
kind = "official rules"
edition = "1"
date = "2026-01-01"
origin = "tests/data"
path = "meccg/coe.md"
parser = "coe_rules"

[[source]]
id = "cards"
title = "Cards excerpt"
game = "meccg"
kind = "card database"
edition = "1"
date = "2026-01-01"
origin = "tests/data"
path = "meccg/cards.json"
parser = "cards"
"""


def write_tiny_sources(folder: Path) -> Path:
    """A sources folder of three hand-made excerpts (CRF, CoE rules, cards): builds in a second."""
    (folder / "meccg").mkdir(parents=True)
    shutil.copy(DATA / "crf_excerpt.md", folder / "meccg" / "crf.md")
    shutil.copy(DATA / "coe_order_excerpt.md", folder / "meccg" / "coe.md")
    shutil.copy(DATA / "cards_excerpt.json", folder / "meccg" / "cards.json")
    (folder / "sources.toml").write_text(TINY_MANIFEST, "utf-8")
    return folder


@pytest.fixture(scope="session")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """(sources, knowledge base, site) of the tiny corpus, built once: copy them before changing them."""
    from kb.builder.pipeline import build
    from kb.site.website import build_site

    def make(base: Path) -> None:
        build(write_tiny_sources(base / "rulings"), base / "kb")
        build_site(base / "kb", base / "site")

    base = made_once(tmp_path_factory, "tiny", make)
    return base / "rulings", base / "kb", base / "site"


@pytest.fixture(scope="session")
def changes_corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """(sources, knowledge base, site) of the changes excerpts (tests/data/changes: a current CRF, its
    older edition, CoE rules, and the cards excerpt), built once: copy them before changing them."""
    from kb.builder.pipeline import build
    from kb.site.website import build_site

    def make(base: Path) -> None:
        shutil.copytree(DATA / "changes", base / "rulings")
        shutil.copy(DATA / "cards_excerpt.json", base / "rulings" / "cards.json")
        build(base / "rulings", base / "kb")
        build_site(base / "kb", base / "site", strict=True)

    base = made_once(tmp_path_factory, "changes", make)
    return base / "rulings", base / "kb", base / "site"


@pytest.fixture(scope="session")
def real_site(real_kb: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The static site built once from the real knowledge base (strict: no broken link)."""
    from kb.site.website import build_site

    def make(folder: Path) -> None:
        report = build_site(real_kb, folder / "site", strict=True)
        if report.broken:
            raise RuntimeError(f"the real site has broken links: {report.broken[:5]}")

    return made_once(tmp_path_factory, "site", make) / "site"


@pytest.fixture(scope="session")
def datasette() -> None:
    """Datasette (the serve extra) is installed: a test needing it is skipped without it, and fails
    under CI, whose .ci/run installs it."""
    import importlib.util

    if importlib.util.find_spec("datasette") is None:
        if os.environ.get("CI"):
            pytest.fail("datasette is not installed (.ci/run installs the serve extra)")
        pytest.skip("needs Datasette, the serve extra (pip install -e '.[serve]')")


@pytest.fixture(scope="session")
def real_export(real_kb: Path, tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The lines of `rulings export` on the real knowledge base (in process), run once for the whole
    run (`made_once`) for the tests that read them: test_cli's read commands and test_desk's one JSON shape."""
    def make(folder: Path) -> None:
        from click.testing import CliRunner

        from cli import cli

        result = CliRunner().invoke(cli, ["--kb", str(real_kb), "export"], catch_exceptions=False)
        if result.exit_code != 0:
            raise RuntimeError(f"rulings export failed: {result.output}")
        (folder / "export.jsonl").write_text(result.stdout, "utf-8")

    return (made_once(tmp_path_factory, "export", make) / "export.jsonl").read_text("utf-8").splitlines()


def eval_questions() -> list[str]:
    """The question of every case of ../shared/eval's files, in file order (none without the folder)."""
    from kb.search.evaluation import read_cases

    if not EVAL.is_dir():
        return []
    return [case["query"] for f in sorted(EVAL.glob("*.jsonl")) for case in read_cases(f)]


@pytest.fixture(scope="session")
def eval_answers(real_kb: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, list[str]]]:
    """kb.search.search's results (the top 10 `rulings eval` scores) for every question of ../shared/eval,
    searched once for the whole run (`made_once`), for the tests that score them (test_search) and
    those that hold the browser's search to them (test_parity): {"ids": {question: [id, ...]},
    "texts": {question: [text, ...]}, "shown": {question: [[text, equivalent's text, ...], ...]},
    "same_rule": {question: [[[id, source, text] of each equivalent], ...]}}, best first."""
    def make(folder: Path) -> None:
        from kb.search.evaluation import TOP
        from kb.search.search import Searcher

        searcher = Searcher.open(real_kb)
        found = {q: searcher.search(q, limit=TOP) for q in eval_questions()}
        answers = {"ids": {q: [r.id for r in rs] for q, rs in found.items()},
                   "texts": {q: [r.data["text"] for r in rs] for q, rs in found.items()},
                   "shown": {q: [[r.data["text"], *(e["text"] for e in r.same_rule)] for r in rs]
                             for q, rs in found.items()},
                   "same_rule": {q: [[[e["id"], e["source"], e["text"]] for e in r.same_rule] for r in rs]
                                 for q, rs in found.items()}}
        (folder / "answers.json").write_text(json.dumps(answers, ensure_ascii=False), "utf-8")

    answers: dict[str, dict[str, list[str]]] = json.loads(
        (made_once(tmp_path_factory, "eval-answers", make) / "answers.json").read_text("utf-8"))
    return answers


@pytest.fixture(scope="session")
def validators() -> dict[str, Any]:
    """The JSON Schemas of a ruling and a card (kb/data/schema), each checked against the 2020-12
    meta-schema, as validators that know each other (a ruling's `card` is the card schema): jsonschema-rs,
    a compiled validator of the whole draft, validates the 4,000 rulings of an export in a hundredth
    of the time pure-Python jsonschema takes."""
    import jsonschema_rs

    schemas = {name: json.loads(resources.files("kb").joinpath(f"data/schema/{name}.json").read_text("utf-8"))
               for name in ("ruling", "card")}
    for s in schemas.values():
        jsonschema_rs.meta.validate(s)
    registry = jsonschema_rs.Registry([(s["$id"], s) for s in schemas.values()])
    return {name: jsonschema_rs.Draft202012Validator(s, registry=registry) for name, s in schemas.items()}


HIDDEN_UI = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
"""Chromium features the tests turn off: headless Chromium (156) keeps the address bar's suggestion
popups as two hidden pages of its own (chrome://omnibox-popup.top-chrome/), which use CPU at every
navigation and even while nothing happens. On this machine, 20 idle seconds cost them about 1.3 s of
CPU, and 30 navigations of a blank page took 4.0 s of the browser's CPU with them and 2.9 s without.
A feature Chromium does not know is ignored."""

PLAYWRIGHTS_OWN = ("AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
                   "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding",
                   "ThirdPartyStoragePartitioning", "AvoidCorsURLLoaderRestartOnRedirect", "OptimizationHints",
                   "NetworkTimeServiceQuerying", "AimEnabled", "PreconnectToSearch")
"""The features Playwright turns off in the browsers it starts (its chromiumSwitches), named again beside
HIDDEN_UI: Chromium reads only the last --disable-features it is given, and the tests' own came after
Playwright's and turned these back on (paint holding, optimization hints, the media router, ...),
which cost about a twentieth of the browser's CPU."""


@pytest.fixture(scope="session")
def browser():  # type: ignore[no-untyped-def]
    """Debian's headless Chromium, started once per session (never a downloaded browser)."""
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail("Debian's chromium is not installed (.ci/run installs it)")
        pytest.skip("needs Debian's chromium (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run", f"--disable-features={','.join(PLAYWRIGHTS_OWN + HIDDEN_UI)}"])
        yield b
        b.close()


@pytest.fixture(scope="session")
def browser_window(browser):  # type: ignore[no-untyped-def]
    """One context (a window) of the session's Chromium for the tests on the built site, each of which
    opens its pages in it (`tab`): a page in a context costs a tab, a new context a profile. The
    site keeps nothing in the browser from file:// (no cookies, no web storage, no service worker:
    test_offline's tests have contexts of their own over http), so no test leaves anything there
    for another."""
    window = browser.new_context(viewport={"width": 1280, "height": 900})
    yield window
    window.close()


@pytest.fixture(scope="session")
def spare_tab() -> list[Any]:
    """The tab `tab` keeps between tests: at most one page of the shared window."""
    return []


@pytest.fixture()
def tab(browser_window, spare_tab):  # type: ignore[no-untyped-def]
    """open(url, width=1280, height=900, script=None) -> (page, errors): a page of the shared window
    at url, loaded at that size (a page resized once loaded is laid out again), with the script errors
    it raises. The first page a test opens is the tab the previous test left (a new tab costs the
    browser a renderer process to start, ~0.2 s of CPU): a new document in it (the earlier tests'
    pages stay behind it in its history: no test goes Back further than it went), its own error
    listener, brought to the front; it is kept for the next test as it is (the next test's goto
    replaces its document), every other page closed. With a script (a file), the page is a new one, which runs the
    script in every document it loads before the document's own (Playwright's init script: sent to the browser once, not
    at each page), and is closed after the test."""
    opened = []
    listeners = []
    scripted = []

    def open(url: str, width: int = 1280, height: int = 900,  # type: ignore[no-untyped-def]
             script: Path | None = None):
        fresh = script is not None or opened or not spare_tab
        page = browser_window.new_page() if fresh else spare_tab.pop()
        page.bring_to_front()  # a page behind another (a new one opened since) has no animation frames
        opened.append(page)
        if script is not None:
            scripted.append(page)
            page.add_init_script(path=script)
        page.set_viewport_size({"width": width, "height": height})
        errors: list[str] = []
        listeners.append(lambda e: errors.append(str(e)))
        page.on("pageerror", listeners[-1])
        page.goto(url)
        page.wait_for_load_state("load")
        return page, errors

    yield open
    for n, (page, listener) in enumerate(zip(opened, listeners)):
        page.remove_listener("pageerror", listener)
        if n == 0 and not spare_tab and not page.is_closed() and page not in scripted:
            spare_tab.append(page)  # as it is: the next test's goto replaces its document
            continue
        page.close()
