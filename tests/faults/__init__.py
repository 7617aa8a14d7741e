"""The fault proxy's own tests and the pytest fixtures of a moto_server behind it; the harness
itself (proxy, moto_server, inventory, campaign) is in testbed/, which bench/ shares."""
