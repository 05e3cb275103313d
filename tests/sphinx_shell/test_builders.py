"""The real book in every other output format: singlehtml, dirhtml, LaTeX and plain text.

Each is built once with the real ``sphinx-build -W -c conf`` (as ``make html`` builds HTML; the
four run at once), must exit 0 with nothing on stderr, and must say what the HTML says: the
problem header, and each ``check-numeric`` block's transcript, exactly what its snippet prints
when run by hand, and its verdict. LaTeX must also define the book's macros and every
non-ASCII character pdflatex would meet; it is compiled when ``latexmk`` or ``pdflatex`` is
installed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from support import PROJECT, soup

pytestmark = pytest.mark.slow

BUILDERS = ("singlehtml", "dirhtml", "latex", "text", "epub")
PAGE = "problems/ii-3-b01-attention-by-hand"
SOURCE = PROJECT / "book" / f"{PAGE}.md"
SNIPPETS = PROJECT / "scripts" / "snippets"

#: The problem header of II.3.B01 (difficulty 2 of 3), as every format must show it.
HEADER_ID = "Problem II.3.B01"
BADGES = "numeric ▲▲△ ✓ verified"
POLICY = (
    "All values rounded to 4 d.p. Intermediate quantities carry full precision; only what is "
    "printed is rounded."
)
#: One count of the verdict line: how many numbers of one kind (see sphinx_shell.provenance).
_COUNT = (r"\d+ (checked by name|derived by the page(?:'|\\textquotesingle\{\})s own arithmetic|"
          r"bound to a printed number|"
          r"given in the snippet's source|matched a printed number but not bound to one|"
          r"exempted by the author)")
VERDICT = re.compile(
    r"Executed at build\. The digits above are the digits it printed "
    rf"\({_COUNT}((, {_COUNT})* and {_COUNT})?\)\."
)


@dataclass
class Output:
    """One finished ``sphinx-build`` run."""

    folder: Path
    returncode: int
    stdout: str
    stderr: str


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Output]]:
    """The book built with each builder, all at once, each with its own doctrees."""
    out = tmp_path_factory.mktemp("builders")
    running = {}
    for builder in BUILDERS:
        command = [
            sys.executable,
            "-m",
            "sphinx",
            "-W",
            "-b",
            builder,
            "-c",
            "conf",
            "-d",
            str(out / f"{builder}-doctrees"),
            "book",
            str(out / builder),
        ]
        running[builder] = subprocess.Popen(
            command, cwd=PROJECT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
    done = {}
    for builder, process in running.items():
        stdout, stderr = process.communicate(timeout=300)
        done[builder] = Output(out / builder, process.returncode, stdout, stderr)
    yield done


@pytest.fixture(scope="module")
def transcripts() -> list[str]:
    """What each check of the page prints, in page order: its snippet run by hand."""
    names = re.findall(r"\{check-numeric\}\s+(\S+)", SOURCE.read_text(encoding="utf-8"))
    assert len(names) == 2, names  # the problem's check and its Variation's
    printed = []
    for name in names:
        run = subprocess.run(
            [sys.executable, str(SNIPPETS / name)],
            cwd=SNIPPETS,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        printed.append(run.stdout)
    return printed


def normalised(text: str) -> str:
    """Text with every run of white space one space (text and LaTeX wrap their lines)."""
    return " ".join(text.split())


@pytest.mark.parametrize("builder", BUILDERS)
def test_the_book_builds_without_a_warning(builds: dict[str, Output], builder: str) -> None:
    built = builds[builder]
    assert built.returncode == 0, built.stderr
    assert built.stderr == ""
    assert "build succeeded" in built.stdout
    assert "verified: " in built.stdout  # the extension checked the book in this format too


# -- text -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def text_page(builds: dict[str, Output]) -> str:
    assert builds["text"].returncode == 0, builds["text"].stderr
    return (builds["text"].folder / f"{PAGE}.txt").read_text(encoding="utf-8")


def test_text_shows_the_problem_header(text_page: str) -> None:
    lines = text_page.splitlines()
    assert lines[:2] == ["Attention on three tokens, by hand", "*" * 34]
    header = normalised("\n".join(lines[2:12]))
    assert header.startswith(f"{HEADER_ID} {BADGES} {POLICY}")
    assert lines.index("Statement") > lines.index(HEADER_ID)


def test_text_shows_each_transcript_and_verdict(text_page: str, transcripts: list[str]) -> None:
    lines = text_page.splitlines()
    assert "Check — numeric" in lines
    starts = [n for n, line in enumerate(lines) if line == "What it printed at build time"]
    assert len(starts) == len(transcripts)
    for start, printed in zip(starts, transcripts, strict=True):
        assert lines[start + 1] == ""
        end = start + 2
        while lines[end].startswith("   "):
            end += 1
        shown = [line.removeprefix("   ") for line in lines[start + 2 : end]]
        assert shown == printed.splitlines()
        after = normalised("\n".join(lines[end : end + 4]))
        assert VERDICT.match(after), after


def test_text_tables_are_readable(builds: dict[str, Output]) -> None:
    index = (builds["text"].folder / "problem-index.txt").read_text(encoding="utf-8")
    assert "0.NU.02" in index
    assert "II.3.B01" in index


# -- LaTeX ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tex(builds: dict[str, Output]) -> str:
    assert builds["latex"].returncode == 0, builds["latex"].stderr
    [main] = builds["latex"].folder.glob("*.tex")
    return main.read_text(encoding="utf-8")


def preamble_and_body(tex: str) -> tuple[str, str]:
    preamble, begin, body = tex.partition(r"\begin{document}")
    assert begin
    return preamble, body


#: Pygments' LaTeX escapes in a ``sphinxVerbatim`` block.
_PYGZ = {
    "us": "_",
    "hy": "-",
    "dq": '"',
    "sq": "'",
    "ob": "{",
    "cb": "}",
    "bs": "\\",
    "sh": "#",
    "pc": "%",
    "dl": "$",
    "am": "&",
    "lt": "<",
    "gt": ">",
    "ti": "~",
    "ca": "^",
    "at": "@",
    "lb": "[",
    "rb": "]",
}


def verbatim_text(block: str) -> str:
    """The text a ``sphinxVerbatim`` block sets (what a reader sees in the PDF)."""
    text = re.sub(r"\\PYGZ(\w\w)\{\}", lambda m: _PYGZ[m[1]], block)
    assert "\\" not in text.replace(_PYGZ["bs"], ""), "an escape this test does not know"
    return text


def latex_page(tex: str) -> str:
    """II.3.B01's part of the LaTeX body: from its header to the next page's section."""
    _preamble, body = preamble_and_body(tex)
    start = body.index(HEADER_ID)
    end = body.find("\\section{", start)
    return body[start : end if end > 0 else None]


def test_latex_sets_each_transcript_verbatim(tex: str, transcripts: list[str]) -> None:
    blocks = re.findall(
        r"What it printed at build time\n\n\\begin\{sphinxVerbatim\}\[[^\n]*\]\n(.*?)"
        r"\\end\{sphinxVerbatim\}\n\n\\sphinxAtStartPar\n([^\n]*)\n",
        latex_page(tex),
        re.DOTALL,
    )
    assert [verbatim_text(text) for text, _verdict in blocks] == transcripts
    for _text, verdict in blocks:
        assert VERDICT.fullmatch(verdict), verdict


def test_latex_shows_the_problem_header(tex: str) -> None:
    page = latex_page(tex).replace("\\sphinxAtStartPar", "")
    header = normalised(page[:400])
    assert header.startswith(rf"{HEADER_ID} numeric ▲▲△ \(\checkmark\) verified {POLICY}")


def test_latex_defines_the_book_macros_in_the_preamble(tex: str) -> None:
    preamble, _body = preamble_and_body(tex)
    for definition in (
        r"\providecommand{\mat}{}\renewcommand{\mat}[1]{\mathbf{#1}}",
        r"\providecommand{\vec}{}\renewcommand{\vec}[1]{\boldsymbol{#1}}",
        r"\providecommand{\R}{}\renewcommand{\R}{\mathbb{R}}",
        r"\providecommand{\dk}{}\renewcommand{\dk}{d_k}",
        r"\providecommand{\unchecked}{}\renewcommand{\unchecked}[1]{#1}",
    ):
        assert definition in preamble.splitlines(), definition


#: What pdflatex reads with ``inputenc`` (utf8) and ``fontenc`` (T1) with nothing declared.
_KNOWN = {chr(c) for c in range(0xA0, 0x100)} | set("—–‘’“”…")


def test_latex_declares_every_mark_pdflatex_does_not_know(tex: str) -> None:
    preamble, body = preamble_and_body(tex)
    declared = {
        chr(int(code, 16))
        for code in re.findall(
            r"\\(?:DeclareUnicodeCharacter|sphinxDUC)\{([0-9A-F]{4,5})\}", preamble
        )
    }
    for mark in "▲△✓":  # the difficulty and the verified mark of a problem header
        assert mark in declared, f"no \\DeclareUnicodeCharacter for U+{ord(mark):04X}"
    unknown = {c for c in body if ord(c) > 0x7F} - _KNOWN - declared
    assert not unknown, sorted(f"{c} U+{ord(c):04X}" for c in unknown)


def test_the_latex_output_compiles(builds: dict[str, Output], tex: str) -> None:
    folder = builds["latex"].folder
    [main] = folder.glob("*.tex")
    if shutil.which("latexmk"):
        command = ["latexmk", "-pdf", "-interaction=nonstopmode", "-halt-on-error", main.name]
        runs = 1
    elif shutil.which("pdflatex"):
        command = ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", main.name]
        runs = 2  # the second run resolves the table of contents and references
    else:
        pytest.skip("neither latexmk nor pdflatex is installed: the LaTeX is not compiled")
    for _ in range(runs):
        done = subprocess.run(
            command, cwd=folder, capture_output=True, text=True, timeout=300, check=False
        )
        assert done.returncode == 0, done.stdout[-4000:]
    assert main.with_suffix(".pdf").stat().st_size > 10_000


# -- singlehtml and dirhtml ---------------------------------------------------------------------


def check_block_shows(page: BeautifulSoup, transcripts: list[str]) -> None:
    """The problem header, and each check's transcript and verdict, as the HTML builder has them."""
    header = page.select_one("div.problem-header")
    assert header is not None
    assert normalised(header.get_text(" ")).startswith(HEADER_ID)
    shown = [pre.get_text() for pre in page.select("details.verified-transcript pre")]
    assert shown == transcripts
    verdicts = [p.get_text() for p in page.select("div.verified-check p.verified-verdict")]
    assert len(verdicts) == len(transcripts)
    assert all(VERDICT.fullmatch(v) for v in verdicts), verdicts


