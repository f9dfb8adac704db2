"""The code's size, as counts anyone can reproduce: the modules of kb/ and cli.py, their lines, and every function over
50 lines.

A function's lines run from its `def` (its decorators left out) to its last line, its docstring and
any function inside it included (a function inside another is listed on its own as well). Usage:

    .venv/bin/python bench/code.py [ROOT] [--over 50]

ROOT is a checkout (default: this one), so two versions can be compared side by side.
"""

from __future__ import annotations

import argparse
import ast
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def modules(root: Path) -> list[Path]:
    """cli.py and every module of kb/, in path order."""
    return [root / "cli.py", *sorted((root / "kb").rglob("*.py"))]


def long_functions(path: Path, over: int) -> list[tuple[str, int]]:
    """(qualified name, lines) of each function of a module longer than `over` lines, the longest first."""
    found = []

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = (child.end_lineno or child.lineno) - child.lineno + 1
                if lines > over:
                    found.append((prefix + child.name, lines))
                walk(child, prefix + child.name + ".")
            elif isinstance(child, ast.ClassDef):
                walk(child, prefix + child.name + ".")

    walk(ast.parse(path.read_text("utf-8"), str(path)), "")
    return sorted(found, key=lambda f: -f[1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("root", nargs="?", type=Path, default=ROOT, help="a checkout (default: this one)")
    parser.add_argument("--over", type=int, default=50, help="list the functions longer than this many lines")
    args = parser.parse_args()
    paths = modules(args.root)
    sizes = {str(p.relative_to(args.root)): len(p.read_text("utf-8").splitlines()) for p in paths}
    long = {f"{p.relative_to(args.root)}:{name}": n for p in paths for name, n in long_functions(p, args.over)}
    print(json.dumps({"modules": len(paths), "lines": sum(sizes.values()), "cli.py lines": sizes["cli.py"],
                      f"functions over {args.over} lines": len(long), "longest modules": dict(
                          sorted(sizes.items(), key=lambda kv: -kv[1])[:8]), "long functions": long}, indent=2))


if __name__ == "__main__":
    main()
