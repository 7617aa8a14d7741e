"""Overlays: typed, validated per-service corrections to what the annotation rules decided.

``load`` reads ``schemas/overlays/<provider>/<service>.yaml`` into the dataclasses of
``schema``; ``check`` holds the checks that need the draft and the service's operations;
``apply`` changes the draft, recording ``overlay:<file>#<key>`` as provenance. The format is
described in ``schemas/overlays/README.md``.
"""

from codegen.overlays.apply import apply_overlay
from codegen.overlays.load import find_overlay, load_overlay
from codegen.overlays.schema import FieldOverlay, Overlay, ResourceOverlay

__all__ = [
    "FieldOverlay",
    "Overlay",
    "ResourceOverlay",
    "apply_overlay",
    "find_overlay",
    "load_overlay",
]
