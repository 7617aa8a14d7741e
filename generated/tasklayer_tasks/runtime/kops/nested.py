"""Tasks inside a field's value: a listener's default action forwarding to a TargetGroup, an
auto-scaling group's launch template, a group spread over several Subnets.

kOps' tasks hold other tasks wherever the API holds an id (``fi.Task`` pointers inside
structures); so do these: a task anywhere in a field's value, inside lists and dicts, stands
for its reference value (its id or ARN) once it has one, and is a dependency that runs first.
``Joined`` holds the ids an API wants as one delimited string (``VPCZoneIdentifier``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any


class Node:
    """What a field's value may hold in place of an id: a task (:class:`.task.Task` is one)."""

    @property
    def key(self) -> str:
        """How messages name it."""
        return type(self).__name__

    @property
    def owned(self) -> bool | None:
        """Whether the cluster owns what it stands for: None until known."""
        return None


@dataclass(frozen=True)
class Joined:
    """Values sent as one string joined by ``separator``; tasks among them by their ids."""

    items: tuple[Any, ...]
    separator: str = ","

    def __init__(self, items: Any, separator: str = ",") -> None:
        object.__setattr__(self, "items", tuple(items))
        object.__setattr__(self, "separator", separator)


def tasks_in(value: Any) -> Iterator[Node]:
    """Every task inside ``value`` (lists, tuples, dicts, :class:`Joined`), depth first."""
    if isinstance(value, Node):
        yield value
    elif isinstance(value, Joined):
        for item in value.items:
            yield from tasks_in(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from tasks_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from tasks_in(item)


def resolved(value: Any, reference: Callable[[Node], Any]) -> Any:
    """``value`` with each task inside it replaced by ``reference(task)``; a :class:`Joined`
    becomes its string. Values without tasks come back as they are."""
    if isinstance(value, Node):
        return reference(value)
    if isinstance(value, Joined):
        return value.separator.join(str(resolved(v, reference)) for v in value.items)
    if isinstance(value, list) and any(True for _ in tasks_in(value)):
        return [resolved(v, reference) for v in value]
    if isinstance(value, dict) and any(True for _ in tasks_in(value)):
        return {k: resolved(v, reference) for k, v in value.items()}
    return value
