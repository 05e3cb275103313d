"""``verified-bind``: record which printed quantity each free digit of the book quotes.

A free digit (a decimal the prose neither names nor derives) passes only if it equals the one
quantity its binding names (DESIGN §3, *Bound*), so a digit later changed into *another*
printed number fails at its line. This command writes those bindings while the pages are
right, one record a page (``<source>/_bindings/<page>.json``, one binding a line), and shows
the diff: review it and commit it with the page, as a snapshot file is committed.

Each digit is bound to the quantities its digits match (quantities printed with exactly the
same value are one group: ``a_1[1] = A[1,1]``). A digit that matches several different values
is never bound by a guess: ``--choose PAGE:LINE=QUANTITY`` (or an answer at the prompt, when
run in a terminal) says which; until then the record keeps the candidates in ``choose`` and the
build says so. A binding that still holds is kept as it is; a digit that now equals other
quantities is bound again to them (the page now means another quantity) and said so.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..core import Binding, RecordError, located, read_location, read_record, write_record
from ..sphinx_shell.records import SNIPPET_FAILED
from .check_run import FileChanged, checked_report, show_diff, tool_parser, write_atomically

#: The kinds of number a record binds: free digits (and digits given by the source).
BOUND_KINDS = ("free", "bound", "given")


@dataclass
class PagePlan:
    """A page's new record, and what a person must still decide or fix."""

    path: Path
    source: str
    bindings: list[Binding] = field(default_factory=list)
    said: list[str] = field(default_factory=list)
    open: int = 0


@dataclass(frozen=True)
class Choice:
    """``--choose PAGE:LINE=QUANTITY``: the quantity the digits of a line quote."""

    page: str
    line: int
    quantity: str

    @classmethod
    def parse(cls, text: str) -> Choice:
        """Read ``problems/a.md:92=E[1,2]``; ValueError says what is wrong."""
        where, equals, quantity = text.partition("=")
        location = read_location(where)
        if not (equals and location and quantity.strip()):
            raise ValueError(f"--choose {text!r}: write PAGE:LINE=QUANTITY, e.g. "
                             "problems/a.md:92=E[1,2] (in an .ipynb, PAGE:cell N, line K)")
        return cls(location[0], location[1], quantity.strip())

    def applies(self, source: str, line: int | None) -> bool:
        """Whether this choice is for a digit on this line of this page."""
        return line == self.line and (source == self.page or source.endswith("/" + self.page)
                                      or self.page.endswith("/" + source))


Ask = Callable[[str, list[tuple[str, str]]], str | None]


def plan_page(page: dict[str, Any], srcdir: Path, choices: list[Choice],
              ask: Ask | None) -> PagePlan | None:
    """The record a page should have, from the check's verdicts on its free digits."""
    numbers = [n for n in page["numbers"] if n["kind"] in BOUND_KINDS and n["snippet"]]
    if not page.get("bindings"):
        return None
    if any(n["status"] == SNIPPET_FAILED for n in page["numbers"]):
        print(f"{page['source']}: a snippet of this page failed; its record is left as it is")
        return None
    plan = PagePlan(srcdir / page["bindings"], page["source"])
    for number in numbers:
        binding = _decide(number, plan, choices, ask)
        if binding is not None:
            plan.bindings.append(binding)
    return plan


def _decide(number: dict[str, Any], plan: PagePlan, choices: list[Choice],
            ask: Ask | None) -> Binding | None:
    where = located(plan.source, number["line"])
    candidates = [tuple(c) for c in number["candidates"]]
    base = Binding(number["snippet"], number["context"], number["near"], number["prose"], None)
    if number["status"] == "match" and number["bound"]:
        return replace(base, bound=number["bound"], printed=_value(number["bound"], candidates))
    if not candidates:
        if number["bound"] and number["printed"] is not None:
            # a wrong digit: keep its binding, for make fix to rewrite it
            plan.said.append(f"{where}: {number['prose']} differs from its binding "
                             f"{number['bound']}: make fix rewrites it")
            plan.open += 1
            return replace(base, bound=number["bound"])
        if number["bound"]:  # what it was bound to is printed no more, and nothing else is it
            plan.said.append(f"{where}: {number['prose']} was bound to {number['bound']}, "
                             "which the snippet no longer prints: binding dropped")
            plan.open += 1
        return None
    chosen = _chosen(number, plan.source, candidates, choices, ask)
    if chosen is None:
        plan.said.append(f"{where}: {number['prose']} matches {_listed(candidates)}; choose "
                         f"one: --choose {shlex.quote(where + '=QUANTITY')}")
        plan.open += 1
        return replace(base, choose=tuple(label for label, _ in candidates))
    if number["bound"] and number["bound"] != chosen[0]:
        plan.said.append(f"{where}: {number['prose']} was bound to {number['bound']}, now to "
                         f"{chosen[0]}")
    return replace(base, bound=chosen[0], printed=chosen[1])


