"""The site's templates: one Jinja2 environment over a folder of them (HTML autoescaped, an undefined value an error), the only module that imports Jinja2; the site's pages and the deck check's printable page are rendered with it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import jinja2
    from jinja2 import Environment as Environment  # noqa: F401  (the type kb.website renders with)
    from markupsafe import Markup as Markup  # noqa: F401  (the type of what a template makes: kb.website)


def environment(folder: Path) -> jinja2.Environment:
    """The templates of a folder (`site/templates`, or a user's own), as the site renders them: HTML
    escaped unless marked safe (the `safe_html` filter, for text kb.render has already escaped), an
    undefined value an error, a block tag's line left out."""
    import jinja2
    from markupsafe import Markup

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(folder), autoescape=jinja2.select_autoescape(["html"]),
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["safe_html"] = Markup  # only for text that kb.render has already escaped
    return env


def render(name: str, **values: Any) -> str:
    """A template rulings ships (kb.bundle.site_files) rendered with values: render("deck_report.html", report=...)."""
    from kb.bundle import site_files

    return environment(site_files() / "templates").get_template(name).render(**values)
