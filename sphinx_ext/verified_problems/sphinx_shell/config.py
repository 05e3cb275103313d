"""The extension's configuration: typed values with one prefix, read through one object.

Every value is registered with its type and checked once at ``config-inited``; a wrong value
stops the build with a message naming the value and what it accepts, never a traceback.
(Sphinx 9 prints any exception, ``ConfigError`` included, with a traceback and a plea to report
a bug, so the message is logged as an error at the value's line in ``conf.py`` and the build
stops with status 2, as ``sphinx-build`` does on its own fatal errors.)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from sphinx.errors import ConfigError

from ..core import Policy, Rounding
from ..engine import CONFINE_MODES, Confinement, readable_beneath
from .diagnostics import TYPE, Subtype, logger
from .host import mathjax_macros

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.environment import BuildEnvironment

PREFIX = "verified_"

DEFAULT_POLICY_TEXT = (
    "All values rounded to {decimals} d.p. Intermediate quantities carry full precision; "
    "only what is printed is rounded."
)

#: name (without prefix) -> (default, rebuild, types, description)
_VALUES: dict[str, tuple[Any, str, tuple[type, ...], str]] = {
    "snippet_dir": ("scripts/snippets", "env", (str,), "snippet folder, relative to conf.py"),
    "decimals": (4, "env", (int,), "decimal places of the rounding policy"),
    "rounding": ("half-even", "env", (str,), "how printed numbers round: half-even or half-up"),
    "policy_text": (DEFAULT_POLICY_TEXT, "env", (str,), "the policy line of a problem header"),
    "timeout": (30.0, "env", (int, float), "seconds a snippet may run"),
    "max_output": (8 * 1024 * 1024, "env", (int,), "bytes a snippet may print"),
    "max_memory_mb": (4096, "env", (int,), "memory a snippet may use, in MiB: each process's "
                                           "address space, and all its processes together"),
    "max_processes": (64, "env", (int,), "processes a snippet may run at once"),
    "confine": ("on", "env", (str,), "what the kernel lets a snippet do: 'on', 'network' "
                                     "(TCP allowed) or 'off' (only the limits)"),
    "jobs": (0, "", (int,), "snippets run at once; 0 means one per core (one fewer while a "
                               "single reader reads, unless it waits on a snippet)"),
    "background_checks": (12, "", (int,), "check the pages of a serial HTML build in a second "
                                          "process while Sphinx writes, when it reads at least "
                                          "this many; 0 means never"),
    "cache_dir": ("", "", (str,), "snippet result cache; empty means <doctreedir>/snippet-cache"),
    "macros": ({}, "env", (dict,), "LaTeX macros: name -> body or [body, nargs]"),
    "kinds": (["numeric", "derivation", "proof", "concept"], "env", (list,), "problem kinds"),
    "reports": (True, "", (bool,), "write verification.json and verification.xml"),
    "log_base": ("e", "env", (str, int), "what a bare \\log means: 'e' (natural), 2 or 10"),
    "bindings_dir": ("_bindings", "env", (str,), "the binding records' folder, relative to "
                                                 "the source folder"),
    "unbound": ("error", "env", (str,), "a free digit with no binding: 'error', or 'allow' "
                                        "(counted as unbound in the verdicts and reports)"),
}

#: The bases a bare ``\log`` may have, as ``verified_log_base`` names them (None: natural).
_LOG_BASES: dict[object, int | None] = {"e": None, 2: 2, 10: 10}


@dataclass(frozen=True)
class VerifiedConfig:
    """The validated configuration, as the rest of the extension reads it."""

    snippet_dir: Path
    policy: Policy
    policy_text: str
    timeout: float
    max_output: int
    max_memory_mb: int
    jobs: int
    cache_dir: Path | None
    macros: dict[str, tuple[str, int]]
    kinds: tuple[str, ...]
    reports: bool
    #: Every macro a page's math may use without a warning: MathJax's own and the project's.
    known_macros: frozenset[str] = frozenset()
    #: Whether MyST reads ``:::`` fences; if not, a page's ``:::{check-numeric}`` is text.
    colon_fence: bool = True
    #: The base of a bare ``\log`` in the prose's arithmetic (None: natural).
    log_base: int | None = None
    #: The folder of the pages' binding records, relative to the source folder.
    bindings_dir: str = "_bindings"
    #: Whether a free digit with no binding fails the build (else it is counted as unbound).
    strict_bindings: bool = True
    #: The Pygments options Sphinx lexes Python with (``highlight_options``), for the helper to
    #: lex each script the same way; None when a custom ``python`` lexer makes that impossible.
    lexer: tuple[tuple[str, Any], ...] | None = None
    #: Processes a snippet may run at once (its tree, itself included).
    max_processes: int = 64
    #: What the kernel lets a snippet read and write (``verified_confine``).
    confinement: Confinement = field(default_factory=Confinement)
    #: Pages a serial HTML build reads from which it checks them beside the writer (0: never).
    background_checks: int = 12


def setup_config(app: Sphinx) -> None:
    """Register every configuration value and validate them once the configuration is read."""
    for name, (default, rebuild, types, description) in _VALUES.items():
        app.add_config_value(PREFIX + name, default, rebuild, types, description)  # type: ignore[arg-type]
    app.connect("config-inited", _validate, priority=400)
    app.connect("config-inited", _publish_macros, priority=800)
    app.connect("builder-inited", _attach, priority=100)


#: The validated configuration per build environment, for code that only has the environment
#: (directives): Sphinx 9 deprecates reaching the application through ``env.app``.
_BY_ENV: WeakKeyDictionary[BuildEnvironment, VerifiedConfig] = WeakKeyDictionary()


def read_config(app: Sphinx) -> VerifiedConfig:
    """The validated configuration of this build (computed once per build)."""
    config = _BY_ENV.get(app.env)
    if config is None:
        config = _BY_ENV[app.env] = _build(app.config, _Folders.of(app))
    return config


def early_config(app: Sphinx) -> VerifiedConfig:
    """The validated configuration before the environment exists (from ``config-inited`` on):
    the one :func:`_validate` built."""
    return _VALIDATED[app.config]


def env_config(env: BuildEnvironment) -> VerifiedConfig:
    """The validated configuration, from a directive or role (set at ``builder-inited``)."""
    return _BY_ENV[env]


def _attach(app: Sphinx) -> None:
    _BY_ENV.pop(app.env, None)
    read_config(app)


#: The configuration as validated at ``config-inited``, for what runs before the environment.
_VALIDATED: WeakKeyDictionary[Config, VerifiedConfig] = WeakKeyDictionary()


def _validate(app: Sphinx, config: Config) -> None:
    try:
        _VALIDATED[config] = _build(config, _Folders.of(app))
    except ConfigError as err:
        logger.error(str(err), location=config_location(Path(app.confdir), str(err)),
                     type=TYPE, subtype=Subtype.CONFIG.value)
        raise SystemExit(2) from None


def config_location(confdir: Path, message: str) -> str | None:
    """``conf.py:LINE`` of the assignment the message names (its first word), if any."""
    name = message.split(" ", 1)[0].split("[", 1)[0]
    conf = confdir / "conf.py"
    try:
        lines = conf.read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    assignment = re.compile(rf"{re.escape(name)}\s*(?::[^=]*)?=")
    for number, line in enumerate(lines, start=1):
        if assignment.match(line):
            return f"{conf}:{number}"
    return None


def _python_lexer_options(config: Config) -> tuple[tuple[str, Any], ...] | None:
    """Sphinx's options for lexing ``python``, hashable; None if a custom lexer is installed."""
    from sphinx.highlighting import lexers

    if "python" in lexers:
        return None
    options = config.highlight_options.get("python", {}) if isinstance(
        config.highlight_options, dict) else {}
    try:
        items = tuple(sorted(options.items()))
        hash(items)
    except TypeError:
        return None
    return items