def _chosen(number: dict[str, Any], source: str, candidates: list[tuple[str, str]],
            choices: list[Choice], ask: Ask | None) -> tuple[str, str] | None:
    if len(candidates) == 1:
        return candidates[0]
    for choice in choices:
        if choice.applies(source, number["line"]):
            found = _among(choice.quantity, candidates)
            if found is not None:
                return found
    if ask is not None:
        answer = ask(f"{located(source, number['line'])}: {number['prose']}", candidates)
        return None if answer is None else _among(answer, candidates)
    return None


def _among(quantity: str, candidates: list[tuple[str, str]]) -> tuple[str, str] | None:
    """A candidate group by its label, or one quantity of a group (its binding narrowed)."""
    for label, value in candidates:
        if quantity == label or quantity in label.split(" = "):
            return quantity, value
    return None


def _value(label: str, candidates: list[tuple[str, str]]) -> str:
    return next((value for group, value in candidates if label in (group, *group.split(" = "))),
                "")


def _listed(candidates: list[tuple[str, str]]) -> str:
    return ", ".join(f"{label} ({value})" for label, value in candidates)


def prompt(where: str, candidates: list[tuple[str, str]]) -> str | None:
    """Ask a person at a terminal which quantity a digit quotes; None to leave it open."""
    print(f"{where} matches several printed quantities:")
    for n, (label, value) in enumerate(candidates, start=1):
        print(f"  {n}. {label}  (printed {value})")
    answer = input("  which one? (number, or empty to decide later) ").strip()
    if answer.isdigit() and 1 <= int(answer) <= len(candidates):
        return candidates[int(answer) - 1][0]
    return None


def record_text(plan: PagePlan) -> str | None:
    """The record's new text; None when the page has no free digit (no record is kept)."""
    if not plan.bindings:
        return None
    about = (f"Bindings of the free digits of {plan.source}, written by make bind (verified-"
             "bind): review the diff and commit it with the page.")
    return write_record(plan.bindings, about)


def write_plan(plan: PagePlan, write: bool) -> bool:
    """Show the record's diff and write it (or remove it); whether it changes."""
    original = plan.path.read_bytes() if plan.path.exists() else None
    old = "" if original is None else original.decode("utf-8")
    new = record_text(plan)
    if (new or "") == old:
        return False
    show_diff(plan.path, old, new or "")
    if write and new is None:
        plan.path.unlink()
    elif write and new is not None:
        write_atomically(plan.path, original, new)
    return True


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``verified-bind``: 0 when every free digit is bound; 1 when a choice or
    a wrong digit is left for a person (or, with ``--check``, when a record would change); 2
    when the check build cannot run."""
    args = _parser().parse_args(argv)
    try:
        choices = [Choice.parse(text) for text in args.choose]
    except ValueError as error:
        sys.stderr.write(f"verified-bind: {error}\n")
        return 2
    report = checked_report("verified-bind", args)
    if report is None:
        return 2
    ask = prompt if args.ask or (args.ask is None and sys.stdin.isatty()) else None
    return _bind(report, args, choices, ask)


def _bind(report: dict[str, Any], args: argparse.Namespace, choices: list[Choice],
          ask: Ask | None) -> int:
    plans = [plan for page in report["pages"]
             if (plan := plan_page(page, args.source, choices, ask)) is not None]
    try:
        _check_records(plans)
        changed = sum(write_plan(plan, write=not (args.check or args.diff)) for plan in plans)
    except (FileChanged, OSError, RecordError) as error:
        sys.stderr.write(f"verified-bind: {error}\n")
        return 1
    for said in (line for plan in plans for line in plan.said):
        print(said)
    left = sum(plan.open for plan in plans)
    bound = sum(len(plan.bindings) for plan in plans) - left
    if args.check:
        return 1 if changed else 0
    verb = "would change" if args.diff else "changed"
    print(f"verified-bind: {bound} free digits bound, {changed} records {verb}, {left} left "
          "for a person")
    return 1 if left else 0


def _check_records(plans: Iterable[PagePlan]) -> None:
    """Refuse to overwrite a record that cannot be read: a person may be editing it."""
    for plan in plans:
        if plan.path.exists():
            try:
                read_record(plan.path.read_text(encoding="utf-8"))
            except RecordError as error:
                raise RecordError(f"{plan.path}: {error}; fix or remove it first") from None


def _parser() -> argparse.ArgumentParser:
    parser = tool_parser(
        "verified-bind",
        "Record which printed quantity each free digit of the book quotes, in one binding "
        "record a page, showing the diff. Exit status: 0 every free digit is bound, 1 "
        "something is left for a person (or would change, with --check), 2 the check build "
        "could not run.",
        "a record would change")
    parser.add_argument("--choose", action="append", default=[], metavar="PAGE:LINE=QUANTITY",
                        help="the quantity the digits of a line quote where several match "
                             "(repeatable), e.g. problems/a.md:92=E[1,2]")
    parser.add_argument("--ask", action=argparse.BooleanOptionalAction, default=None,
                        help="ask at the terminal where several quantities match (default: "
                             "when run in a terminal)")
    return parser


if __name__ == "__main__":
    raise SystemExit(main())
