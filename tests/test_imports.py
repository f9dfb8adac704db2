"""The kb/ package imports without a cycle (every import counted, those inside functions included),
each library in one module, and a cold command imports only what it needs."""

from __future__ import annotations

import ast
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

KB = Path(__file__).resolve().parent.parent / "kb"


def module_name(path: Path, root: Path) -> str:
    """kb/builder/parsers/crf.py -> "kb.builder.parsers.crf"; kb/builder/parsers/__init__.py -> "kb.builder.parsers"."""
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def imports_of(path: Path) -> tuple[ast.Import | ast.ImportFrom, ...]:
    """Every import statement of a file, anywhere in it, in the order ast.walk meets them: each file
    of kb/ parsed once for all the tests of this file."""
    return tuple(node for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path)))
                 if isinstance(node, (ast.Import, ast.ImportFrom)))


def import_graph(root: Path) -> dict[str, set[str]]:
    """Each module of the package at root -> the package's modules it imports anywhere in its file
    (top level, inside functions, under `if TYPE_CHECKING`), relative imports resolved."""
    files = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: set[str] = set()
        for node in imports_of(path):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                    base = ".".join(anchor + ([base] if base else []))
                # "from kb.builder.parsers import crf" imports the module kb.builder.parsers.crf
                targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
            edges.update(t for t in targets if t in files and t != name)
        graph[name] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as the modules along it (first repeated last), or None."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (cycle := visit(start)) is not None:
            return cycle
    return None


def test_kb_has_no_import_cycle() -> None:
    graph = import_graph(KB)
    assert "kb.search.search" in graph and "kb.builder.parsers.crf" in graph  # the walk saw the package
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


LAYERS = (
    {"kb.errors", "kb.inputs", "kb.keys", "kb.location", "kb.markers", "kb.memory", "kb.model", "kb.owned", "kb.phases",
     "kb.tables"},
    {"kb.search", "kb.store", "kb.builder"},
    {"kb.read"},
    {"kb.deck"},
    {"kb.site"},
    {"kb.terminal", "kb.server"},
    {"kb"},
)
"""kb/'s parts from the bottom up: a part is a subpackage or a module at the top of kb/. The foundations
(errors, inputs, ...) import no stage; the core (a question read and searched, the knowledge base on disk,
the build) imports no reader; the read model no deck check, the deck check no site, the site no front end,
and nothing imports the public API (kb/__init__.py) but what uses kb from outside. The core's three
parts import one another (the build folds names with kb.search.query; the searcher opens kb.store)."""


def part_of(module: str) -> str:
    """kb.builder.parsers.crf -> "kb.builder"; kb.terminal -> "kb.terminal"; kb -> "kb"."""
    return ".".join(module.split(".")[:2])


def upward_imports(graph: dict[str, set[str]], layers: tuple[set[str], ...]) -> list[str]:
    """Each import from a part to a part above it in layers, as "importer -> imported"."""
    rank = {part: n for n, parts in enumerate(layers) for part in parts}
    return sorted(f"{a} -> {b}" for a, edges in graph.items() for b in edges
                  if part_of(a) != part_of(b) and rank[part_of(b)] > rank[part_of(a)])


def test_no_import_runs_upward() -> None:
    graph = import_graph(KB)
    parts = {part_of(m) for m in graph}
    assert parts == set().union(*LAYERS), "place each part of kb/ in LAYERS: " + str(
        sorted(parts ^ set().union(*LAYERS)))
    assert upward_imports(graph, LAYERS) == []


def test_an_import_from_a_lower_part_to_a_higher_one_runs_upward(tmp_path: Path) -> None:
    pkg = write_package(tmp_path, {
        "__init__.py": "",
        "errors.py": "",
        "search/__init__.py": "",
        "search/query.py": "from pkg.errors import x\n",
        "site/__init__.py": "",
        "site/pages.py": "from pkg.search import query\n",
        "search/ranking.py": "def score():\n    from pkg.site.pages import y\n",
    })
    layers = ({"pkg.errors"}, {"pkg.search"}, {"pkg.site"}, {"pkg"})
    assert upward_imports(import_graph(pkg), layers) == ["pkg.search.ranking -> pkg.site.pages"]


