"""Notebook pages: a ``check-numeric`` without a snippet checks what the page's own cells gave.

MyST-NB parses a notebook (an ``.ipynb``, or MyST Markdown with ``{code-cell}``\\ s), executes
it as its configuration says (``nb_execution_mode``, with jupyter-cache), and renders it; a
directive on the page finds its execution client on the document while the page is rendered.
The directive only notes the client (:func:`note_client`); once the page is read, every cell
has run (in the ``inline`` mode too), and :func:`fill_checks` gives each of the page's checks
the transcript of :func:`~verified_problems.core.notebook.cells_transcript`: from there on a
notebook's check is a snippet's, with the same rules, messages and reader's view.

Nothing here imports MyST-NB: a page that is no notebook has no client, and the rest of the
extension never asks for one.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core import CellsRun, cells_transcript
from ..engine import Failure
from . import nodes as vnodes
from .diagnostics import Finding, Subtype

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.environment import BuildEnvironment

#: Where the page being read keeps its execution client until the page is checked.
_CLIENT = "verified_notebook_client"


def notebook_client(document: nodes.document) -> Any | None:
    """MyST-NB's execution client of the page being rendered, or None on any other page."""
    renderer = document.attributes.get("nb_renderer")
    if renderer is None:
        return None
    try:
        return renderer.renderer.nb_client
    except (AttributeError, KeyError):
        return None


def note_client(env: BuildEnvironment, client: Any) -> None:
    """Keep the page's client until the page is read (its cells may run as it is rendered)."""
    env.temp_data[_CLIENT] = client


def fill_checks(env: BuildEnvironment, doctree: nodes.document) -> list[Finding]:
    """Give the page's notebook checks what its cells printed and glued; a failed run is one
    located error, as a failed snippet's is."""
    client = env.temp_data.pop(_CLIENT, None)
    if client is None:  # no notebook check on the page (the directive notes the client)
        return []
    checks = [c for c in doctree.findall(vnodes.numeric_check) if c.get("notebook")]
    config = getattr(client, "nb_config", None)
    run = cells_transcript(client.notebook.get("cells", []), client.glue_data or {},
                           allow_errors=bool(getattr(config, "execution_allow_errors", False)),
                           execution_error=_execution_error(client))
    for check in checks:
        check["stdout"] = run.transcript
        check["transcript"] = run.transcript or run.failure or ""
        check["script"] = run.script
        check["failure"] = _failure(run).value if run.failure else ""
    if run.failure is None:
        return []
    env.note_reread()  # a failed run is not kept: run it again on the next build
    ipynb = str(env.doc2path(env.docname)).endswith(".ipynb")
    return [Finding(env.docname, _failure_line(client, run, ipynb), Subtype.SNIPPET,
                    _failure_message(checks[0]["snippet"], run, config))]


def _execution_error(client: Any) -> str | None:
    metadata = client.exec_metadata or {}
    if metadata.get("succeeded", True):
        return None
    return str(metadata.get("error") or "the notebook could not be executed")


def _failure(run: CellsRun) -> Failure:
    return Failure.TIMEOUT if "TimeoutError" in (run.failure or "") else Failure.CRASH


def _failure_line(client: Any, run: CellsRun, ipynb: bool) -> int | None:
    """The page's line of the failure: the traceback's line in the failed cell, or its first.

    MyST-NB's base of a cell is the line of its first line in a MyST notebook, and the line
    before it in an ``.ipynb``.
    """
    if run.failed_cell is None:
        return None
    try:
        start = int(client.cell_line(run.failed_cell))
    except (AttributeError, IndexError, TypeError, ValueError):
        return None
    return start + (run.failed_line or 1) - (0 if ipynb else 1)


def _failure_message(label: str, run: CellsRun, config: Any) -> str:
    message = f"the cells of {label} failed: {run.failure}"
    if run.failed_cell is not None and getattr(config, "execution_mode", None) == "off" \
            and "did not run" in (run.failure or ""):
        return message + " (nb_execution_mode is 'off' in conf.py: set it to 'cache' or 'auto', " \
                         "or store the notebook with its outputs)"
    if _failure(run) is Failure.TIMEOUT:
        timeout = getattr(config, "execution_timeout", None)
        return message + (f" (a cell ran longer than nb_execution_timeout, {timeout} s: make it "
                          "faster, or raise nb_execution_timeout in conf.py)")
    return message


def label_for(env: BuildEnvironment) -> str:
    """What a notebook's check is called in messages and reports: the page's file name."""
    return Path(env.doc2path(env.docname)).name
