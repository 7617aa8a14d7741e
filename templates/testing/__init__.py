"""Testing helpers shipped with the generated tasks, for users' own tests.

``FakeGcp`` is a stateful fake of Google's REST APIs built from discovery documents: give it
the documents shipped beside the generated services and use it as the ``http`` of a
``Context``; its ``log`` records every request, and ``store`` holds what it has::

    import json
    from importlib.resources import files
    from tasklayer_tasks.runtime import CloudTarget, Context, Executor
    from tasklayer_tasks.testing import FakeGcp
    from tasklayer_tasks.gcp.compute import Network

    package = files("tasklayer_tasks.gcp.compute")
    fake = FakeGcp(json.loads(package.joinpath("discovery.json").read_text()))
    context = Context(
        project="p", region="us-central1", zone="us-central1-a", cluster="demo", http=fake
    )
    Executor(CloudTarget(context)).run([Network(name="demo", auto_create_subnetworks=False)])
    assert fake.calls(mutating_only=True) == ["compute.networks.insert"]

It answers the way Google does where a tasks layer's diffs care (full-URL references,
documented defaults, output-only members, operations that take several polls or fail); it
is a fake nonetheless: check requests against the full discovery documents too.
"""

from .gcp_fake import FakeError, FakeGcp, Request

__all__ = ["FakeError", "FakeGcp", "Request"]
