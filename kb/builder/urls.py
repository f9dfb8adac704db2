"""Every page address and anchor of the static site, made in one place, always relative.

A page path is a POSIX path under the output folder ("card/the-arkenstone.html"). Templates never
join paths: they ask `Urls.href(from_page, to_page, anchor)`. Slugs keep only a-z, 0-9 and "-",
so no name from a source can make a path that leaves the output folder. A link made before the page
it is on is known (a ruling, rendered once for every page that shows it) is `Urls.placed`, and
`Urls.resolve` makes it relative as each page is written.
"""

from __future__ import annotations

import posixpath
import re
from functools import lru_cache

from kb.keys import page_key
from kb.search.query import fold

MAX_SLUG = 60


@lru_cache(maxsize=16384)  # every lookup plans the same card pages again
def slug(text: str) -> str:
    """A file-name-safe slug: slug("Adûnaphel the Ringwraith") == "adunaphel-the-ringwraith"."""
    words = re.sub(r"[^a-z0-9]+", "-", fold(text)).strip("-")
    return words[:MAX_SLUG].strip("-") or "x"


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def anchor(ruling_id: str) -> str:
    """The anchor of a ruling on any page: its stable id ("crf-22.454d048a6d"), made safe."""
    return _UNSAFE.sub("-", ruling_id)


PLACED = re.compile('(<a\\b[^<>]*?\\bhref=")\x1e([^\x1e#"<>]*)#([^\x1e"<>]*)\x1e"')
"""A link placed before its page was known: the target page and its anchor between two record
separators, as the whole value of a link's href. Only a tag can hold it: text from the sources, even
with those separators, is escaped ("<" as "&lt;") and so never opens one."""


class Urls:
    """Page paths for every kind of page, unique per kind, and relative links between them."""

    def __init__(self) -> None:
        self._taken: dict[str, str] = {}
        self._paths: dict[tuple[str, str], str] = {}

    def _unique(self, kind: str, key: str, folder: str, base: str) -> str:
        if (kind, key) in self._paths:
            return self._paths[(kind, key)]
        path, n = f"{folder}/{base}.html", 1
        while path in self._taken:
            n += 1
            path = f"{folder}/{base}-{n}.html"
        self._taken[path] = key
        self._paths[(kind, key)] = path
        return path

    def registered(self) -> list[tuple[str, str, str]]:
        """Every page made so far as (kind, key, path), in the order they were made."""
        return [(kind, key, path) for (kind, key), path in self._paths.items()]

    def take(self, kind: str, key: str, path: str) -> None:
        """Register a page made earlier (registered(), as a build stored it) at its path."""
        self._taken[path] = key
        self._paths[(kind, key)] = path

    def document(self, source: str, part: str = "") -> str:
        key = f"{source}\x00{part}"
        return self._paths.get(("document", key)) or self._unique(
            "document", key, "doc", slug(source) + (f"-{slug(part)}" if part else ""))

    def card(self, name: str) -> str:
        return self._paths.get(("card", name)) or self._unique("card", name, "card", slug(name))

    def term(self, name: str) -> str:
        key = page_key("term", name)
        return self._paths.get(("term", key)) or self._unique("term", key, "term", slug(name))

    def phase(self, phase_id: str) -> str:
        return self._paths.get(("phase", phase_id)) or self._unique("phase", phase_id, "phase", slug(phase_id))

    def annotation(self, number: str) -> str:
        key = page_key("annotation", number)
        return self._paths.get(("annotation", key)) or self._unique("annotation", key, "annotation", slug(number))

    def rule(self, number: str) -> str:
        """A rule's page, keyed by its exact number: "3.V" (CvCC) and "3.v" (a combat step) are two
        rules. Its file name is the number lower-cased ("2.IV.iii" -> rule/2-iv-iii.html), so that no two
        differ only in case; a number whose name is already taken by one differing only in case (the
        lower-case one registers first: kb.builder.addresses) marks each part holding a capital with "u"
        ("3.V" -> rule/3-uv.html, "3.I.1" -> rule/3-ui-1.html)."""
        if ("rule", number) in self._paths:
            return self._paths[("rule", number)]
        base = re.sub(r"[^a-z0-9]+", "-", number.lower()).strip("-")[:MAX_SLUG] or "x"
        if f"rule/{base}.html" in self._taken and self._taken[f"rule/{base}.html"].lower() == number.lower():
            marked = ".".join("u" + p if p != p.lower() else p for p in number.split("."))
            base = re.sub(r"[^a-z0-9]+", "-", marked.lower()).strip("-")[:MAX_SLUG] or "x"
        return self._unique("rule", number, "rule", base)

    def known(self, kind: str, key: str) -> str | None:
        """The page made earlier for (kind, key), or None."""
        return self._paths.get((kind, page_key(kind, key)))

    @staticmethod
    def href(from_page: str, to_page: str, fragment: str = "") -> str:
        """A relative link from one page to another (or to an anchor on the same page)."""
        return Urls._href(from_page, to_page, anchor(fragment) if fragment else "")

    @staticmethod
    def _href(from_page: str, to_page: str, anchored: str, folder: str | None = None) -> str:
        """href's link (anchored: the anchor made safe); folder: from_page's, if known already."""
        if to_page == from_page:
            rel = posixpath.basename(to_page) if not anchored else ""
        else:
            rel = _relative(to_page, posixpath.dirname(from_page) if folder is None else folder)
        return rel + (f"#{anchored}" if anchored else "")

    @staticmethod
    def placed(to_page: str, fragment: str = "") -> str:
        """A link to a page (and anchor) from a page not known yet: `resolve` makes it relative."""
        return f"\x1e{to_page}#{anchor(fragment) if fragment else ''}\x1e"

    @staticmethod
    def placed_url(url: str) -> str:
        """placed() of an address the build stored ("card/gandalf.html", "rule/3-i.html#rule-3.i"): its anchor
        already made."""
        page, _, fragment = url.partition("#")
        return f"\x1e{page}#{fragment}\x1e"

    @staticmethod
    def resolve(page: str, text: str) -> str:
        """A page's text with every placed link made relative to it, as `href` makes them."""
        if "\x1e" not in text:
            return text
        folder = posixpath.dirname(page)  # (once a page, not once a link)
        return PLACED.sub(lambda m: f'{m[1]}{Urls._href(page, m[2], m[3], folder)}"', text)


@lru_cache(maxsize=65536)
def _relative(to_page: str, from_folder: str) -> str:
    """The path of to_page seen from a folder of the site (few folders, so most calls are repeats)."""
    return posixpath.relpath(to_page, from_folder or ".")
