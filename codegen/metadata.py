"""``generated/tasklayer-generate-metadata.json``: where the generated tree came from.

Like ACK's ``ack-generate-metadata.yaml``: the generator's version, the SDK versions the schemas
were pinned from, black's version, and the sha256 of every pinned schema, overlay and template,
so a reviewer (or ``tasklayer drift``) can tell what produced a vendored copy. Everything in it
is a function of the inputs — no clock, no host — so regeneration stays byte-identical.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import metadata as importlib_metadata

import codegen
from codegen.inputs import Inputs
from codegen.providers import info

METADATA_FILE = "tasklayer-generate-metadata.json"
FORMAT = 1


def black_version() -> str:
    try:
        return importlib_metadata.version("black")
    except importlib_metadata.PackageNotFoundError:
        return "unknown"


def metadata_text(
    inputs: Inputs,
    rendered: dict[str, tuple[str, ...]],
    not_generated: Mapping[str, Mapping[str, str]] | None = None,
    degraded: Mapping[str, Mapping[str, str]] | None = None,
) -> str:
    """``rendered``: "provider/service" -> the resources rendered for it (empty: none);
    ``not_generated``: "provider/service" -> {resource: why} for a ``generate: all`` service;
    ``degraded``: "provider/service" -> {"Resource.Field": what render made of its class, and
    why} (render/capability.py)."""
    not_generated = not_generated or {}
    degraded = degraded or {}
    doc = {
        "format": FORMAT,
        "generator": {"name": "tasklayer", "version": codegen.__version__},
        "sdks": dict(sorted(inputs.sdk_versions.items())),
        "formatter": {"black": black_version()},
        "services": [
            {
                "provider": s.provider,
                "service": s.name,
                "api_version": s.api_version,
                "pinned_from": f"{info(s.provider).distribution} {s.sdk_version}",
                "rendered": list(rendered.get(f"{s.provider}/{s.name}", ())),
                **(
                    {"not_generated": dict(left)}
                    if (left := not_generated.get(f"{s.provider}/{s.name}"))
                    else {}
                ),
                **(
                    {"degraded": dict(lowered)}
                    if (lowered := degraded.get(f"{s.provider}/{s.name}"))
                    else {}
                ),
            }
            for s in inputs.services
        ],
        "inputs": {
            "schemas": dict(sorted(inputs.schemas.items())),
            "overlays": dict(sorted(inputs.overlays.items())),
            "templates": {
                "set_sha256": inputs.templates_digest,
                "files": dict(sorted(inputs.templates.items())),
            },
        },
    }
    return json.dumps(doc, indent=2, sort_keys=False) + "\n"
