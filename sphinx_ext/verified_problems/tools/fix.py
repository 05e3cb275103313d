"""``verified-fix``: rewrite the prose digits of named entries to what the snippets printed.

The snapshot-update workflow (syrupy's ``--snapshot-update``, insta's review, cog's ``--check``)
for a book: the build says which digits diverge; this command puts the printed digits in their
place — exactly those characters, nothing else of the file — and shows the diff. A free digit
cannot be placed with certainty (which printed number did the author mean?), so it is listed,
never guessed. Each file is written atomically and only if it did not change since it was read.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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


def plan(report: dict[str, Any], srcdir: Path) -> tuple[list[Edit], list[Unfixable]]:
    """Split the report's divergences into edits to make and divergences to list."""
    edits: list[Edit] = []
    unfixable: list[Unfixable] = []
    for page in report["pages"]:
        path = srcdir / page["source"]
        for number in page["numbers"]:
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
    misplaced: list[Edit] = []
    for edit in sorted(edits, key=lambda e: (e.line, e.column), reverse=True):
        index = edit.line - 1
        if not 0 <= index < len(lines):
            misplaced.append(edit)
            continue
        line = lines[index]
        if line[edit.column : edit.column + len(edit.old)] != edit.old:
            misplaced.append(edit)
            continue
        lines[index] = line[: edit.column] + edit.new + line[edit.column + len(edit.old) :]
    return "\n".join(lines), misplaced


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``verified-fix``: 0 when nothing is left to fix; 1 when a divergence is
    left for a person (or, with ``--check``, when a digit would change); 2 when the check build
    cannot be run."""
    args = _parser().parse_args(argv)
    report = checked_report("verified-fix", args)
    if report is None:
        return 2
    edits, unfixable = plan(report, args.source)
    by_file: dict[Path, list[Edit]] = defaultdict(list)
    for edit in edits:
        by_file[edit.path].append(edit)
    changed = 0
    try:
        for path, file_edits in sorted(by_file.items()):
            changed += _fix_file(path, file_edits, write=not (args.check or args.diff))
    except (FileChanged, OSError) as error:
        sys.stderr.write(f"verified-fix: {error}\n")
        return 1
    for item in unfixable:
        print(f"{item.path}:{item.line}: not fixed, correct it by hand: {item.message}")
    if args.check:
        return 1 if changed else 0
    verb = "would change" if args.diff else "changed"
    print(f"verified-fix: {changed} digits {verb}, {len(unfixable)} listed for a person to fix")
    return 1 if unfixable else 0


def _fix_file(path: Path, edits: list[Edit], write: bool) -> int:
    original = path.read_bytes()
    text = original.decode("utf-8")
    new_text, misplaced = apply(text, edits)
    for edit in misplaced:
        print(f"{path}:{edit.line}: not fixed, {edit.old!r} is no longer at column "
              f"{edit.column}; rebuild and run the fix again")
    if new_text == text:
        return 0
    show_diff(path, text, new_text)
    if write:
        write_atomically(path, original, new_text)
    return len(edits) - len(misplaced)


def _parser() -> argparse.ArgumentParser:
    return tool_parser(
        "verified-fix",
        "Rewrite diverging named and bound digits in the book's MyST sources to the printed "
        "digits, showing a unified diff. Exit status: 0 nothing is left to fix, 1 something "
        "is left for a person (or would change, with --check), 2 the check build could not "
        "run.",
        "a digit would change")


if __name__ == "__main__":
    raise SystemExit(main())
