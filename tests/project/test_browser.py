"""The II.3.B01 page in a real browser: headless Chromium from Debian, driven by Playwright.

Skips, saying why, only where Chromium or Playwright cannot be had; ``make test`` installs both.
A screenshot of the page is saved to ``tests/artifacts/`` for a person to look at.
"""

from __future__ import annotations

import base64
import functools
import http.server
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from support import PROJECT

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARTIFACTS = PROJECT / "tests" / "artifacts"
PAGE = "problems/ii-3-b01-attention-by-hand.html"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="Debian's chromium is not installed (make test installs it as root)"
)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def _serve(folder: Any) -> Iterator[str]:
    """Serve a built HTML folder on 127.0.0.1 until the generator is closed."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def _build(source: Any, out: Any, *options: str) -> None:
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1767225600"}
    command = [sys.executable, "-m", "sphinx", "-q", "-b", "html", *options,
               "-d", str(out / "doctrees"), str(source), str(out / "html")]
    subprocess.run(command, check=True, env=env, timeout=300)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real book, built and served on 127.0.0.1 for the length of the module."""
    out = tmp_path_factory.mktemp("site")
    _build(PROJECT / "book", out, "-c", str(PROJECT / "conf"))
    yield from _serve(out / "html")


@pytest.fixture(scope="module")
def marks_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The provenance test root (digits of every kind in math, text and a table), with the
    book's offline MathJax."""
    out = tmp_path_factory.mktemp("marks")
    root = shutil.copytree(PROJECT / "tests" / "roots" / "test-provenance", out / "src")
    _build(root, out, "-D", "extensions=myst_parser,verified_problems,sphinx-mathjax-offline")
    yield from _serve(out / "html")


@pytest.fixture(scope="module")
def injection_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The injection test root (printed values put into text, math, a matrix and a table),
    with the book's offline MathJax."""
    out = tmp_path_factory.mktemp("val")
    root = shutil.copytree(PROJECT / "tests" / "roots" / "test-injection", out / "src")
    _build(root, out, "-D", "extensions=myst_parser,verified_problems,sphinx-mathjax-offline")
    yield from _serve(out / "html")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


def _open(browser: Any, url: str, width: int = 1200, dark: bool = False) -> Any:
    page = browser.new_page(viewport={"width": width, "height": 900},
                            color_scheme="dark" if dark else "light")
    page.goto(url)
    page.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise")
    page.evaluate("() => MathJax.startup.promise")
    return page


def test_every_formula_renders_and_digits_are_marked(browser: Any, site: str) -> None:
    page = _open(browser, f"{site}/{PAGE}")
    formulas = page.locator("div.math, span.math").count()
    assert formulas > 40
    assert page.locator("mjx-container").count() == formulas
    assert page.locator("mjx-merror").count() == 0
    assert page.locator("mjx-container .verified-ok").count() > 100
    assert page.locator("mjx-container .verified-bad").count() == 0
    assert "\\begin{bmatrix}" not in page.inner_text("article")
    page.close()


def test_verified_mark_and_its_meaning_on_focus(browser: Any, site: str) -> None:
    page = _open(browser, f"{site}/{PAGE}")
    mark = page.locator(".problem-header .verified-mark")
    assert mark.is_visible()
    assert mark.inner_text().startswith("✓ verified")
    tip = page.locator(".problem-header .verified-tip")
    assert not tip.is_visible()
    page.keyboard.press("Tab")
    mark.focus()
    assert tip.is_visible()
    text = tip.inner_text()
    assert "ii-3-b01-attention-by-hand.py (sha256 " in text
    assert "executed at build on 2026-01-01" in text
    page.close()


def test_full_script_opens_from_the_keyboard(browser: Any, site: str) -> None:
    page = _open(browser, f"{site}/{PAGE}")
    details = page.locator("details.verified-script").first
    assert details.get_attribute("open") is None
    details.locator("summary").focus()
    page.keyboard.press("Enter")
    assert details.get_attribute("open") is not None
    assert "def softmax" in details.locator("pre").inner_text()
    transcript = page.locator("details.verified-transcript pre").first
    assert transcript.is_visible()
    assert "O = [[0.80222419" in transcript.inner_text()
    page.close()


