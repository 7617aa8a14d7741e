"""Cores of the ec2 resources; generated, do not edit."""