def _fail(name: str, wants: str, got: object) -> ConfigError:
    return ConfigError(f"{PREFIX}{name} must be {wants}, not {got!r} (set it in conf.py)")


@dataclass(frozen=True)
class _Folders:
    """The build's folders the configuration needs: where it lives, reads and writes."""

    confdir: Path
    srcdir: Path
    outdir: Path
    doctreedir: Path

    @classmethod
    def of(cls, app: Sphinx) -> _Folders:
        return cls(*(Path(p).resolve() for p in (app.confdir, app.srcdir, app.outdir,
                                                  app.doctreedir)))


def _confinement(mode: str, folders: _Folders, cache_dir: Path | None) -> Confinement:
    """The snippets may read the book, but nothing of the build's own folders (the cache)."""
    private = [str(p) for p in (folders.outdir, folders.doctreedir, cache_dir) if p is not None]
    read = readable_beneath(str(folders.srcdir), private)
    return Confinement(mode, read=tuple(Path(p) for p in read))


def _build(config: Config, folders: _Folders) -> VerifiedConfig:
    def get(name: str) -> Any:
        return getattr(config, PREFIX + name)

    confdir, doctreedir = folders.confdir, folders.doctreedir

    decimals = get("decimals")
    if isinstance(decimals, bool) or not isinstance(decimals, int) or not 0 <= decimals <= 30:
        raise _fail("decimals", "a whole number from 0 to 30", decimals)
    try:
        rounding = Rounding(get("rounding"))
    except ValueError:
        raise _fail("rounding", "'half-even' or 'half-up'", get("rounding")) from None
    for name in ("timeout", "max_output", "max_memory_mb", "max_processes"):
        value = get(name)
        if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
            raise _fail(name, "a positive number", value)
    jobs = get("jobs")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 0:
        raise _fail("jobs", "a whole number, 0 for one per core", jobs)
    background = get("background_checks")
    if isinstance(background, bool) or not isinstance(background, int) or background < 0:
        raise _fail("background_checks", "a whole number of pages, 0 for never", background)
    cache_dir = get("cache_dir")
    if not isinstance(cache_dir, str):
        raise _fail("cache_dir", "a path string", cache_dir)
    kinds = get("kinds")
    if not isinstance(kinds, list | tuple) or not all(isinstance(k, str) for k in kinds):
        raise _fail("kinds", "a list of strings", kinds)
    policy_text = get("policy_text")
    if not isinstance(policy_text, str):
        raise _fail("policy_text", "a string", policy_text)
    macros = _macros(get("macros"))
    log_base = get("log_base")
    if isinstance(log_base, bool) or log_base not in _LOG_BASES:
        raise _fail("log_base", "'e', 2 or 10", log_base)
    if get("unbound") not in ("error", "allow"):
        raise _fail("unbound", "'error' or 'allow'", get("unbound"))
    if get("confine") not in CONFINE_MODES:
        raise _fail("confine", "'on', 'network' or 'off'", get("confine"))
    bindings_dir = get("bindings_dir")
    if not isinstance(bindings_dir, str) or not bindings_dir or Path(bindings_dir).is_absolute():
        raise _fail("bindings_dir", "a folder relative to the source folder", bindings_dir)
    cache = (confdir / cache_dir).resolve() if cache_dir else doctreedir / "snippet-cache"
    return VerifiedConfig(
        snippet_dir=(confdir / get("snippet_dir")).resolve(),
        policy=Policy(decimals=decimals, rounding=rounding),
        policy_text=policy_text,
        timeout=float(get("timeout")),
        max_output=int(get("max_output")),
        max_memory_mb=int(get("max_memory_mb")),
        jobs=jobs,
        cache_dir=cache,
        macros=macros,
        kinds=tuple(kinds),
        reports=bool(get("reports")),
        log_base=_LOG_BASES[log_base],
        bindings_dir=bindings_dir,
        strict_bindings=get("unbound") == "error",
        known_macros=_known_macros(config, macros),
        colon_fence="colon_fence" in (getattr(config, "myst_enable_extensions", None) or ()),
        lexer=_python_lexer_options(config),
        max_processes=int(get("max_processes")),
        confinement=_confinement(get("confine"), folders, cache),
        background_checks=background,
    )


