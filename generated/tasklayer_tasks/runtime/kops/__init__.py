"""The kOps face: ``Task`` (find / check_changes / render), the executor, lifecycles, targets,
prune and the run's report (docs/architecture.md).
"""
