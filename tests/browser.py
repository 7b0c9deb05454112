"""Headless Chromium for tests: Debian's package (installed here if missing,
as CI and a fresh machine run as root), driven by Playwright for Python with
executable_path, never a browser download."""

import os
import shutil
import subprocess

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def ensure_chromium() -> str:
    if not os.path.exists(CHROMIUM) and os.geteuid() == 0 and shutil.which("apt-get"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], env=env, check=False, capture_output=True)
        subprocess.run(["apt-get", "install", "-y", "-q", "chromium"], env=env, check=False, capture_output=True)
    if not os.path.exists(CHROMIUM):
        raise RuntimeError("Debian's chromium package is needed for the report tests: apt-get install chromium")
    return CHROMIUM


def open_page(path, screenshot=None):
    """Open a local HTML file; return (section ids, console errors, outside requests, page text)."""
    from playwright.sync_api import sync_playwright

    errors, outside = [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=ensure_chromium(), args=FLAGS)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))

        def route(r):
            if not r.request.url.startswith("file://"):
                outside.append(r.request.url)
                return r.abort()
            return r.continue_()

        page.route("**/*", route)
        page.goto(f"file://{os.path.abspath(path)}")
        page.wait_for_load_state("load")
        sections = [s.get_attribute("id") for s in page.query_selector_all("section")]
        text = page.inner_text("body")
        scripts = page.evaluate("document.querySelectorAll('script').length")
        if screenshot:
            page.screenshot(path=str(screenshot), full_page=True)
        browser.close()
    return sections, errors, outside, text, scripts


FIRST_SCREEN_JS = """() => {
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const node = walk.currentNode;
    if (!node.textContent.trim()) continue;
    const range = document.createRange(); range.selectNodeContents(node);
    const r = range.getBoundingClientRect();
    if (r.height > 0 && r.top < window.innerHeight) out.push(node.textContent.trim());
  }
  return out.join('\\n');
}"""

OVERFLOW_JS = """() => {
  const width = document.documentElement.clientWidth;
  const wide = [];
  for (const el of document.querySelectorAll('table, figure, svg, pre, img, .errata')) {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > width + 1) wide.push(el.tagName + ' ' + Math.round(r.right) + ' > ' + width);
  }
  if (document.documentElement.scrollWidth > width + 1) wide.push('page ' + document.documentElement.scrollWidth);
  return wide;
}"""


# every text of every drawn chart (matplotlib writes a glyph run as ``<g id="text_N"><!-- words --><g
# transform="translate(..) scale(s -s)">`` with s = font size / 100): its size in CSS pixels as shown
CHART_TEXT_JS = """() => {
  const out = [];
  for (const run of document.querySelectorAll('svg g[id^="text_"] > g[transform]')) {
    const box = run.getBoundingClientRect();
    if (box.width === 0 || !run.getScreenCTM()) continue;
    const m = run.getScreenCTM();
    const words = [...run.parentNode.childNodes].filter(n => n.nodeType === 8).map(n => n.data.trim()).join(' ');
    out.push({words, px: Math.round(Math.hypot(m.a, m.b) * 1000) / 10});
  }
  return out;
}"""


def inspect_page(path, *, screenshot=None, first_screen=None, width=1200, height=900):
    """Open a local HTML file as a reader would and return what they meet:
    ``sections``, ``errors`` (console), ``outside`` (requests off the file),
    ``text`` (visible text, folded blocks closed), ``first_screen`` (text in
    the first viewport), ``overflow`` (elements past the page's right edge,
    with every details block opened), ``scripts``, ``chart_text`` and
    ``folded_chart_text`` (each chart text's words and size in CSS pixels, shown
    unfolded, and with every details block opened)."""
    from playwright.sync_api import sync_playwright

    errors, outside = [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=ensure_chromium(), args=FLAGS)
        page = browser.new_page(viewport={"width": width, "height": height})
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))

        def route(r):
            if not r.request.url.startswith("file://"):
                outside.append(r.request.url)
                return r.abort()
            return r.continue_()

        page.route("**/*", route)
        page.goto(f"file://{os.path.abspath(path)}")
        page.wait_for_load_state("load")
        found = {
            "sections": [s.get_attribute("id") for s in page.query_selector_all("section")],
            "text": page.inner_text("body"),
            "first_screen": page.evaluate(FIRST_SCREEN_JS),
            "scripts": page.evaluate("document.querySelectorAll('script').length"),
            # how far down the page each chart starts and how tall it is, in CSS pixels (folded ones: 0 x 0)
            "charts": page.evaluate(
                "[...document.querySelectorAll('figure svg')].map(e => {const r = e.getBoundingClientRect(); "
                "return [r.top + window.scrollY, r.height];})"
            ),
        }
        if first_screen:
            page.screenshot(path=str(first_screen))
        found["chart_text"] = page.evaluate(CHART_TEXT_JS)  # the charts shown unfolded
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        found["overflow"] = page.evaluate(OVERFLOW_JS)
        found["folded_chart_text"] = page.evaluate(CHART_TEXT_JS)
        found["open_text"] = page.inner_text("body")
        if screenshot:
            page.screenshot(path=str(screenshot), full_page=True)
        browser.close()
    found.update(errors=errors, outside=outside)
    return found
