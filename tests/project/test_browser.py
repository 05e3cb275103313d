"""The II.3.B01 page in a real browser: headless Chromium from Debian, driven by Playwright.

Skips, saying why, only where Chromium or Playwright cannot be had; ``make test`` installs both.
A screenshot of the page is saved to ``tests/artifacts/`` for a person to look at.
"""

from __future__ import annotations

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


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real book, built and served on 127.0.0.1 for the length of the module."""
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1767225600"}
    command = [sys.executable, "-m", "sphinx", "-q", "-b", "html", "-c", str(PROJECT / "conf"),
               "-d", str(out / "doctrees"), str(PROJECT / "book"), str(out / "html")]
    subprocess.run(command, check=True, env=env, timeout=300)
    handler = functools.partial(_QuietHandler, directory=str(out / "html"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


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
