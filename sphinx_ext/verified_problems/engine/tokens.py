"""A script's Python tokens, lexed by the fork server while the snippet runs.

Loaded by ``worker.py`` by its path, so it imports nothing from the package.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any


def script_tokens(
    read: Callable[[], str], lexer_options: dict[str, Any] | None
) -> str | None:
    """The Python tokens of the script ``read`` gives, as Sphinx's HTML writer would lex it,
    as JSON; None if not.

    Lexing is the slow part of highlighting, and this process has a core to spare while the
    snippet runs: the Sphinx process then only formats. The lexer is Sphinx's for ``python``
    (``stripnl`` off, Pygments' ``raiseonerror`` filter on); a script Pygments rejects, or one
    Sphinx would lex as a console session, gets no tokens, and Sphinx highlights it itself.

    The tokens are not written as (type, text) pairs: the texts are the script itself, in
    order. ``kinds`` names each token type once, ``runs`` holds a type's index and a length per
    token, ``text`` is a digest of the script they cut, and ``newline`` says that Pygments
    added a final newline. A fifth of the size of the pairs (1.9 KB for the book's 50-line
    scripts, against 8.7 KB), they make every checked page's doctree and cache entry smaller;
    ``code_html.decode_tokens`` reads them back.
    """
    if lexer_options is None:
        return None
    try:
        from pygments.lexers import PythonLexer

        source = read()
        if source.startswith(">>>"):
            return None
        lexer = PythonLexer(stripnl=False, **lexer_options)
        lexer.add_filter("raiseonerror")
        kinds: dict[str, int] = {}
        runs: list[int] = []
        texts: list[str] = []
        for kind, text in lexer.get_tokens(source):
            runs += (kinds.setdefault(str(kind), len(kinds)), len(text))
            texts.append(text)
        spelled = "".join(texts)
        if spelled not in (source, source + "\n"):
            return None  # a lexer that changed the text: its tokens cannot be cut from it
        return json.dumps({"kinds": list(kinds), "runs": runs, "text": text_digest(source),
                           "newline": spelled != source}, separators=(",", ":"))
    except Exception:  # any failure only means no tokens: the Sphinx side lexes the script
        return None


def text_digest(text: str) -> str:
    """A short digest of a script's text, for its tokens to name what they were cut from."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()
