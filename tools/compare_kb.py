"""Compare two knowledge-base builds: every table row for row (in rowid order, the build time
aside), the schema, search.json and lexicon.json byte for byte, the marshal copy as data, and the
whoosh index's stored records. Usage: python tools/compare_kb.py BUILD_A BUILD_B (build folders,
e.g. build/kb/current); exit 1 and a line per difference if they differ."""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def tables(db: Path) -> dict[str, list[tuple[object, ...]]]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    out: dict[str, list[tuple[object, ...]]] = {
        "sqlite_master": conn.execute("select type, name, tbl_name, sql from sqlite_master order by rowid").fetchall()}
    for (name,) in conn.execute("select name from sqlite_master where type = 'table' and name not like '%_fts_%'"):
        rows = conn.execute(f"select rowid, * from [{name}] order by rowid").fetchall()
        out[name] = [r for r in rows if not (name == "meta" and r[1] == "built_at")]
    conn.close()
    return out


def index_records(folder: Path) -> list[dict[str, object]]:
    from whoosh import index

    ix = index.open_dir(str(folder / "index"))
    with ix.searcher() as s:
        return sorted((dict(f) for f in s.all_stored_fields()), key=lambda f: str(f["id"]))


def main(a: Path, b: Path) -> int:
    from kb.search.searchspec import SPEC_CACHE, _read_cache

    differences = []
    ta, tb = tables(a / "rulings.db"), tables(b / "rulings.db")
    for name in sorted(set(ta) | set(tb)):
        if ta.get(name) != tb.get(name):
            differences.append(f"table {name}: {len(ta.get(name, []))} rows against {len(tb.get(name, []))}, differing")
    for name in ("search.json", "lexicon.json", "datasette.json"):
        if (a / name).read_bytes() != (b / name).read_bytes():
            differences.append(f"{name} differs")
    if _read_cache(a / SPEC_CACHE) != _read_cache(b / SPEC_CACHE):
        differences.append(f"{SPEC_CACHE} holds other data")
    if index_records(a) != index_records(b):
        differences.append("the whoosh index stores other records")
    for line in differences:
        print(line)
    rows = sum(len(v) for v in ta.values())
    print("same" if not differences else "DIFFERENT", f"({len(ta)} tables, {rows} rows; search.json "
          f"{(a / 'search.json').stat().st_size} bytes)")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
