"""The runtime's spec types as the generator prints them, read from the runtime's own source.

A generated core writes each field's metadata as a ``FieldSpec(...)`` literal. Which keywords
that type takes, in which order, and which of them may be left out because they hold their
default is a fact of ``FieldSpec`` itself (templates/runtime, copied into every generated
package): it is read here from that class's source, never kept in a second table that could
drift from it. The class is looked up by name anywhere under ``templates/runtime/`` (the
runtime may move it between modules), and only literal defaults are understood: a default
the generator cannot read is an error naming the keyword, not a guess.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from codegen.errors import TasklayerError

RUNTIME = "runtime"  # the folder of templates/ the runtime is copied from
FIELD_SPEC = "FieldSpec"
DEFAULT_TEMPLATES = Path(__file__).resolve().parents[2] / "templates"  # the checkout's


@dataclass(frozen=True)
class SpecType:
    """One runtime dataclass's keywords: its fields in declaration order, and the default of
    each that has one."""

    name: str
    keywords: tuple[str, ...]
    defaults: Mapping[str, object]
    source: str  # the file it was read from

    @property
    def required(self) -> tuple[str, ...]:
        """The keywords every literal must give (no default)."""
        return tuple(k for k in self.keywords if k not in self.defaults)

    def is_default(self, keyword: str, value: object) -> bool:
        """``value`` is what the runtime assumes when the keyword is left out."""
        return keyword in self.defaults and self.defaults[keyword] == value


def runtime_type(templates_dir: Path, name: str = FIELD_SPEC) -> SpecType:
    """The runtime dataclass ``name`` as it is declared under ``templates_dir/runtime``."""
    runtime = templates_dir / RUNTIME
    for path in sorted(runtime.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if f"class {name}" in text:
            found = _parse(text, name, str(path))
            if found is not None:
                return found
    raise TasklayerError(f"the runtime declares no class {name}", file=str(runtime))


def default_field_spec() -> SpecType:
    """``FieldSpec`` of the checkout's runtime (views built outside a render, as tests do)."""
    return runtime_type(DEFAULT_TEMPLATES)


@functools.lru_cache(maxsize=8)
def _parse(text: str, name: str, file: str) -> SpecType | None:
    tree = ast.parse(text, filename=file)
    cls = next(
        (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name),
        None,
    )
    if cls is None:
        return None
    keywords: list[str] = []
    defaults: dict[str, object] = {}
    for stmt in cls.body:
        if not isinstance(stmt, ast.AnnAssign) or not isinstance(stmt.target, ast.Name):
            continue
        if ast.unparse(stmt.annotation).startswith(("ClassVar", "typing.ClassVar")):
            continue
        keyword = stmt.target.id
        keywords.append(keyword)
        if stmt.value is not None:
            try:
                defaults[keyword] = ast.literal_eval(stmt.value)
            except ValueError:
                raise TasklayerError(
                    f"{name}.{keyword}'s default is not a literal the generator can compare",
                    file=file,
                    pointer=f"line {stmt.lineno}",
                ) from None
    return SpecType(name, tuple(keywords), defaults, file)
