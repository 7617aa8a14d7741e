"""Attributes read on their own (a VPC's two DNS attributes: one DescribeVpcAttribute each) are
independent reads: a task makes them at once, each in a copy of the caller's context."""

from __future__ import annotations

import contextvars
import threading
import time
from typing import Any

from moto import mock_aws

from tasklayer_tasks.aws.ec2 import Vpc
from tasklayer_tasks.runtime import CloudTarget, Executor
from tasklayer_tasks.runtime.kops.translate import find_state
from testbed.stack import counted_context

caller: contextvars.ContextVar[str | None] = contextvars.ContextVar("caller", default=None)


def test_a_vpcs_two_dns_attributes_are_read_at_once_in_the_callers_context() -> None:
    spans: list[tuple[float, float]] = []
    seen: list[str | None] = []
    lock = threading.Lock()

    def slow_read(model: Any, params: dict, **_: Any) -> None:
        if model.name == "DescribeVpcAttribute":
            begun = time.monotonic()
            time.sleep(0.2)
            with lock:
                spans.append((begun, time.monotonic()))
                seen.append(caller.get())

    with mock_aws():
        context, calls = counted_context()
        context.session.register("before-call.ec2.DescribeVpcAttribute", slow_read)
        vpc = Vpc(name="demo", cidr_block="10.0.0.0/16", enable_dns_support=True, enable_dns_hostnames=True)
        Executor(CloudTarget(context), sleep=lambda _: None).run([vpc])
        spans.clear(), seen.clear(), calls.clear()

        token = caller.set("converged pass")
        try:
            wanted = Vpc(name="demo", cidr_block="10.0.0.0/16", enable_dns_support=True,
                         enable_dns_hostnames=True)
            find_state(wanted, context)
        finally:
            caller.reset(token)
    assert calls.made["DescribeVpcAttribute"] == 2 and calls.writes() == {}
    (a_start, a_end), (b_start, b_end) = sorted(spans)
    assert b_start < a_end  # the second began before the first was answered: at once
    assert seen == ["converged pass", "converged pass"]
