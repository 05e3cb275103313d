"""The core's public API: importable without Sphinx, and each item says what it guarantees."""

from __future__ import annotations

import inspect
import subprocess
import sys

import verified_problems.core as core

_HOSTS = ("sphinx", "docutils", "myst_parser", "myst_nb")


def test_importing_the_core_loads_no_sphinx_docutils_or_myst() -> None:
    probe = (
        "import sys, verified_problems.core\n"
        f"hosts = {_HOSTS!r}\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & set(hosts)))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "[]"


def test_the_core_reads_a_page_with_nothing_but_its_api() -> None:
    transcript = core.read_transcript("a_1 = [0.40111209 0.19777581 0.40111209]\n")
    extract = core.read_math(r"\vec{a}_1 = (0.4011,\; 0.1987,\; 0.4011)",
                             {"vec": (r"\boldsymbol{#1}", 1)})
    lines = ("$$", r"\vec{a}_1 = (0.4011,\; 0.1987,\; 0.4011)", "$$")
    cursor = core.Cursor(lines, 0)
    placed_lines = cursor.place_block(r"\vec{a}_1 = (0.4011,\; 0.1987,\; 0.4011)")
    value = extract.named[0]
    cells = []
    for cell in value.cells:
        position = core.offset_to_position(lines[1], placed_lines, cell.start)
        assert position is not None
        cells.append(core.Placed(cell, position[0] + 1, position[1], "Step 3"))
    verdicts = core.verify(transcript, [core.PlacedValue(value, tuple(cells))], [], [],
                           core.Policy(decimals=4))
    failed = [verdict for verdict in verdicts if verdict.failed]
    assert [(v.placed.line, v.placed.column, v.message) for v in failed] == [
        (2, 23, "a_1[2]: prose 0.1987, printed 0.1978")
    ]


def test_every_exported_item_has_a_docstring() -> None:
    for name in core.__all__:
        item = getattr(core, name)
        if inspect.isfunction(item) or inspect.isclass(item):
            doc = inspect.getdoc(item) or ""
            assert doc and not doc.startswith(f"{name}("), name  # a dataclass's own signature
    assert inspect.getdoc(core)
