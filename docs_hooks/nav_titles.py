"""MkDocs hook (mkdocs.yml ``hooks:``): the sidebar's section titles, spelt as people spell them.

The site has no ``nav:`` (every page under docs/ is in it, the 338 generated reference pages
among them), so MkDocs titles each section after its folder, capitalised: "Aws", "Ec2", "Api".
This hook gives each folder its proper title instead ("AWS", "EC2", "API reference"), from
``TITLES`` below, and leaves the order and the pages as MkDocs found them.

A folder the table does not name is a warning, which fails the strict build (tests/docs): a new
service's reference folder gets its title here, not "Newservice" in the sidebar.
"""

from __future__ import annotations

import logging
from typing import Any

from mkdocs.structure.nav import Navigation, Section

log = logging.getLogger("mkdocs.hooks.nav_titles")

# a folder's path under docs/ -> its section's title
TITLES = {
    "api": "API reference",
    "guide": "Reuse guide",
    "reference": "Resource reference",
    "reference/aws": "AWS",
    "reference/aws/autoscaling": "Auto Scaling",
    "reference/aws/dynamodb": "DynamoDB",
    "reference/aws/ec2": "EC2",
    "reference/aws/ecr": "ECR",
    "reference/aws/elbv2": "ELBv2",
    "reference/aws/iam": "IAM",
    "reference/aws/kms": "KMS",
    "reference/aws/logs": "CloudWatch Logs",
    "reference/aws/route53": "Route 53",
    "reference/aws/s3": "S3",
    "reference/aws/secretsmanager": "Secrets Manager",
    "reference/aws/sns": "SNS",
    "reference/aws/sqs": "SQS",
    "reference/aws/ssm": "SSM",
    "reference/gcp": "GCP",
    "reference/gcp/compute": "Compute Engine",
    "reference/gcp/container": "GKE",
    "reference/gcp/dns": "Cloud DNS",
    "reference/gcp/iam": "IAM",
    "reference/gcp/storage": "Cloud Storage",
}


def on_nav(nav: Navigation, **_: Any) -> Navigation:
    for item in nav.items:
        _retitle(item)
    return nav


def _retitle(item: Any) -> None:
    if not isinstance(item, Section):
        return
    folder = _folder(item)
    if folder is not None:
        if folder in TITLES:
            item.title = TITLES[folder]
        else:
            log.warning(
                "docs/%s/ has no section title: add it to TITLES in docs_hooks/nav_titles.py",
                folder,
            )
    for child in item.children:
        _retitle(child)


def _folder(section: Section) -> str | None:
    """The folder under docs/ a section stands for: that of the pages directly in it."""
    for child in section.children:
        if getattr(child, "is_page", False) and child.file is not None:
            parent = child.file.src_uri.rpartition("/")[0]
            return parent or None
    for child in section.children:
        if isinstance(child, Section):
            inner = _folder(child)
            if inner is not None:
                return inner.rpartition("/")[0] or None
    return None
