"""A kopf operator for the generated aws/ec2 handlers, as ``kopf run`` starts it in the tests:
the cloud is the ``moto_server`` at ``TASKLAYER_AWS_ENDPOINT``, the cluster the test API server
(``KUBECONFIG``), which serves no core API, so kopf posts no Events."""

from __future__ import annotations

import os
from typing import Any

import kopf

from tasklayer_tasks.aws.ec2.operator import register
from tasklayer_tasks.runtime import Context
from tasklayer_tasks.runtime.capi.operator import SHARED_READS


@kopf.on.startup()
def startup(settings: kopf.OperatorSettings, **_: Any) -> None:
    settings.posting.enabled = False
    # the namespace is named (--namespace default): nothing to discover, nor a watch to serve
    settings.scanning.disabled = True
    settings.watching.server_timeout = 60
    # with --peering: how long a replica killed without a goodbye keeps the others paused
    settings.peering.lifetime = int(os.environ.get("TASKLAYER_PEERING_LIFETIME", "60"))
    # a reconcile waiting on an object it names by reference looks again after a second;
    # TASKLAYER_SHARED_READS: seconds listings are kept across reconciles (0: not kept)
    shared = os.environ.get("TASKLAYER_SHARED_READS")
    register(
        Context(region="us-east-1", endpoint_url=os.environ["TASKLAYER_AWS_ENDPOINT"]),
        dependency_delay=1.0,
        shared_reads=float(shared) if shared is not None else SHARED_READS,
    )
