"""Names Google makes for a resource where its discovery document says only that it makes one.

An IAM service account is created with an ``accountId`` and named by the email made from it:
``projects/{PROJECT_ID}/serviceAccounts/{EMAIL_ADDRESS}``, the email being
``<accountId>@<project>.iam.gserviceaccount.com`` (Google's "Create service accounts" guide;
the document has the formats, not the domain). Requests may also name it by its
``{UNIQUE_ID}`` and under the ``-`` project wildcard. Its answers carry ``email``,
``uniqueId``, ``projectId`` and ``oauth2ClientId`` (the same number as the unique id) and no
``accountId``, which is not a member of ServiceAccount.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# (API name, schema id) -> the email Google makes from the id a create gives
EMAILS = {("iam", "ServiceAccount"): "{id}@{project}.iam.gserviceaccount.com"}
# a unique id as Google shows one: 21 digits
_UNIQUE_BASE = 10**20


@dataclass(frozen=True)
class MadeName:
    """The last segment of the name Google makes, the members it comes with, and the other
    last segments a request may name the resource by."""

    segment: str
    members: dict[str, str] = field(default_factory=dict)
    aliases: tuple[str, ...] = ()
    given_member: str = ""  # the create's id member, which the resource does not keep


def made_name(api: str, schema_id: str, project: str, given: str, serial: int) -> MadeName | None:
    """The name Google makes for a ``schema_id`` resource created with id ``given``; None when
    it keeps the id it was given as the name's last segment."""
    pattern = EMAILS.get((api, schema_id))
    if pattern is None:
        return None
    email = pattern.format(id=given, project=project)
    unique = str(_UNIQUE_BASE + serial)
    members = {"email": email, "uniqueId": unique, "oauth2ClientId": unique, "projectId": project}
    return MadeName(email, members, (unique,), given_member="accountId")


def aliases(collection: str, made: MadeName) -> list[str]:
    """Every other URL a request may name it by: its unique id, and either under the ``-``
    project wildcard."""
    wildcard = _wildcard(collection)
    return [
        f"{where}/{segment}"
        for where in (collection, wildcard)
        for segment in (made.segment, *made.aliases)
        if f"{where}/{segment}" != f"{collection}/{made.segment}"
    ]


def _wildcard(collection: str) -> str:
    head, sep, tail = collection.partition("/projects/")
    return f"{head}{sep}-/{tail.split('/', 1)[1]}" if sep and "/" in tail else collection
