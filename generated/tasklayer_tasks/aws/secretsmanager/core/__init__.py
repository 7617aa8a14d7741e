"""Cores of the secretsmanager resources; generated, do not edit."""
