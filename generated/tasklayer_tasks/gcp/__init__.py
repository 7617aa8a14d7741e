"""Generated gcp services; do not edit."""