def test_singlehtml_holds_the_whole_book_and_its_links_work(
    builds: dict[str, Output], transcripts: list[str]
) -> None:
    assert builds["singlehtml"].returncode == 0, builds["singlehtml"].stderr
    page = soup(builds["singlehtml"].folder / "index.html")
    ids = {tag["id"] for tag in page.select("[id]")}
    assert {"problem-ii-3-b01", "problem-0-nu-02"} <= ids
    article = page.select_one("article")
    assert article is not None
    start = article.select_one("#problem-ii-3-b01")
    assert start is not None
    section = start.find_parent("section")
    assert section is not None
    check_block_shows(section, transcripts)
    # every link of the text leads to an element of this one page (the theme's side
    # navigation is the theme's, built from Sphinx's toctree, and not checked here)
    internal = [a["href"] for a in article.select("a.reference.internal[href]")]
    assert internal
    assert [h for h in internal if not (h.startswith("#") and h[1:] in ids)] == []
    refs = article.select('a.reference.internal[href="#problem-0-nu-02"]')
    assert refs, "{problem:ref}`0.NU.02` leads to the problem's header"


def test_dirhtml_puts_each_page_in_its_folder(
    builds: dict[str, Output], transcripts: list[str]
) -> None:
    folder = builds["dirhtml"].folder
    assert builds["dirhtml"].returncode == 0, builds["dirhtml"].stderr
    path = folder / PAGE / "index.html"
    page = soup(path)
    check_block_shows(page, transcripts)
    refs = page.select('a.reference.internal[href*="#problem-0-nu-02"]')
    assert refs
    target, _hash, anchor = str(refs[0]["href"]).partition("#")
    linked = (path.parent / target / "index.html").resolve()
    assert linked == (folder / "numerics" / "log-sum-exp" / "index.html").resolve()
    assert soup(linked).select_one(f"#{anchor}") is not None
