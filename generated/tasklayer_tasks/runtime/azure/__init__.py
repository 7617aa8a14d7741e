"""The Azure Resource Manager adapter: ARM's REST API over azure-core's HTTP pipeline (its
retry policy, Retry-After, long-running-operation polling), translated at this boundary."""
