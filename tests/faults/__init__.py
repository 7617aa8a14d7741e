"""The fault-campaign harness: moto_server behind a fault-injecting proxy, an independent
inventory, and the workloads whose every mutating call is faulted in turn."""
