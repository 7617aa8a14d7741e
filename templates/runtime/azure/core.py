"""The Azure adapter (:class:`~..contract.adapter.Adapter`) for one ARM kind, driven by its spec.

A kind is a path with PUT and GET (``ResourceSpec.resource_path``, the ARM resource-id
template, which its PUT, GET, PATCH and DELETE share), named by its own ``name`` within its
scope: the subscription (the adapter's), a resource group, a parent resource (a subnet's
network). ``spec.read.identity`` pairs each path parameter with where its value comes from
(``@subscriptionId``, or a state field). A state is ARM's JSON with its ``properties`` lifted
(:mod:`.body`).

- **find**: GET the path; 404 is "none" (retried a little right after a create).
- **create**: PUT with every create-time field and the owner's tags, ``If-None-Match: *`` so a
  same-named resource made meanwhile is refused (412), never overwritten; a long-running PUT is
  followed to its end (:mod:`.arm`). The answer is the whole resource (``answer``).
- **update**: read-modify-PUT: GET the resource as it is now, set the changed fields, PUT it
  back with ``If-Match`` its etag; a 412 (someone wrote in between) reads again and recomputes,
  a few times. Every member read goes back, so a child collection another task manages (a
  network's subnets, a security group's rules) is never dropped (the ASO #1944 class); nothing
  is sent when nothing changed (the engine calls ``update`` only with changes: ASO #2811).
- **delete**: DELETE, followed to its end; 404 is success; ARM's in-use codes are
  :class:`~..contract.errors.InUseError`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..contract.calls import CallCount
from ..contract.errors import ConflictError, NotFoundError, PreconditionFailedError, TaskError
from ..contract.ownership import Owner
from ..contract.snapshot import Snapshots
from ..contract.spec import ResourceSpec
from ..contract.state import State
from .arm import Arm
from .body import children_dropped, create_body, state_of, update_body

_PARAM = re.compile(r"\{([^}]+)\}")
PRECONDITION_TRIES = 3  # read-modify-PUTs one update makes while others keep writing
NOT_FOUND_TRIES = 4  # looks right after a create, for ARM's read-after-write lag


class AzureCore:
    """The calls for one ARM kind, in one subscription."""

    def __init__(self, spec: ResourceSpec, arm: Arm) -> None:
        self.spec = spec
        self.arm = arm
        self.snapshots: Snapshots | None = None
        self.calls: CallCount | None = arm.calls
        self.answer: State | None = None
        self.pending: dict[str, Any] | None = None  # ARM's operations are followed to their end

    # -- paths -------------------------------------------------------------------------------------

    def params(self, state: Mapping[str, Any]) -> dict[str, str] | None:
        """Each path parameter's value, from the scope or ``state``; None while one is unknown
        (a parent not made yet)."""
        read = self.spec.read
        assert read is not None
        out = {}
        for param, source in read.identity:
            value = self.arm.subscription if source == "@subscriptionId" else state.get(source)
            if value in (None, ""):
                return None
            out[param] = str(value)
        return out

    def path_of(self, state: Mapping[str, Any]) -> str | None:
        """Where the resource is: its ARM id once known (the id is its path), else its path
        template filled from ``state``; None while a parameter is unknown."""
        if state.get("id"):
            return str(state["id"])
        params = self.params(state)
        if params is None:
            return None
        template = self.spec.resource_path or ""
        return _PARAM.sub(lambda m: _segment(params[m.group(1)]), template)

    def placed(self, state: Mapping[str, Any]) -> dict[str, Any]:
        """The state fields its path takes (resource group, parent names), as ``state`` has them."""
        read = self.spec.read
        assert read is not None
        return {src: state.get(src) for _, src in read.identity if not src.startswith("@")}

    def _get(self, path: str, operation: str) -> Any:
        answer, _ = self.arm.request("GET", path, self.spec.api_version, operation=operation)
        return answer.body

    # -- find --------------------------------------------------------------------------------------

    def find(
        self,
        desired: Mapping[str, Any],
        name: str,
        *,
        match_tags: Mapping[str, str] | None = None,
        retry_not_found: bool = False,
    ) -> list[State]:
        """The resource at its path (its name: the desired ``name``, else the task's), if
        there; only when it carries ``match_tags``."""
        read = self.spec.read
        if read is None:
            return []
        wanted = {**desired, "name": desired.get("name") or name}
        path = self.path_of(wanted)
        if path is None:
            return []
        tries = NOT_FOUND_TRIES if retry_not_found else 1
        for attempt in range(tries):
            try:
                body = self._get(path, read.operation)
                break
            except NotFoundError:
                if attempt == tries - 1:
                    return []
                self.arm.sleep(2.0 * (attempt + 1))
        state = state_of(body, self.placed(wanted))
        if self.spec.terminal(state):
            return []
        tags = self.spec.tags
        if match_tags and tags is not None:
            have = state.get(tags.field) or {}
            if any(have.get(k) != v for k, v in match_tags.items()):
                return []
        return [state]

    def find_listed(
        self,
        desired: Mapping[str, Any],
        name: str,
        *,
        owner: Owner,
        match_tags: Mapping[str, str] | None = None,
        first_look: bool = False,
    ) -> list[State] | None:
        """Not served from listings yet: every find is its own GET (None)."""
        return None

    def read_ahead(
        self,
        desired: Mapping[str, Any],
        name: str,
        *,
        owner: Owner,
        match_tags: Mapping[str, str] | None = None,
        first_look: bool = False,
    ) -> None:
        """Nothing read ahead: finds are direct GETs."""

    def listed_owned(
        self, owner: Owner, within: Mapping[str, Any] | None = None
    ) -> list[State] | None:
        """Not listed by owner yet (None): prune does not reach Azure kinds."""
        return None

    def read_separately(self, state: State, wanted: Mapping[str, Any]) -> None:
        """Every field comes back from the GET."""

    # -- create / update / delete ------------------------------------------------------------------

    def create(self, desired: Mapping[str, Any], token: str | None = None) -> State:
        """PUT it, ``If-None-Match: *``; followed to its end. ARM names it by its path, so the
        engine finds it by name after a lost answer; ``token`` is not sent (no RP takes one)."""
        create = self.spec.create
        assert create is not None
        path = self.path_of({**desired, "id": None})
        if path is None:
            raise TaskError(f"{self.spec.name}: its path is not known yet")
        self.answer = None
        try:
            answer, response = self.arm.request(
                "PUT",
                path,
                self.spec.api_version,
                operation=create.operation,
                body=create_body(self.spec, desired),
                headers={"If-None-Match": "*"},
            )
        except PreconditionFailedError as err:
            # one is there already (made meanwhile, or by a try of ours whose answer was lost
            # and azure-core resent): never overwritten; the next locate reads whose it is
            raise ConflictError(err.operation, "AlreadyExists", err.message, err.status) from None
        made = self.arm.wait(answer, response, create.operation, "azure-async-operation")
        self._drop_snapshots()
        placed = self.placed(desired)
        if isinstance(made, Mapping):
            self.answer = state_of(made, placed)
        identity = {p: (self.answer or desired).get(p) for p in self.spec.primary}
        return {**placed, **identity}

    def update(self, actual: Mapping[str, Any], changes: Mapping[str, Any]) -> None:
        """Read-modify-PUT with ``If-Match``; a 412 reads again and recomputes (see the module
        doc). The body keeps every child collection as read (checked before each PUT)."""
        if not changes:
            return
        call = self.spec.updates[0] if self.spec.updates else None
        assert call is not None
        read = self.spec.read
        assert read is not None
        path = self.path_of(actual)
        assert path is not None
        for attempt in range(PRECONDITION_TRIES):
            current = self._get(path, read.operation)
            body = update_body(self.spec, current, changes)
            dropped = children_dropped(self.spec, current, body, changes)
            if dropped:  # never sent: it would delete what another task manages
                raise TaskError(f"{self.spec.name}: the PUT would drop {', '.join(dropped)}")
            etag = current.get("etag") if isinstance(current, Mapping) else None
            headers = {"If-Match": str(etag)} if etag else {}
            try:
                answer, response = self.arm.request(
                    "PUT",
                    path,
                    self.spec.api_version,
                    operation=call.operation,
                    body=body,
                    headers=headers,
                )
            except PreconditionFailedError:
                if attempt == PRECONDITION_TRIES - 1:
                    raise
                continue  # written meanwhile: read again, recompute, send again
            self.arm.wait(answer, response, call.operation, "azure-async-operation")
            self._drop_snapshots()
            return

    def delete(self, actual: Mapping[str, Any]) -> None:
        call = self.spec.delete
        assert call is not None
        path = self.path_of(actual)
        if path is None:
            return
        try:
            answer, response = self.arm.request(
                "DELETE", path, self.spec.api_version, operation=call.operation
            )
            self.arm.wait(answer, response, call.operation, None)
        except NotFoundError:
            return
        finally:
            self._drop_snapshots()

    def blockers(self, actual: Mapping[str, Any]) -> list[str]:
        """ARM's in-use error names what uses the resource itself; nothing more is asked."""
        return []

    def operation_done(self, operation: Mapping[str, Any]) -> dict[str, Any]:
        """Nothing is left running: every operation was followed to its end."""
        return {"status": "DONE"}

    def _drop_snapshots(self) -> None:
        if self.snapshots is not None:
            self.snapshots.invalidate(self.spec.service, self.spec.listings_touched())


def _segment(value: str) -> str:
    from urllib.parse import quote

    return quote(value, safe="")
