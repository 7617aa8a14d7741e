"""runtime.contract.names: account-unique names made from the whole cluster name, as kOps makes them
(``GetResourceName32`` and ``truncate.TruncateString``; the expected strings are kOps' own test
cases in pkg/resources/aws and pkg/truncate)."""

from __future__ import annotations

import pytest

from tasklayer_tasks.runtime import resource_name, truncate_name


@pytest.mark.parametrize(("cluster", "prefix", "expected"), [
    ("mycluster", "bastion", "bastion-mycluster-vnrjie"),
    ("mycluster.example.com", "bastion", "bastion-mycluster-example-o8elkm"),
    ("this.is.a.very.long.cluster.example.com", "api", "api-this-is-a-very-long-c-q4ukp4"),
    ("this.is.a.very.long.cluster.example.com", "bastion", "bastion-this-is-a-very-lo-4ggpa2"),
])
def test_resource_names_are_kops_own(cluster: str, prefix: str, expected: str) -> None:
    assert resource_name(cluster, prefix) == expected


@pytest.mark.parametrize(("text", "limit", "always", "expected"), [
    ("foo", 64, False, "foo"),
    ("this_string_is_33_characters_long", 64, True, "this_string_is_33_characters_long-t4mk8d"),
    ("this_string_is_longer_it_is_46_characters_long", 32, False, "this_string_is_longer_it_-ha2gug"),
    ("this_string_is_even_longer_due_to_extreme_verbosity_it_is_in_fact_84_characters_long", 64, False,
     "this_string_is_even_longer_due_to_extreme_verbosity_it_is-7mc0g6"),
])
def test_truncation_is_kops_own(text: str, limit: int, always: bool, expected: str) -> None:
    assert truncate_name(text, limit, always_add_hash=always) == expected


def test_names_that_differ_anywhere_differ_and_fit() -> None:
    long = "a-cluster-whose-name-runs-well-past-what-fits.example.com"
    clusters = ["demo.example.com", "demo.example.net", "demo2.example.com", long, long.replace("com", "org")]
    names = [resource_name(c, "api") for c in clusters]
    assert len(set(names)) == len(clusters), names
    assert all(len(n) <= 32 for n in names)
    # the two long ones share the first 25 characters: only the hash tells them apart
    assert names[3][:25] == names[4][:25]
    assert resource_name("demo.example.com", "api") == names[0]  # the same on every run


def test_a_limit_with_no_room_for_the_hash_is_refused() -> None:
    with pytest.raises(ValueError):
        truncate_name("demo", 7, always_add_hash=True)
