"""Every provider object, by name: what the pipeline, the commands and render look providers
up in. Importing this loads each provider's SDK; :data:`codegen.providers.NAMES` and
:func:`codegen.providers.info` do not."""

from __future__ import annotations

import importlib

from codegen.errors import TasklayerError
from codegen.providers import NAMES
from codegen.providers.base import Provider

PROVIDERS: dict[str, Provider] = {
    name: importlib.import_module(f"codegen.providers.{name}.provider").PROVIDER for name in NAMES
}


def provider(name: str) -> Provider:
    """The provider called ``name``; an error naming the known ones otherwise."""
    if name not in PROVIDERS:
        raise TasklayerError(f"no provider {name!r}", notes=[f"providers: {', '.join(NAMES)}"])
    return PROVIDERS[name]
