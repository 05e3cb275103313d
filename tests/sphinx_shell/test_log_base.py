"""``verified_log_base``: what a bare ``\\log`` means in a book's arithmetic, set once.

Books differ: many write ``\\log`` for the natural logarithm, information theory books for
base 2. The prose's arithmetic follows the book's setting; ``\\ln``, ``\\lg`` and ``\\log_b``
mean what they say whatever it is.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support import build_root, no_traceback, sphinx_build

PAGE = """# Entropy

A fair coin carries $H = -2 \\cdot 0.5 \\log 0.5 = 1$ bit, and a fair die
$\\log 6 = 2.585$ bits, where $\\ln 6 = 1.7918$.

:::{check-numeric} entropy.py
:::
"""
SNIPPET = (
    'print("p =", 0.5)\nprint("H =", 1.0)\nprint("log2_6 =", 2.584962500721156)\n'
    'print("ln_6 =", 1.791759)\n'
)


def _book(root: Path, setting: str) -> Path:
    (root / "snippets").mkdir(parents=True)
    (root / "snippets" / "entropy.py").write_text(SNIPPET, encoding="utf-8")
    (root / "index.md").write_text(PAGE, encoding="utf-8")
    (root / "conf.py").write_text(
        'extensions = ["myst_parser", "verified_problems"]\n'
        'myst_enable_extensions = ["dollarmath", "colon_fence"]\n'
        'verified_unbound = "allow"\n'
        f'verified_snippet_dir = "snippets"\nexclude_patterns = ["_build"]\n{setting}\n',
        encoding="utf-8")
    return root


def test_a_book_of_base_two_logarithms_builds_clean(tmp_path: Path) -> None:
    result = build_root(_book(tmp_path / "book", "verified_log_base = 2"))
    assert result.statuscode == 0, result.warning
    no_traceback(result)


def test_the_same_page_under_natural_logarithms_fails_where_it_says_log(tmp_path: Path) -> None:
    result = build_root(_book(tmp_path / "book", ""))
    assert result.statuscode == 1
    errors = [line for line in result.messages() if "ERROR" in line]
    assert errors == [  # (H's 1 claims 1.0000, as the policy pads it: it is 0.6931)
        "index.md:3: ERROR: the arithmetic does not hold: -2 \\cdot 0.5 \\log 0.5 is 0.6931, "
        "not 1 (Entropy) [verified.arithmetic]",
        "index.md:4: ERROR: the arithmetic does not hold: \\log 6 is 1.7918, not 2.585 (Entropy)"
        " [verified.arithmetic]",
    ]


@pytest.mark.parametrize(("value", "shown"), [('"two"', "'two'"), ("3", "3"), ("True", "True")])
def test_another_base_is_one_message_without_traceback(
    tmp_path: Path, value: str, shown: str
) -> None:
    root = _book(tmp_path / "book", f"verified_log_base = {value}")
    done = sphinx_build(root)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr + done.stdout
    assert [line for line in done.stderr.splitlines() if line] == [
        f"{root}/conf.py:6: ERROR: verified_log_base must be 'e', 2 or 10, not {shown}"
        " (set it in conf.py) [verified.config]"
    ]
