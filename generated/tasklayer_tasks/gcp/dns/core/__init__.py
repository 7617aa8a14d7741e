"""Cores of the dns resources; generated, do not edit."""
