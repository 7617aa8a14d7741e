"""The test bed that tests/ and bench/ share (bench/ never imports tests/): moto_server
(:mod:`testbed.moto`), the fault-injecting proxy in front of it (:mod:`testbed.proxy`, REST
services named in :mod:`testbed.rest`), the independent inventory of what the account holds
(:mod:`testbed.inventory`), the fault campaign and its workloads (:mod:`testbed.campaign`), the
kOps-style EC2 stacks and network (:mod:`testbed.stack`, :mod:`testbed.kops_network`), the
GCE cluster on the fake (:mod:`testbed.gce`) and the judge of GCP requests against the full
discovery documents (:mod:`testbed.gcp_requests`)."""
