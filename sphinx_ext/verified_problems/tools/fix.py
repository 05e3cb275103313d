"""``verified-fix``: rewrite the prose digits of named entries to what the snippets printed.

The snapshot-update workflow (syrupy's ``--snapshot-update``, insta's review, cog's ``--check``)
for a book: the build says which digits diverge; this command puts the printed digits in their
place — exactly those characters, nothing else of the file — and shows the diff. A free digit
cannot be placed with certainty (which printed number did the author mean?), so it is listed,
never guessed. Each file is written atomically and only if it did not change since it was read.

With ``--inject`` it turns each hand-written named decimal into a request for the printed
value instead (``p_1 = 0.2689`` becomes ``p_1 = \\val{p_1}``, see :mod:`.injection`), for
authors who prefer the build to write those digits.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core import LayoutError, edit_cells, edit_lines, index_label, located, read_request
from ..sphinx_shell.records import SNIPPET_FAILED
from .check_run import FileChanged, checked_report, show_diff, tool_parser, write_atomically
from .reports import NUMBER_SUBTYPES


@dataclass(frozen=True)
class Edit:
    """Replace ``old`` at a line and column of a file by ``new``."""

    path: Path
    line: int  # 1-based
    column: int  # 0-based
    old: str
    new: str
    label: str


@dataclass(frozen=True)
class Unfixable:
    """A divergence this command will not touch, with the reason."""

    path: Path
    line: int | None
    message: str


def plan(report: dict[str, Any], srcdir: Path,
         inject: bool = False) -> tuple[list[Edit], list[Unfixable]]:
    """Split the report's divergences into edits to make and divergences to list; with
    ``inject``, each named decimal is made an injection instead (right or wrong)."""
    edits: list[Edit] = []
    unfixable: list[Unfixable] = []
    for page in report["pages"]:
        path = srcdir / page["source"]
        injected = injections(path, page["numbers"]) if inject else {}
        edits += injected.values()
        for number in page["numbers"]:
            if (number["line"], number["column"]) in injected:
                continue
            if number["status"] in ("match", "exempt", SNIPPET_FAILED):
                continue  # a failed snippet's numbers: its own error is listed, below
            fixable = (
                number["kind"] in ("named", "bound", "given")
                and number["status"] == "diverge"
                and number["printed"] is not None
                and number["column"] is not None
                and number["line"] is not None
            )
            if fixable:
                edits.append(Edit(path, number["line"], number["column"], number["prose"],
                                  number["printed"], number["message"]))
            else:
                unfixable.append(Unfixable(path, number["line"], number["message"]))
        for finding in page["findings"]:  # errors no number carries: arithmetic, scope, …
            if finding["error"] and finding["subtype"] not in NUMBER_SUBTYPES:
                unfixable.append(Unfixable(path, finding["line"], finding["message"]))
    return _one_per_place(edits, unfixable)


def injections(path: Path, numbers: list[dict[str, Any]]) -> dict[tuple[int, int], Edit]:
    """An edit for each named decimal of a page that a ``\\val`` can ask for, by its line and
    column: the request keeps the digits' look (``0.5`` is ``\\val{q:.1f}`` where the policy
    shows four places, ``82.47\\%`` is ``\\val{r:.2%}``)."""
    lines = path.read_text(encoding="utf-8").split("\n") if numbers else []
    found: dict[tuple[int, int], Edit] = {}
    for number in numbers:
        where = (number["line"], number["column"])
        if number["kind"] != "named" or None in where or "." not in number["prose"] \
                or where in found or number["status"] == SNIPPET_FAILED:
            continue
        name = _request_name(number["name"], number["index"])
        line = lines[where[0] - 1] if 0 < where[0] <= len(lines) else ""
        if name is None or line[where[1]:where[1] + len(number["prose"])] != number["prose"]:
            continue
        percent = _PERCENT.match(line, where[1] + len(number["prose"]))
        own = len(number["prose"].partition(".")[2])
        spec = f":.{own}%" if percent else "" if own == number["places"] else f":.{own}f"
        old = number["prose"] + (percent.group() if percent else "")
        label = number["name"] + index_label(number["index"])
        found[where] = Edit(path, where[0], where[1], old, f"\\val{{{name}{spec}}}",
                            f"{label}: injected")
    return found


_PERCENT = re.compile(r"\s*\\%")


def _request_name(name: str, index: list[int] | None) -> str | None:
    """How a ``\\val`` names a printed quantity or element so that the prose reader reads it
    back as that one (``A_{12}``, ``x_{10,2}``, ``\\alpha``); None if no way is found."""
    wanted = name + ("_" + ",".join(map(str, index)) if index else "")
    digits = "".join(map(str, index or ()))
    subscript = "" if not index else \
        f"_{{{digits}}}" if all(i < 10 for i in index) else f"_{{{','.join(map(str, index))}}}"
    for base in (name, f"\\{name}"):
        request = read_request(base + subscript, {})
        if not isinstance(request, str) and request.name in (wanted, name + "_" + digits):
            return base + subscript
    return None


def _one_per_place(
    edits: list[Edit], unfixable: list[Unfixable]
) -> tuple[list[Edit], list[Unfixable]]:
    """One edit per digit: a cell named twice (``Q = K = …``) is fixed once if both agree."""
    by_place: dict[tuple[Path, int, int], list[Edit]] = defaultdict(list)
    for edit in edits:
        by_place[(edit.path, edit.line, edit.column)].append(edit)
    kept: list[Edit] = []
    for (path, line, _column), same in by_place.items():
        if len({e.new for e in same}) == 1:
            kept.append(same[0])
        else:
            printed = " or ".join(sorted({e.new for e in same}))
            unfixable.append(Unfixable(path, line, f"{same[0].old}: the quantities named here "
                                                   f"printed different digits ({printed})"))
    return kept, unfixable


def apply(text: str, edits: list[Edit]) -> tuple[str, list[Edit]]:
    """The text with the edits made; edits whose old digits are not where expected are returned.

    Line endings are kept: the text is split with them and joined back unchanged.
    """
    lines = text.split("\n")  # as MyST counts lines; a "\r" stays at its line's end
    misplaced = edit_lines(lines, edits)
    return "\n".join(lines), misplaced


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``verified-fix``: 0 when nothing is left to fix; 1 when a divergence is
    left for a person (or, with ``--check``, when a digit would change); 2 when the check build
    cannot be run."""
    args = _parser().parse_args(argv)
    report = checked_report("verified-fix", args)
    if report is None:
        return 2
    edits, unfixable = plan(report, args.source, inject=args.inject)
    by_file: dict[Path, list[Edit]] = defaultdict(list)
    for edit in edits:
        by_file[edit.path].append(edit)
    changed = 0
    try:
        for path, file_edits in sorted(by_file.items()):
            try:
                changed += _fix_file(path, file_edits, write=not (args.check or args.diff))
            except LayoutError as error:
                unfixable.append(Unfixable(path, None, f"{len(file_edits)} digits of this "
                                                       f"notebook were not fixed: {error}"))
    except (FileChanged, OSError) as error:
        sys.stderr.write(f"verified-fix: {error}\n")
        return 1
    for item in unfixable:
        print(f"{located(str(item.path), item.line)}: not fixed, correct it by hand: "
              f"{item.message}")
    if args.check:
        return 1 if changed else 0
    verb = "would change" if args.diff else "changed"
    print(f"verified-fix: {changed} digits {verb}, {len(unfixable)} listed for a person to fix")
    return 1 if unfixable else 0


