"""Hand-checked accuracy of the GCP rules (rules only, no overlays) on the pinned discovery
documents, and container v1: each row's expected class is what
Google's published API reference says (the page is named above each group). Rows the rules
still get wrong are strict expected failures naming why; ``test_agreement`` prints the figure.

This table extends the kOps/CAPG one in ``test_rules_gcp.py`` without repeating its rows.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from codegen.model import Mutability, Service
from codegen.providers.gcp.rules.run import annotate_document
from codegen.providers.gcp.source import load_pinned

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"
C, M, R = Mutability.CREATE_ONLY, Mutability.MUTABLE, Mutability.READ_ONLY


def _document(api: str) -> tuple[dict[str, Any], str]:
    src = load_pinned(SCHEMAS, api)
    return src.document, src.version


@pytest.fixture(scope="module")
def services() -> dict[str, Service]:
    out = {}
    for api in ("compute", "container", "dns", "storage", "iam"):
        document, version = _document(api)
        _, draft = annotate_document(document, service=api, api_version=version)
        out[api] = draft.freeze()
    return out


ROWS: list[Any] = []


def rows(api: str, resource: str, expected: dict[str, Mutability], wrong: dict[str, str] | None = None) -> None:
    """Rows for one resource; ``wrong`` names the fields the rules still get wrong, and why."""
    for field, mutability in expected.items():
        reason = (wrong or {}).get(field)
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        ROWS.append(pytest.param(api, resource, field, mutability, marks=marks, id=f"{api}.{resource}.{field}"))


# --- compute: https://cloud.google.com/compute/docs/reference/rest/v1/disks (and disks/update:
# "The update is performed only on selected fields included as part of update-mask. Only the
# following fields can be modified: userLicense"); provisioned performance and access mode are
# changed with disks.update per https://cloud.google.com/compute/docs/disks/modify-hyperdisks
HYPERDISK = "disks.update names no field; only the Hyperdisk guide says paths=provisionedIops/Throughput/accessMode"
rows("compute", "Disk", {
    "architecture": C, "diskEncryptionKey": C, "guestOsFeatures": C, "licenses": C, "licenseCodes": C,
    "physicalBlockSizeBytes": C, "params": C, "sourceImageEncryptionKey": C, "sourceSnapshotEncryptionKey": C,
    "replicaZones": C, "enableConfidentialCompute": C, "description": C, "sourceStorageObject": C,
    "asyncPrimaryDisk": C, "provisionedIops": M, "provisionedThroughput": M, "accessMode": M,
    "status": R, "sourceImageId": R, "lastAttachTimestamp": R, "resourcePolicies": M,
}, {"provisionedIops": HYPERDISK, "provisionedThroughput": HYPERDISK, "accessMode": HYPERDISK})
# https://cloud.google.com/compute/docs/reference/rest/v1/regionDisks (regionDisks/update as disks/update)
rows("compute", "RegionDisk", {
    "architecture": C, "guestOsFeatures": C, "physicalBlockSizeBytes": C, "replicaZones": C,
    "diskEncryptionKey": C, "sizeGb": M, "labels": M, "type": C, "users": R,
})
# https://cloud.google.com/compute/docs/reference/rest/v1/subnetworks ("Only certain fields can be
# updated with a patch request as indicated in the field descriptions"); flow logs, route overlap
# and purpose change with `gcloud compute networks subnets update` (subnetworks.patch)
rows("compute", "Subnetwork", {
    "allowSubnetCidrRoutesOverlap": M, "purpose": M, "role": M, "params": C, "ipv6AccessType": C,
    "privateIpv6GoogleAccess": M, "gatewayAddress": R, "state": R, "ipv6CidrRange": R,
}, {"purpose": "the pinned description of purpose is empty; only the enum says PEER_MIGRATION is transient"})
# https://cloud.google.com/compute/docs/reference/rest/v1/networks; enabling ULA internal IPv6 on an
# existing network: https://cloud.google.com/vpc/docs/create-modify-vpc-networks (networks.patch)
rows("compute", "Network", {
    "enableUlaInternalIpv6": M, "internalIpv6Range": M, "IPv4Range": C, "networkProfile": C, "params": C,
    "gatewayIPv4": R, "firewallPolicy": R, "description": C,
}, {"internalIpv6Range": "its text speaks of enabling ULA, not of itself; networks.patch says only routingConfig"})
# https://cloud.google.com/compute/docs/reference/rest/v1/forwardingRules
rows("compute", "ForwardingRule", {
    "ports": C, "network": C, "subnetwork": C, "noAutomateDnsZone": C, "serviceLabel": C, "ipVersion": C,
    "allowPscGlobalAccess": M, "pscConnectionId": R, "serviceName": R, "fingerprint": R,
    "labelFingerprint": R, "description": C,
}, {"allowPscGlobalAccess": "forwardingRules.patch's text says only network_tier; the field text is silent"})
# https://cloud.google.com/compute/docs/reference/rest/v1/backendServices (setSecurityPolicy,
# setEdgeSecurityPolicy); https://cloud.google.com/compute/docs/reference/rest/v1/regionBackendServices
rows("compute", "BackendService", {
    "edgeSecurityPolicy": M, "params": C, "logConfig": M, "timeoutSec": M, "sessionAffinity": M,
    "loadBalancingScheme": M, "usedBy": R, "kind": R,
})
rows("compute", "RegionBackendService", {"securityPolicy": M, "params": C, "backends": M, "region": R})
# https://cloud.google.com/compute/docs/reference/rest/v1/backendBuckets
rows("compute", "BackendBucket", {"edgeSecurityPolicy": M, "params": C, "bucketName": M, "enableCdn": M, "id": R})
# https://cloud.google.com/compute/docs/reference/rest/v1/targetPools, .../targetInstances (setSecurityPolicy)
rows("compute", "TargetPool", {"securityPolicy": M, "instances": M, "region": R})
rows("compute", "TargetInstance", {"securityPolicy": M, "zone": R})
# https://cloud.google.com/compute/docs/reference/rest/v1/instanceGroupManagers (namedPorts is the
# group's: instanceGroups.setNamedPorts), .../regionInstanceGroupManagers, .../instanceGroups
rows("compute", "InstanceGroupManager", {"namedPorts": M, "currentActions": R, "status": R, "instanceGroup": R})
rows("compute", "RegionInstanceGroupManager", {"namedPorts": M, "targetSize": M, "region": R})
rows("compute", "InstanceGroup", {"namedPorts": M, "network": R, "subnetwork": R, "size": R})  # "[Output Only]"
# https://cloud.google.com/compute/docs/reference/rest/v1/firewalls, .../routers, .../snapshots
rows("compute", "Firewall", {"params": C, "logConfig": M, "priority": M, "sourceTags": M})
rows("compute", "Router", {"params": C, "nats": M, "network": C})
rows("compute", "Snapshot", {"params": C, "guestFlush": C, "sourceDisk": C, "labels": M})

# --- container: https://cloud.google.com/kubernetes-engine/docs/reference/rest/v1/projects.locations.clusters
# (clusters.update takes a ClusterUpdate of desired* members; set… methods for the rest)
DESIRED = "clusters.update takes ClusterUpdate.desired…; no rule maps desired members to fields yet"
rows("container", "LocationCluster", {
    "name": C, "network": C, "subnetwork": C, "clusterIpv4Cidr": C, "initialClusterVersion": C,
    "initialNodeCount": C, "createTime": R, "endpoint": R, "currentMasterVersion": R, "status": R,
    "selfLink": R, "servicesIpv4Cidr": R, "location": R, "id": R, "labelFingerprint": R,
    "addonsConfig": M, "locations": M, "loggingService": M, "monitoringService": M,
    "maintenancePolicy": M, "networkPolicy": M, "resourceLabels": M, "legacyAbac": M,
    "releaseChannel": M, "verticalPodAutoscaling": M, "binaryAuthorization": M,
    "workloadIdentityConfig": M, "databaseEncryption": M, "loggingConfig": M, "autoscaling": M,
}, {
    "legacyAbac": "setLegacyAbac's body member is `enabled`, which no field is named",
    **dict.fromkeys(("releaseChannel", "verticalPodAutoscaling", "binaryAuthorization", "workloadIdentityConfig", "databaseEncryption", "loggingConfig", "autoscaling"), DESIRED),
})
# https://cloud.google.com/kubernetes-engine/docs/reference/rest/v1/projects.locations.clusters.nodePools
NODE_UPDATE = "nodePools.update takes an UpdateNodePoolRequest (nodeVersion, locations, …); not mapped yet"
rows("container", "ProjectLocationClusterNodePool", {
    "name": C, "autoscaling": M, "management": M, "initialNodeCount": C, "maxPodsConstraint": C,
    "version": M, "locations": M, "upgradeSettings": M, "status": R, "selfLink": R,
    "instanceGroupUrls": R, "podIpv4CidrSize": R,
}, {
    "initialNodeCount": "setSize sets nodeCount, the pool's current size, not its initial count",
    "version": NODE_UPDATE, "locations": NODE_UPDATE, "upgradeSettings": NODE_UPDATE,
})

# --- dns: https://cloud.google.com/dns/docs/reference/rest/v1/managedZones, .../policies,
# .../responsePolicies, .../resourceRecordSets
FIXED_ZONE = "managedZones.patch takes the whole zone and the field text does not say it is fixed"
rows("dns", "ManagedZone", {
    "name": C, "dnsName": C, "description": M, "labels": M, "visibility": C, "privateVisibilityConfig": M,
    "forwardingConfig": M, "dnssecConfig": M, "cloudLoggingConfig": M, "nameServers": R,
    "creationTime": R, "id": R, "kind": R, "nameServerSet": C,
}, {"dnsName": FIXED_ZONE, "visibility": FIXED_ZONE, "nameServerSet": FIXED_ZONE})
rows("dns", "Policy", {
    "name": C, "description": M, "networks": M, "enableInboundForwarding": M, "enableLogging": M,
    "alternativeNameServerConfig": M, "id": R,
})
rows("dns", "ResponsePolicy", {"responsePolicyName": C, "description": M, "networks": M, "labels": M, "id": R})
rows("dns", "ResourceRecordSet", {"name": C, "type": C, "ttl": M, "rrdatas": M, "kind": R})

# --- storage: https://cloud.google.com/storage/docs/json_api/v1/buckets (hierarchical namespace
# and custom dual-region placement are chosen at creation: .../docs/hns-overview, .../locations)
AT_CREATION = "storage's field text never says what is fixed at creation"
rows("storage", "Bucket", {
    "cors": M, "website": M, "logging": M, "retentionPolicy": M, "defaultEventBasedHold": M,
    "encryption": M, "billing": M, "autoclass": M, "softDeletePolicy": M, "rpo": M, "acl": M,
    "defaultObjectAcl": M, "customPlacementConfig": C, "hierarchicalNamespace": C,
    "etag": R, "selfLink": R, "kind": R, "satisfiesPZS": R,
}, {"customPlacementConfig": AT_CREATION, "hierarchicalNamespace": AT_CREATION})

# --- iam: https://cloud.google.com/iam/docs/reference/rest/v1/projects.roles,
# .../projects.locations.workloadIdentityPools, .../projects.serviceAccounts.keys
rows("iam", "ProjectRole", {
    "roleId": C, "name": R, "title": M, "description": M, "includedPermissions": M, "stage": M,
    "etag": R, "deleted": R,
})
rows("iam", "WorkloadIdentityPool", {
    "workloadIdentityPoolId": C, "name": R, "displayName": M, "description": M, "disabled": M,
    "state": R, "expireTime": R, "mode": C,
})
rows("iam", "ServiceAccountKey", {
    "keyAlgorithm": C, "privateKeyType": C, "name": R, "publicKeyData": R, "validAfterTime": R,
    "validBeforeTime": R, "keyOrigin": R, "keyType": R,
})


@pytest.mark.parametrize("api, resource, field, mutability", ROWS)
def test_field_class(services: dict[str, Service], api: str, resource: str, field: str,
                     mutability: Mutability) -> None:
    f = services[api].resource(resource).field(field)
    assert f.mutability is mutability, f.source


def test_agreement(services: dict[str, Service]) -> None:
    """The figure: rows whose class the rules decide as the reference says, of all rows."""
    matching = 0
    for row in ROWS:
        api, resource, field, mutability = row.values
        matching += services[api].resource(resource).field(field).mutability is mutability
    known_wrong = sum(1 for row in ROWS if row.marks)
    print(f"\nGCP accuracy table: {matching}/{len(ROWS)} fields agree with the API reference "
          f"({len(ROWS) - matching} wrong, all marked)")
    assert len(ROWS) >= 100
    assert matching == len(ROWS) - known_wrong  # every wrong row is one the table names
