"""The house keeps its architecture: layers as folders, imports only downwards, no circle.

Read from the source with :mod:`ast` (every import, lazy ones and ``TYPE_CHECKING`` ones too),
so a new module that breaks the layering fails here, not in a reviewer's head.
"""

from __future__ import annotations

import ast
from pathlib import Path

from support import PROJECT

PACKAGE = PROJECT / "sphinx_ext" / "verified_problems"
#: Each layer and the layers it may import. ``extension`` puts the shell and the tools together.
ALLOWED = {
    "core": {"core"},
    "engine": {"engine"},
    "sphinx_shell": {"sphinx_shell", "engine", "core"},
    "tools": {"tools", "sphinx_shell", "engine", "core"},
    "extension": {"sphinx_shell", "tools"},
    "__init__": {"extension"},
}
HOSTS = ("sphinx", "docutils", "myst_parser", "myst_nb")
LONGEST = 800


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts) or "__init__"


def _imports(path: Path) -> set[str]:
    """The package's modules that ``path`` imports (relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = path.relative_to(PACKAGE).parent.parts
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = list(here[: len(here) - node.level + 1])
            target = [*base, *(node.module.split(".") if node.module else [])]
            if node.module is None:  # from . import nodes
                found |= {".".join([*target, alias.name]) for alias in node.names}
            else:
                found.add(".".join(target) or "__init__")
    return found


def _hosts(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
             for alias in node.names}
    names |= {node.module for node in ast.walk(tree)
              if isinstance(node, ast.ImportFrom) and node.module and not node.level}
    return {name.split(".")[0] for name in names} & set(HOSTS)


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _layer(module: str) -> str:
    return module.split(".")[0]


def test_every_layer_is_a_folder_and_imports_only_the_layers_below_it() -> None:
    modules = _modules()
    assert {_layer(name) for name in modules} == set(ALLOWED)
    for name, path in modules.items():
        for target in _imports(path):
            resolved = target if target in modules else target.rsplit(".", 1)[0]
            assert resolved in modules, (name, target)
            assert _layer(resolved) in ALLOWED[_layer(name)], f"{name} imports {resolved}"


def test_nothing_in_the_core_or_the_engine_imports_sphinx_docutils_or_myst() -> None:
    for name, path in _modules().items():
        if _layer(name) in ("core", "engine"):
            assert _hosts(path) == set(), name


def test_no_module_imports_itself_through_others() -> None:
    modules = _modules()
    graph = {name: {t if t in modules else t.rsplit(".", 1)[0] for t in _imports(path)} - {name}
             for name, path in modules.items()}
    # A package's __init__ re-exports its modules: an arrow into a package is one into them.
    state: dict[str, str] = {}
    trail: list[str] = []

    def visit(name: str) -> None:
        state[name] = "open"
        trail.append(name)
        for target in sorted(graph[name]):
            if state.get(target) == "open":
                cycle = [*trail[trail.index(target):], target]
                raise AssertionError("import circle: " + " -> ".join(cycle))
            if target not in state:
                visit(target)
        trail.pop()
        state[name] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name)


def test_no_module_is_so_long_that_a_reader_loses_its_thread() -> None:
    lengths = {name: len(path.read_text(encoding="utf-8").splitlines())
               for name, path in _modules().items()}
    assert {name: n for name, n in lengths.items() if n > LONGEST} == {}
