"""The rule that says whether a field given another resource holds that resource's ARN or its id.

A CloudWatch Logs subscription filter's ``destinationArn`` refers to a log Destination whose id
is its name: sending the name names nothing, the member takes the destination's ARN. Which
value a member takes is a fact of the botocore model (the member's documentation, its shape's
name and pattern), decided here once and carried to the runtime as ``FieldSpec.holds_arn``.
"""

from __future__ import annotations

import re

from botocore.model import Shape

from codegen.annotate.draft import FieldDraft
from codegen.annotate.rules import rule, source
from codegen.model import Mutability
from codegen.providers.aws.rules.context import AwsContext
from codegen.providers.aws.shapes import AwsFieldShape

ARN = "arn"  # the value is the resource's ARN
ID = "id"  # the value is its id or name (or either: the id is then enough)

# "The Amazon Resource Name (ARN) of", "The ARN of", "ARN of the IPAM", "The IPAM ARN.",
# "An array containing the ARN of": the first sentence says what the value is
# (up to three words may qualify it, none saying it is a name or an id of something)
_QUALIFIER = r"(?:(?!(?:of|or|for|names?|IDs?|identifiers?)\b)[\w-]+\s+)"
_SAYS_ARN = re.compile(
    r"^(?:(?:an array containing|a list of|one or more|the list of)\s+)?(?:(?:the|an?)\s+)?"
    rf"{_QUALIFIER}{{0,3}}?(?:ARNs?|Amazon Resource Names?)\b",
    re.IGNORECASE,
)
# the member also takes the name or id ("The ARN or name of the secret", "You can also
# provide the Amazon Resource Name (ARN) of the table"), or says it is not the ARN ("The name
# (friendly name, not ARN) of the role")
_TAKES_ID_TOO = re.compile(
    r"\b(?:ARNs?|\(ARNs?\))\s+or\s+(?:the\s+)?(?:friendly\s+)?(?:names?|IDs?)\b"
    r"|\b(?:names?|IDs?)\s+or\s+(?:the\s+)?(?:ARNs?|Amazon Resource Names?)\b"
    r"|\balso\s+(?:provide|specify|use|pass)\s+(?:the\s+)?(?:ARNs?|Amazon Resource Names?)\b"
    # "The ARN, key ID, or alias"
    r"|\bARNs?\s*,\s*(?:[\w-]+\s+){0,2}(?:IDs?|names?|alias(?:es)?)\b"
    r"|\bnot\s+(?:an?\s+|the\s+)?ARNs?\b",
    re.IGNORECASE,
)
# "The ID of the subnet", "The name of the log group", "The unique identifier for the route server"
_SAYS_ID = re.compile(
    r"^(?:the\s+)?(?:[\w-]+\s+){0,3}?(?:IDs?|names?|identifiers?)\b", re.IGNORECASE
)
_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def _words(name: str) -> list[str]:
    """``LoadBalancerArns`` -> load, balancer, arns; ``arnType`` -> arn, type; ``topicARN`` ->
    topic, arn; ``CalendarNameOrARN`` -> calendar, name, or, arn."""
    return [w.lower() for w in _WORDS.findall(name)]


def from_documentation(text: str) -> str | None:
    """What the member's own documentation says it takes: ARN, ID (its id or name, or either),
    or None when its first sentence says neither."""
    first = " ".join(text.split()).split(". ")[0]
    if _TAKES_ID_TOO.search(" ".join(text.split())):
        return ID
    if _SAYS_ARN.search(first):
        return ARN
    if _SAYS_ID.search(first):
        return ID
    return None


def from_shape(shape: Shape) -> str | None:
    """What the member's shape says: ARN when its name ends with the word Arn (``ResourceArn``,
    ``arnType``, ``topicARN``, before a ``Type`` / ``String`` suffix) or its pattern is an
    ARN's (``arn:aws...``); ID when named for an id or name (``SubnetId``), or for either
    (``CalendarNameOrARN``, not ``S3RegionalOrS3ExpressBucketArnString``)."""
    words = _words(shape.name)
    pairs = {(a, c) for a, b, c in zip(words, words[1:], words[2:], strict=False) if b == "or"}
    if pairs & {("name", "arn"), ("arn", "name"), ("id", "arn"), ("arn", "id")}:
        return ID
    while words and words[-1] in ("type", "string"):
        words.pop()
    pattern = str(shape.metadata.get("pattern", ""))
    if (words and words[-1] in ("arn", "arns")) or "arn:" in pattern.lower():
        return ARN
    if words and words[-1] in ("id", "ids", "name", "names"):
        return ID
    return None


def from_member_name(name: str) -> str | None:
    """ARN when the member's name has the word Arn in it (``destinationArn``,
    ``logGroupArnList``, ``LoadBalancerArns``); it never says ID on its own."""
    return ARN if {"arn", "arns"} & set(_words(name)) else None


def holds_arn(name: str, documentation: str, shape: Shape | None) -> bool:
    """Whether a member takes an ARN, from the strongest evidence that speaks: the member's
    documentation, then its shape, then its name."""
    for verdict in (
        from_documentation(documentation),
        from_shape(shape) if shape else None,
        from_member_name(name),
    ):
        if verdict is not None:
            return verdict == ARN
    return False


def _item_shape(ctx: AwsContext, f: FieldDraft) -> Shape | None:
    """The shape of the field's value, or of its items for a list (LoadBalancerArns)."""
    item = f.type.item if f.type.kind == "list" and f.type.item else f.type
    return ctx.model.shape_for(item.name) if item.name in ctx.shape_names else None


@rule("aws.reference-holds-arn")
def reference_holds_arn(ctx: AwsContext) -> None:
    """A field given another resource holds that resource's ARN, not its id, when the botocore
    model says the member takes an ARN: its documentation says so first ("The ARN of the
    destination", "The Amazon Resource Name (ARN) of the IAM policy"); where it says nothing,
    its shape (named ``…Arn`` / ``arnType``, or an ``arn:`` pattern); where neither speaks,
    its name (``…Arn``, ``…Arns``).

    Marked are the string fields that can be given another resource: the references the rules
    found, and every field the task sends (not read-only), since a task may be put in one the
    rules found no kind for (a delivery's ``deliveryDestinationArn``: no ``Arn`` shape, a
    lowerCamel name; an overlay's or a user's reference). A read-only field naming no other
    kind is never sent, so it is left unmarked.

    The documentation outranks the shape and the name because it speaks of this member, while a
    shape is shared and a name is a habit: DynamoDB's ``TableName`` is typed ``TableArn`` yet
    documented "The name of the table. You can also provide the ARN", and Secrets Manager's
    ``SecretId`` is "The ARN or name of the secret". A member that takes the name or id too
    holds the id, as it always has: the referred kind's id is enough, and no ARN has to be read
    first. A member named ``…Arn`` documented as an ID would likewise hold the id."""
    rid = source("aws.reference-holds-arn")
    for resource in ctx.resources():
        for f in resource.fields.values():
            item = f.type.item if f.type.kind == "list" and f.type.item else f.type
            may_hold = f.get("references") or f.get("mutability") is not Mutability.READ_ONLY
            if (
                item.kind == "string"
                and may_hold
                and holds_arn(f.name, f.documentation, _item_shape(ctx, f))
            ):
                f.set_call(AwsFieldShape, "holds_arn", True, rid)
