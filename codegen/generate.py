"""The main job, ``tasklayer generate``: kept as the entry point callers know; the stages are
orchestrated in :mod:`codegen.pipeline`, and ``codegen.build`` adds the cache, the lock and the
summary around them."""

from __future__ import annotations

from codegen.pipeline import Progress, annotated, generate, generate_list, render, selections

__all__ = ["Progress", "annotated", "generate", "generate_list", "render", "selections"]
