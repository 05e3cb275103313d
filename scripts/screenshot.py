"""The README's picture: the top of problem II.3.B01 as a reader sees it, in headless Chromium.

Usage: ``python scripts/screenshot.py HTML_DIR OUT.png`` after ``make html`` (HTML_DIR is
``_build/html``). It serves the folder on 127.0.0.1, waits for MathJax and saves one screen.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import shutil
import threading
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

PAGE = "problems/ii-3-b01-attention-by-hand.html"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def main() -> None:
    """Serve the built book and save a screenshot of the page's first screen."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("html", type=Path)
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    handler = functools.partial(_Quiet, directory=str(args.html))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=ARGS)
            page = browser.new_page(viewport={"width": 1100, "height": 820})
            page.goto(f"http://127.0.0.1:{server.server_address[1]}/{PAGE}")
            page.wait_for_function("() => window.MathJax && MathJax.startup")
            page.evaluate("() => MathJax.startup.promise")
            page.screenshot(path=str(args.out))
            browser.close()
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
