"""``tasklayer generate`` end to end: verify the inputs, reuse a cached result when nothing
changed, render otherwise, refuse to drop what ``generated/`` has, and write (or compare).

Kept apart from ``codegen.pipeline`` (the stages proper) so the cache-hit path imports neither
botocore, Jinja2 nor black: a no-change run costs hashing, not rendering.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from codegen.cache import DEFAULT_DIR, Cache, tree_key
from codegen.errors import TasklayerError
from codegen.inputs import Inputs, collect_inputs
from codegen.metadata import black_version
from codegen.providers import NAMES
from codegen.writer import WriteResult, write_tree

PACKAGE = "tasklayer_tasks"  # as codegen.render.package names it (not imported: it pulls in Jinja2)
CRDS = "crds"  # the CRDs' folder inside the package, as codegen.render.package names it
REFERENCE = "docs/reference"  # the reference pages' folder, as codegen.render.reference names it
METADATA_FILE = "tasklayer-generate-metadata.json"


@dataclass
class GenerateOptions:
    schemas: Path
    templates: Path
    output: Path
    check: bool = False
    force: bool = False  # remove files in the output that no run wrote
    allow_drop: bool = False  # let a run remove a service (or the runtime) the output has
    services: list[str] | None = None  # write only these services' files ("ec2", "gcp/compute")
    cache_dir: Path | None = None  # None: no cache
    progress: Callable[[str, int, int], None] | None = None  # (step, done, total)


@dataclass
class Outcome:
    result: WriteResult
    files: dict[str, str]
    cached: bool
    unrendered: dict[str, str] = field(default_factory=dict)  # "aws/route53" -> why nothing
    not_generated: dict[str, dict[str, str]] = field(
        default_factory=dict
    )  # "aws/ec2" -> {resource: why}


def default_cache_dir(repo_root: Path) -> Path:
    return Path(os.environ.get("TASKLAYER_CACHE_DIR") or repo_root / DEFAULT_DIR)


def run(options: GenerateOptions) -> Outcome:
    inputs = collect_inputs(options.schemas, options.templates)
    wanted = _resolve_services(inputs, options.services)
    cache = Cache(options.cache_dir) if options.cache_dir else None
    key = tree_key(inputs, black_version())
    files = _from_cache(cache, key)
    cached = files is not None
    if files is None:
        files = _render(options, inputs, cache)
        if cache is not None:
            cache.store_tree(key, files)
    if wanted is not None:
        files = _only(files, wanted, options.output)
    if not options.check:
        _refuse_drops(files, options.output, options.allow_drop)
    result = write_tree(options.output, files, check=options.check, force=options.force)
    return Outcome(result, files, cached, _unrendered(files, inputs), _not_generated(files))


def _from_cache(cache: Cache | None, key: str) -> dict[str, str] | None:
    if cache is None:
        return None
    tree = cache.tree(key)
    return cache.files(tree) if tree is not None else None


def _render(options: GenerateOptions, inputs: Inputs, cache: Cache | None) -> dict[str, str]:
    from codegen.pipeline import render
    from codegen.render.formatting import MODE, format_python

    total = len(inputs.services) + 1
    done = 0

    def step(name: str) -> None:
        nonlocal done
        done += 1
        if options.progress:
            options.progress(name, done, total)

    formatter = (
        format_python
        if cache is None
        else cache.formatter(format_python, f"{black_version()} {MODE!r}")
    )

    def format_step(files: dict[str, str]) -> dict[str, str]:
        out = formatter(files)
        step("black")
        return out

    return render(options.schemas, options.templates, inputs, step, format_step)


def _resolve_services(inputs: Inputs, names: list[str] | None) -> set[tuple[str, str]] | None:
    """``ec2`` or ``aws/ec2`` -> (provider, service); an unknown name is an error with a guess."""
    if not names:
        return None
    from codegen.names import unpinned_service_error

    out = set()
    for name in names:
        provider, _, service = name.rpartition("/")
        found = [
            (s.provider, s.name)
            for s in inputs.services
            if s.name == service and provider in ("", s.provider)
        ]
        if len(found) != 1:
            if len(found) > 1:
                raise TasklayerError(
                    f"service {name!r} is pinned for several providers",
                    notes=[f"name one: {', '.join(f'{p}/{n}' for p, n in found)}"],
                )
            raise unpinned_service_error(name, [(s.provider, s.name) for s in inputs.services])
        out.update(found)
    return out


def _service_of(path: str) -> tuple[str, str] | None:
    parts = path.split("/")
    if len(parts) > 3 and parts[0] == PACKAGE and parts[1] in NAMES:
        return parts[1], parts[2]
    if len(parts) > 4 and parts[0] == PACKAGE and parts[1] == CRDS:
        return parts[2], parts[3]
    if len(parts) > 4 and path.startswith(REFERENCE + "/"):  # docs/reference/<provider>/<service>/
        return parts[2], parts[3]
    return None


def _only(files: dict[str, str], wanted: set[tuple[str, str]], output: Path) -> dict[str, str]:
    """The rendered tree, except that other services' files stay as they are on disk."""
    out = {p: t for p, t in files.items() if _service_of(p) is None or _service_of(p) in wanted}
    for path in _disk_paths(output):
        owner = _service_of(path)
        if owner is not None and owner not in wanted:
            out[path] = (output / path).read_text(encoding="utf-8")
    return out


