"""Every message the extension prints: one enum of subtypes, one way to log them.

Each warning carries ``type="verified"`` and a subtype from :class:`Subtype`, so an author can
silence an advisory one with ``suppress_warnings = ["verified.precision"]``. Errors (divergences,
snippet failures, malformed input) fail the build whether or not their message is shown: the
end-of-build verdict counts them from the environment, not from the log.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from sphinx.util import logging

from ..core import located

logger = logging.getLogger("verified_problems")

TYPE = "verified"


class Subtype(StrEnum):
    """What went wrong; the ``verified.<subtype>`` an author can name in ``suppress_warnings``."""

    #: A prose digit differs from the digit the snippet printed.
    DIVERGENCE = "divergence"
    #: An equation of written numbers does not hold (``0.4011 + 0.1978 = 0.5990``).
    ARITHMETIC = "arithmetic"
    #: A free digit bound to no printed quantity (run ``make bind``), or whose binding still
    #: waits for a person's choice among several quantities.
    UNBOUND = "unbound"
    #: A page's binding record cannot be read.
    BINDING = "binding"
    #: The printed number is an exact tie at the comparison precision: print more digits.
    AMBIGUOUS = "ambiguous"
    #: A named value in the prose has another shape than the printed quantity.
    SHAPE = "shape"
    #: An element reference (``O_{41}``) points outside the printed array, or a name is a member
    #: of a printed family that was not printed (``z_2`` where ``z_1`` and ``z_3`` were).
    RANGE = "range"
    #: A prose number shows more decimals than the book's rounding policy (advisory).
    PRECISION = "precision"
    #: A decimal on a checked page lies outside the scope of every ``check-numeric``.
    UNOWNED = "unowned"
    #: Two page-wide checks on one page, or a section scope outside any section.
    SCOPE = "scope"
    #: An option of ``check-numeric`` has a value it cannot take (``:scope: chapter``).
    OPTION = "option"
    #: The snippet path is missing, outside the snippet folder, or otherwise unusable.
    SNIPPET_PATH = "snippet-path"
    #: The snippet crashed, hung, printed nothing, printed too much or undecodable bytes.
    SNIPPET = "snippet"
    #: The snippet's output has a malformed entry (unclosed brackets, a name printed twice).
    TRANSCRIPT = "transcript"
    #: The prose math cannot be read (unbalanced braces, a ragged matrix).
    LATEX = "latex"
    #: A problem's id, kind or difficulty is missing or malformed, or an id is used twice.
    PROBLEM = "problem"
    #: A problem of kind ``numeric`` whose page has no ``check-numeric``: nothing was checked.
    NO_CHECK = "no-check"
    #: A configuration value of the extension has the wrong type or range.
    CONFIG = "config"
    #: The project lacks what a page needs: a ``:::{check-numeric}`` left as text because
    #: MyST's ``colon_fence`` is off.
    HOST = "host"
    #: A ``\\val{NAME}`` or ``{val}`NAME``` that cannot be injected: NAME was not printed, an
    #: element outside the printed array, a format that does not apply, no check to own it.
    INJECTION = "injection"
    #: A page's math uses a macro that neither MathJax nor the project defines (advisory: the
    #: reader sees it in red, and the checker cannot know what it means).
    MACRO = "macro"
    #: The kernel cannot confine snippets as ``verified_confine`` asks (no Landlock, or an
    #: old one); they run with the resource limits only (advisory, once per build).
    CONFINE = "confine"


#: Subtypes that are advisory: they are printed but do not fail the build.
ADVISORY = frozenset({Subtype.PRECISION, Subtype.MACRO, Subtype.CONFINE})


@dataclass(frozen=True)
class Finding:
    """A located message kept in the environment, so it is reported on every build.

    A page that is not re-read on an incremental build keeps its findings; the end-of-build
    verdict prints them again and fails again, as long as the cause stands.
    """

    docname: str
    line: int | None
    subtype: Subtype
    message: str
    #: The file the line is in when it is not the page's own (one pulled in by ``{include}``).
    source: str | None = None

    @property
    def is_error(self) -> bool:
        """Whether this finding fails the build."""
        return self.subtype not in ADVISORY


def emit(finding: Finding, page: str = "") -> None:
    """Log a finding at its page and line, with its type and subtype; ``page`` is the page's
    file (a notebook's findings are located by cell)."""
    if finding.source is not None or (page.endswith(".ipynb") and finding.line):
        location: str | tuple[str, int | None] = located(finding.source or page, finding.line)
    else:
        location = (finding.docname, finding.line) if finding.line else finding.docname
    log = logger.error if finding.is_error else logger.warning
    log(finding.message, location=location, type=TYPE, subtype=finding.subtype.value)
