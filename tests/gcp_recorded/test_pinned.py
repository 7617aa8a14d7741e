"""The pinned Config Connector recordings (issue 23 item 1): each file is what the manifest
records (sha256), from a named commit of the upstream repository, with its Apache-2.0 licence
beside it, and every log parses into exchanges."""

from __future__ import annotations

import json

from testbed.kcc_log import parse
from testbed.kcc_pin import FIXTURES, OUT, check


def test_the_pinned_copy_is_what_the_manifest_records() -> None:
    manifest = json.loads((OUT / "manifest.json").read_text())
    assert manifest["repository"] == "https://github.com/GoogleCloudPlatform/k8s-config-connector"
    assert len(manifest["commit"]) == 40 and manifest["licence"] == "Apache-2.0"
    assert "Apache License" in (OUT / "LICENSE").read_text()
    assert sorted(log["fixture"] for log in manifest["logs"]) == sorted(FIXTURES)
    assert all(log["path"].endswith("/_http.log") for log in manifest["logs"])
    assert check() == []


def test_every_log_parses_into_requests_and_answers() -> None:
    for log in json.loads((OUT / "manifest.json").read_text())["logs"]:
        exchanges = parse((OUT / log["file"]).read_text())
        assert exchanges, log["file"]
        methods = {e.method for e in exchanges}
        assert {"GET", "POST", "DELETE"} <= methods, (log["file"], methods)
        assert all(100 <= e.status < 600 for e in exchanges)
