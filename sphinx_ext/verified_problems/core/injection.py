"""Printed digits put into the prose: ``\\val{NAME}`` in math, the ``{val}`` role in text.

An author who does not want to copy a snippet's digits by hand names the quantity instead, and
the build writes its printed value there, at the rounding policy's places (or at a format
given after a colon, ``p_1:.2f``, ``p_1:.1%``). Pure, like the rest of the core: it finds the
requests in a formula (:func:`find_requests`), reads a request's name by the prose's own name
rules (:func:`read_request`: ``\\vec{a}_1``, ``A_{12}``, ``\\alpha``, the book's macros) and
renders the printed value for math or text (:func:`render`), or says in words what is wrong.
Where an injection stands is kept, so a page's other numbers are still placed on the author's
lines (:func:`written_offset`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from .digits import Policy, Status, compare, to_decimal
from .latex import MacroDef
from .printed import element_of, flat_index, index_label, indices, resolve
from .prose import read_math
from .values import Entry, Transcript

#: The macro of math and the role of text that ask for a printed value.
VAL_MACRO = "val"

_MACRO = re.compile(r"\\val(?![A-Za-z])\s*")
#: A name as a snippet prints it, which LaTeX would read otherwise (``z_1_minus_max``).
_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_FORMAT = re.compile(r"\.(?P<places>\d{1,2})(?P<kind>[f%])")
_INTEGER = re.compile(r"-?\d+")


@dataclass(frozen=True)
class Occurrence:
    """A ``\\val{…}`` in a formula: where it stands (``start``/``end``, the macro and its
    braces) and its argument; ``problem`` says what is wrong with it (an unclosed brace)."""

    start: int
    end: int
    argument: str
    problem: str = ""


@dataclass(frozen=True)
class Request:
    """What an injection asks for: a printed quantity (or an element of one) and a format."""

    name: str  # normalised as the prose reader names it: p_1, A_12, a_1, alpha
    places: int | None = None  # None: the policy's
    percent: bool = False
    written: str = ""  # the argument as the author wrote it, for messages


@dataclass(frozen=True)
class InjectedCell:
    """One number an injection wrote: the quantity it is (``A[1,2]``) and its printed value."""

    name: str
    index: tuple[int, ...] | None
    printed: str
    places: int | None

    @property
    def label(self) -> str:
        """How reports and tooltips name it: ``A[1,2]``, ``p_1``."""
        return self.name + index_label(self.index)


@dataclass(frozen=True)
class Injection:
    """The text an injection puts in place of its request, and the numbers it holds."""

    text: str
    cells: tuple[InjectedCell, ...]
    #: Each cell's digits as they stand in ``text`` (its percent sign left out).
    digits: tuple[str, ...] = ()


def find_requests(latex: str) -> list[Occurrence]:
    """Every ``\\val{…}`` of a formula, in order (``\\value`` is another macro)."""
    found: list[Occurrence] = []
    for match in _MACRO.finditer(latex):
        if found and match.start() < found[-1].end:
            continue
        found.append(_occurrence(latex, match.start(), match.end()))
    return found


def _occurrence(latex: str, start: int, at: int) -> Occurrence:
    if latex[at:at + 1] != "{":
        return Occurrence(start, at, "", "\\val needs its name in braces: \\val{p_1}")
    depth = 0
    for position in range(at, len(latex)):
        depth += {"{": 1, "}": -1}.get(latex[position], 0)
        if depth == 0:
            return Occurrence(start, position + 1, latex[at + 1:position].strip())
    return Occurrence(start, len(latex), "", "\\val{ has no closing brace")


def read_request(argument: str, macros: Mapping[str, MacroDef]) -> Request | str:
    """A request's name (read as the prose reads names) and format; or what is wrong."""
    written, _, spec = argument.partition(":")
    request = Request("", written=argument.strip())
    if spec:
        found = _FORMAT.fullmatch(spec.strip())
        if found is None:
            return (f"{argument}: the format {spec.strip()!r} does not apply; write .Nf for N "
                    "decimal places or .N% for a percentage (p_1:.2f, p_1:.1%)")
        request = replace(request, places=int(found["places"]), percent=found["kind"] == "%")
    if not written.strip():
        return "\\val needs the name of a printed quantity: \\val{p_1}"
    extract = read_math(f"{written.strip()} = 0", macros)
    names = [name for value in extract.named for name in value.names]
    if not extract.problems and len(names) == 1:
        return replace(request, name=names[0])
    if _IDENTIFIER.fullmatch(written.strip()):  # the snippet's own name: z_1_minus_max, A_12
        return replace(request, name=written.strip())
    return (f"{written.strip()}: not a name the prose reader can read (such as p_1, "
            "A_{12}, \\vec{a}_1), nor a name as the snippet prints one (z_1_minus_max)")


