"""The main job, ``tasklayer generate``: kept as the entry point callers know; the stages are
orchestrated in :mod:`codegen.pipeline`."""

from __future__ import annotations

from codegen.pipeline import generate, render, selections

__all__ = ["generate", "render", "selections"]
