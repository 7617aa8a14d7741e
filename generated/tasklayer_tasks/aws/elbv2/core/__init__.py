"""Cores of the elbv2 resources; generated, do not edit."""
