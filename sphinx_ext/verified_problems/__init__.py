"""Verified worked problems: a Sphinx extension that checks a book's digits against its snippets.

``check-numeric`` runs a problem's snippet at build time, shows what it printed, and fails the
build whenever a digit in the prose diverges from it. ``problem`` gives a page its header,
id and place in the problem index.

The package is four layers, each a folder, each importing only the ones below it:
:mod:`.tools` (the author's commands, the reports, the ``verify`` builder, the Verification
page) → :mod:`.sphinx_shell` (directives, the page check, the environment's state, rendering,
the verdict) → :mod:`.engine` (running snippets, the cache) and :mod:`.core` (reading and
judging digits, with no Sphinx at all).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

__version__ = "0.1.0"


def setup(app: Sphinx) -> ExtensionMetadata:
    """Sphinx's entry point: the shell, and the tools that plug into a build.

    Imported here rather than at the top, so that ``import verified_problems.core`` (from a
    pre-commit hook, or another engine's plugin) loads no Sphinx.
    """
    from .extension import setup_extension

    return setup_extension(app, __version__)
