"""Format generated Python with black, all files in one batch.

Templates are written for readability, not for exact whitespace; black makes the output look
hand-written and keeps diffs of ``generated/`` quiet. One mode for every file, so the same
source always formats to the same bytes.
"""

from __future__ import annotations

import black

from codegen.errors import TasklayerError

MODE = black.Mode(target_versions={black.TargetVersion.PY310}, line_length=100)


def format_python(files: dict[str, str]) -> dict[str, str]:
    """``files`` with every ``.py`` source formatted by black; other files unchanged.

    Runs in this process: black is compiled and a batch of generated modules formats in well
    under a second per hundred files, less than a worker pool costs to start (see the report in
    ``bench/``). Keys keep their order.
    """
    return {path: _format_one(path, text) if path.endswith(".py") else text for path, text in files.items()}


def _format_one(path: str, source: str) -> str:
    """black's output for ``source``; a source black cannot parse is a generator bug, reported
    with the file and black's message instead of a traceback."""
    try:
        return black.format_str(source, mode=MODE)
    except black.InvalidInput as err:
        raise TasklayerError(
            f"generated source is not valid Python (a generator or template bug): {err}", file=path
        ) from err
