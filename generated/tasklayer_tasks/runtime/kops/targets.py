"""Where a task's changes go: the cloud (API calls) or a dry-run plan (nothing is called)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from ..contract.context import Context
from ..contract.diff import shown
from ..contract.state import State
from .cloud import remove, render_cloud
from .task import Changes, Target, Task

__all__ = ["CloudTarget", "DryRunTarget", "Plan", "Target"]

log = logging.getLogger("tasklayer")


@dataclass
class CloudTarget:
    """Applies changes with API calls. ``on_created`` sees each new id the moment the create
    call returns, before anything else can fail."""

    context: Context
    """The cloud's clients, region or project, and the owner of what is created."""
    on_created: Callable[[Task, State], None] | None = None
    """Called with each task and its new identity the moment its create call returns."""
    warnings: list[str] = field(default_factory=list)
    """The warnings of the runs so far (each also logged)."""
    dry_run: bool = False
    """Always False: a cloud target makes the changes."""

    def render(self, task: Task, actual: Task | None, changes: Changes) -> None:
        """Create (``actual`` None) or update the task's resource: the engine's apply."""
        render_cloud(task, self, actual, changes)

    def created(self, task: Task, identity: State) -> None:
        """Hand the new identity to ``on_created``, if set."""
        if self.on_created is not None:
            self.on_created(task, identity)

    def remove(self, task: Task, state: State) -> None:
        """Delete the resource ``state`` names: the engine's delete."""
        remove(task, self.context, state)

    def warn(self, message: str) -> None:
        """Keep the warning in ``warnings`` and log it."""
        self.warnings.append(message)
        log.warning(message)


@dataclass
class Plan:
    """What a dry run found would change, like ``kops update cluster`` without ``--yes``."""

    create: list[tuple[str, list[str]]] = field(default_factory=list)
    """Per task to create: its key and its values, one ``attr: value`` line each."""
    modify: list[tuple[str, list[str]]] = field(default_factory=list)
    """Per task to update: its key and one ``attr: old -> new`` line per change."""
    delete: list[str] = field(default_factory=list)
    """The keys of the tasks whose resources would be deleted."""

    def __bool__(self) -> bool:
        return bool(self.create or self.modify or self.delete)

    def format(self) -> str:
        """The plan as ``kops update cluster`` prints it: each resource to create with its
        values, to modify with ``field: old -> new``, to delete; "No changes." when empty."""
        out: list[str] = []
        for title, entries in (
            ("Will create resources:", self.create),
            ("Will modify resources:", self.modify),
        ):
            if entries:
                out.append(title)
                for key, lines in entries:
                    out.append(f"  {key}")
                    out.extend(f"    {line}" for line in lines)
                out.append("")
        if self.delete:
            out.append("Will delete resources:")
            out.extend(f"  {key}" for key in self.delete)
            out.append("")
        return "\n".join(out) if out else "No changes.\n"


@dataclass
class DryRunTarget:
    """Records a plan; makes no mutating call (finds still read the cloud)."""

    context: Context
    """The cloud's clients: the finds read the cloud as a real run would."""
    plan: Plan = field(default_factory=Plan)
    """What the runs so far found would change."""
    warnings: list[str] = field(default_factory=list)
    """The warnings of the runs so far (each also logged)."""
    dry_run: bool = True
    """Always True: nothing is changed, the changes go into ``plan``."""

    def render(self, task: Task, actual: Task | None, changes: Changes) -> None:
        """Add the task to the plan: to create with its values, or to modify with its changes."""
        if actual is None:
            spec = task.spec
            lines = [
                f"{spec.field(n).attr}: {shown(spec, n, new)}"
                for n, (_, new) in changes.fields.items()
            ]
            self.plan.create.append((task.key, lines))
        else:
            self.plan.modify.append((task.key, changes.lines()))

    def created(self, task: Task, identity: State) -> None:  # pragma: no cover - never creates
        """Never called: a dry run creates nothing."""
        raise AssertionError("a dry run creates nothing")

    def remove(self, task: Task, state: State) -> None:
        """Add the task to the plan's deletions."""
        self.plan.delete.append(task.key)

    def warn(self, message: str) -> None:
        """Keep the warning in ``warnings``."""
        self.warnings.append(message)
