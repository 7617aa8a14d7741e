"""Cores of the route53 resources; generated, do not edit."""
