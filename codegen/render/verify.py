"""The last gate before formatting: every rendered module parses, and binds each top-level name
once.

Views and the safe types make schema text unable to become code; this checks the result
anyway, since a name imported and then defined again (a resource renamed ``Task`` beside
``from ...runtime.kops.task import Task``) is valid Python that silently shadows. Either problem is an
error naming the module, the line and both bindings, never output that fails on import.
"""

from __future__ import annotations

import ast
from typing import Iterator

from codegen.errors import TasklayerError


def check_modules(files: dict[str, str]) -> dict[str, str]:
    """``files`` unchanged, once every ``.py`` among them has passed both checks."""
    for path, source in files.items():
        if path.endswith(".py"):
            _check_module(path, source)
    return files


def _check_module(path: str, source: str) -> None:
    try:
        tree = ast.parse(source, filename=path)
    except SyntaxError as err:
        raise TasklayerError(
            f"generated code does not parse: {err.msg}",
            file=path,
            pointer=f"line {err.lineno}",
            fragment=(err.text or "").strip(),
            notes=["a template or view let text through unescaped; this is a generator bug"],
        ) from None
    seen: dict[str, int] = {}
    for name, line in _bindings(tree.body):
        if name in seen:
            raise TasklayerError(
                f"the name {name!r} is bound twice at module level (lines {seen[name]} and {line}); "
                "one would shadow the other",
                file=path,
                pointer=f"line {line}",
                notes=["a resource or class name collides with a name the module imports; rename it with an overlay"],
            )
        seen[name] = line


def _bindings(body: list[ast.stmt]) -> Iterator[tuple[str, int]]:
    """Names a module body binds, including under ``if TYPE_CHECKING:``."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.name != "annotations" or not isinstance(node, ast.ImportFrom) or node.module != "__future__":
                    yield (alias.asname or alias.name).split(".")[0], node.lineno
        elif isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.name, node.lineno
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    yield target.id, node.lineno
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            yield node.target.id, node.lineno
        elif isinstance(node, ast.If):
            yield from _bindings(node.body)
