"""Tags read by the service's tag read, for kinds whose read returns none (ELBv2's
DescribeTags): ownership is proven by tags, so every item a read returns gets them before it is
believed, in as few calls as the API allows (it takes the selector as a list: twenty ARNs a
call for DescribeTags)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..contract.errors import MalformedResponseError
from ..contract.spec import ResourceSpec

Read = Callable[[str, Mapping[str, Any]], Any]  # one read call: operation, parameters -> answer

# the smallest limit of the list-taking tag reads (ListTagsForResources; DescribeTags takes 20)
BATCH = 10


def tag_selector(service: str, value: Any) -> Any:
    """A resource's id as tag calls take it. Route 53 reads ids as paths (``/hostedzone/Z1``)
    and its tag calls take the last part, as botocore's ``fix_route53_ids`` already does for the
    service's other id members; every other service's id is sent as it is (an SSM parameter's
    name ``/app/db`` is its tag-call id whole)."""
    if service == "route53" and isinstance(value, str) and "/" in value:
        return value.rsplit("/", 1)[-1]
    return value


def with_tags(spec: ResourceSpec, read: Read, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``items`` of ``spec``'s kind with their tags set from the tag read (sent through
    ``read``), when the kind's read lacks them."""
    tags = spec.tags
    if tags is None or tags.read_operation is None or tags.selector_member is None or not items:
        return items
    key = spec.arn if tags.selector_is_arn and spec.arn else spec.primary[0]
    wanted = [str(tag_selector(spec.service, i[key])) for i in items if i.get(key)]
    found: dict[str, list[Any]] = {}
    listed = bool(tags.read_selector) or tags.selector_is_list  # the read takes many at once
    step = BATCH if listed else 1
    fixed = dict(tags.selector_extra)  # the kind, where the tag calls name it (ResourceType)
    for start in range(0, len(wanted), step):
        chunk = wanted[start : start + step]
        selector = chunk if listed else chunk[0]
        params = {tags.read_selector or tags.selector_member: selector, **fixed}
        response = read(tags.read_operation, params)
        found.update(_tag_sets(tags.read_operation, response, set(chunk)))
        if not listed and chunk[0] not in found:
            found.update(_own_tag_set(response, chunk[0]))
    for item in items:
        if item.get(key) and tag_selector(spec.service, item[key]) in found:
            item[tags.field] = found[tag_selector(spec.service, item[key])]
    return items


TAG_LISTS = ("Tags", "TagSet", "TagList", "tags")


def _own_tag_set(response: Any, asked: str) -> dict[str, list[Any]]:
    """The tags of an answer about the one resource asked for that does not name it
    (GetBucketTagging answers ``{TagSet: [...]}``, ListTagsLogGroup ``{tags: {key: value}}``)."""
    if not isinstance(response, Mapping):
        return {}
    for member in TAG_LISTS:
        value = response.get(member)
        if isinstance(value, list) and all(isinstance(t, Mapping) for t in value):
            return {asked: value}
        if isinstance(value, Mapping) and all(isinstance(v, str) for v in value.values()):
            return {asked: [{"Key": k, "Value": v} for k, v in value.items()]}
    return {}


def _tag_sets(operation: str, response: Any, asked: set[str]) -> dict[str, list[Any]]:
    """Selector value -> tag list, from any list of ``{<selector>, Tags}`` in the answer; a tag
    set for something not asked about is not believed."""
    out: dict[str, list[Any]] = {}
    if not isinstance(response, Mapping):
        raise MalformedResponseError(operation, "/", "expected an object")
    for member, value in response.items():
        sets = value if isinstance(value, list) else [value]
        for index, entry in enumerate(sets):
            if not isinstance(entry, Mapping) or "Tags" not in entry:
                continue
            names = [v for v in entry.values() if isinstance(v, str) and v in asked]
            if not isinstance(entry["Tags"], list) or len(names) != 1:
                raise MalformedResponseError(operation, f"/{member}/{index}", "a tag set for what?")
            out[names[0]] = entry["Tags"]
    return out
