"""Every pinned input is verified on every run, rendered or not; inputs that would be silently
skipped, and runs that would drop a service or the runtime, are errors (exit 2, no traceback)."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from codegen.cli import main

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    for name in ("schemas", "templates", "generated"):
        shutil.copytree(ROOT / name, tmp_path / name, symlinks=True)
    return tmp_path


def generate(capsys: pytest.CaptureFixture[str], repo: Path, *extra: str) -> tuple[int, str]:
    code = main(["--schemas", str(repo / "schemas"), "generate", "--templates", str(repo / "templates"),
                 "--output", str(repo / "generated"), "--cache-dir", str(repo / "cache"), *extra])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, err


def repin(repo: Path, provider: str, service: str, relative: str, text: str) -> None:
    """Write a schema file and record its sha256 as a hand-made (bad) pin would."""
    path = next((repo / "schemas" / provider / service).glob(f"*/{relative}"))
    path.write_text(text)
    manifest = json.loads((repo / "schemas/manifest.json").read_text())
    manifest[provider]["services"][service]["files"][relative] = hashlib.sha256(path.read_bytes()).hexdigest()
    (repo / "schemas/manifest.json").write_text(json.dumps(manifest))


def test_a_truncated_schema_of_a_service_that_renders_nothing_fails(capsys, repo: Path) -> None:  # type: ignore[no-untyped-def]
    path = next((repo / "schemas/aws/route53").glob("*/service-2.json"))
    path.write_text(path.read_text()[:5000])
    code, err = generate(capsys, repo, "--check")
    assert code == 2 and "route53" in err and "sha256 differs" in err


def test_a_truncated_but_repinned_schema_fails_on_parsing(capsys, repo: Path) -> None:  # type: ignore[no-untyped-def]
    path = next((repo / "schemas/aws/route53").glob("*/service-2.json"))
    repin(repo, "aws", "route53", "service-2.json", path.read_text()[:5000])
    code, err = generate(capsys, repo, "--check")
    assert code == 2 and "route53" in err and "invalid JSON" in err


def test_a_duplicate_key_is_an_error(capsys, repo: Path) -> None:  # type: ignore[no-untyped-def]
    path = next((repo / "schemas/aws/iam").glob("*/service-2.json"))
    text = path.read_text()
    repin(repo, "aws", "iam", "service-2.json", text.replace('"metadata":{', '"metadata":{"protocol":"query",', 1)
          if '"metadata":{' in text else text.replace('"metadata": {', '"metadata": {"protocol": "query",', 1))
    code, err = generate(capsys, repo, "--check")
    assert code == 2 and "duplicate key 'protocol'" in err and "iam" in err


def test_nan_is_an_error(capsys, repo: Path) -> None:  # type: ignore[no-untyped-def]
    path = repo / "schemas/gcp/dns/v1/discovery.json"
    doc = json.loads(path.read_text())
    doc["x-extra"] = float("nan")
    repin(repo, "gcp", "dns", "discovery.json", json.dumps(doc))
    code, err = generate(capsys, repo, "--check")
    assert code == 2 and "NaN is not JSON" in err


def test_an_unrecorded_schema_file_is_an_error(capsys, repo: Path) -> None:  # type: ignore[no-untyped-def]
    (repo / "schemas/aws/ec2/2016-11-15/waiters-3.json").write_text("{}")
    code, err = generate(capsys, repo, "--check")
    assert code == 2 and "waiters-3.json" in err and "not recorded" in err


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda o: o.joinpath("aws/route53.yaml").write_text("# nothing\n"), "overlay is empty"),
        (lambda o: o.joinpath("aws/ec2.yaml").write_text(
            o.joinpath("aws/ec2.yaml").read_text().split("generate:")[0] + "generate: []\n"), "`generate` is empty"),
        (lambda o: o.joinpath("aws/elbv2.yaml").unlink() or o.joinpath("aws/elbv2.yaml").mkdir(), "not a file"),
        (lambda o: o.joinpath("aws/sqs.yaml").unlink() or o.joinpath("aws/sqs.yaml").symlink_to(o / "nowhere.yaml"),
         "dangling symlink"),
        (lambda o: o.joinpath("aws/elbv3.yaml").write_text("include: [Vpc]\n"), "did you mean: elbv2"),
        (lambda o: (o / "AWS").mkdir() or o.joinpath("AWS/ec2.yaml").write_text("include: [Vpc]\n"),
         "did you mean: aws"),
        (lambda o: o.joinpath("aws/iam.yml").write_text("include: [Role]\n"), "<service>.yaml"),
    ],
    ids=["empty", "generate-empty", "directory", "dangling-symlink", "unpinned-service", "wrong-case-provider", "yml"],
)
def test_overlays_that_would_be_skipped_are_errors(capsys, repo: Path, make, message: str) -> None:  # type: ignore[no-untyped-def]
    make(repo / "schemas/overlays")
    code, err = generate(capsys, repo, "--check")
    assert code == 2 and message in err, err


def test_a_missing_runtime_is_an_error(capsys, repo: Path) -> None:  # type: ignore[no-untyped-def]
    shutil.rmtree(repo / "templates/runtime")
    code, err = generate(capsys, repo)
    assert code == 2 and "runtime" in err
    assert (repo / "generated/tasklayer_tasks/runtime/__init__.py").is_file()


def test_dropping_a_service_needs_allow_drop(capsys, repo: Path) -> None:  # type: ignore[no-untyped-def]
    overlay = repo / "schemas/overlays/gcp/storage.yaml"
    overlay.write_text(overlay.read_text().split("generate:")[0])
    code, err = generate(capsys, repo)
    assert code == 2 and "would remove gcp/storage" in err and "--allow-drop" in err
    assert (repo / "generated/tasklayer_tasks/gcp/storage/__init__.py").is_file()
    code, _ = generate(capsys, repo, "--allow-drop")
    assert code == 0 and not (repo / "generated/tasklayer_tasks/gcp/storage").exists()
