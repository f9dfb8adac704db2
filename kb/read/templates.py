"""The site's templates: one Jinja2 environment over a folder of them (HTML autoescaped, an undefined value an error),
the only module that imports Jinja2; the site's pages and the deck check's printable page are rendered with it (and the
read API's page of a saved query put before Datasette's own: put_first)."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import jinja2
    from jinja2 import Environment as Environment  # noqa: F401  (the type kb.site.website renders with)
    from markupsafe import Markup as Markup  # noqa: F401  (the type of what a template makes: kb.site.website)


def environment(folder: Path) -> jinja2.Environment:
    """The templates of a folder (`site/templates`, or a user's own), as the site renders them: HTML
    escaped unless marked safe (the `safe_html` filter, for text kb.read.render has already escaped), an
    undefined value an error, a block tag's line left out; each template read once (an environment
    serves one site or one page: a template is not looked at again for changes), and compiled once
    in a process for every environment while its text stays the same (_compiled)."""
    import jinja2
    from markupsafe import Markup

    env = _environment_class()(loader=jinja2.FileSystemLoader(folder), autoescape=jinja2.select_autoescape(["html"]),
                               undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                               auto_reload=False, bytecode_cache=_compiled())
    env.filters["safe_html"] = Markup  # only for text that kb.read.render has already escaped
    return env


def put_first(env: Any, templates: dict[str, str]) -> None:
    """Templates given as text, found before those an environment's own loader finds: Datasette's
    (kb.server overrides its page of a saved query with one of them)."""
    import jinja2

    env.loader = jinja2.ChoiceLoader([jinja2.DictLoader(templates), env.loader])


@functools.cache
def _compiled() -> jinja2.BytecodeCache:
    """Every template's compiled code, by its file, with the checksum of the text it was compiled
    from: each site made in a process (the tests make many) compiles its templates only the first
    time, or when one has changed. In memory only, never on disk."""
    import jinja2
    from jinja2.bccache import Bucket

    class Compiled(jinja2.BytecodeCache):
        def __init__(self) -> None:
            self.codes: dict[str, tuple[str, Any]] = {}

        def load_bytecode(self, bucket: Bucket) -> None:
            kept = self.codes.get(bucket.key)
            if kept is not None and kept[0] == bucket.checksum:
                bucket.code = kept[1]

        def dump_bytecode(self, bucket: Bucket) -> None:
            self.codes[bucket.key] = (bucket.checksum, bucket.code)
    return Compiled()


@functools.cache
def _environment_class() -> type[jinja2.Environment]:
    """Jinja2's Environment, reading `x.name` of a dict (the pages' values) as its key straight away:
    Jinja2 tries the attribute first, which a dict has only for names of its methods ("items"), and
    fails with an exception every other time (several hundred thousand on the real site). What
    `x.name` gives is the same: a method where the name is one, else the key, else undefined."""
    import jinja2

    methods = frozenset(dir(dict))

    class Environment(jinja2.Environment):
        def getattr(self, obj: Any, attribute: str) -> Any:
            if type(obj) is dict and attribute not in methods:  # (a dict has no attribute of its own)
                try:
                    return obj[attribute]
                except KeyError:
                    return self.undefined(obj=obj, name=attribute)
            return super().getattr(obj, attribute)
    return Environment


def render(name: str, **values: Any) -> str:
    """A template rulings ships (kb.builder.bundle.site_files) rendered with values: render("deck_report.html",
    report=...)."""
    from kb.builder.bundle import site_files

    return environment(site_files() / "templates").get_template(name).render(**values)
