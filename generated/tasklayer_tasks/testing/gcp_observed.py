"""What Google answers that its discovery documents do not say, as data: each entry was seen in
Config Connector's recordings of real traffic (``tests/recordings/kcc/<fixture>.http.log``),
named after the ``# fixture#exchange`` that shows it.

Member paths: ``a.b`` is ``b`` inside an ``a`` that was sent; ``a[].b`` is ``b`` in each item
of a list ``a``; they nest (``properties.disks[].initializeParams.sourceImage``).
"""

from __future__ import annotations

from typing import Any

# by schema id: members Google answers for a resource created without them
ANSWERED: dict[str, dict[str, Any]] = {
    # computenetworkbasic#3
    "Network": {"routingConfig.bgpBestPathSelectionMode": "LEGACY"},
    # computesubnetwork#7
    "Subnetwork": {
        "stackType": "IPV4_ONLY",
        "privateIpv6GoogleAccess": "DISABLE_GOOGLE_ACCESS",
        "purpose": "PRIVATE",
        "state": "READY",
        "privateIpGoogleAccess": False,
    },
    # computerouter#4, computerouternatbasic#11
    "Router": {
        "encryptedInterconnectRouter": False,
        "nats[].autoNetworkTier": "PREMIUM",
        "nats[].effectiveTcpTimeWaitTimeoutSec": 120,
    },
    # regionalcomputeforwardingruletcp#27
    "ForwardingRule": {"networkTier": "PREMIUM"},
    # zonalcomputedisk#3
    "Disk": {"physicalBlockSizeBytes": "4096"},
    # globalcomputebackendservice#20, #30 (a member compute/v1's HttpHealthCheck does not have)
    "HttpHealthCheck": {"proxyHeader": "NONE"},
    # globalcomputebackendservice#24, regionalcomputeforwardingruletcp#15
    "BackendService": {"affinityCookieTtlSec": 0, "description": ""},
    # zonalcomputeinstancegroupmanager#28, regionalcomputeinstancegroupmanager#20
    "InstanceGroupManager": {"status": {"isStable": True, "versionTarget": {"isReached": True}}},
    # storagebucketbasic#1 (bucketPolicyOnly is uniformBucketLevelAccess's former name)
    "Bucket": {
        "rpo": "DEFAULT",
        "iamConfiguration.bucketPolicyOnly": {"enabled": False},
        "iamConfiguration.publicAccessPrevention": "inherited",
        "softDeletePolicy.effectiveTime": "2026-01-01T00:00:00.000-00:00",
    },
    # zonalcomputeinstancegroupmanager#18, regionalcomputeinstancegroupmanager#14
    "InstanceTemplate": {
        "properties.disks[].index": 0,
        "properties.disks[].kind": "compute#attachedDisk",
        "properties.networkInterfaces[].kind": "compute#networkInterface",
        "properties.metadata.kind": "compute#metadata",
        "properties.networkInterfaces[].name": "nic0",
        "properties.scheduling.automaticRestart": True,
        "properties.scheduling.preemptible": False,
    },
}

# by schema id: documented defaults Google does not answer when they were not sent
NOT_ANSWERED: dict[str, tuple[str, ...]] = {
    # computenetworkbasic#3
    "Network": ("mtu",),
    # computerouternatbasic#11
    "Router": (
        "nats[].udpIdleTimeoutSec",
        "nats[].tcpTransitoryIdleTimeoutSec",
        "nats[].tcpTimeWaitTimeoutSec",
        "nats[].icmpIdleTimeoutSec",
        "nats[].tcpEstablishedIdleTimeoutSec",
    ),
    # globalcomputebackendservice#24, regionalcomputeforwardingruletcp#15
    "BackendService": ("port", "localityLbPolicy", "ipAddressSelectionPolicy"),
    # globalcomputebackendservice#7
    "Instance": ("disks[].interface", "disks[].initializeParams.onUpdateAction"),
    # zonalcomputeinstancegroupmanager#18
    "InstanceTemplate": ("properties.disks[].initializeParams.onUpdateAction",),
}

# by schema id: members Google leaves out of its answer when they are false, also when a
# false was sent (computenetworkbasic#1 sent enableUlaInternalIpv6: false, #3 has none)
LEFT_OUT_WHEN_FALSE: dict[str, tuple[str, ...]] = {"Network": ("enableUlaInternalIpv6",)}

