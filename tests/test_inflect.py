"""The singular of API nouns: suffix rules on the last CamelCase word, not a blind final-s strip."""

from __future__ import annotations

import pytest

from codegen.annotate.inflect import singular
from codegen.providers.aws.rules.context import same_noun, singular_candidates


@pytest.mark.parametrize(
    ("plural", "expected"),
    [
        ("AccountAliases", "AccountAlias"),  # iam ListAccountAliases: not "AccountAlia"
        ("AccountAlias", "AccountAlias"),
        ("Aliases", "Alias"),
        ("Statuses", "Status"),
        ("Status", "Status"),
        ("Addresses", "Address"),
        ("IpAddress", "IpAddress"),
        ("Policies", "Policy"),
        ("Keys", "Key"),
        ("Prefixes", "Prefix"),
        ("Processes", "Process"),
        ("Indices", "Index"),
        ("Analyses", "Analysis"),
        ("Databases", "Database"),
        ("KnowledgeBases", "KnowledgeBase"),
        ("Caches", "Cache"),
        ("Series", "Series"),
        ("Metadata", "Metadata"),
        ("VPCs", "VPC"),
        ("ACLs", "ACL"),
        ("Ipv6s", "Ipv6"),
        ("CidrBlocks", "CidrBlock"),
        ("Vpc", "Vpc"),
    ],
)
def test_singular_inflects_the_last_word(plural: str, expected: str) -> None:
    assert singular(plural) == expected


def test_the_inflected_singular_is_the_first_candidate() -> None:
    assert singular_candidates("AccountAlias")[0] == "AccountAlias"
    assert singular_candidates("AccountAliases")[0] == "AccountAlias"
    assert same_noun("AccountAliases", "AccountAlias")
    assert not same_noun("AccountAlias", "Account")


def test_the_pinned_iam_model_names_the_alias_resource_in_full() -> None:
    from pathlib import Path

    from codegen.pipeline import annotated

    iam = annotated(Path(__file__).resolve().parents[1] / "schemas", "aws", "iam")
    names = {r.name for r in iam.resources}
    assert "AccountAlias" in names and "AccountAlia" not in names
