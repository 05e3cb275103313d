"""After an interrupted build, the next one must give what a clean build gives.

Sphinx writes its output in place: a build killed half-way can leave a page or
``searchindex.js`` cut short, and the next build, judging by modification times, keeps them.
So a marker file says a build into an output folder is under way; if the next build finds it,
the last one never finished, and every page is read and written again. The marker lives beside
the doctrees, named after the output folder: in the output folder itself, an epub would pack
it (and warn about it). Separately, a search
index that cannot be read (an output folder removed while the doctrees were kept) also makes
every page be read again: with no page to read, Sphinx 9.0 fails on an empty index, and with a
few it publishes an incomplete one.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from sphinx.util import logging

from .outputs import output_file

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

logger = logging.getLogger(__name__)

def marker_path(doctreedir: Path, outdir: Path) -> Path:
    """Where the marker of a build into ``outdir`` stands while the build is under way."""
    return output_file(doctreedir, outdir, "unfinished")


def _marker(app: Sphinx) -> Path:
    return marker_path(Path(app.doctreedir), Path(app.outdir))


def _start(app: Sphinx) -> None:
    marker = _marker(app)
    app.env.verified_interrupted = marker.exists()  # type: ignore[attr-defined]
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.touch()


def _finish(app: Sphinx, exception: BaseException | None) -> None:
    if exception is None:
        _marker(app).unlink(missing_ok=True)


def reread_after_interruption(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """Every page, when the last build into this output folder did not finish."""
    if not getattr(env, "verified_interrupted", False):
        return []
    env.verified_interrupted = False  # type: ignore[attr-defined]
    logger.info("verified: the last build did not finish; reading every page again")
    return sorted(set(env.found_docs) - added - changed)


def reread_without_search_index(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """Every page, when an HTML builder's search index from an earlier build cannot be read."""
    builder: Any = app.builder
    if not getattr(builder, "search", False) or not hasattr(builder, "searchindex_filename"):
        return []
    if not env.all_docs or _whole(Path(builder.outdir) / builder.searchindex_filename, builder):
        return []
    logger.info("verified: the search index of an earlier build is missing or cut short; "
                "reading every page again")
    return sorted(set(env.found_docs) - added - changed)


def _whole(path: Path, builder: Any) -> bool:
    """Whether the index is there and ends as written: read its two ends, not all of it.

    Sphinx loads the index itself a moment later; parsing it here too would double that cost
    on every build, for a check that only an interrupted build needs.
    """
    prefix = getattr(builder.indexer_format, "PREFIX", "").encode()
    suffix = getattr(builder.indexer_format, "SUFFIX", "").encode()
    try:
        with path.open("rb") as stream:
            head = stream.read(len(prefix))
            size = stream.seek(0, 2)
            stream.seek(max(size - len(suffix) - 1, 0))
            tail = stream.read().rstrip()
    except OSError:
        return False
    return head == prefix and tail.endswith(suffix) and size > len(prefix) + len(suffix)


def setup_recovery(app: Sphinx) -> None:
    """Register the checks and the marker."""
    app.connect("builder-inited", _start)
    app.connect("env-get-outdated", reread_after_interruption)
    app.connect("env-get-outdated", reread_without_search_index)
    app.connect("build-finished", _finish, priority=1000)
