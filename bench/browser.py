"""Benchmark: the static site's search on a slow phone, in Chromium (Debian's /usr/bin/chromium) at a
390 x 844 viewport with the CPU slowed by devtools (CDP Emulation.setCPUThrottlingRate, 4 by default).

For each query, a fresh browser context (nothing cached, no service worker) opens
search.html?q=... over http from a local server; the figure is the time from navigation start to
the first result in the list, beside the bytes
transferred (CDP Network.loadingFinished encodedDataLength; the local server does not compress, so
the gzip size of the same files is given too) and the main thread's busy time (CDP
Performance.getMetrics TaskDuration), which varies less than wall time on a busy machine. The
floor, a page with no search data (credits.html) visited the same way, is measured in the same run:
`over_floor_ms` is what the search itself costs on this machine.

Clocks, all from navigation start: `first_results_ms` is when Playwright sees `#results li`
(wait_for_selector, then performance.now()), as a test harness sees it; `in_page_ms` is when the
page itself inserts it (a MutationObserver added before any page script runs), in the same visit.
The difference is Playwright's own work on the same throttled main thread (its injected script
polls the page while it loads; alone it costs a bare page about 0.7 s at 4x here), which no page
can avoid. So a second visit of each query leaves the page alone until its load event:
`unwatched_ms` is when that page inserts its first result, and `painted_ms` when the frame after
it starts (requestAnimationFrame, then a task: the results laid out and painted), as a reader on a
phone sees them. Those are first visits ever (nothing cached); `warm_painted_ms` is a later search
in a browser that has opened the site once (its service worker on, as on a judge's phone after the
first visit): the page and index come from the worker's cache, the same clocks otherwise.

`long_pages`: the site's two largest document pages (the card errata, 539 rulings) and its card
index (1,683 names), each visited cold and left alone at the same size and throttle: ms to the
first contentful paint and to the end of the load event, and the main thread's busy and layout ms
(CDP Performance.getMetrics).

Usage: python bench/browser.py SITE [--runs 3] [--throttle 4] [--compare OTHER_SITE]
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import json
import statistics
import threading
from pathlib import Path
from typing import Any

QUERIES = ["can a strike be cancelled after the roll?", "Adunaphel", "annotation 18", "hazard limit"]


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def serve(folder: Path) -> http.server.ThreadingHTTPServer:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


FLOOR = ("credits.html", "main h1")
"""The floor: a page with no search data (its heading shown), visited the same way; what a visit costs
on this machine whatever the page, so the search's own cost is first results minus the floor."""


def first_results(browser: Any, base: str, query: str, throttle: float) -> dict[str, float]:
    """One cold visit of search.html?q=query: ms to the first result, bytes, gzip bytes, busy ms."""
    from urllib.parse import quote_plus

    return visit(browser, f"{base}search.html?q={quote_plus(query)}", "#results li", throttle)


SEEN = """(selector => new MutationObserver((_, observer) => {
  if (!document.querySelector(selector)) return;
  window.__shown = performance.now();
  observer.disconnect();
  requestAnimationFrame(() => setTimeout(() => { window.__painted = performance.now(); }));
}).observe(document, {childList: true, subtree: true}))(%s);"""
"""Run before any page script: records when the page first holds the selector, and when the frame
after that begins."""


def left_alone(page: Any, url: str, throttle: float, name: str) -> dict[str, float]:
    """Open url in page with the CPU slowed, leaving it alone until its load event: ms from
    navigation until it holds SEEN's selector (name) and until the frame after (the painted one)."""
    page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    page.goto(url, wait_until="load", timeout=120_000)
    page.wait_for_function("window.__painted !== undefined", timeout=120_000)
    painted = name.replace("unwatched", "painted")
    return {name: float(page.evaluate("window.__shown")), painted: float(page.evaluate("window.__painted"))}


def unwatched(browser: Any, url: str, selector: str, throttle: float) -> dict[str, float]:
    """One cold visit of url left alone until its load event: ms from navigation until the page
    holds selector, and until the frame after that."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block")
    ctx.add_init_script(SEEN % json.dumps(selector))
    try:
        return left_alone(ctx.new_page(), url, throttle, "unwatched_ms")
    finally:
        ctx.close()


def warm(browser: Any, base: str, query: str, throttle: float) -> dict[str, float]:
    """A search in a browser that has visited the site once (another search, unthrottled) and has its
    service worker: ms from navigation until the page holds a result, and until the frame after."""
    from urllib.parse import quote_plus

    ctx = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="allow")
    ctx.add_init_script(SEEN % json.dumps("#results li"))
    try:
        page = ctx.new_page()
        page.goto(base + "search.html?q=strike", wait_until="load", timeout=120_000)
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=120_000)
        page.wait_for_function("document.getElementById('offline').textContent.startsWith('Saved')", timeout=120_000)
        return left_alone(page, f"{base}search.html?q={quote_plus(query)}", throttle, "warm_unwatched_ms")
    finally:
        ctx.close()


def visit(browser: Any, url: str, selector: str, throttle: float) -> dict[str, float]:
    """One cold visit of url (a fresh context, no service worker): ms from navigation until selector
    appears (as Playwright sees it, and in the page), bytes, busy ms; then a visit left alone
    (unwatched)."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block")
    ctx.add_init_script(SEEN % json.dumps(selector))
    try:
        page = ctx.new_page()
        cdp = ctx.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
        cdp.send("Performance.enable")
        cdp.send("Network.enable")
        sizes: dict[str, int] = {}
        urls: dict[str, str] = {}
        cdp.on("Network.requestWillBeSent", lambda e: urls.__setitem__(e["requestId"], e["request"]["url"]))
        cdp.on("Network.loadingFinished", lambda e: sizes.__setitem__(e["requestId"], int(e["encodedDataLength"])))
        page.goto(url, wait_until="commit")
        page.wait_for_selector(selector, timeout=120_000)
        ms = float(page.evaluate("performance.now()"))
        in_page = float(page.evaluate("window.__shown || performance.now()"))
        metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
        seen = {"ms": ms, "in_page_ms": in_page, "bytes": sum(sizes.values()), "busy_ms": metrics["TaskDuration"]
                * 1000,
                "files": len(sizes), "urls": list(urls.values())}
    finally:
        ctx.close()
    return {**seen, **unwatched(browser, url, selector, throttle)}  # type: ignore[dict-item]


