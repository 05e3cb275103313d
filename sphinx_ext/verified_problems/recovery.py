"""After an interrupted build, the next one must give what a clean build gives.

Sphinx writes ``searchindex.js`` in place at the end of an HTML build. A build killed while
writing it (or an output folder removed while the doctrees were kept) leaves an index that the
next build cannot load; when that build has no page to read, Sphinx 9.0 then fails on an empty
index, and when it has a few, it publishes an incomplete one. Re-reading every page in that
case rebuilds the index whole.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from sphinx.util import logging

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

logger = logging.getLogger(__name__)


def reread_without_search_index(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """Every page, when an HTML builder's search index from an earlier build cannot be read."""
    builder: Any = app.builder
    if not getattr(builder, "search", False) or not hasattr(builder, "searchindex_filename"):
        return []
    if not env.all_docs or _loads(Path(builder.outdir) / builder.searchindex_filename, builder):
        return []
    logger.info("verified: the search index of an earlier build is missing or cut short; "
                "reading every page again")
    return sorted(set(env.found_docs) - added - changed)


def _loads(path: Path, builder: Any) -> bool:
    try:
        if builder.indexer_dumps_unicode:
            with path.open(encoding="utf-8") as stream:
                builder.indexer_format.load(stream)
        else:
            with path.open("rb") as stream:
                builder.indexer_format.load(stream)
    except (OSError, ValueError):
        return False
    return True


def setup_recovery(app: Sphinx) -> None:
    """Register the check."""
    app.connect("env-get-outdated", reread_without_search_index)
