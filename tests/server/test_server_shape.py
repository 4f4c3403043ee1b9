"""The server package's shape (issue 28, item 1): no function longer than ``MAX_FUNCTION_LINES`` and no
import circle between its modules; and no import circle anywhere in floe (item 6: Arctic's and the lab's are
gone). Both are read from the source with ``ast``: nothing is imported."""

from __future__ import annotations

import ast
from pathlib import Path

import floe

MAX_FUNCTION_LINES = 100
SRC = Path(floe.__file__).parent  # src/floe


def _modules(package: str, src: Path) -> dict[str, ast.Module]:
    """Every module of ``package`` (dotted, its files under ``src``/..), parsed, by its dotted name."""
    root = src.parent / package.replace(".", "/")
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(src.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return found


def _imports(name: str, tree: ast.Module, known: set[str]) -> set[str]:
    """The modules of ``known`` that module ``name`` imports, anywhere in it (a function's import, or one
    under ``TYPE_CHECKING``, still ties the two modules together)."""
    package = name if any(k.startswith(name + ".") for k in known) else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            subs = [f"{base}.{alias.name}" for alias in node.names]
            # `from package import module` ties to the module; the package itself only when a name of its
            # own is imported (a package always loads before its modules: no circle of its making).
            targets = subs + ([base] if any(s not in known for s in subs) else [])
        else:
            continue
        found |= {t for t in targets if t in known and t != name}
    return found


def import_circles(package: str, src: Path = SRC) -> list[list[str]]:
    """The import circles among ``package``'s modules (each as the modules around it, the first again at
    the end), found by a depth-first walk of the import graph."""
    modules = _modules(package, src)
    graph = {name: _imports(name, tree, set(modules)) for name, tree in modules.items()}
    circles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(name: str) -> None:
        state[name] = 1
        path.append(name)
        for after in sorted(graph[name]):
            if state.get(after) == 1:
                circles.append([*path[path.index(after) :], after])
            elif after not in state:
                visit(after)
        path.pop()
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)
    return circles


def long_functions(package: str, src: Path = SRC, limit: int = MAX_FUNCTION_LINES) -> list[str]:
    """``module:function (lines)`` for each function of ``package`` longer than ``limit`` lines."""
    long = []
    for name, tree in _modules(package, src).items():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > limit:
                    long.append(f"{name}:{node.name} ({lines})")
    return long


def test_no_server_function_is_over_100_lines() -> None:
    assert long_functions("floe.server") == []


def test_no_import_circle_in_the_server() -> None:
    assert import_circles("floe.server") == []


def test_no_import_circle_anywhere_in_floe() -> None:
    assert import_circles("floe") == []


def test_the_checks_can_fail(tmp_path: Path) -> None:
    """Both checks see what they look for: a circle through a function's import, and a long function."""
    package = tmp_path / "floe" / "planted"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from floe.planted import b\n")
    (package / "b.py").write_text("def f() -> None:\n    from floe.planted.a import x\n")
    body = "".join(f"    x{k} = {k}\n" for k in range(MAX_FUNCTION_LINES))
    (package / "c.py").write_text(f"def long() -> None:\n{body}")
    src = tmp_path / "floe"
    assert import_circles("floe.planted", src) == [["floe.planted.a", "floe.planted.b", "floe.planted.a"]]
    assert long_functions("floe.planted", src) == [f"floe.planted.c:long ({MAX_FUNCTION_LINES + 1})"]
