"""Generated aws services; do not edit."""
