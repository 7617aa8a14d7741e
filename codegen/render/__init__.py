"""The render stage: templates to source text, then black, in one strict environment."""

from codegen.render.env import make_environment, render_template
from codegen.render.formatting import format_python

__all__ = ["format_python", "make_environment", "render_template"]
