"""The GCP adapter: ``GcpCore`` over googleapiclient, turning its calls, operations and errors
into the contract's (docs/architecture.md).
"""
