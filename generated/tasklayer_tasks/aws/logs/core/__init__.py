"""Cores of the logs resources; generated, do not edit."""
