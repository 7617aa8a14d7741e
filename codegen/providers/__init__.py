"""Providers: one folder per cloud, each the whole of what differs between clouds.

A provider folder (``aws/``, ``gcp/``) holds its source loader (``source.py``), its rules
(``rules/``, in the order ``rules/run.py`` lists them), its call-shape variant of the model
(``shapes.py``), its views (``views.py``) and, in ``provider.py``, the one object that names
them with its templates and runtime core modules (:class:`codegen.providers.base.Provider`).
Its ``__init__`` holds only the light facts (``INFO``) that the CLI and the input checks read
without loading an SDK. The stages import :mod:`codegen.providers.registry`, never a provider
by name: a folder here is a provider.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from codegen.providers.base import ProviderInfo

NAMES: tuple[str, ...] = tuple(sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg))
"""Every provider, by folder name: the ``<provider>`` of ``schemas/<provider>/``, of
``schemas/overlays/<provider>/`` and of ``tasklayer_tasks/<provider>/``."""


def info(name: str) -> ProviderInfo:
    """The light facts of provider ``name`` (its folder's ``INFO``), without loading its SDK."""
    return importlib.import_module(f"{__name__}.{name}").INFO  # type: ignore[no-any-return]
