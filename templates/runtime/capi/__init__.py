"""The cluster-api face: ``Reconciler`` (reconcile / delete -> ``Result``), its steps, and the
kopf operator (docs/architecture.md).
"""
