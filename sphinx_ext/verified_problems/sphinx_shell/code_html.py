"""The code of a check block in HTML, with one Pygments pass over each snippet.

A check block shows its snippet twice, as the excerpt and in full, and then the transcript.
Sphinx would highlight each as a literal block of its own, with a new formatter every time,
and lexing Python is the slow part of a checked page (3 ms for a 20-line script). Here the
full script is lexed once: by the helper that checks the page beside the writer, on a core
Sphinx leaves idle (:func:`lex_scripts`, its tokens kept on the check), or here if it has
none; the excerpt, when it is a run of the script's own lines, is cut from those tokens; the
formatters are made once per build. The HTML is what Sphinx's own
``visit_literal_block`` writes. A block this cannot reproduce exactly (emphasized lines, an
excerpt that is not a run of lines, code Pygments rejects) is left to Sphinx.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from io import StringIO
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from docutils import nodes
from pygments.filters import ErrorToken
from pygments.token import Text, _TokenType, string_to_tokentype

if TYPE_CHECKING:
    from collections.abc import Iterable

    from . import nodes as vnodes

Token = tuple[_TokenType, str]

#: Formatters per Sphinx highlighter, without and with line numbers.
_FORMATTERS: WeakKeyDictionary[Any, dict[bool, Any]] = WeakKeyDictionary()


def render_check_code(translator: Any, check: vnodes.numeric_check) -> None:
    """Replace the check's literal blocks by their HTML, where it can be written exactly."""
    blocks = {_role(block): block for block in check.findall(nodes.literal_block)}
    script, excerpt = blocks.get("verified-script"), blocks.get("verified-excerpt")
    transcript = blocks.get("verified-transcript")
    if script is not None and _plain(script, linenos_allowed=True):
        tokens = _worker_tokens(script) or _tokens(translator, script)
        if tokens is not None:
            _replace(translator, script, tokens)
            if excerpt is not None and _plain(excerpt) and _spell(tokens, script.rawsource):
                _cut_excerpt(translator, excerpt, script.rawsource, tokens)
    if transcript is not None and _plain(transcript):
        tokens = _tokens(translator, transcript)
        if tokens is not None:
            _replace(translator, transcript, tokens)


def _role(block: nodes.literal_block) -> str:
    """Which of the three a block is: by its own class, or by its collapsible's."""
    for element in (block, block.parent):
        for name in ("verified-excerpt", "verified-script", "verified-transcript"):
            if element is not None and name in element.get("classes", ()):
                return name
    return ""


def _plain(block: nodes.literal_block, *, linenos_allowed: bool = False) -> bool:
    """A block Sphinx would highlight with nothing but its language (and line numbers)."""
    return (block.rawsource == block.astext() and not block.get("highlight_args")
            and not block.get("force") and (linenos_allowed or not block.get("linenos")))


def _tokens(translator: Any, block: nodes.literal_block) -> list[Token] | None:
    """Pygments' tokens for the block, as Sphinx would lex it; None if Pygments objects."""
    language = block.get("language", "default")
    options = translator.config.highlight_options.get(language, {})
    lexer = translator.highlighter.get_lexer(block.rawsource, language, options, location=block)
    try:
        return list(lexer.get_tokens(block.rawsource))
    except ErrorToken:  # Sphinx retries it in relaxed mode, with a warning: leave it to Sphinx
        return None


def _worker_tokens(block: nodes.literal_block) -> list[Token] | None:
    """The tokens the helper made of this script, if they are of this very text."""
    made = block.get("verified_tokens")
    return decode_tokens(made, block.rawsource) if made else None


def lex_scripts(doctree: nodes.document, lexer: tuple[tuple[str, Any], ...] | None) -> None:
    """Keep each check's script tokens on it, lexed with Sphinx's options for ``python``
    (``lexer``; None: a custom lexer, which only Sphinx can apply)."""
    from . import nodes as vnodes

    for check in doctree.findall(vnodes.numeric_check):
        if "script" in check:
            check["script_tokens"] = script_tokens(check["script"], lexer)