def _known_macros(config: Config, macros: dict[str, tuple[str, int]]) -> frozenset[str]:
    """MathJax's macros, the book's, and those the project gives MathJax itself."""
    given: set[str] = set(macros) | {"unchecked"}
    for name in ("mathjax3_config", "mathjax4_config"):
        mathjax = getattr(config, name, None)
        tex = mathjax.get("tex", {}) if isinstance(mathjax, dict) else {}
        written = tex.get("macros", {}) if isinstance(tex, dict) else {}
        given |= {str(macro).lstrip("\\") for macro in written}
    return mathjax_macros() | given


def _macros(raw: object) -> dict[str, tuple[str, int]]:
    if not isinstance(raw, dict):
        raise _fail("macros", "a dict of name -> body or [body, nargs]", raw)
    macros: dict[str, tuple[str, int]] = {}
    for name, value in raw.items():
        if isinstance(value, str):
            macros[str(name)] = (value, 0)
        elif (
            isinstance(value, list | tuple)
            and len(value) == 2
            and isinstance(value[0], str)
            and isinstance(value[1], int)
        ):
            macros[str(name)] = (value[0], value[1])
        else:
            raise _fail(f"macros[{name!r}]", "a body string or [body, nargs]", value)
    return macros


def _publish_macros(app: Sphinx, config: Config) -> None:
    """Define the book's macros once, for MathJax and for LaTeX alike."""
    macros = _macros(config.verified_macros)
    mathjax: dict[str, Any] = {name: [body, n] if n else body for name, (body, n) in macros.items()}
    mathjax.setdefault("unchecked", ["#1", 1])
    mathjax3 = dict(config.mathjax3_config or {})
    tex = dict(mathjax3.get("tex", {}))
    tex["macros"] = {**mathjax, **tex.get("macros", {})}
    mathjax3["tex"] = tex
    config.mathjax3_config = mathjax3
    preamble = "".join(
        f"\\providecommand{{\\{name}}}{{}}\\renewcommand{{\\{name}}}[{n}]{{{body}}}\n" if n else
        f"\\providecommand{{\\{name}}}{{}}\\renewcommand{{\\{name}}}{{{body}}}\n"
        for name, (body, n) in {**macros, "unchecked": ("#1", 1)}.items()
    )
    elements = dict(config.latex_elements or {})
    elements["preamble"] = elements.get("preamble", "") + _MARKS_PREAMBLE + preamble
    config.latex_elements = elements


#: What pdflatex needs for the characters the extension itself writes: the difficulty
#: triangles of a problem header and the verified mark (``\providecommand`` and
#: ``\DeclareUnicodeCharacter`` leave a book's own definitions of them in force).
_MARKS_PREAMBLE = "".join([
    "\\usepackage{amssymb}\n",
    "\\DeclareUnicodeCharacter{25B2}{\\ensuremath{\\blacktriangle}}\n",
    "\\DeclareUnicodeCharacter{25B3}{\\ensuremath{\\vartriangle}}\n",
    "\\DeclareUnicodeCharacter{2713}{\\ensuremath{\\checkmark}}\n",
    "\\DeclareUnicodeCharacter{2717}{\\ensuremath{\\times}}\n",
])
