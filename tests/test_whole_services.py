"""Whole services: ``generate: all`` selects every resource whose annotation is complete, says
why each other one is left out, and the service packages it writes import lazily."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from codegen.errors import TasklayerError
from codegen.model import Field, FieldType, Identity, Operation, Operations, Resource, Service
from codegen.overlays import load_overlay
from codegen.providers.aws.shapes import AwsCallShape
from codegen.providers.aws.views import AwsResourceView
from codegen.selection import choose, missing_parts

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated"


def _overlay(tmp_path: Path, text: str):  # type: ignore[no-untyped-def]
    path = tmp_path / "schemas/overlays/aws/toy.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(textwrap.dedent(text))
    return load_overlay(path, tmp_path)


def _resource(name: str, *, primary: tuple[str, ...] = ("Id",), read: bool = True, delete: bool = True) -> Resource:
    ops = Operations(
        create=Operation(f"Create{name}", "create"),
        read=Operation(f"Describe{name}s", "read") if read else None,
        delete=Operation(f"Delete{name}", "delete") if delete else None,
    )
    return Resource(name=name, api_name=name, shape=name, fields=(), identity=Identity(primary=primary), operations=ops)


def _service(*resources: Resource) -> Service:
    return Service(provider="aws", name="toy", api_version="2024-01-01", resources=resources)


def test_generate_all_reads_as_a_flag_with_optional_reasons(tmp_path: Path) -> None:
    assert _overlay(tmp_path / "a", "generate: all\n").generate_all
    overlay = _overlay(tmp_path / "b", 'generate:\n  all: true\n  except:\n    Widget: "moto lacks it"\n')
    assert overlay.generate_all and overlay.generate_except == {"Widget": "moto lacks it"}
    assert _overlay(tmp_path / "c", "generate: [Widget]\n").generate == ("Widget",)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("generate:\n  all: false\n", "takes all: true"),
        ("generate:\n  all: true\n  except:\n    Widget: ''\n", "say why Widget is not generated"),
        ("generate:\n  every: true\n", "unknown key 'every'"),
    ],
)
def test_a_bad_generate_all_is_an_error_naming_the_key(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(TasklayerError) as error:
        _overlay(tmp_path, text)
    assert message in str(error.value) and "toy.yaml" in str(error.value)


def test_all_selects_complete_resources_and_says_why_not_the_rest(tmp_path: Path) -> None:
    service = _service(_resource("Widget"), _resource("Gadget", read=False), _resource("Thing", primary=()),
                       _resource("Gizmo"))
    overlay = _overlay(tmp_path, 'generate:\n  all: true\n  except:\n    Gizmo: "needs a licence"\n')
    chosen, left_out = choose(service, overlay)
    assert chosen == ("Widget",)
    assert left_out == {"Gadget": "incomplete: no read", "Thing": "incomplete: no identity",
                        "Gizmo": "excluded by overlay: needs a licence"}
    assert missing_parts(_resource("X", primary=(), read=False, delete=False)) == ["identity", "read", "delete"]


def test_an_explicit_list_is_taken_as_it_is(tmp_path: Path) -> None:
    service = _service(_resource("Widget"), _resource("Gadget", read=False))
    assert choose(service, _overlay(tmp_path, "generate: [Gadget]\n")) == (("Gadget",), {})


def test_a_delete_that_names_nothing_still_passes_identity() -> None:
    """CallSpec.identity has no default: DeleteSpotDatafeedSubscription takes no member."""
    resource = _resource("Widget")
    view = AwsResourceView(resource, _service(resource), frozenset({"Widget"}))
    delete = Operation("DeleteWidget", "delete", call=AwsCallShape())
    args = {str(k): str(v) for k, v in view.call_arguments(delete)}
    assert args == {"operation": '"DeleteWidget"', "identity": "()"}


def test_the_metadata_lists_what_whole_services_leave_out_with_the_reason() -> None:
    services = json.loads((GENERATED / "tasklayer-generate-metadata.json").read_text())["services"]
    ec2 = next(s for s in services if s["provider"] == "aws" and s["service"] == "ec2")
    assert len(ec2["rendered"]) >= 100
    assert ec2["not_generated"]["SpotDatafeedSubscription"] == "incomplete: no identity"
    reasons = [why for s in services for why in s.get("not_generated", {}).values()]
    assert reasons and all(why.startswith(("incomplete: no ", "excluded by overlay: ", "cannot render: ")) for why in reasons)


def test_every_generated_module_imports_and_services_import_lazily() -> None:
    """Every module of the package imports (a TypeError at import broke whole services once);
    importing a service package imports none of its resources' modules."""
    script = textwrap.dedent("""
        import importlib, pkgutil, sys, time
        import tasklayer_tasks
        started = time.perf_counter()
        import tasklayer_tasks.aws.ec2 as ec2
        lazy = [m for m in sys.modules if m.startswith("tasklayer_tasks.aws.ec2.")]
        print("ec2", len(ec2.__all__), len(lazy), f"{(time.perf_counter() - started) * 1000:.1f}")
        assert ec2.Vpc.__name__ == "Vpc" and "Vpc" in dir(ec2)
        assert ec2.__file__.startswith(sys.argv[1]), ec2.__file__  # this checkout's, not an installed one
        try:
            ec2.NoSuchTask
            raise SystemExit("an unknown name must raise AttributeError")
        except AttributeError:
            pass
        failed = []
        count = 0
        for info in pkgutil.walk_packages(tasklayer_tasks.__path__, "tasklayer_tasks."):
            try:
                importlib.import_module(info.name)
                count += 1
            except Exception as error:
                failed.append(f"{info.name}: {error!r}")
        print("modules", count)
        print("\\n".join(failed))
    """)
    proc = subprocess.run([sys.executable, "-c", script, str(GENERATED)], cwd=GENERATED, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    _, exported, imported, _ms = lines[0].split()
    assert int(exported) >= 100 and int(imported) == 0, lines[0]
    assert int(lines[1].split()[1]) > 1000 and lines[2:] in ([], [""]), proc.stdout


def test_a_reference_keeps_its_full_name_where_the_short_one_is_taken() -> None:
    """ELBv2's LoadBalancer: ``SecurityGroups`` is a field of its own, so the ``…Ids`` list
    referencing SecurityGroup cannot shorten to it; a lone ``VpcId`` still becomes ``vpc``."""
    text, strings = FieldType("string"), FieldType("list", item=FieldType("string"))
    fields = (Field("SecurityGroupIds", strings, references="SecurityGroup"), Field("SecurityGroups", strings),
              Field("VpcId", text, references="Vpc"))
    balancer = replace(_resource("LoadBalancer"), fields=fields)
    service = _service(balancer, _resource("SecurityGroup"), _resource("Vpc"))
    view = AwsResourceView(balancer, service, frozenset({"LoadBalancer", "SecurityGroup", "Vpc"}))
    assert [str(f.attr) for f in view.fields] == ["security_group_ids", "security_groups", "vpc"]
