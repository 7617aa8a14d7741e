"""The AWS adapter: ``AwsCore`` over one botocore client, turning botocore's calls, shapes and
errors into the contract's (docs/architecture.md).
"""
