"""Cores of the container resources; generated, do not edit."""
