"""The benchmark's book: N attention problems like II.3.B01, in three variants of the same pages.

One generator writes every variant, so the pages differ only in what follows their
"Check — numeric" heading and its sentence:

* ``plain``: what the page looks like without verification: the snippet's excerpt as a
  ``literalinclude`` of the same file, and what the snippet prints as a static ``text`` block,
  captured once when the book is written by running the snippet (:func:`run_snippet`); nothing
  runs at build time and nothing is checked (the verified_problems extension is still loaded,
  for the header, whose kind is ``concept``: a ``numeric`` one requires a check);
* ``checked``: ``:::{check-numeric} pNNNN.py`` runs the problem's snippet, shows the same
  excerpt and transcript, and checks the digits;
* ``programoutput``: the same ``literalinclude`` of the excerpt, and
  ``:::{program-output} python pNNNN.py`` beside it, which runs the same snippet, unchecked
  (kind ``concept`` too).

So checked minus plain is the verification alone (running the snippet and checking the page),
not the showing of the code and its output.

The pages sit in ``problems/`` under one ``:glob:`` toctree in ``index.md`` (flat), or, with
``chapter_size`` set, in chapters ``cNN/`` of that many problems, each with its own ``:glob:``
toctree, under an ``index.md`` that globs the chapters: the layout decides how much navigation
the theme renders on every page.

Each problem draws a random 3×2 ``Q``, ``K`` and ``V`` from a seeded RNG. The prose quotes
``S``, ``Z``, ``A`` and ``O`` rounded half-even to 4 d.p., computed with :class:`~decimal.Decimal`
from the ``repr`` of the same float64 values the snippet prints (numpy's ``floatmode="unique"``
prints exactly those digits), so a checked build of the book passes. A draw with a value that is
an exact tie at 4 d.p., rounds to zero, or is a whole number is discarded and drawn again.
"""

from __future__ import annotations

import contextlib
import io
import runpy
import shlex
import shutil
import sys
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from pathlib import Path

import numpy as np

PROJECT = Path(__file__).resolve().parent.parent
BOOK_CONF = PROJECT / "conf" / "conf.py"
VARIANTS = ("plain", "checked", "programoutput")
DECIMALS = 4
D_K = 2
_QUANTUM = Decimal(1).scaleb(-DECIMALS)

#: What each step computes, exactly as the snippet's excerpt computes it.
EXCERPT = """\
S = Q @ K.T
Z = S / np.sqrt(d_k)
E = np.exp(Z - Z.max(axis=1, keepdims=True))  # subtract the row maximum first
A = E / E.sum(axis=1, keepdims=True)
O = A @ V
"""
#: The options that cut the excerpt out of a snippet, for check-numeric and literalinclude alike.
EXCERPT_OPTIONS = ':start-after: "# -- excerpt"\n:end-before: "# -- end excerpt"\n'


@dataclass(frozen=True)
class Problem:
    """One generated problem: its number, its inputs and every quantity the prose quotes."""

    number: int
    inputs: dict[str, np.ndarray]
    results: dict[str, np.ndarray]

    @property
    def stem(self) -> str:
        """The file name of its page and snippet, without suffix."""
        return stem(self.number)

    @property
    def problem_id(self) -> str:
        """The id of its ``problem`` header."""
        return f"BENCH.{self.number:04d}"


