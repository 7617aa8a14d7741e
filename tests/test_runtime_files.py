"""A runtime layer built from generated tasks ships only in a package that holds them
(codegen/render/runtime_files.py): read from its imports, never declared."""

from __future__ import annotations

from pathlib import Path

from codegen.render.runtime_files import runtime_files


def _templates(tmp_path: Path) -> Path:
    files = {
        "runtime/__init__.py": "",
        "runtime/engine/__init__.py": "",
        "runtime/engine/apply.py": "from ..contract import spec\n",
        "runtime/face/__init__.py": "",
        "runtime/face/aws.py": "from ...aws.ec2 import RouteTable\nfrom ..engine import apply\n",
        "runtime/face/service.py": "X = 1\n",
        "testing/__init__.py": "",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


def test_a_layer_importing_a_service_the_package_lacks_is_left_out_whole(tmp_path: Path) -> None:
    files = runtime_files(_templates(tmp_path), "pkg", {"aws/s3"})
    assert "pkg/runtime/engine/apply.py" in files and "pkg/testing/__init__.py" in files
    assert not [p for p in files if p.startswith("pkg/runtime/face/")], sorted(files)


def test_the_layer_ships_where_the_service_is_generated(tmp_path: Path) -> None:
    files = runtime_files(_templates(tmp_path), "pkg", {"aws/ec2"})
    assert {"pkg/runtime/face/aws.py", "pkg/runtime/face/service.py"} <= set(files)


def test_the_real_cloud_provider_face_ships_with_ec2_and_elbv2_only() -> None:
    templates = Path(__file__).resolve().parents[1] / "templates"
    face = "tasklayer_tasks/runtime/cloudprovider/aws.py"
    assert face in runtime_files(templates, "tasklayer_tasks", {"aws/ec2", "aws/elbv2"})
    assert face not in runtime_files(templates, "tasklayer_tasks", {"aws/ec2", "aws/s3"})


def test_each_clouds_face_ships_with_its_own_services() -> None:
    """The face's GCP module imports gcp/compute: it ships with that, beside AWS's or alone, and
    with the shared modules; a package of AWS services ships AWS's module without it."""
    templates = Path(__file__).resolve().parents[1] / "templates"
    face = "tasklayer_tasks/runtime/cloudprovider/"
    aws = set(runtime_files(templates, "tasklayer_tasks", {"aws/ec2", "aws/elbv2"}))
    gcp = set(runtime_files(templates, "tasklayer_tasks", {"gcp/compute"}))
    assert face + "aws.py" in aws and face + "gcp.py" not in aws
    assert face + "gcp.py" in gcp and face + "aws.py" not in gcp
    assert {face + "face.py", face + "service.py"} <= aws & gcp