def script_tokens(source: str, lexer_options: tuple[tuple[str, Any], ...] | None) -> str | None:
    """The Python tokens of ``source`` as Sphinx's HTML writer would lex it, as JSON; None if
    not.

    The lexer is Sphinx's for ``python`` (``stripnl`` off, Pygments' ``raiseonerror`` filter
    on); a script Pygments rejects, or one Sphinx would lex as a console session, gets no
    tokens, and Sphinx highlights it itself.

    The tokens are not written as (type, text) pairs: the texts are the script itself, in
    order. ``kinds`` names each token type once, ``runs`` holds a type's index and a length per
    token, ``text`` is a digest of the script they cut, and ``newline`` says that Pygments
    added a final newline. A fifth of the size of the pairs (1.9 KB for the book's 50-line
    scripts, against 8.7 KB), they make every checked page's doctree smaller;
    :func:`decode_tokens` reads them back.
    """
    if lexer_options is None or source.startswith(">>>"):
        return None
    try:
        from pygments.lexers import PythonLexer

        lexer = PythonLexer(stripnl=False, **dict(lexer_options))
        lexer.add_filter("raiseonerror")
        kinds: dict[str, int] = {}
        runs: list[int] = []
        texts: list[str] = []
        for kind, text in lexer.get_tokens(source):
            runs += (kinds.setdefault(str(kind), len(kinds)), len(text))
            texts.append(text)
    except Exception:  # any failure only means no tokens: Sphinx lexes the script
        return None
    spelled = "".join(texts)
    if spelled not in (source, source + "\n"):
        return None  # a lexer that changed the text: its tokens cannot be cut from it
    return json.dumps({"kinds": list(kinds), "runs": runs, "text": _text_digest(source),
                       "newline": spelled != source}, separators=(",", ":"))


def _text_digest(text: str) -> str:
    """A short digest of a script's text, for its tokens to name what they were cut from."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def decode_tokens(made: str, text: str) -> list[Token] | None:
    """The tokens :func:`script_tokens` wrote, cut from ``text``; None if they were made of
    another text or cannot be read."""
    try:
        data = json.loads(made)
        if data["text"] != _text_digest(text):
            return None
        kinds = [_token_type(kind) for kind in data["kinds"]]
        runs = data["runs"]
        spelled = text + "\n" if data["newline"] else text
        tokens: list[Token] = []
        at = 0
        for index in range(0, len(runs), 2):
            end = at + runs[index + 1]
            tokens.append((kinds[runs[index]], spelled[at:end]))
            at = end
    except (ValueError, KeyError, TypeError, IndexError):
        return None
    return tokens if at == len(spelled) else None


def _spell(tokens: list[Token], text: str) -> bool:
    """Whether the tokens are ``text`` itself (Pygments may add a final newline), so that
    they map line for line onto it; a lexer that changed line ends or dropped a byte-order
    mark has tokens of another text."""
    return "".join(value for _, value in tokens) in (text, text + "\n")


@cache
def _token_type(name: str) -> _TokenType:
    return string_to_tokentype(name)


def _cut_excerpt(translator: Any, excerpt: nodes.literal_block, script: str,
                 tokens: list[Token]) -> None:
    """Highlight the excerpt with the script's tokens of its lines, if it is a run of them."""
    lines = _token_lines(tokens)
    wanted = excerpt.rawsource.splitlines(keepends=True)
    have = script.splitlines(keepends=True)
    for first in range(len(have) - len(wanted) + 1):
        if wanted and have[first : first + len(wanted)] == wanted:
            cut = [token for line in lines[first : first + len(wanted)] for token in line]
            _replace(translator, excerpt, _ending_newline(cut))
            return


def _token_lines(tokens: Iterable[Token]) -> list[list[Token]]:
    """The tokens split at line ends, each line keeping its newline."""
    lines: list[list[Token]] = [[]]
    for kind, value in tokens:
        parts = value.split("\n")
        for index, part in enumerate(parts):
            if part:
                lines[-1].append((kind, part))
            if index < len(parts) - 1:
                lines[-1].append((kind, "\n"))
                lines.append([])
    return lines if lines[-1] else lines[:-1]


def _ending_newline(tokens: list[Token]) -> list[Token]:
    """Pygments ends a block's last line with a newline (its ``ensurenl``)."""
    if tokens and tokens[-1][1].endswith("\n"):
        return tokens
    return [*tokens, (Text.Whitespace, "\n")]


def _replace(translator: Any, block: nodes.literal_block, tokens: list[Token]) -> None:
    """Put the block's HTML in its place, written as Sphinx's ``visit_literal_block`` would."""
    language = block.get("language", "default")
    out = StringIO()
    _formatter(translator, bool(block.get("linenos"))).format(iter(tokens), out)
    start = translator.starttag(block, "div", suffix="",
                                CLASS=f"highlight-{language} notranslate")
    block.replace_self(nodes.raw("", f"{start}{out.getvalue()}</div>\n", format="html"))


def _formatter(translator: Any, linenos: bool) -> Any:
    """Sphinx's formatter for a block with or without line numbers, made once per build."""
    highlighter = translator.highlighter
    made = _FORMATTERS.setdefault(highlighter, {})
    if linenos not in made:
        style = translator.config.html_codeblock_linenos_style if linenos else False
        made[linenos] = highlighter.get_formatter(linenos=style or linenos)
    return made[linenos]
