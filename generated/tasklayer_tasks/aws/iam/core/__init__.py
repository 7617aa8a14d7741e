"""Cores of the iam resources; generated, do not edit."""
