"""Cores of the s3 resources; generated, do not edit."""