def _disk_paths(output: Path) -> list[str]:
    if not output.is_dir():
        return []
    return [
        p.relative_to(output).as_posix()
        for p in output.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    ]


def _services_in(paths: list[str] | dict[str, str]) -> set[str]:
    return {
        f"{p.split('/')[1]}/{p.split('/')[2]}"
        for p in paths
        if _service_of(p)
        and p.startswith(PACKAGE + "/")
        and p.endswith("/__init__.py")
        and p.count("/") == 3
    }


def _refuse_drops(files: dict[str, str], output: Path, allow: bool) -> None:
    """A run that would remove a whole service or the runtime from ``generated/`` is far more
    often a broken input (an emptied overlay, a deleted folder) than a wish."""
    if allow or not output.is_dir():
        return
    on_disk = _disk_paths(output)
    dropped = sorted(_services_in(on_disk) - _services_in(files))
    runtime = f"{PACKAGE}/runtime/__init__.py"
    if runtime in on_disk and runtime not in files:
        dropped.append("the runtime")
    if dropped:
        raise TasklayerError(
            f"this run would remove {', '.join(dropped)} from the generated package",
            file=str(output),
            notes=["pass --allow-drop if that is what you want"],
        )


def _metadata_services(files: dict[str, str]) -> list[dict]:  # type: ignore[type-arg]
    try:
        return list(json.loads(files[METADATA_FILE])["services"])
    except (KeyError, ValueError):
        return []


def _not_generated(files: dict[str, str]) -> dict[str, dict[str, str]]:
    """Resources a ``generate: all`` left out, and why (read back from the metadata file, so a
    cached run says the same as a fresh one)."""
    return {
        f"{s['provider']}/{s['service']}": s["not_generated"]
        for s in _metadata_services(files)
        if s.get("not_generated")
    }


def _unrendered(files: dict[str, str], inputs: Inputs) -> dict[str, str]:
    """Which pinned services produced nothing, and why (read back from the metadata file)."""
    out = {}
    for s in _metadata_services(files):
        if s["rendered"]:
            continue
        if s.get("not_generated"):
            out[f"{s['provider']}/{s['service']}"] = (
                "`generate: all` found no resource with a complete annotation"
            )
            continue
        overlay = f"{s['provider']}/{s['service']}.yaml"
        out[f"{s['provider']}/{s['service']}"] = (
            f"its overlay (schemas/overlays/{overlay}) has no `generate:` list"
            if overlay in inputs.overlays
            else f"it has no overlay (schemas/overlays/{overlay}) with a `generate:` list"
        )
    return out