def _fix_file(path: Path, edits: list[Edit], write: bool) -> int:
    original = path.read_bytes()
    text = original.decode("utf-8")
    new_text, misplaced = _edited(path, text, edits)
    for edit in misplaced:
        print(f"{located(str(path), edit.line)}: not fixed, {edit.old!r} is no longer at "
              f"column {edit.column}; rebuild and run the fix again")
    if new_text == text:
        return 0
    show_diff(path, text, new_text)
    if write:
        write_atomically(path, original, new_text)
    return len(edits) - len(misplaced)


def _edited(path: Path, text: str, edits: list[Edit]) -> tuple[str, list[Edit]]:
    """The file's text with the edits made: a notebook's in its cells' JSON, exactly (or a
    :class:`LayoutError` if that cannot be done without changing anything else)."""
    return apply(text, edits) if path.suffix != ".ipynb" else edit_cells(text, edits)


def _parser() -> argparse.ArgumentParser:
    parser = tool_parser(
        "verified-fix",
        "Rewrite diverging named and bound digits in the book's MyST sources to the printed "
        "digits, showing a unified diff. Exit status: 0 nothing is left to fix, 1 something "
        "is left for a person (or would change, with --check), 2 the check build could not "
        "run.",
        "a digit would change")
    parser.add_argument("--inject", action="store_true",
                        help="turn each named decimal of the math into \\val{NAME}, so that "
                             "the build writes the printed digits there")
    return parser


if __name__ == "__main__":
    raise SystemExit(main())
