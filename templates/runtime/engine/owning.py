"""Who owns a found resource, decided once for every face (docs/architecture.md, "ownership").

The owner's tags or labels prove it (or, for an owner that records itself in a field the kind
declares, ``ResourceSpec.owner_record``, the marks that field holds: a GCP description); a
create token the reads return proves it too (made, its tag call not made yet); a kind that
carries no tags is owned when the parent it lives in is (read through the parent's adapter
unless the face already knows); a kind with neither is owned when the face's record names it,
or, where the face keeps no record, when its identity matched.
"""

from __future__ import annotations

from ..contract.ownership import made_by_token, read_record, record_field
from ..contract.state import State
from .subject import Subject


def owner_match(subject: Subject, has_id: bool) -> dict[str, str] | None:
    """The owner's tag a find asks the cloud for: only where the kind is found by its Name tag
    and no id is known, never for a shared resource (it is not the owner's)."""
    spec = subject.spec
    by_tag = spec.tags is not None and "tag:Name" in spec.natural and not has_id
    return {subject.owner.key: subject.owner.value} if by_tag and not subject.shared else None


def owns(subject: Subject, state: State) -> bool:
    """The found ``state`` is the subject's owner's."""
    spec, owner = subject.spec, subject.owner
    record = record_field(spec, owner)
    if record is not None:  # an owner that records itself in a field (a description)
        return owner.owns(read_record(state.get(record)))
    tags = spec.tags
    if tags is not None:
        return owner.owns(state.get(tags.field)) or made_by_token(spec, owner, state)
    parent = spec.owner_parent
    if parent is None:
        return True if subject.recorded is None else subject.recorded(state)
    if subject.parent_owned is not None:
        return subject.parent_owned
    parent_id = state.get(parent.field) or subject.parent_id
    if not parent_id or subject.adapter_for is None:
        return False
    pspec = parent.spec
    found = subject.adapter_for(pspec).find({pspec.primary[0]: parent_id}, "")
    return bool(found) and pspec.tags is not None and owner.owns(found[0].get(pspec.tags.field))
