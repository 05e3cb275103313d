"""``verified-new-problem``: a new problem page and its snippet, already building and checking.

The page has every section of the seed problem in place, a named value and a free digit that
the snippet prints, so ``make check`` passes before the author has written a word.
"""

from __future__ import annotations

import argparse
import re
import runpy
import sys
from pathlib import Path

from ..sphinx_shell.problems import ID_PATTERN

PAGE = """\
# {title}

:::{{problem}} {problem_id}
:kind: numeric
:difficulty: 1
:::

## Statement

State the problem in a sentence or two.

## Given

$$
\\vec{{x}} = (1,\\; 2,\\; 4)
$$

## Find

The mean $m$ of the entries of $\\vec{{x}}$.

## Strategy

Name each intermediate, so a wrong digit can be traced to the step that produced it.

## Solution

### Step 1 — the sum

The entries add to $7$; there are $3$ of them, so $7 / 3 = 2.3333$ and

$$
m = 2.3333 .
$$

## Answer

$$
m = 2.3333
$$

## Check — numeric

:::{{check-numeric}} {snippet}
:::

## Check — sanity

The mean lies between the smallest entry and the largest.

## Where this breaks

Say where the method stops working.

## Variation

Ask the reader to change one given and predict the effect.

## Draws on

- {{ref}}`The Apparatus <apparatus>` — the notation and the rounding policy.
"""

SNIPPET = '''\
"""{problem_id} — {title}: prints every quantity the page quotes, as NAME = VALUE."""

import numpy as np

x = np.array([1, 2, 4])
m = x.mean()

print("x =", x)
print("m =", m)
'''


#: A page's problem header, ``:::{problem} II.3.B01`` (or in a backtick fence): the id declared.
_DECLARATION = re.compile(r"^[ \t]*(?::{3,}|`{3,})\{problem\}[ \t]+(\S+)[ \t]*$", re.MULTILINE)


#: A backtick or tilde fence: its characters, and whether a ``{directive}`` follows them.
_FENCE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})[ \t]*(?P<rest>.*)$")


def declared_in(book: Path, problem_id: str) -> Path | None:
    """The page of the book that already declares this id, if one does.

    A declaration shown inside a code block (a page that documents the syntax) declares
    nothing.
    """
    for page in sorted(book.rglob("*.md")):
        text = _without_code(page.read_text(encoding="utf-8", errors="replace"))
        if problem_id in _DECLARATION.findall(text):
            return page
    return None


def _without_code(text: str) -> str:
    """``text`` with the lines inside its literal fenced blocks left out (directive fences,
    ```` ```{problem} ````, keep their content)."""
    kept: list[str] = []
    open_fences: list[tuple[str, bool]] = []  # (fence, literal), innermost last
    for line in text.split("\n"):
        found = _FENCE.match(line)
        if found and open_fences and _closes(found, open_fences[-1][0]):
            open_fences.pop()
        elif open_fences and open_fences[-1][1]:
            continue  # a line of code
        elif found:
            open_fences.append((found["fence"], not found["rest"].startswith("{")))
        if not (open_fences and open_fences[-1][1]):
            kept.append(line)
    return "\n".join(kept)


def _closes(found: re.Match[str], fence: str) -> bool:
    """Whether a fence line closes an open ``fence``: the same character, as long, alone."""
    return (not found["rest"] and found["fence"][0] == fence[0]
            and len(found["fence"]) >= len(fence))


def slug(problem_id: str, title: str) -> str:
    """A file name from the id and the title: ``II.3.B02`` + "Masked attention" → ``ii-3-b02-…``."""
    words = re.sub(r"[^a-z0-9]+", "-", f"{problem_id} {title}".lower()).strip("-")
    return words[:60].rstrip("-")


def create(book: Path, snippets: Path, problem_id: str, title: str) -> tuple[Path, Path]:
    """Write the page and the snippet; refuse to overwrite anything or to reuse an id."""
    if not ID_PATTERN.fullmatch(problem_id):
        raise ValueError(f"{problem_id!r} is not a problem id; use e.g. II.3.B02 or 0.NU.03")
    if not title.strip():
        raise ValueError("the title is empty")
    name = slug(problem_id, title)
    page = book / "problems" / f"{name}.md"
    snippet = snippets / f"{name}.py"
    for path in (page, snippet):
        if path.exists():
            raise FileExistsError(f"{path} exists already; choose another id or title")
    declared = declared_in(book, problem_id)
    if declared is not None:
        raise ValueError(f"{problem_id} is already declared in {declared}; choose another id")
    page.parent.mkdir(parents=True, exist_ok=True)
    snippet.parent.mkdir(parents=True, exist_ok=True)
    values = {"problem_id": problem_id, "title": title.strip(), "snippet": snippet.name}
    page.write_text(PAGE.format(**values), encoding="utf-8")
    snippet.write_text(SNIPPET.format(**values), encoding="utf-8")
    return page, snippet


def snippet_dir(confdir: Path) -> Path:
    """The snippet folder a project's ``conf.py`` names (``verified_snippet_dir``, relative to
    it), or ``scripts/snippets`` when there is no ``conf.py`` there or it names none."""
    conf = confdir / "conf.py"
    if not conf.is_file():
        return Path("scripts/snippets")
    try:
        namespace = runpy.run_path(str(conf))
    except Exception as error:  # an author's conf.py: say what failed, not where in us
        raise ValueError(f"{conf} could not be read ({type(error).__name__}: {error}); "
                         "give the snippet folder with --snippets") from None
    written = namespace.get("verified_snippet_dir")
    return confdir / written if isinstance(written, str) else Path("scripts/snippets")


def main(argv: list[str] | None = None) -> int:
    """Entry point: ``verified-new-problem II.3.B02 "Masked attention"``."""
    parser = argparse.ArgumentParser(prog="verified-new-problem", description=__doc__)
    parser.add_argument("problem_id", help="the problem's id, e.g. II.3.B02")
    parser.add_argument("title", help="the problem's title")
    parser.add_argument("--book", type=Path, default=Path("book"),
                        help="the source folder (default: book)")
    parser.add_argument("--conf", type=Path, default=None,
                        help="the folder of conf.py, for its verified_snippet_dir (default: the "
                             "source folder, as sphinx-build's -c)")
    parser.add_argument("--snippets", type=Path, default=None,
                        help="the snippet folder (default: conf.py's verified_snippet_dir, "
                             "else scripts/snippets)")
    args = parser.parse_args(argv)
    try:
        snippets = args.snippets or snippet_dir(args.conf or args.book)
        page, snippet = create(args.book, snippets, args.problem_id, args.title)
    except (ValueError, FileExistsError) as err:
        print(f"verified-new-problem: {err}", file=sys.stderr)
        return 2
    print(f"created {page}\ncreated {snippet}\nnext: make check (or sphinx-build -b verify)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
