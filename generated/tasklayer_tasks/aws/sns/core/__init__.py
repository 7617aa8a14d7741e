"""Cores of the sns resources; generated, do not edit."""