@dataclass(frozen=True)
class Book:
    """One variant of a generated book on disk, and the commands that build it."""

    root: Path
    variant: str
    size: int
    chapter_size: int = 0

    @property
    def src(self) -> Path:
        """The Sphinx source folder (index.md and the pages)."""
        return self.root / "src"

    @property
    def conf(self) -> Path:
        """The folder of the generated conf.py."""
        return self.root / "conf"

    @property
    def snippets(self) -> Path:
        """The folder of the snippets."""
        return self.root / "snippets"

    @property
    def build(self) -> Path:
        """Doctrees and HTML output; removed before a cold build."""
        return self.root / "build"

    def edit(self, count: int) -> None:
        """The edit of an edited rebuild: a harmless comment at the end of one snippet.

        The same edit in every variant: each page includes its snippet (literalinclude or
        check-numeric), so each variant re-reads the edited snippet's page. The comment changes
        neither the excerpt nor what the snippet prints, so the plain page's static transcript
        stays true.
        """
        with self.edited_snippet().open("a", encoding="utf-8") as handle:
            handle.write(f"# benchmark edit {count}\n")

    def edited_snippet(self) -> Path:
        """The snippet an edit changes: the middle problem's."""
        return self.snippets / f"{stem(self.size // 2 + 1)}.py"


def stem(number: int) -> str:
    """The file name of problem ``number``'s page and snippet, without suffix."""
    return f"p{number:04d}"


def rounded(value: float) -> Decimal:
    """``value`` as printed (its shortest repr), rounded half-even to the book's decimals."""
    return Decimal(repr(float(value))).quantize(_QUANTUM, rounding=ROUND_HALF_EVEN)


def _awkward(value: float) -> bool:
    """A value the prose could not quote unambiguously at 4 d.p. (or numpy would print oddly)."""
    exact = Decimal(repr(float(value)))
    tie = exact.scaleb(DECIMALS) % 1 in (Decimal("0.5"), Decimal("-0.5"))
    return tie or abs(value) < 1e-3 or float(value).is_integer()