def test_the_tree_says_each_parts_job() -> None:
    """At most 12 modules at the top of kb/, and each subpackage opens with one sentence saying its job."""
    top = sorted(p.name for p in KB.glob("*.py") if p.name != "__init__.py")
    assert 0 < len(top) <= 12, top
    packages = sorted(p.parent for p in KB.rglob("__init__.py") if p.parent != KB and "data" not in p.parts)
    assert {p.name for p in packages} >= {"builder", "parsers", "read", "search", "store", "site", "deck"}
    for package in packages:
        doc = ast.get_docstring(ast.parse((package / "__init__.py").read_text("utf-8"))) or ""
        sentences = [s for s in doc.replace("e.g.", "eg").split(". ") if s.strip()]
        assert doc.strip().endswith(".") and len(sentences) == 1 and "\n\n" not in doc, (package, doc)


def write_package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    return root / "pkg"


def test_a_lazy_import_closing_a_loop_is_a_cycle(tmp_path: Path) -> None:
    pkg = write_package(tmp_path, {
        "__init__.py": "",
        "a.py": "from pkg.b import run\n",
        "b.py": "def run():\n    from pkg import c\n    return c\n",
        "c.py": "import typing\nif typing.TYPE_CHECKING:\n    from .a import x\n",
    })
    assert find_cycle(import_graph(pkg)) == ["pkg.a", "pkg.b", "pkg.c", "pkg.a"]


def test_a_chain_without_a_loop_is_no_cycle(tmp_path: Path) -> None:
    pkg = write_package(tmp_path, {
        "__init__.py": "from pkg.a import run\n",
        "a.py": "from pkg.b import run\n",
        "b.py": "def run():\n    from pkg.sub import c\n    return c\n",
        "sub/__init__.py": "",
        "sub/c.py": "from ..d import x\nimport os\n",
        "d.py": "x = 1\n",
    })
    graph = import_graph(pkg)
    assert graph["pkg.sub.c"] == {"pkg.d"}  # the relative import resolved
    assert graph["pkg.b"] == {"pkg.sub", "pkg.sub.c"}
    assert find_cycle(graph) is None


LIBRARIES = {"click": {"cli"}, "jinja2": {"kb.read.templates"}, "markupsafe": {"kb.read.templates"},
             "whoosh": {"kb.store.index"},
             "sqlite_utils": {"kb.store.store"}, "markdown_it": {"kb.store.reading"}, "datasette": {"kb.server"},
             "ahocorasick": {"kb.builder.phrases"}}
"""Each third-party library and the one module that imports it (the house style: kb imports no click)."""


def importers(library: str) -> set[str]:
    """The modules of kb/ and cli.py that import a library anywhere in their file."""
    files = {module_name(p, KB): p for p in sorted(KB.rglob("*.py"))} | {"cli": KB.parent / "cli.py"}
    found = set()
    for name, path in files.items():
        for node in imports_of(path):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
            if any(n == library or n.startswith(library + ".") for n in names):
                found.add(name)
    return found


def test_each_library_lives_in_one_module() -> None:
    assert {library: importers(library) for library in LIBRARIES} == LIBRARIES


COLD_SKIPS = {
    "annotation": {"kb.builder.addresses", "kb.builder.urls", "kb.search.resolve", "kb.search.query", "html",
                   "kb.read.documents", "kb.read.answers",
                   "kb.model", "shutil", "bz2", "lzma"},
    "search": {"kb.builder.addresses", "kb.builder.urls", "kb.search.resolve", "importlib.resources", "tempfile",
               "html", "tomllib",
               "kb.model", "shutil", "bz2", "lzma"},
}
"""What a cold command never imports: the site's plan (the build stored each address); for a lookup by
number, the reading of names, the other lookups' answers (kb.read.answers) and the answers read whole
(kb.read.documents, the site's and the deck check's); for either, the parsers' model (kb.model: its dataclasses
cost a cold command 5 ms; the keys of pages and numbers are kb.keys's);
for either, HTML escaping (html.entities: the terminal writes no HTML) and shutil (with bz2 and lzma:
only removing a folder needs it); for a search, the reading of a typed source's name, importlib.resources
(kb/data is read as files:
its import brought tempfile, shutil, bz2 and lzma) and tomllib (its weights and tables are the search
data's)."""


@pytest.mark.parametrize("args, shown", [(["annotation", "18"], "Annotation 18"),
                                         (["search", "can a strike be cancelled after the roll?"], "Annotation 13")])
