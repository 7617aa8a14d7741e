"""Perma-diff traps found in GCP's recorded answers (issue 23 item 4): every field of a pinned
create whose recorded read after the create differs from what was sent (defaulted,
canonicalised, left out, answered as a hash, on another host or version), and the runtime's diff
treating each as unchanged — the comparison a re-apply makes, on the generated SPEC."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tasklayer_tasks.runtime.contract.diff import compute_changes
from tasklayer_tasks.runtime.gcp.refs import as_wanted, canonical_state, document_base
from testbed.kcc_log import concrete_exchange, parse
from testbed.kcc_pin import OUT
from testbed.kcc_replay import create_and_read, task_class
from tests.gcp_recorded.test_replay import KINDS, PERMA_DIFFS

# the traps the recordings hold, by (kind, field): what was sent, what Google answered
EXPECTED_TRAPS = {
    ("compute.Network", "networkProfile"),  # a relative name, read as a full URL
    ("compute.Network", "enableUlaInternalIpv6"),  # false, left out of the answer (proto3)
    ("compute.Network", "routingConfig"),  # bgpBestPathSelectionMode added inside it
    ("compute.Router", "network"),  # a relative name, read as a full URL
    ("compute.Router", "region"),  # the scope, sent as a name or partial URL, read as a URL
    ("compute.Subnetwork", "network"),
    ("compute.Subnetwork", "region"),
    ("compute.RegionHealthCheck", "region"),
    ("compute.ForwardingRule", "network"),
    ("compute.ForwardingRule", "subnetwork"),
    ("compute.ForwardingRule", "portRange"),  # "90", read as "90-90"
    # left out by the insert: the task sets them by setLabels after it (the replay checks that
    # write is the recorded one), so a diff of the read after the insert rightly shows them
    ("compute.ForwardingRule", "labels"),
    ("compute.BackendService", "healthChecks"),  # v1 links sent, read on compute/beta
    ("compute.BackendService", "iap"),  # its oauth2ClientSecret read as oauth2ClientSecretSha256
    ("compute.Disk", "sizeGb"),  # not in the recorded reads (test_replay.PERMA_DIFFS says why)
    # members Google adds inside what was sent (bucketPolicyOnly, publicAccessPrevention;
    # softDeletePolicy's effectiveTime): the diff compares only the members the task sets
    ("storage.Bucket", "iamConfiguration"),
    ("storage.Bucket", "softDeletePolicy"),
    # the id a create names it by, not a member of the answer (which carries the email made
    # from it): create-only and input-only, never compared with a read
    ("iam.ServiceAccount", "accountId"),
}


def _pairs() -> list[tuple[str, str, dict[str, Any], dict[str, Any]]]:
    """(fixture, kind, the create's body, the recorded read after it)."""
    out = []
    for fixture, (kind, collection) in sorted(KINDS.items()):
        exchanges = [concrete_exchange(e) for e in parse((OUT / f"{fixture}.http.log").read_text())]
        _, body, read = create_and_read(exchanges, kind, collection)
        out.append((fixture, kind, body, read.response_body))
    return out


def _traps(spec: Any, sent: dict[str, Any], read: dict[str, Any]) -> list[str]:
    names = {f.name for f in spec.fields}
    return [k for k, v in sent.items() if k in names and read.get(k) != v and v is not None]


def test_the_recordings_hold_the_traps_listed() -> None:
    found = {
        (kind, name)
        for _, kind, sent, read in _pairs()
        for name in _traps(task_class(kind).spec, sent, read)
    }
    assert found == EXPECTED_TRAPS, json.dumps(sorted(found ^ EXPECTED_TRAPS))


@pytest.mark.parametrize("fixture", sorted(KINDS))
def test_the_diff_sees_no_change_in_a_trap(fixture: str) -> None:
    _, kind, sent, read = next(p for p in _pairs() if p[0] == fixture)
    cls = task_class(kind)
    spec, base = cls.spec, document_base(str(cls.document))
    desired = canonical_state(spec, {k: v for k, v in sent.items() if v is not None}, base)
    state = {f.name: read[f.name] for f in spec.fields if f.name in read}
    have = as_wanted(spec, canonical_state(spec, state, base, "projectid"), desired)
    changed = set(compute_changes(spec, have, desired))
    # not the ownership labels (ours; the replay adds them) nor the scope member
    changed -= {"labels", "region", "zone"}
    assert changed == PERMA_DIFFS.get(fixture, (set(), ""))[0], sorted(changed)