def test_screenshots_light_dark_and_phone(browser: Any, site: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page = _open(browser, f"{site}/{PAGE}")
    page.screenshot(path=str(ARTIFACTS / "ii-3-b01.png"), full_page=True)
    assert (ARTIFACTS / "ii-3-b01.png").stat().st_size > 50_000
    page.close()
    phone = _open(browser, f"{site}/{PAGE}", width=390)
    overflow = phone.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 1, "the page scrolls sideways on a phone"
    phone.locator("div.verified-check").first.scroll_into_view_if_needed()
    phone.screenshot(path=str(ARTIFACTS / "ii-3-b01-phone.png"))
    phone.close()
    dark = _open(browser, f"{site}/{PAGE}", dark=True)
    dark.evaluate("() => document.documentElement.setAttribute('data-theme', 'dark')")
    dark.locator("div.verified-check").first.scroll_into_view_if_needed()
    dark.screenshot(path=str(ARTIFACTS / "ii-3-b01-dark.png"))
    colour = dark.evaluate(
        "() => getComputedStyle(document.querySelector('.verified-verdict')).color"
    )
    assert colour not in ("rgb(0, 0, 0)", "rgb(34, 34, 34)"), "dark text on the dark theme"
    dark.close()


# -- the reader's view of provenance --------------------------------------------------------


def test_hovering_a_digit_of_math_shows_its_provenance(browser: Any, marks_site: str) -> None:
    page = _open(browser, f"{marks_site}/index.html")
    for tip in ["z_1_minus_max[1], printed 0. (provenance.py)",  # named, a zero
                "derived: \\tfrac{0.35}{0.25} (provenance.py)",
                "given on line 4 of the snippet: beta_1 = 0.9 (provenance.py)"]:
        assert _hovered(page, tip) == tip
    page.close()


def test_a_bound_digit_says_what_it_is_bound_to(browser: Any, site: str) -> None:
    """The seed page's lone ``$1.9861$`` quotes one printed quantity: its record says which."""
    page = _open(browser, f"{site}/problems/ii-3-b01-attention-by-hand.html")
    tip = ("bound to denominator_3, printed 1.9861373827904796 "
           "(ii-3-b01-attention-by-hand.py)")
    assert _hovered(page, tip) == tip
    page.close()


def test_injected_digits_render_in_mathjax_with_their_tooltip(
        browser: Any, injection_site: str) -> None:
    """``\\val{…}`` is gone before MathJax runs: the digits render, in a matrix too, each
    saying on hover where it was injected from."""
    page = _open(browser, f"{injection_site}/index.html")
    assert page.locator("mjx-container").count() == page.locator("div.math, span.math").count()
    assert page.locator("mjx-merror").count() == 0
    assert page.locator("mjx-container mjx-maction.verified-injected").count() == 9
    for tip in ["injected from the snippet's output: A[1,2], printed 0.1 (injection.py)",
                "injected from the snippet's output: s, printed 2.345678 (injection.py)"]:
        assert _hovered(page, tip, "verified-injected") == tip
    cell = page.locator("mjx-maction.verified-injected[title*='A[1,2]']").first
    box = cell.bounding_box()  # drawn by MathJax (its glyphs are CSS, not text)
    assert box is not None and box["width"] > 10
    text = page.locator("p span.verified-digit.verified-injected").first
    assert text.inner_text() == "0.0900"
    assert text.get_attribute("title") == ("injected from the snippet's output: p[1], printed "
                                           "0.09003057 (injection.py)")
    page.screenshot(path=str(ARTIFACTS / "injection.png"))
    page.close()


def _hovered(page: Any, tip: str, css: str = "verified-ok") -> str:
    """Hover the checked digit of math whose tooltip is ``tip``; the tooltip under the pointer
    (MathJax shows a text tooltip as the title of what is hovered)."""
    mark = page.locator(f"mjx-math mjx-maction.{css}[title={_quoted(tip)}]").first
    mark.hover()
    box = mark.bounding_box()
    assert box is not None
    return str(page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).closest('[title]').title",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2]))


def test_focusing_a_digit_of_text_shows_its_provenance(browser: Any, marks_site: str) -> None:
    page = _open(browser, f"{marks_site}/index.html")
    digit = page.locator("p span.verified-digit").first
    assert digit.inner_text() == "0.6"
    tip = "derived: elsewhere on this page (provenance.py)"
    shown = "() => getComputedStyle(document.activeElement, '::after').content"
    digit.focus()
    assert page.evaluate(shown) == f'"{tip}"'
    assert page.evaluate("() => getComputedStyle(document.activeElement, '::after').display") \
        == "block"
    page.keyboard.press("Tab")  # the next digit, from the keyboard
    assert page.evaluate("() => document.activeElement.textContent") == "0.01"
    assert page.evaluate(shown) == "\"given in the snippet's source (provenance.py)\""
    page.screenshot(path=str(ARTIFACTS / "provenance-focus.png"))
    unbound = page.locator("p span.verified-digit.verified-unbound").first
    assert unbound.get_attribute("title", timeout=1000).startswith(
        "matched a printed number but not bound to one")
    page.close()


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


_EDGE = """async (png) => {
  const image = new Image();
  image.src = 'data:image/png;base64,' + png;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = image.width; canvas.height = image.height;
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const pixels = context.getImageData(0, 0, image.width, image.height).data;
  const rows = [];
  for (let y = 0; y < image.height; y++) {
    let brightest = 0;
    for (let x = 0; x < image.width; x++) {
      const at = 4 * (y * image.width + x);
      brightest = Math.max(brightest, (pixels[at] + pixels[at + 1] + pixels[at + 2]) / 3);
    }
    rows.push(brightest);
  }
  return Math.max(...rows);
}"""


def _right_edge(page: Any, box: Any) -> float:
    """The brightest row of the 3 px at the right edge of a box as the screen shows it."""
    box.scroll_into_view_if_needed()
    rect = box.bounding_box()
    clip = {"x": rect["x"] + rect["width"] - 4, "y": rect["y"], "width": 3,
            "height": rect["height"]}
    png = base64.b64encode(page.screenshot(clip=clip)).decode()
    return float(page.evaluate(_EDGE, png))


def test_wide_math_on_a_phone_scrolls_in_its_box_with_a_cue(browser: Any, site: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    phone = _open(browser, f"{site}/{PAGE}", width=390)
    boxes = phone.locator("div.math > mjx-container[display='true']")
    sizes = boxes.evaluate_all("(all) => all.map(b => [b.scrollWidth, b.clientWidth])")
    wide = [i for i, (scroll, client) in enumerate(sizes) if scroll > client + 1]
    narrow = [i for i, (scroll, client) in enumerate(sizes) if scroll <= client]
    assert len(wide) >= 3, sizes  # the a_1 line, A and O of the Answer, …
    answer = boxes.nth(_answer(phone, boxes))
    assert _answer(phone, boxes) in wide
    assert answer.evaluate("(b) => getComputedStyle(b).overflowX") == "auto"
    # The shadow at the right edge covers the whole height of a box that scrolls (at least one
    # row of its edge is pure background otherwise: there, between the matrix's rows).
    assert _right_edge(phone, answer) < 235
    assert _right_edge(phone, boxes.nth(narrow[0])) > 250
    answer.scroll_into_view_if_needed()
    phone.screenshot(path=str(ARTIFACTS / "ii-3-b01-phone-math.png"))
    overflow = phone.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 1, "the page scrolls sideways on a phone"
    phone.close()


def _answer(page: Any, boxes: Any) -> int:
    """The index of the Answer's display math (A and O) among the page's display math."""
    texts = boxes.evaluate_all(
        "(all) => all.map(b => b.closest('section') && b.closest('section').id)")
    return texts.index("answer")


def test_the_variation_answer_and_its_transcript_open_together(browser: Any, site: str) -> None:
    page = _open(browser, f"{site}/{PAGE}")
    variation = page.locator("section#variation")
    transcript = variation.locator("details.verified-transcript pre")
    assert transcript.count() == 1
    assert "O = [[1.6044" in (transcript.text_content() or "")
    assert not transcript.is_visible()
    assert not variation.locator("p.verified-verdict").is_visible()
    variation.locator("details.sd-dropdown > summary").click()
    assert transcript.is_visible()
    assert variation.locator("p.verified-verdict").is_visible()
    page.close()


def test_the_verification_table_fits_a_1280_px_window(browser: Any, site: str) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{site}/verification.html")  # no math on it: MathJax is not loaded
    # A snippet in a folder of its own, with a long name: it wraps, the table does not widen.
    page.locator("table.verification-report td code").first.evaluate(
        "(c) => c.querySelector('span.pre').textContent = "
        "'a-folder-of-snippets/ii-3-b01-attention-by-hand-with-masks-and-more.py'")
    width = page.evaluate("""() => {
      const table = document.querySelector('table.verification-report');
      const box = table.parentElement, page = document.documentElement;
      return [table.getBoundingClientRect().right, box.scrollWidth - box.clientWidth,
              page.scrollWidth - page.clientWidth];
    }""")
    assert width[0] <= 1280
    assert width[1] <= 0, "the table scrolls inside its box"
    assert width[2] <= 0, "the page scrolls sideways"
    page.close()
