"""A check-numeric the author got wrong fails the build with one located error each.

docutils would only warn and drop a bad option, or skip a directive with no path, and the
page's digits would then go unchecked while the build passed: these are errors of our own.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support import strip_escape_sequences

PAGE = (
    "# Options\n\nThe largest weight is 0.6652.\n\n:::{{check-numeric}}{argument}\n"
    "{options}:::\n"
)


def _errors(app: Any) -> list[str]:
    text = strip_escape_sequences(app._warning.getvalue())
    return [line.split("index.md:", 1)[1] for line in text.splitlines() if "ERROR" in line]


@pytest.mark.parametrize(
    ("argument", "options", "expected"),
    [
        ("", "", ["5: ERROR: check-numeric names no snippet; write the file name after the "
                  "directive, as in ':::{check-numeric} ii-3-b01-attention-by-hand.py' "
                  "(only on a notebook page, MyST-NB's, does it check the page's own cells) "
                  "[verified.snippet-path]"]),
        (" softmax.py", ":scope: chapter\n",
         ["5: ERROR: check-numeric softmax.py: :scope: is 'chapter'; write 'page' (the default) "
          "or 'section' [verified.option]"]),
        (" softmax.py", ":timeout: soon\n",
         ["5: ERROR: check-numeric softmax.py: :timeout: is 'soon'; write a positive number of "
          "seconds [verified.option]"]),
        (" softmax.py", ":decimals: -1\n",
         ["5: ERROR: check-numeric softmax.py: :decimals: is '-1'; write a whole number from 0 "
          "to 30 [verified.option]"]),
    ],
)
def test_a_wrong_directive_is_an_error(
    copy_root: Callable[[str], Path], build: Callable[..., Any],
    argument: str, options: str, expected: list[str],
) -> None:
    srcdir = copy_root("plain")
    (srcdir / "index.md").write_text(PAGE.format(argument=argument, options=options),
                                     encoding="utf-8")
    app = build(srcdir)
    assert app.statuscode == 1
    assert _errors(app) == expected


def test_good_options_are_taken(
    copy_root: Callable[[str], Path], build: Callable[..., Any]
) -> None:
    srcdir = copy_root("plain")
    options = ":scope: page\n:timeout: 5\n:decimals: 4\n"
    (srcdir / "index.md").write_text(PAGE.format(argument=" softmax.py", options=options),
                                     encoding="utf-8")
    app = build(srcdir)
    assert app.statuscode == 0, app._warning.getvalue()
