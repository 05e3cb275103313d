"""The extension put together: every feature's ``setup_…`` and the build events they share.

This is the one module that knows every layer: the Sphinx shell's features and the tools that
plug into a build (the reports, the ``verify`` builder, the Verification page).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .sphinx_shell.background import setup_background
from .sphinx_shell.collector import setup_collector
from .sphinx_shell.config import setup_config
from .sphinx_shell.digit_marks import setup_digit_marks
from .sphinx_shell.exemptions import setup_exemptions
from .sphinx_shell.injection import setup_injection
from .sphinx_shell.numeric_directive import setup_numeric_directive
from .sphinx_shell.problems import setup_problems
from .sphinx_shell.recovery import setup_recovery
from .sphinx_shell.render import setup_render
from .sphinx_shell.snippets import setup_snippets
from .sphinx_shell.verdict import setup_verdict
from .tools.reports import setup_reports
from .tools.verification_page import setup_verification_page
from .tools.verify_builder import setup_verify_builder

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

#: The oldest Sphinx the extension is tested with (``make test`` builds with it too).
OLDEST_SPHINX = "7.4"


def setup_extension(app: Sphinx, version: str) -> ExtensionMetadata:
    """Register every feature.

    Listeners of one event and priority run in the order they were registered, so this order
    is part of the behaviour: the verdict (``build-finished``, 400) comes before the reports
    (450) and the worker's end (900).
    """
    app.require_sphinx(OLDEST_SPHINX)
    setup_config(app)
    setup_render(app)
    setup_numeric_directive(app)
    setup_exemptions(app)
    setup_injection(app)
    setup_problems(app)
    setup_collector(app)
    setup_background(app)
    setup_recovery(app)
    setup_verification_page(app)
    setup_verify_builder(app)
    setup_snippets(app)
    setup_reports(app)
    setup_digit_marks(app)
    setup_verdict(app)
    return {"version": version, "parallel_read_safe": True, "parallel_write_safe": True,
            "env_version": 7}