def render_request(request: Request, transcript: Transcript, policy: Policy,
           math: bool) -> Injection | str:
    """The printed value a request names, written for math (``math``) or for text; or why it
    cannot be: an unknown name, an element outside the printed array, a value that has no
    digits at those places or no form in a sentence."""
    resolved = resolve(request.name, transcript.entries)
    if resolved is None:
        return _unknown(request, transcript)
    entry, index = resolved
    if index is not None:
        flat = flat_index(index, entry.shape)
        if flat is None:
            return (f"{request.written}: no such element, the printed {entry.name} is "
                    f"{_shape_text(entry.shape)}")
        return _rendered(request, entry, [(index, entry.values[flat])], (), policy, math)
    pairs = list(zip(indices(entry.shape), entry.values, strict=True))  # a scalar's is ()
    if len(entry.shape) > 1 and not math and 1 not in entry.shape:
        return (f"{request.written}: the printed {entry.name} is {_shape_text(entry.shape)}, "
                "which has no form in a sentence; inject it in math, or name one element")
    return _rendered(request, entry, pairs, entry.shape, policy, math)


def _unknown(request: Request, transcript: Transcript) -> str:
    element = element_of(request.name)
    if element is not None and element[0] in transcript.entries:
        entry = transcript.entries[element[0]]
        return (f"{request.written}: no such element, the printed {entry.name} is "
                f"{_shape_text(entry.shape)}")
    printed = ", ".join(transcript.entries) or "no named quantity"
    return (f"{request.written}: the snippet printed no {request.name} (it printed {printed});"
            " print it, or write the name it was printed under")


def _rendered(request: Request, entry: Entry, pairs: Sequence[tuple[tuple[int, ...] | None, str]],
              shape: tuple[int, ...], policy: Policy, math: bool) -> Injection | str:
    shown: list[str] = []
    digits: list[str] = []
    cells: list[InjectedCell] = []
    for index, printed in pairs:
        text = _digits(request, printed, policy)
        label = entry.name + index_label(index)
        if text.startswith("!"):
            return f"{request.written}: {label} is printed {printed}{text[1:]}"
        percent = ("\\%" if math else "%") if request.percent else ""
        shown.append(text + percent)
        digits.append(text)
        cells.append(InjectedCell(entry.name, index, printed, _places(request, text, policy)))
    return Injection(_layout(shown, shape, math), tuple(cells), tuple(digits))


def _places(request: Request, text: str, policy: Policy) -> int | None:
    """The places a number was injected at: none for a count written as printed."""
    if request.places is not None:
        return request.places
    return None if _INTEGER.fullmatch(text) else policy.decimals


def _digits(request: Request, printed: str, policy: Policy) -> str:
    """One printed number at the request's places, or ``!`` and why it has no such digits."""
    value = to_decimal(printed)
    if not value.is_finite():
        return "!, which has no digits to inject"
    if request.places is None and request.percent is False and _INTEGER.fullmatch(printed):
        return printed  # a count stays a count
    if request.percent:
        printed = f"{value.scaleb(2):f}"
    places = policy.decimals if request.places is None else request.places
    comparison = compare("0", printed, Policy(places, policy.rounding))
    if comparison.status is Status.AMBIGUOUS:
        return (f"!, an exact tie at {places} d.p.; print more digits so the rounding is "
                "decided")
    assert comparison.printed is not None  # a finite printed number always rounds
    return comparison.printed


def _layout(shown: list[str], shape: tuple[int, ...], math: bool) -> str:
    """Numbers as one value: a scalar, a tuple, a matrix (math) on the request's one line."""
    if not shape:
        return shown[0]
    if len(shape) == 1 or (not math and 1 in shape):  # a row or a column, in text: a tuple
        return (r"\left(" + r",\; ".join(shown) + r"\right)") if math else \
            "(" + ", ".join(shown) + ")"
    columns = shape[1]
    rows = [" & ".join(shown[r:r + columns]) for r in range(0, len(shown), columns)]
    return r"\begin{bmatrix} " + r" \\ ".join(rows) + r" \end{bmatrix}"


def _shape_text(shape: tuple[int, ...]) -> str:
    return "a scalar" if not shape else "×".join(str(n) for n in shape)


def written_offset(spans: Sequence[tuple[int, int, int, int]], offset: int) -> int:
    """Where an offset into a formula with its injections made stood in the formula as
    written: ``spans`` are each injection's (start, end) now and (start, end) as written, in
    order; an offset inside an injection stands at its ``\\val``."""
    shift = 0
    for start, end, old_start, old_end in spans:
        if offset < start:
            break
        if offset < end:
            return old_start
        shift = old_end - end
    return offset + shift


__all__ = [
    "VAL_MACRO",
    "InjectedCell",
    "Injection",
    "Occurrence",
    "Request",
    "find_requests",
    "read_request",
    "render_request",
    "written_offset",
]
