"""The generic AWS rules, run in the order the modules list them."""
