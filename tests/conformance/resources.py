"""The generated resources, found by walking ``tasklayer_tasks.<provider>``: each task class with
its ``ResourceSpec``, indexed by service and name so references can be followed to parents."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Resource:
    provider: str  # "aws" or "gcp"
    service: str
    name: str
    task: type  # the generated task class
    module: str

    @property
    def spec(self) -> Any:
        return self.task.spec  # type: ignore[attr-defined]


def generated(
    provider: str, services: set[str] | None = None
) -> tuple[dict[str, dict[str, Resource]], dict[str, str]]:
    """(service -> resource name -> Resource, service -> why it does not import), for every
    generated task of ``provider``. A module that does not import fails its service, by name."""
    root = importlib.import_module(f"tasklayer_tasks.{provider}")
    found: dict[str, dict[str, Resource]] = {}
    broken: dict[str, str] = {}
    for service in sorted(m.name for m in pkgutil.iter_modules(root.__path__) if m.ispkg):
        if services and service not in services:
            continue
        package = f"{root.__name__}.{service}"
        try:
            core = importlib.import_module(f"{package}.core")
            names = sorted(m.name for m in pkgutil.iter_modules(core.__path__) if not m.ispkg)
            modules = [importlib.import_module(f"{package}.{name}") for name in names]
        except Exception as err:  # a generated module that does not import: the report says so
            broken[service] = f"{type(err).__name__}: {err}"
            continue
        for module in modules:
            for task in _tasks_of(module):
                resource = Resource(provider, service, task.spec.name, task, module.__name__)
                found.setdefault(service, {})[resource.name] = resource
    return found, broken


def _tasks_of(module: Any) -> list[type]:
    from tasklayer_tasks.runtime import Task

    return [
        value
        for value in vars(module).values()
        if inspect.isclass(value)
        and issubclass(value, Task)
        and value.__module__ == module.__name__
        and getattr(value, "spec", None) is not None
    ]
