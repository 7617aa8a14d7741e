"""The engine improvement the face's isolation rests on: an owner narrowed by further marks
(``Owner.within``, reached through ``Context.owner_marks``) owns only what carries all of them,
writes all of them, and names them in its errors; not narrowed, it is the owner it was."""

from __future__ import annotations

from dataclasses import replace

from tasklayer_tasks.aws.elbv2 import TargetGroup
from tasklayer_tasks.runtime import Context, Owner
from tasklayer_tasks.runtime.contract.ownership import NARROWED_LABEL, NARROWED_TAG
from tasklayer_tasks.runtime.kops.translate import owner_of

CLUSTER = {"KubernetesCluster": "demo", "kubernetes.io/cluster/demo": "owned"}
WEB = {"kubernetes.io/service-name": "default/web"}
MARKER = {NARROWED_TAG: "kubernetes.io/service-name"}


def test_a_narrowed_owner_owns_only_what_carries_every_mark() -> None:
    cluster = Owner.kops_aws("demo")
    web = cluster.within(WEB)
    assert web.owns({**CLUSTER, **WEB, **MARKER}) and web.owns({**CLUSTER, **WEB})
    assert cluster.owns({**CLUSTER, **WEB})  # no marker: another tool's, judged by marks alone
    assert not web.owns(CLUSTER)  # the cluster's, not the Service's
    assert not web.owns({**CLUSTER, "kubernetes.io/service-name": "default/api"})
    assert not web.owns({**WEB, "kubernetes.io/cluster/other": "owned"})
    assert web.marks == {**CLUSTER, **WEB, **MARKER}  # every mark is written by its creates
    assert "kubernetes.io/service-name=default/web" in web.description
    assert cluster.within({}) is cluster


def test_create_tokens_of_two_narrowed_owners_are_not_each_others() -> None:
    cluster = Owner.kops_aws("demo")
    web, api = cluster.within(WEB), cluster.within({"kubernetes.io/service-name": "default/api"})
    assert web.made(web.token("t1")) and not api.made(web.token("t1"))
    assert cluster.token("t1") == Owner.kops_aws("demo").token("t1")  # unchanged unnarrowed


def test_a_task_on_a_context_with_owner_marks_is_owned_by_the_narrowed_owner() -> None:
    context = Context(cluster="demo")
    task = TargetGroup(name="k8s-default-web-0123456789")
    assert owner_of(task, context) == Owner.kops_aws("demo")
    narrowed = replace(context, owner_marks=WEB)
    assert owner_of(task, narrowed) == Owner.kops_aws("demo").within(WEB)
    assert narrowed.calls is context.calls  # the same clients and counts


def test_what_a_narrowed_owner_made_is_no_wider_or_otherwise_narrowed_owners() -> None:
    """The marker a narrowed owner writes names the keys that narrow it: the cluster's own owner
    (a cluster-wide prune) does not own it, nor one narrowed by another key; the tags every real
    resource carries besides (Name, KubernetesCluster, a user's) narrow nothing."""
    cluster = Owner.kops_aws("demo")
    web = cluster.within(WEB)
    made = {**web.marks, "Name": "k8s-elb-a1b2", "team": "payments"}
    assert web.owns(made) and not cluster.owns(made)
    assert not cluster.within({"team": "payments"}).owns(made)
    assert cluster.owns({**CLUSTER, "Name": "api.demo", "team": "payments"})
    assert web.within({"team": "payments"}).marks[NARROWED_TAG] == "kubernetes.io/service-name team"
    gce = Owner.kops_gce("demo").within({"service": "default-web"})
    assert gce.marks[NARROWED_LABEL] == "service" and not Owner.kops_gce("demo").owns(gce.marks)