# by schema id: references answered in the form they were sent (a relative name stays one),
# where every other reference is answered as a full URL
ECHOED: dict[str, tuple[str, ...]] = {
    # computefirewall#2 -> #4
    "Firewall": ("network",),
    # regionalcomputeaddress#3 -> #5, globalcomputeaddress#2 -> #4
    "Address": ("network", "subnetwork"),
    # globalcomputebackendservice#5 -> #7
    "Instance": (
        "machineType",
        "networkInterfaces[].network",
        "disks[].initializeParams.sourceImage",
    ),
    # zonalcomputeinstancegroupmanager#15 -> #18
    "InstanceTemplate": (
        "properties.networkInterfaces[].network",
        "properties.disks[].initializeParams.sourceImage",
    ),
}

# by schema id of the member: (the referenced resource's list member, the reference member):
# a Network's ``subnetworks`` ("Server-defined fully-qualified URLs for all subnetworks in
# this VPC network") holds the selfLink of each Subnetwork whose ``network`` names it
HELD_IN: dict[str, tuple[str, str]] = {"Subnetwork": ("subnetworks", "network")}

# the regions an auto mode network gets a subnetwork in, named as the network
# (zonalcomputeinstancegroupmanager#7: autoCreateSubnetworks, 41 subnetworks)
AUTO_SUBNETWORK_REGIONS = (
    "africa-south1 asia-east1 asia-east2 asia-northeast1 asia-northeast2 asia-northeast3 "
    "asia-south1 asia-south2 asia-southeast1 asia-southeast2 australia-southeast1 "
    "australia-southeast2 europe-central2 europe-north1 europe-north2 europe-southwest1 "
    "europe-west1 europe-west10 europe-west12 europe-west2 europe-west3 europe-west4 "
    "europe-west6 europe-west8 europe-west9 me-central1 me-west1 northamerica-northeast1 "
    "northamerica-northeast2 northamerica-south1 southamerica-east1 southamerica-west1 "
    "us-central1 us-east1 us-east4 us-east5 us-south1 us-west1 us-west2 us-west3 us-west4"
).split()

# a bucket's project teams and their roles, in the order Google answers them, for its ``acl``
# and its ``defaultObjectAcl`` alike (storagebucketbasic#3)
BUCKET_TEAM_ROLES = (("owners", "OWNER"), ("editors", "OWNER"), ("viewers", "READER"))

# a bucket's ``locationType`` by its ``location`` (storagebucketbasic#1: ``US`` is a
# ``multi-region``; EU and ASIA are the other multi-regions of Google's "Bucket locations"; a
# region's name is a ``region``)
MULTI_REGIONS = ("US", "EU", "ASIA")

# by schema id: a member Google leaves out once a sibling holds a value (storagebucketbasic#3
# patches softDeletePolicy.retentionDurationSeconds to "0", soft delete off: #3 and #4 answer no
# effectiveTime)
WITHDRAWN_WHEN: dict[str, dict[str, tuple[str, str]]] = {
    "Bucket": {"softDeletePolicy.effectiveTime": ("retentionDurationSeconds", "0")}
}

# methods whose operation Google answers DONE at once, with its endTime
# (regionalcomputeforwardingruletcp#28, #30: setLabels, progress 100)
DONE_AT_ONCE = ("compute.forwardingRules.setLabels", "compute.globalForwardingRules.setLabels")

# a legacy collection and the one Google keeps its resources in: a read of a missing one says
# not found in that one, and its operation, once DONE, targets it there
# (globalcomputebackendservice#17, #19, #32: httpHealthChecks as healthChecks)
BACKED_BY = {"httpHealthChecks": "healthChecks"}

# by (API, collection): Google's not-found message where it is not compute's "The resource
# '<name>' was not found", and the google.rpc status the error body names, if it names one
# (storagebucketbasic#0, iamserviceaccount#0)
NOT_FOUND: dict[tuple[str, str], tuple[str, str | None]] = {
    ("storage", "b"): ("The specified bucket does not exist.", None),
    ("iam", "serviceAccounts"): ("Unknown service account", "NOT_FOUND"),
}

# by schema id: a reference Google fills in under the resource's zone or region when none was
# sent (zonalcomputedisk#1 sends no type, #3 reads pd-standard; the recorder writes a ``type``
# as a relative name, tests/e2e/normalize.go, so the form is the discovery document's URL)
SCOPED_DEFAULTS: dict[str, dict[str, str]] = {"Disk": {"type": "diskTypes/pd-standard"}}
