"""The top layer: a face bound to an adapter (``AwsTask``, ``AwsReconciler``, ``GcpTask``,
``GcpReconciler``), the bases generated code derives from (docs/architecture.md).
"""