def test_a_cold_command_imports_only_what_it_needs(real_kb: Path, args: list[str], shown: str) -> None:
    """The command in a fresh interpreter answers without importing its COLD_SKIPS, and leaves what
    it made to the process's end (kb.memory.left_to_exit: no collection at exit walks it)."""
    code = ("import sys\nimport cli\ncode = 0\nsys.argv = ['rulings', '--kb', *sys.argv[1:]]\n"
            "try:\n    cli.main()\nexcept SystemExit as exc:\n    code = exc.code\n"
            "import gc\nprint('\\x1e', sorted(sys.modules), code, gc.get_freeze_count())")
    run = subprocess.run([sys.executable, "-c", code, str(real_kb), *args], capture_output=True, text=True,
                         cwd=KB.parent)
    assert run.returncode == 0, run.stderr
    answer, _, imported = run.stdout.rpartition("\x1e")
    modules_text, _, rest = imported.partition("]")
    status, frozen = rest.split()
    assert shown in answer and status == "0" and int(frozen) > 1000, run.stdout[-300:]
    modules = set(modules_text.strip(" [").replace("'", "").split(", "))
    skips = COLD_SKIPS[args[0]]
    assert "kb.read.lookup" in modules and not modules & skips, sorted(modules & skips)
    assert not [m for m in modules if m.startswith("kb.builder.")]  # kb.search and kb.read import no build stage


def test_importing_the_public_api_imports_neither_the_build_nor_the_reader() -> None:
    """`import kb` (kb.build, kb.Reader, KbError) loads the build and the read model only when they are named."""
    code = ("import sys, kb\nprint(sorted(m for m in sys.modules if "
            "m.startswith('kb')))\nkb.Reader\nprint('kb.read.lookup' in sys.modules)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=KB.parent)
    assert run.returncode == 0 and run.stdout.split("\n")[:2] == ["['kb', 'kb.builder', 'kb.errors']",
                                                                  "True"], run.stdout + run.stderr


def test_the_site_and_the_deck_check_read_the_database_only_through_the_read_model() -> None:
    """kb.read.lookup's Reader answers every question of the site, the terminal and the deck check, each as
    a typed answer (a document with its headings, a card's record, a rule's text): those modules import
    neither sqlite3 nor kb.store.store, so they hold no SQL of their own."""
    readers = importers("sqlite3") | importers("kb.store.store")
    consumers = {"kb.site.corpus", "kb.deck.deck", "kb.deck.deckcards", "kb.deck.deckrules", "kb.site.sitepages",
                 "kb.site.siteplan", "kb.terminal", "cli"}
    assert "kb.read.lookup" in readers and not readers & consumers, sorted(readers & consumers)


@pytest.mark.parametrize("path", sorted([*(KB.parent / "bench").glob("*.py"), *(KB.parent / "tools").glob("*.py")]),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_benches_and_tools_import_what_kb_has(path: Path) -> None:
    """bench/ and tools/ run outside the suite: each name they import from kb/ exists where they import it
    from (a module moved or a function split out breaks them before anyone runs them)."""
    import importlib

    for node in imports_of(path):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "kb" and not node.level:
            module = importlib.import_module(node.module or "")
            missing = [a.name for a in node.names if not hasattr(module, a.name)
                       and importlib.util.find_spec(f"{node.module}.{a.name}") is None]
            assert missing == [], f"{path.name}:{node.lineno}: {node.module} has no {missing}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "kb":
                    importlib.import_module(alias.name)


def test_no_two_dataclasses_of_kb_hold_the_same_fields() -> None:
    """One type per concept (issue 43.5): no two dataclasses of kb/ (of three fields or more) hold the same
    fields, as a link did on main (kb.builder.xref.Link, and kb.read.documents.LinkRow for the site)."""
    by_fields: dict[frozenset[str], list[str]] = {}
    for path in sorted(KB.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ClassDef) and any(
                    "dataclass" in ast.unparse(d) for d in node.decorator_list):
                fields = frozenset(s.target.id for s in node.body
                                   if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name))
                if len(fields) >= 3:
                    by_fields.setdefault(fields, []).append(f"{module_name(path, KB)}.{node.name}")
    assert [names for names in by_fields.values() if len(names) > 1] == []
