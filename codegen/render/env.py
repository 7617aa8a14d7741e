"""The one Jinja2 environment every template renders in.

Strict on purpose: a name a template expects but the context lacks is an error, not an empty
string in generated code; nothing that varies between runs (clock, host, environment, random)
is reachable from a template, so the same inputs render the same bytes.

Every ``{{ ... }}`` must print one of the safe types of :mod:`codegen.naming` (an identifier,
a literal, an escaped docstring, composed code): the environment's ``finalize`` refuses a
plain ``str`` or any other value, so schema text cannot reach the output unescaped by a
template forgetting a filter. Raw values go through ``repr``, ``docstring``, ``snake`` or
``classname`` (or, in the reference pages' Markdown, ``md`` and ``code``).
"""

from __future__ import annotations

import traceback
from pathlib import Path
from typing import Any

import jinja2

from codegen.errors import TasklayerError
from codegen.naming import (
    SAFE_TYPES,
    Code,
    Docstring,
    Markdown,
    PythonLiteral,
    UnrepresentableValue,
    class_name,
    markdown_code,
    markdown_from_rst,
    module_name,
    python_literal,
    safe_docstring,
    safe_markdown,
)

# Jinja2 defaults that draw on ``random``: gone, so a template cannot make output vary.
_NONDETERMINISTIC_FILTERS = ("random",)
_NONDETERMINISTIC_GLOBALS = ("lipsum",)


def make_environment(templates_dir: Path) -> jinja2.Environment:
    """The strict environment over ``templates_dir``, with the filters that put schema values
    into code safely: ``repr``, ``docstring``, ``snake`` and ``classname``; and into the
    reference pages' Markdown: ``md`` (prose), ``rst`` (API documentation, its inline markup
    kept) and ``code`` (a name as a code span)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir)),
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # Python, and Markdown escaped by its own filters: not HTML
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
        finalize=only_safe,
        bytecode_cache=_COMPILED,
    )
    for name in _NONDETERMINISTIC_FILTERS:
        env.filters.pop(name, None)
    for name in _NONDETERMINISTIC_GLOBALS:
        env.globals.pop(name, None)
    env.filters.update(
        repr=_raw(python_literal),
        docstring=_raw(safe_docstring),
        snake=_raw(module_name),
        classname=_raw(class_name),
        md=_raw(safe_markdown),
        code=_raw(markdown_code),
        rst=_raw(markdown_from_rst),
    )
    return env


class _MemoryBytecodeCache(jinja2.BytecodeCache):
    """Compiled templates kept for this process, keyed by name and checked against the
    source's checksum by Jinja2: an edited template is compiled again, an unchanged one (every
    run in a test session) is not."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self._code:
            bucket.bytecode_from_string(self._code[bucket.key])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


_COMPILED = _MemoryBytecodeCache()


class UnsafeOutput(TypeError):
    """A template printed a value that is not one of the safe types."""


def only_safe(value: object) -> object:
    """The environment's ``finalize``: what a ``{{ }}`` prints must be safe by construction."""
    if isinstance(value, (SAFE_TYPES, jinja2.Undefined)):  # an undefined one raises when printed
        return value
    raise UnsafeOutput(
        f"a template printed a raw {type(value).__name__} ({value!r:.60}); pass it through "
        "repr, docstring, snake or classname, or build it as a safe type in the view"
    )


def _raw(convert: Any) -> Any:
    """A filter that takes raw values only: converting an already converted value (a docstring
    escaped twice, the repr of code) would print something other than the schema said."""

    def filter_(value: Any) -> Any:
        if isinstance(value, (Docstring, PythonLiteral, Code, Markdown)):
            raise UnsafeOutput(f"{convert.__name__} of an already converted {type(value).__name__}")
        return convert(value)

    filter_.__name__ = convert.__name__
    return filter_


def render_template(env: jinja2.Environment, name: str, /, **context: Any) -> str:
    """Render one template; a template mistake becomes a :class:`TasklayerError` naming the
    template file and line rather than a traceback through Jinja2's generated code.
    ``env`` and ``name`` are positional-only, so templates may use variables of those names."""
    try:
        return env.get_template(name).render(**context)
    except jinja2.TemplateSyntaxError as err:
        raise TasklayerError(
            f"template syntax error: {err.message}",
            file=err.filename or name,
            pointer=f"line {err.lineno}",
            fragment=(
                err.source.splitlines()[err.lineno - 1].strip()
                if err.source and err.lineno
                else None
            ),
        ) from err
    except (jinja2.TemplateError, UnrepresentableValue, UnsafeOutput) as err:
        file, line = _template_location(env, err, name)
        raise TasklayerError(f"cannot render template: {err}", file=file, pointer=line) from err
    except TasklayerError as err:  # e.g. an empty API name given to the snake filter
        if err.file is None:
            err.file, err.pointer = _template_location(env, err, name)
        raise


def _template_location(
    env: jinja2.Environment, err: BaseException, name: str
) -> tuple[str, str | None]:
    """The innermost template frame of ``err``'s traceback (Jinja2 rewrites tracebacks so its
    frames carry the template's file name and line), or just ``name`` when there is none."""
    roots = _template_roots(env)
    for frame in reversed(traceback.extract_tb(err.__traceback__)):
        if any(Path(frame.filename).is_relative_to(root) for root in roots):
            return frame.filename, f"line {frame.lineno}"
    return name, None


def _template_roots(env: jinja2.Environment) -> list[Path]:
    loader = env.loader
    if isinstance(loader, jinja2.FileSystemLoader):
        return [Path(p) for p in loader.searchpath]
    return []