def compute(inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """S, Z, A and O from Q, K and V, by running the snippet's excerpt on them."""
    names: dict[str, object] = {"np": np, "d_k": D_K, **inputs}
    exec(EXCERPT, names)
    return {name: np.asarray(names[name]) for name in ("S", "Z", "A", "O")}


def draw(rng: np.random.Generator, number: int) -> Problem:
    """A problem whose inputs are tenths in ±(0.1 … 1.9), drawn again until nothing is awkward."""
    while True:
        inputs = {}
        for name in ("Q", "K", "V"):
            tenths = rng.choice([t for t in range(-19, 20) if t % 10], size=(3, 2))
            inputs[name] = tenths / 10
        results = compute(inputs)
        values = np.concatenate([a.ravel() for a in (*inputs.values(), *results.values())])
        if not any(_awkward(v) for v in values):
            return Problem(number, inputs, results)


def problems(size: int, seed: int = 20260) -> list[Problem]:
    """``size`` problems from one seeded RNG: the same book for every variant and run."""
    rng = np.random.default_rng(seed)
    return [draw(rng, number) for number in range(1, size + 1)]


def bmatrix(values: np.ndarray, cell: str = "rounded") -> str:
    """A LaTeX bmatrix of the values, each as the prose quotes it."""
    show = (lambda v: str(rounded(v))) if cell == "rounded" else (lambda v: f"{v:.1f}")
    rows = [" & ".join(show(v) for v in row) for row in values]
    return "\\begin{bmatrix}\n" + " \\\\\n".join(rows) + "\n\\end{bmatrix}"


def _display(name: str, values: np.ndarray) -> str:
    return f"$$\n\\mat{{{name}}} =\n{bmatrix(values)}\n$$\n"


def _given(problem: Problem) -> str:
    parts = [f"\\mat{{{n}}} = {bmatrix(v, 'tenths')}" for n, v in problem.inputs.items()]
    return "$$\n" + ",\\qquad\n".join(parts) + f",\\qquad \\dk = {D_K} .\n$$\n"


#: The kind the pages that check nothing declare: a numeric problem must have a check-numeric
#: (``verified.no-check``). Its header renders the same, but for the word on its kind badge.
UNCHECKED_KIND = "concept"


def kind(variant: str) -> str:
    """The ``:kind:`` of a problem in this variant: numeric where its digits are checked."""
    return "numeric" if variant == "checked" else UNCHECKED_KIND


#: The start of every variant's "Check — numeric" section: what follows it is the variant's.
SECTION = "\n## Check — numeric\n\nThe excerpt computes each step under its name.\n"


def included(stem: str) -> str:
    """A snippet as ``literalinclude`` names it: from the source folder (a leading ``/``).

    :attr:`Book.snippets` is a sibling of :attr:`Book.src`, whatever folder a page is in.
    """
    return f"/../snippets/{stem}.py"


def excerpt_block(problem: Problem) -> str:
    """The snippet's excerpt as a code block: a ``literalinclude`` of the snippet itself."""
    return (f":::{{literalinclude}} {included(problem.stem)}\n:language: python\n"
            f"{EXCERPT_OPTIONS}:::\n")


def transcript_block(transcript: str) -> str:
    """What the snippet printed, as a static literal block (a ``text`` fence)."""
    if "```" in transcript:
        raise ValueError("the transcript would end its own fence")
    body = transcript if transcript.endswith("\n") else transcript + "\n"
    return f"```text\n{body}```\n"


def check_block(problem: Problem, variant: str, snippets: Path, transcript: str = "") -> str:
    """The page's "Check — numeric" section in this variant: the same in all but its blocks.

    Every variant keeps the heading and its sentence. A heading is a section in every page's
    navigation and local table of contents; without it, the plain yardstick would be cheaper
    by what the theme and the garbage collector pay for 500 more sections, which is no part
    of verifying anything. For the same reason the plain page shows the excerpt and the
    transcript (``transcript``: what the snippet printed, captured when the book was written).
    """
    if variant == "plain":
        blocks = f"{excerpt_block(problem)}\n{transcript_block(transcript)}"
    elif variant == "checked":
        blocks = f":::{{check-numeric}} {problem.stem}.py\n{EXCERPT_OPTIONS}:::\n"
    else:
        command = shlex.join([sys.executable, str(snippets / f"{problem.stem}.py")])
        blocks = f"{excerpt_block(problem)}\n:::{{program-output}} {command}\n:::\n"
    return f"{SECTION}\n{blocks}"


def page(problem: Problem, variant: str, snippets: Path, transcript: str = "") -> str:
    """The MyST page of one problem, like II.3.B01 (``transcript``: the plain page's)."""
    r = problem.results
    return f"""# Attention on three tokens, draw {problem.number}

:::{{problem}} {problem.problem_id}
:kind: {kind(variant)}
:difficulty: 2
:::

## Statement

Three tokens attend to one another under scaled dot-product attention. Compute the forward
pass: the scores, the scaled scores, the attention weights and the output.

## Given

{_given(problem)}
## Solution

### Step 1 — the scores

$\\mat{{S}} = \\mat{{Q}}\\mat{{K}}^{{\\mathsf T}}$.

{_display("S", r["S"])}
### Step 2 — the scaling

Divide every score by $\\sqrt{{\\dk}}$.

{_display("Z", r["Z"])}
### Step 3 — the softmax, row by row

Subtract the row maximum, exponentiate, and divide by the row total.

{_display("A", r["A"])}
### Step 4 — the aggregation

$\\mat{{O}} = \\mat{{A}}\\mat{{V}}$.

{_display("O", r["O"])}{check_block(problem, variant, snippets, transcript)}"""


def snippet(problem: Problem) -> str:
    """The problem's snippet: the excerpt on its inputs, printing ``NAME = array`` lines."""
    inputs = "".join(f"{n} = np.array({v.tolist()!r})\n" for n, v in problem.inputs.items())
    return f'''"""Benchmark problem {problem.problem_id}: attention on three tokens."""

# ruff: noqa: E741
import numpy as np

np.set_printoptions(floatmode="unique", suppress=True, linewidth=200)  # every digit of repr
{inputs}d_k = {D_K}
# -- excerpt
{EXCERPT}# -- end excerpt

for name, value in dict(Q=Q, K=K, V=V, d_k=d_k, S=S, Z=Z, A=A, O=O).items():
    print(f"{{name}} = {{value}}")
'''


def run_snippet(path: Path) -> str:
    """What the snippet at ``path`` prints, run as ``python path`` runs it (``__main__``).

    It runs in this process, which has numpy imported already: the plain book's 500 transcripts
    take well under a second instead of 500 interpreter starts. numpy's print options are
    restored afterwards, so each snippet starts from the defaults, as a fresh interpreter does.
    """
    out = io.StringIO()
    with np.printoptions(), contextlib.redirect_stdout(out):
        runpy.run_path(str(path), run_name="__main__")
    return out.getvalue()


def page_path(number: int, chapter_size: int) -> str:
    """Where problem ``number`` lives under the source folder."""
    if not chapter_size:
        return f"problems/{stem(number)}.md"
    return f"c{(number - 1) // chapter_size + 1:02d}/{stem(number)}.md"


def _index(title: str, text: str, pattern: str) -> str:
    return f"# {title}\n\n{text}\n\n:::{{toctree}}\n:glob:\n:maxdepth: 1\n\n{pattern}\n:::\n"


def indexes(size: int, chapter_size: int) -> dict[str, str]:
    """The index pages: one for a flat book; the root's and one a chapter otherwise."""
    text = "Generated attention problems, one a page."
    if not chapter_size:
        return {"index.md": _index("Benchmark book", text, "problems/*")}
    pages = {"index.md": _index("Benchmark book", text, "*/index")}
    for chapter in range(1, (size - 1) // chapter_size + 2):
        pages[f"c{chapter:02d}/index.md"] = _index(f"Chapter {chapter}", text, "p*")
    return pages


def conf_text(variant: str, snippets: Path) -> str:
    """A conf.py that runs the book's own conf/conf.py, then points at the generated snippets."""
    extra = '\nextensions = [*extensions, "sphinxcontrib.programoutput"]\n'
    return f'''"""Generated by scripts/bench.py: the book's own configuration, other snippets."""

from pathlib import Path

_BOOK_CONF = Path({str(BOOK_CONF)!r})
_namespace = {{"__file__": str(_BOOK_CONF), "__name__": "book_conf"}}
exec(compile(_BOOK_CONF.read_text(encoding="utf-8"), str(_BOOK_CONF), "exec"), _namespace)
globals().update({{k: v for k, v in _namespace.items() if not k.startswith("_")}})
verified_snippet_dir = {str(snippets)!r}
# Generated pages have no binding records: their free digits are matched by the bindings' code
# and counted as unbound, at the cost a bound page has.
verified_unbound = "allow"
{extra if variant == "programoutput" else ""}'''


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def write_book(root: Path, variant: str, generated: list[Problem], chapter_size: int = 0) -> Book:
    """Write one variant of the book under ``root`` (replacing what was there)."""
    book = Book(root, variant, len(generated), chapter_size)
    shutil.rmtree(root, ignore_errors=True)
    for name, text in indexes(book.size, chapter_size).items():
        _write(book.src / name, text)
    _write(book.conf / "conf.py", conf_text(variant, book.snippets))
    for problem in generated:
        path = book.snippets / f"{problem.stem}.py"
        _write(path, snippet(problem))
        transcript = run_snippet(path) if variant == "plain" else ""
        text = page(problem, variant, book.snippets, transcript)
        _write(book.src / page_path(problem.number, chapter_size), text)
    return book


def write_books(
    folder: Path, size: int, chapter_size: int = 0, seed: int = 20260
) -> dict[str, Book]:
    """Every variant of a ``size``-problem book, under ``folder/<size>/<variant>``."""
    generated = problems(size, seed)
    return {
        v: write_book(folder / str(size) / v, v, generated, chapter_size) for v in VARIANTS
    }
