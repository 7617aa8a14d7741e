"""Pin Config Connector's recorded GCP traffic for the kinds we generate (issue 23 item 1).

    python -m testbed.kcc_pin --repo <git dir of GoogleCloudPlatform/k8s-config-connector>

reads each fixture's ``_http.log`` from the repository's ``HEAD`` (a bare git directory is
enough: nothing is checked out), writes it under ``tests/recordings/kcc/<fixture>.http.log``
with the upstream ``LICENSE`` (Apache-2.0) beside it, and records in ``manifest.json`` the
source repository, commit, path, sha256 and licence of each. ``--check`` writes nothing and
exits 1 when a pinned file is not what its manifest says. Tests read only the pinned copy.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from pathlib import Path

from .kcc_log import parse

REPOSITORY = "GoogleCloudPlatform/k8s-config-connector"
LICENCE = "Apache-2.0"
OUT = Path(__file__).resolve().parents[1] / "tests" / "recordings" / "kcc"
BASIC = "pkg/test/resourcefixture/testdata/basic"

# fixture -> (the kind it judges: our generated task, its log's path under BASIC); each
# creates its kind, and most update and delete it (the reason a fixture is chosen)
FIXTURES: dict[str, tuple[str, str]] = {
    "computenetworkbasic": (
        "compute.Network",
        "compute/v1beta1/computenetwork/computenetworkbasic",
    ),
    "computesubnetwork": (
        "compute.Subnetwork",
        "compute/v1beta1/computesubnetwork/computesubnetwork",
    ),
    "computefirewall": ("compute.Firewall", "compute/v1beta1/computefirewall/computefirewall"),
    "regionalcomputeaddress": (
        "compute.Address",
        "compute/v1beta1/computeaddress/regionalcomputeaddress",
    ),
    "globalcomputeaddress": (
        "compute.GlobalAddress",
        "compute/v1beta1/computeaddress/globalcomputeaddress",
    ),
    "computerouter": ("compute.Router", "compute/v1beta1/computerouter"),
    "computerouternatbasic": (
        "compute.Router",  # a RouterNAT is a member of its Router's nats
        "compute/v1beta1/computerouternat/computerouternatbasic",
    ),
    "regionalcomputeforwardingruletcp": (
        "compute.ForwardingRule",
        "compute/v1beta1/computeforwardingrule/regionalcomputeforwardingruletcp",
    ),
    "globalcomputehealthcheck": (
        "compute.HealthCheck",
        "compute/v1beta1/computehealthcheck/globalcomputehealthcheck",
    ),
    "regionalcomputehealthcheck": (
        "compute.RegionHealthCheck",
        "compute/v1beta1/computehealthcheck/regionalcomputehealthcheck",
    ),
    "globalcomputebackendservice": (
        "compute.BackendService",
        "compute/v1beta1/computebackendservice/globalcomputebackendservice",
    ),
    "zonalcomputeinstancegroupmanager": (
        "compute.InstanceGroupManager",
        "compute/v1beta1/computeinstancegroupmanager/zonalcomputeinstancegroupmanager",
    ),
    "regionalcomputeinstancegroupmanager": (
        "compute.RegionInstanceGroupManager",
        "compute/v1beta1/computeinstancegroupmanager/regionalcomputeinstancegroupmanager",
    ),
    "zonalcomputedisk": ("compute.Disk", "compute/v1beta1/computedisk/zonalcomputedisk"),
    "regionalcomputedisk": (
        "compute.RegionDisk",
        "compute/v1beta1/computedisk/regionalcomputedisk",
    ),
    "iamserviceaccount": (
        "iam.ServiceAccount",
        "iam/v1beta1/iamserviceaccount/iamserviceaccount",
    ),
    "storagebucketbasic": ("storage.Bucket", "storage/v1beta1/storagebucket/storagebucketbasic"),
}


def _git(repo: Path, *args: str) -> bytes:
    return subprocess.run(
        ["git", "--git-dir", str(repo), *args], check=True, capture_output=True
    ).stdout


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def pin(repo: Path, out: Path = OUT) -> dict[str, object]:
    commit = _git(repo, "rev-parse", "HEAD").decode().strip()
    out.mkdir(parents=True, exist_ok=True)
    licence = _git(repo, "show", "HEAD:LICENSE")
    (out / "LICENSE").write_bytes(licence)
    logs = []
    for fixture, (kind, where) in FIXTURES.items():
        path = f"{BASIC}/{where}/_http.log"
        data = _git(repo, "show", f"HEAD:{path}")
        parse(data.decode())  # refuse a log the parser cannot read before pinning it
        (out / f"{fixture}.http.log").write_bytes(data)
        logs.append(
            {
                "fixture": fixture,
                "kind": kind,
                "file": f"{fixture}.http.log",
                "path": path,
                "sha256": sha256(data),
            }
        )
    manifest: dict[str, object] = {
        "repository": f"https://github.com/{REPOSITORY}",
        "commit": commit,
        "licence": LICENCE,
        "licence_file": "LICENSE",
        "licence_sha256": sha256(licence),
        "logs": logs,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest


def check(out: Path = OUT) -> list[str]:
    """Each pinned file that is missing or not what the manifest says."""
    manifest = json.loads((out / "manifest.json").read_text())
    wrong = []
    files = [(manifest["licence_file"], manifest["licence_sha256"])]
    files += [(log["file"], log["sha256"]) for log in manifest["logs"]]
    for name, digest in files:
        path = out / name
        if not path.exists() or sha256(path.read_bytes()) != digest:
            wrong.append(name)
    return wrong


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, help="git directory of " + REPOSITORY)
    parser.add_argument("--check", action="store_true", help="verify the pinned copy only")
    args = parser.parse_args(argv)
    if args.check:
        wrong = check()
        for name in wrong:
            print(f"{name}: not what manifest.json records", file=sys.stderr)
        return 1 if wrong else 0
    if args.repo is None:
        parser.error("--repo is required unless --check")
    manifest = pin(args.repo)
    print(f"pinned {len(manifest['logs'])} logs from {REPOSITORY}@{manifest['commit']}")  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    sys.exit(main())
