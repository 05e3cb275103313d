"""Sphinx configuration of the book (sources in book/, snippets in scripts/snippets/)."""

from __future__ import annotations

import sys
from pathlib import Path

import sphinx_proof

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "sphinx_ext"))  # the extension also works uninstalled

project = "Mathematics for Machine Learning: Worked Problems"
author = "The authors"
copyright = "2026, the authors"
version = release = "0.1"

extensions = [
    "myst_parser",
    "sphinx_design",
    "sphinx_proof",
    "sphinx-mathjax-offline",
    "verified_problems",
]

myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist"]
myst_heading_anchors = 3
source_suffix = {".md": "markdown"}
exclude_patterns: list[str] = []
nitpicky = True
numfig = True
today_fmt = "%Y-%m-%d"

# The book's notation, defined once: MathJax and the LaTeX preamble both get these,
# and the checker reads names through them (\mat{A} is the quantity A, \dk is d_k).
verified_macros = {
    "mat": [r"\mathbf{#1}", 1],
    "vec": [r"\boldsymbol{#1}", 1],
    "R": r"\mathbb{R}",
    "dk": r"d_k",
    "softmax": r"\operatorname{softmax}",
}
verified_snippet_dir = "../scripts/snippets"
verified_decimals = 4

# sphinx-proof copies its stylesheet only once the pages are written, so a build that follows
# an interrupted one would link it with a checksum and a clean build without: serve it as an
# ordinary static file instead, and every build writes the same HTML.
html_static_path = [str(Path(sphinx_proof.__file__).parent / "_static")]
html_theme = "sphinx_book_theme"
html_title = "Worked Problems"
html_theme_options = {
    "show_toc_level": 2,
    "navigation_with_keys": True,
    # Render only the current branch of the navigation tree: the full tree on every page makes
    # the build grow with the square of the page count (see BASELINES.md).
    "collapse_navbar": True,
    "max_navbar_depth": 2,
    "show_navbar_depth": 1,
}
html_last_updated_fmt = None

latex_engine = "pdflatex"  # the extension declares the characters it writes
#: The characters the authors' guide quotes that pdflatex does not know (a minus sign and a
#: superscript minus: scientific notation as typed in text, `−1.20 × 10⁻⁴`).
latex_elements = {"preamble": "\\DeclareUnicodeCharacter{2212}{\\ensuremath{-}}\n"
                              "\\DeclareUnicodeCharacter{207B}{\\ensuremath{^{-}}}\n"}


def setup(app: object) -> None:
    """Make the book's third-party extensions build every format, and in parallel.

    - sphinx-proof renders only HTML and LaTeX: give its nodes plain text, man and texinfo.
    - sphinx-proof's domain keeps no data of its own (its proofs live in ``env.proof_list``,
      merged by its own event handler), but it lacks the ``merge_domaindata`` that
      ``sphinx-build -j`` calls: give it the empty one.
    - sphinx-mathjax-offline only copies static files, but does not declare that it is safe
      for parallel reading, so Sphinx would read serially and warn.
    """
    from sphinx_proof.domain import ProofDomain
    from sphinx_proof.nodes import NODE_TYPES, proof_node, unenumerable_node

    def visit(self: object, node: object) -> None:
        pass

    plain = (visit, visit)
    for node in (proof_node, unenumerable_node, *NODE_TYPES.values()):
        app.add_node(node, override=True, text=plain, man=plain, texinfo=plain)  # type: ignore[attr-defined]
    if "merge_domaindata" not in vars(ProofDomain):
        ProofDomain.merge_domaindata = lambda self, docnames, otherdata: None  # type: ignore[method-assign]
    app.connect("builder-inited", _mathjax_offline_is_parallel_safe)  # type: ignore[attr-defined]


def _mathjax_offline_is_parallel_safe(app: object) -> None:
    """Declare sphinx-mathjax-offline parallel-safe; keep its 24 MB of MathJax to HTML output,
    copied before the pages are written, not after: Sphinx links a static file that is already
    there with its checksum, so every build (a clean one, or one resumed after a killed one
    had copied it) links it the same way."""
    extension = app.extensions.get("sphinx-mathjax-offline")  # type: ignore[attr-defined]
    if extension is not None:
        extension.parallel_read_safe = True
    builder = app.builder  # type: ignore[attr-defined]
    for listener in list(app.events.listeners.get("build-finished", [])):  # type: ignore[attr-defined]
        if getattr(listener.handler, "__name__", "") != "copy_mathjax_files":
            continue
        if builder.format != "html" or builder.name in _PAGE_BUILDERS:
            app.disconnect(listener.id)  # type: ignore[attr-defined]
        if builder.name in _PAGE_BUILDERS:  # an epub packs its files before: left as it was
            listener.handler(app, None)


#: The builders that write pages with MathJax beside them.
_PAGE_BUILDERS = frozenset(["html", "dirhtml", "singlehtml"])
