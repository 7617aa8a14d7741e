"""Waiting on Google's long-running operations: with the API's own ``wait`` (a long poll the
server holds open) where it has one, else ``get``, backing off between polls, and never longer
than the context's ``operation_timeout`` — after that the task tries again later, within its
own deadline, instead of polling forever. A finished operation's error becomes the taxonomy's
kind (an operation that failed because the resource is in use is an ``InUseError``).

Two shapes: compute's Operation (``status``, a ``selfLink`` naming its project, region or
zone, polled by ``operation=<name>``), and google.longrunning's (AIP-151, iam and most newer
APIs: a ``name`` that is the operation's whole resource name, "a resource name ending with
``operations/{unique_id}``", polled by ``name=``; ``done`` true once finished, and left out
while running, as proto3 JSON leaves out a false boolean)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from ..contract.errors import TryAgainLater
from ..contract.retry import RetryPolicy
from .errors import operation_error

SCOPE_PLURALS = {
    "projects": "project",
    "regions": "region",
    "zones": "zone",
    "locations": "location",
    "operations": "operation",
}


# google.longrunning.Operation.name: "operations/{id}", or ending with "/operations/{id}"
_LONGRUNNING_NAME = re.compile(r"(?:^|/)operations/[^/]+$")


def is_longrunning(answer: Mapping[str, Any]) -> bool:
    """google.longrunning's Operation: its name ends with ``operations/{id}`` and it has no
    compute ``selfLink`` (a running one may hold nothing else: ``done`` false is left out)."""
    return "selfLink" not in answer and bool(_LONGRUNNING_NAME.search(str(answer.get("name", ""))))


def is_operation(answer: Mapping[str, Any]) -> bool:
    """compute's Operation (``status``) or google.longrunning's (``done``, or its name)."""
    return "status" in answer or "done" in answer or is_longrunning(answer)


def finished(operation: Mapping[str, Any]) -> bool:
    return operation.get("status") == "DONE" or operation.get("done") is True


def operation_params(
    operation: Mapping[str, Any], parameters: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The wait/get parameters of an operation: a longrunning one's whole name; compute's from
    its selfLink (project, region or zone) and its name. Given the method's own ``parameters``
    (from its discovery document), each path parameter is filled as that method names it:
    ``projectId``/``operationId`` (container's zonal operations) from the ``projects``/
    ``operations`` segments, a resource-name ``{+name}``
    (``^projects/[^/]+/locations/[^/]+/operations/[^/]+$``) as the part of the selfLink its
    pattern matches."""
    if is_longrunning(operation):
        return {"name": str(operation["name"])}
    link = str(operation.get("selfLink", ""))
    parts = link.split("/")
    params = {SCOPE_PLURALS[k]: v for k, v in pairwise(parts) if k in SCOPE_PLURALS}
    params.setdefault("operation", str(operation.get("name", "")).rsplit("/", 1)[-1])
    if not parameters:
        return params
    out: dict[str, Any] = {}
    for name, description in parameters.items():
        if description.get("location") != "path":
            continue
        key = name[: -len("Id")] if name.endswith("Id") else name
        pattern = str(description.get("pattern") or "")
        if key in params:
            out[name] = params[key]
        elif "/" in pattern:  # a path: ^projects/[^/]+/locations/[^/]+/operations/[^/]+$
            found = re.search("(?<=/)" + pattern.lstrip("^"), link)
            if found:
                out[name] = found.group(0)
    return out


@dataclass
class OperationWaiter:
    """Polls one kind of operation: ``execute(method_id, **params)`` makes the call."""

    method: str  # compute.globalOperations.wait, or a get
    execute: Callable[..., dict[str, Any]]
    retry: RetryPolicy
    timeout: float
    clock: Callable[[], float] = field(default=time.monotonic)
    parameters: Mapping[str, Any] | None = None  # the method's, from its discovery document
    polls: int = 0  # made so far, for whoever wants to count them

    def delay(self, poll: int) -> float:
        """Exponential, capped: a ``wait`` already held the line server-side; a ``get`` must
        not hammer the API."""
        return float(min(self.retry.max_delay, self.retry.base_delay * 2**poll))

    def wait(self, operation: Mapping[str, Any], what: str) -> dict[str, Any]:
        """The operation ``what`` (the method id that started it) started, once finished; its
        error raised as a taxonomy kind."""
        current = dict(operation)
        started, waited, poll = self.clock(), 0.0, 0
        while not finished(current):
            spent = max(waited, self.clock() - started)
            if spent >= self.timeout:
                raise TryAgainLater(
                    f"{what}: {current.get('operationType', 'operation')} {current.get('name')}"
                    f" is still {current.get('status', 'running')} after {poll} polls"
                    f" ({spent:.0f}s)"
                )
            if poll:
                pause = self.delay(poll - 1)
                self.retry.sleep(pause)
                waited += pause
            current = self.execute(self.method, **operation_params(current, self.parameters))
            poll += 1
            self.polls += 1
        error = current.get("error")
        if error:
            raise operation_error(what, error)
        return current
