"""Cores of the ssm resources; generated, do not edit."""
