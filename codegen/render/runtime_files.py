"""The runtime and the testing helpers, copied verbatim into the generated package.

Most of the runtime stands on its own; a layer built from generated tasks (the cloud-provider
face: ``from ...aws.ec2 import RouteTable``) needs those services in the package. Which ones is
read from its imports, not declared: a module of a layer that imports a generated service the
package does not hold is left out (the face's ``gcp.py`` from a package of AWS services), and a
layer none of whose service-importing modules is left is left out whole (a package of S3 alone
ships no cloud-provider face rather than one that fails on import)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from codegen.errors import TasklayerError

FOLDERS = ("runtime", "testing")  # copied from templates/, with their subpackages


def runtime_files(templates_dir: Path, package: str, services: set[str]) -> dict[str, str]:
    """Path in the package -> source; ``services``: what the package holds ("aws/ec2")."""
    runtime = templates_dir / "runtime"
    if not any(runtime.rglob("*.py")):
        raise TasklayerError(
            "the runtime sources are missing: the package would ship without its runtime",
            file=runtime,
        )
    sources = {
        (folder, path.relative_to(templates_dir / folder)): path.read_text(encoding="utf-8")
        for folder in FOLDERS
        for path in sorted((templates_dir / folder).rglob("*.py"))
        if "__pycache__" not in path.parts
    }
    needs = {
        key: set(generated_imports(text, len(key[1].parts)))
        for key, text in sources.items()
        if len(key[1].parts) > 1
    }
    dropped = {key for key, wanted in needs.items() if wanted - services}
    layers = {(folder, relative.parts[0]) for folder, relative in needs}
    kept = {(f, r.parts[0]) for (f, r), wanted in needs.items() if wanted and (f, r) not in dropped}
    users = {(f, r.parts[0]) for (f, r), wanted in needs.items() if wanted}
    missing = {layer for layer in layers if layer in users and layer not in kept}
    return {
        f"{package}/{folder}/{relative.as_posix()}": text
        for (folder, relative), text in sources.items()
        if (folder, relative) not in dropped
        and (len(relative.parts) == 1 or (folder, relative.parts[0]) not in missing)
    }


def generated_imports(text: str, depth: int) -> Iterator[str]:
    """The generated services ("aws/ec2") a module ``depth`` folders below the package's root
    package (``runtime/cloudprovider/aws.py``: 2) imports with a relative import."""
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom) and node.level > depth and node.module:
            parts = node.module.split(".")
            if len(parts) >= 2:
                yield "/".join(parts[:2])
