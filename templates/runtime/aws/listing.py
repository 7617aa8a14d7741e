"""AWS batched reads: a task's find served from one listing of what the cluster owns, and a
create's answer used as the read-back when it is the resource itself.

One ``Describe…`` per resource type (its read operation), filtered by the owner's tag
(``tag:kubernetes.io/cluster/<cluster>=owned``) and followed through every page, checked as
every read is checked (:meth:`.calls.AwsCalls.items`), then matched client side exactly as a direct
find matches: primary id; or natural key and parent, carrying ``match_tags``. Kinds listed
inside their parent (a Route in its RouteTable) are served from the parent's listing. Whatever
the listing cannot answer exactly is left to the direct read (``None``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..contract.errors import MalformedResponseError
from ..contract.ownership import Owner
from ..contract.state import State, Unread, known
from . import model
from .calls import AwsCalls
from .find import carries, find, natural_params, nested_states, shared_read


def find_listed(
    core: AwsCalls,
    desired: Mapping[str, Any],
    name: str,
    owner: Owner,
    match_tags: Mapping[str, str] | None,
    first_look: bool = False,
) -> list[State] | None:
    """What ``core.find(desired, name, match_tags=match_tags)`` would return, from the pass's
    listing; None when the listing cannot say (the caller reads directly). ``first_look``: the
    task has neither seen nor made its resource and has no create under way.

    A kind that carries tags, inside a parent this pass made (a subnet or a group in the new
    VPC, a rule in the new group, a listener on the new load balancer), is not there yet on a
    first look: nothing an earlier pass or another owner made can be inside, only what this
    pass writes; what the cloud put there itself carries none of our tags, or takes a name
    no create may take (a VPC's "default" group: refused). No read, and no listing (made again
    after every write of the kind) is waited for. A create the cloud refuses as existing
    sends the task to read it properly (:class:`..contract.state.Unread`)."""
    spec, read = core.spec, core.spec.read
    if core.snapshots is None or not core.snapshots.listings or read is None:
        return None  # no pass's listings (a pass that keeps finds' own reads only: no listing)
    if core.snapshots.across_passes:
        return _listed_by_id(core, desired, owner)
    has_id = len(spec.primary) == 1 and known(desired.get(spec.primary[0]))  # given: read it
    inside_new = first_look and not has_id and _inside_made_parent(core, desired)
    if inside_new and spec.tags is not None and spec.change_batch is None:
        return Unread()
    if not listable(core):
        return None
    if read.nested_member:
        return Unread() if inside_new else _nested(core, desired, owner)
    states = owned_states(core, owner)
    if states is None:
        return None  # nothing to list it by
    primary = {p: desired.get(p) for p in spec.primary}
    if spec.primary and all(known(v) for v in primary.values()):
        hits = [s for s in states if all(s.get(p) == v for p, v in primary.items())]
        return hits or None  # not held: perhaps another owner's, which the direct read names
    if natural_params(core, desired, name, match_tags) is None:
        return []  # the direct find has no way to look either
    if any(_lacks_identity(core, s, desired) for s in states):
        # an identity member the items do not hold at the top (a peering's VpcId is inside
        # RequesterVpcInfo): the listing cannot tell a match, so it must not say "none"
        return None
    hits = [s for s in states if _same_identity(core, s, desired, name)]
    if match_tags is None and not hits:
        return None  # found by a name the cloud keeps unique: another owner's must be seen
    return [s for s in hits if carries(core, s, match_tags)]


def _listed_by_id(core: AwsCalls, desired: Mapping[str, Any], owner: Owner) -> list[State] | None:
    """Across passes (an operator's reconciles, :mod:`..contract.snapshot`): only a find that
    names its resource's whole primary id is answered from the kept listing, and only with what
    it holds; None otherwise (the caller reads directly). What the listing does not hold may
    have been made since it was listed: only a fresh read may say nothing is there before
    anything is created. While writes touch the kind, no listing is made for it."""
    spec, snapshots = core.spec, core.snapshots
    assert snapshots is not None
    primary = {p: desired.get(p) for p in spec.primary}
    if not primary or not all(known(v) for v in primary.values()) or not listable(core):
        return None
    if not snapshots.may_list(spec.service, _listing_key(core, owner)):
        return None
    if spec.read is not None and spec.read.nested_member:
        return _nested(core, desired, owner) or None
    states = owned_states(core, owner)
    hits = [s for s in states or () if all(s.get(p) == v for p, v in primary.items())]
    return hits or None


def read_ahead(
    core: AwsCalls,
    desired: Mapping[str, Any],
    name: str,
    owner: Owner,
    match_tags: Mapping[str, str] | None,
    first_look: bool,
) -> None:
    """The read a task's find will make when the pass's listing cannot answer it, made early
    (see :meth:`Task.look_early`); finds that are not kept (a record set's, a route's inside
    its table) are left for the task."""
    spec, read = core.spec, core.spec.read
    if read is None or spec.change_batch is not None or read.nested_member:
        return
    if core.snapshots is not None and not core.snapshots.keeps_finds:
        return  # a read made now would not be kept for the find
    if find_listed(core, desired, name, owner, match_tags, first_look) is None:
        find(core, desired, name, match_tags, retry_not_found=False)


def _inside_made_parent(core: AwsCalls, desired: Mapping[str, Any]) -> bool:
    """Every parent member names a resource this pass created: nothing an earlier pass or
    another owner made can be inside it, only what this pass writes, which drops the listing
    (or the cloud's own defaults, which no declared name may take: the create is refused)."""
    spec, snapshots = core.spec, core.snapshots
    if snapshots is None or not spec.parent:
        return False
    by_name = {f.name: f for f in spec.fields}
    for member in spec.parent:
        kind = by_name[member].references if member in by_name else None
        value = desired.get(member)
        if not kind or not known(value) or not snapshots.was_made(spec.service, kind, value):
            return False
    return True


def owned_states(core: AwsCalls, owner: Owner) -> list[State] | None:
    """The kind's items in the listing that carry the owner's tag (checked here too, in case a
    server ignored the filter), terminal ones left out; None when it cannot be listed by tag."""
    spec, read = core.spec, core.spec.read
    if read is None or not listable(core) or read.nested_member:
        return None
    tags = spec.tags
    if tags is None:
        return None
    states = (core.state(i) for i in _listing(core, owner))
    return [s for s in states if owned_of_kind(core, owner, s)]


def owned_within(core: AwsCalls, owner: Owner, within: Mapping[str, Any]) -> list[State] | None:
    """The kind's items inside the parent ``within`` names that carry the owner's tags, terminal
    ones left out: one read of the parent's children (a load balancer's listeners), kept in the
    pass's snapshots as a find's is; None when the kind has no tags or its read does not take
    the parent."""
    spec, read = core.spec, core.spec.read
    tags = spec.tags
    if read is None or tags is None or read.nested_member or not within:
        return None
    if not all(member in spec.parent and known(v) for member, v in within.items()):
        return None
    if not all(member in core.inputs(read.operation) for member in within):
        return None
    params = dict(within)
    if core.snapshots is None or not core.snapshots.keeps_finds:
        items = core.read_items(params, retry_not_found=False)
    else:  # the very read a find by the parent makes, shared with it for the pass
        items = shared_read(core, params, read)
    states = [{**params, **core.state(i)} for i in items]
    return [s for s in states if owned_of_kind(core, owner, s)]


def owned_of_kind(core: AwsCalls, owner: Owner, state: State) -> bool:
    """A listed item is the owner's, live, and of this kind (where the read lists two kinds,
    the members that tell them apart have this kind's values: an ingress rule is not egress)."""
    spec = core.spec
    tags, read = spec.tags, spec.read
    selected = read is None or all(state.get(m) == v for m, v in read.selected_by)
    return (
        selected
        and tags is not None
        and owner.owns(state.get(tags.field))
        and not spec.terminal(state)
    )


def listable(core: AwsCalls) -> bool:
    """The kind can be listed by its owner: its read filters by tag (EC2 ``Filters``), or it
    lists every one of the kind and their tags come from the tag read in bulk (ELBv2 load
    balancers and target groups; not listeners, which are read only inside a load balancer)."""
    read, tags = core.spec.read, core.spec.tags
    if read is None:
        return False
    if read.filters_member:
        # ... unless the read cannot be called without naming one (GetSubnetCidrReservations
        # needs its SubnetId): then each task reads within its own parent
        return not core.required_inputs(read.operation)
    # ... and only when the read can be called without naming one (GetHostedZone needs its Id)
    whole = not read.required and (read.id_filter is None or read.id_filter_is_list)
    return bool(tags and tags.read_operation and not core.spec.parent and whole)


def _same_identity(core: AwsCalls, state: State, desired: Mapping[str, Any], name: str) -> bool:
    """The checks a filtered read makes, on the client: every natural-key and parent member the
    desired state sets is the item's (a member the item lacks does not match)."""
    spec = core.spec
    for member in (*spec.natural, *spec.parent):
        if member == "tag:Name":
            if (state.get(spec.tags.field if spec.tags else "Tags") or {}).get("Name") != name:
                return False
        elif desired.get(member) is not None and state.get(member) != desired[member]:
            return False
    return True


def _lacks_identity(core: AwsCalls, state: State, desired: Mapping[str, Any]) -> bool:
    """The item holds no value for a natural-key or parent member the desired state sets."""
    spec = core.spec
    return any(
        member != "tag:Name" and desired.get(member) is not None and member not in state
        for member in (*spec.natural, *spec.parent)
    )


def _listing(core: AwsCalls, owner: Owner) -> list[dict[str, Any]]:
    """Every item of the read operation carrying the owner's tag: one paginated call a pass
    (plus the bulk tag reads of a kind whose read returns no tags)."""
    read = core.spec.read
    assert read is not None and listable(core)
    params: dict[str, Any] = {}  # all of the kind, their tags read in bulk (see listable)
    if read.filters_member:
        params = {read.filters_member: [{"Name": f"tag:{owner.key}", "Values": [owner.value]}]}
    if core.snapshots is None or not core.snapshots.listings:  # no pass to share it with
        return core.read_items(params, retry_not_found=False)  # (a prune outside a run)
    return core.snapshots.items(
        core.spec.service,
        _listing_key(core, owner),
        lambda: core.read_items(params, retry_not_found=False),
    )


def _listing_key(core: AwsCalls, owner: Owner) -> tuple[str, str, str]:
    """The key of the kind's listing by ``owner`` in the pass's snapshots (its read operation
    first: a kind listed inside its parent shares the parent's)."""
    read = core.spec.read
    assert read is not None
    return (read.operation, owner.key, owner.value)


def _nested(core: AwsCalls, desired: Mapping[str, Any], owner: Owner) -> list[State] | None:
    """A sub-resource from its parent's item in the parent's listing; None when the parent is
    not there (not owned, or not listed yet: the direct read decides)."""
    parent = core.spec.owner_parent
    parent_id = desired.get(core.spec.parent[0]) if core.spec.parent else None
    if parent is None or parent.spec.tags is None or not known(parent_id):
        return None
    id_member = parent.spec.primary[0]
    items = [i for i in _listing(core, owner) if i.get(id_member) == parent_id]
    if not items or not owner.owns(core.state_of(parent.spec, items[0])):
        return None
    return nested_states(core, items, desired)


def answer_state(core: AwsCalls, response: Any) -> State | None:
    """The create's answer as a read would give it, when its item is the read's shape (CreateVpc
    answers a ``Vpc``, as DescribeVpcs lists them): then it needs no read-back. None otherwise,
    or when the answer fails the checks a read's items pass."""
    create, read = core.spec.create, core.spec.read
    if create is None or read is None or not create.output_member or not read.output_member:
        return None
    made = model.item_shape(
        model.output_member(core.client, create.operation, create.output_member)
    )
    listed = model.item_shape(model.output_member(core.client, read.operation, read.output_member))
    if made is None or listed is None:
        return None
    if made.name != listed.name or not isinstance(response, Mapping):
        return None
    item = response.get(create.output_member)
    item = item[0] if isinstance(item, list) and len(item) == 1 else item
    if not isinstance(item, Mapping):
        return None
    try:
        core.check_tags(create.operation, f"/{create.output_member}", item)
        return core.state(item)
    except MalformedResponseError:
        return None  # read it back instead
