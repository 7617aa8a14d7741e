"""Fields the resource's body marks "[Output Only]" but a ``set…`` method changes
(``gcp.set-method-sets-output-only-field``, ``gcp.companion-set-method``): the change goes out
as exactly that call, and the FULL discovery documents accept every request made."""

from __future__ import annotations

from tasklayer_tasks.runtime import CloudTarget, Executor
from testbed.gce import bodies, gce_stack, gcp_context, writes
from testbed.gcp_requests import RequestValidator

POLICY = "projects/proj/global/securityPolicies/edge"


def test_set_methods_change_output_only_fields_with_valid_requests() -> None:
    context, fake = gcp_context()
    run = Executor(CloudTarget(context), sleep=lambda _: None).run
    run(gce_stack().tasks())
    since = len(fake.log)
    stack = gce_stack()
    stack.backend.security_policy = POLICY
    stack.nodes.named_ports = [{"name": "https", "port": 443}]
    run(stack.tasks())
    assert sorted(writes(fake, since)) == [
        "compute.backendServices.setSecurityPolicy", "compute.instanceGroups.setNamedPorts"]
    [sent] = bodies(fake, "compute.backendServices.setSecurityPolicy", since)
    assert list(sent) == ["securityPolicy"] and sent["securityPolicy"].endswith(POLICY)
    # the manager's fingerprint is not the group's: none is sent
    assert bodies(fake, "compute.instanceGroups.setNamedPorts", since) == [{"namedPorts": [{"name": "https", "port": 443}]}]
    since = len(fake.log)
    again = gce_stack()
    again.backend.security_policy = POLICY
    again.nodes.named_ports = [{"name": "https", "port": 443}]
    run(again.tasks())  # converged: the manager's read shows its group's ports
    assert writes(fake, since) == []
    validator = RequestValidator("compute")
    assert [v for r in fake.log for v in validator.check(r.method_id, r.http_method, r.path, r.query, r.body)] == []
    assert validator.checked == len(fake.log)
