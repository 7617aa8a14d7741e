"""Cores of the sqs resources; generated, do not edit."""
