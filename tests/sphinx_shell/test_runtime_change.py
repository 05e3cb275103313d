"""A new Python or numpy re-reads every checked page: their snippets' output may differ."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

from support import strip_escape_sequences


def _status(app: Any) -> str:
    return strip_escape_sequences(app._status.getvalue())


def test_a_changed_runtime_rereads_checked_pages(
    copy_root: Callable[[str], Path], build: Callable[..., Any]
) -> None:
    srcdir = copy_root("plain")
    first = build(srcdir)
    assert first.statuscode == 0
    pickled = Path(first.doctreedir) / "environment.pickle"
    unchanged = build(srcdir)
    assert "[100%] index" not in _status(unchanged)
    assert "snippets: 0 run, 0 cached" in _status(unchanged)
    with pickled.open("rb") as stream:
        env = pickle.load(stream)
    env.verified_runtime = ("an", "older", "numpy")
    with pickled.open("wb") as stream:
        pickle.dump(env, stream)
    again = build(srcdir)
    status = _status(again)
    assert "reading sources... [100%] index" in status
    # The result itself is keyed by the real versions, unchanged here: taken from the cache.
    assert "snippets: 0 run, 1 cached" in status
    assert again.statuscode == 0
