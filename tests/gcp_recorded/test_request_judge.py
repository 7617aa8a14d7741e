"""The request judge reads a method's "Only routingConfig can be modified" as a limit, unless a
pinned recording shows GCP accepting more (issue 23 item 5): computenetworkbasic#4 patches a
network's enableUlaInternalIpv6, the operation ends DONE with no error and the read after
shows it true, so the text is out of date there. The generated Network agrees (mutable through
networks.patch, rule gcp.field-doc-describes-switch); the judge was wrong."""

from __future__ import annotations

from testbed.gcp_requests import RequestValidator, recorded_accepts
from testbed.kcc_log import concrete_exchange, parse
from testbed.kcc_pin import OUT

NETWORK = "/compute/v1/projects/p/global/networks/n"
RID = {"requestId": "6f1c2a4e-8d0b-4c3e-9a57-2b1d0e4f6a10"}


def test_the_recorded_patch_is_what_gcp_did() -> None:
    log = [concrete_exchange(e) for e in parse((OUT / "computenetworkbasic.http.log").read_text())]
    patch, poll, read = log[4], log[5], log[6]
    assert (patch.method, patch.request_body, patch.status) == (
        "PATCH",
        {"enableUlaInternalIpv6": True},
        200,
    )
    assert poll.response_body["status"] == "DONE" and "error" not in poll.response_body
    assert read.response_body["enableUlaInternalIpv6"] is True


def test_a_member_the_recording_shows_accepted_passes_and_others_still_fail() -> None:
    validator = RequestValidator("compute")
    accepted = recorded_accepts(validator)["compute.networks.patch"]
    assert accepted["enableUlaInternalIpv6"] == "computenetworkbasic#4"
    body = {"enableUlaInternalIpv6": True}
    assert validator.check("compute.networks.patch", "PATCH", NETWORK, RID, body) == []
    refused = validator.check("compute.networks.patch", "PATCH", NETWORK, RID, {"mtu": 1500})
    assert any("only routingConfig" in v for v in refused), refused
