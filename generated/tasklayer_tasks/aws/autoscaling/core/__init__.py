"""Cores of the autoscaling resources; generated, do not edit."""
