"""Cores of the storage resources; generated, do not edit."""
