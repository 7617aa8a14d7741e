"""Cores of the dynamodb resources; generated, do not edit."""