def long_page(browser: Any, url: str, throttle: float) -> dict[str, float]:
    """One cold visit of a long page left alone until its load event: ms from navigation to its first
    contentful paint and to the end of its load event, and the main thread's busy and layout ms."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block")
    try:
        page = ctx.new_page()
        cdp = ctx.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
        cdp.send("Performance.enable")
        page.goto(url, wait_until="load", timeout=120_000)
        page.wait_for_function("performance.getEntriesByType('navigation')[0].loadEventEnd > 0")
        metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
        return {"first_paint_ms": float(page.evaluate(
                    "performance.getEntriesByName('first-contentful-paint')[0].startTime")),
                "loaded_ms": float(page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd")),
                "busy_ms": metrics["TaskDuration"] * 1000, "layout_ms": metrics["LayoutDuration"] * 1000}
    finally:
        ctx.close()


def longest_pages(site: Path, n: int = 2) -> list[str]:
    """The site's n largest document pages and its card index, as paths from its root."""
    pages = sorted((site / "doc").glob("*.html"), key=lambda p: (-p.stat().st_size, p.name))[:n]
    return [p.relative_to(site).as_posix() for p in pages] + ["cards.html"]


def gzip_size(site: Path, urls: list[str], base: str) -> int:
    total = 0
    for url in urls:
        path = site / url[len(base):].split("?")[0]
        if path.is_file():
            total += len(gzip.compress(path.read_bytes(), 6))
    return total


def measure(sites: list[Path], runs: int, throttle: float) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    servers = [serve(s) for s in sites]
    report: dict[str, Any] = {"throttle": throttle, "viewport": "390x844", "runs": runs}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
            floors: dict[int, list[dict[str, float]]] = {n: [] for n in range(len(sites))}
            for _ in range(runs):
                for n, server in enumerate(servers):
                    floors[n].append(visit(browser, f"http://127.0.0.1:{server.server_port}/{FLOOR[0]}", FLOOR[1],
                                           throttle))
            floor = {n: statistics.median(f["ms"] for f in fs) for n, fs in floors.items()}
            report["floor"] = {str(site): {"page": FLOOR[0], "shown_ms": round(floor[n]),
                                           **{k: round(statistics.median(f[k] for f in floors[n]))
                                              for k in ("in_page_ms", "unwatched_ms", "painted_ms")}}
                               for n, site in enumerate(sites)}
            for query in QUERIES:
                row: dict[str, Any] = {}
                samples: dict[int, list[dict[str, Any]]] = {n: [] for n in range(len(sites))}
                for _ in range(runs):  # the sites in turn, so a busy moment hits both
                    for n, server in enumerate(servers):
                        base = f"http://127.0.0.1:{server.server_port}/"
                        samples[n].append({**first_results(browser, base, query, throttle),
                                           **warm(browser, base, query, throttle)})
                for n, site in enumerate(sites):
                    got = samples[n]
                    base = f"http://127.0.0.1:{servers[n].server_port}/"
                    row[str(site)] = {
                        "first_results_ms": round(statistics.median(g["ms"] for g in got)),
                        "over_floor_ms": round(statistics.median(g["ms"] for g in got) - floor[n]),
                        "in_page_ms": round(statistics.median(g["in_page_ms"] for g in got)),
                        "unwatched_ms": round(statistics.median(g["unwatched_ms"] for g in got)),
                        "painted_ms": round(statistics.median(g["painted_ms"] for g in got)),
                        "warm_unwatched_ms": round(statistics.median(g["warm_unwatched_ms"] for g in got)),
                        "warm_painted_ms": round(statistics.median(g["warm_painted_ms"] for g in got)),
                        "unwatched_range_ms": [round(min(g["unwatched_ms"] for g in got)),
                                               round(max(g["unwatched_ms"] for g in got))],
                        "main_thread_busy_ms": round(statistics.median(g["busy_ms"] for g in got)),
                        "transfer_mb": round(got[0]["bytes"] / 1e6, 2),
                        "transfer_gzip_mb": round(gzip_size(site, got[0]["urls"], base) / 1e6, 2),
                        "files": got[0]["files"]}
                report[query] = row
            long: dict[str, Any] = {}
            for rel in longest_pages(sites[0]):
                got_pages: dict[int, list[dict[str, float]]] = {n: [] for n in range(len(sites))}
                for _ in range(runs):
                    for n, server in enumerate(servers):
                        got_pages[n].append(
                            long_page(browser, f"http://127.0.0.1:{server.server_port}/{rel}", throttle))
                long[rel] = {str(site): {k: round(statistics.median(g[k] for g in got_pages[n]))
                                         for k in got_pages[n][0]}
                             for n, site in enumerate(sites)}
            report["long_pages"] = long
            browser.close()
    finally:
        for server in servers:
            server.shutdown()
    return report


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("site", type=Path)
    parser.add_argument("--compare", type=Path, help="another built site, measured in turn with the first")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--throttle", type=float, default=4)
    args = parser.parse_args()
    sites = [args.site] + ([args.compare] if args.compare else [])
    print(json.dumps(measure(sites, args.runs, args.throttle), indent=2))


if __name__ == "__main__":
    main()
