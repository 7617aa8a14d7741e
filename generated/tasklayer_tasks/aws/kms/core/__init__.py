"""Cores of the kms resources; generated, do not edit."""
