"""Cores of the ecr resources; generated, do not edit."""
