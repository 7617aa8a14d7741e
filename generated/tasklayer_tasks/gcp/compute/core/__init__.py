"""Cores of the compute resources; generated, do not edit."""
