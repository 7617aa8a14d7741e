"""Format generated Python with black, all files in one batch.

Templates are written for readability, not for exact whitespace; black makes the output look
hand-written and keeps diffs of ``generated/`` quiet. One mode for every file, so the same
source always formats to the same bytes, whichever process formats it.

black costs about 0.1 s of CPU per 300-line module (measured: 100 such modules, 10.5 s in one
process, 5.6 s over two worker processes on two cores), so large batches are spread over a
process pool; small ones stay in this process, where a pool would cost more than it saves.

black still decides every byte; three things spare it work it would only repeat: templates
write black's layout (one pass instead of two, :mod:`codegen.render.layout`), a core's SPEC
literal is set aside while black formats the rest (:mod:`codegen.render.preformatted`), and
the verbatim runtime modules black is recorded to leave unchanged are not re-checked
(``black_clean.json``).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from concurrent.futures import ProcessPoolExecutor

import black
from black.mode import TargetVersion
from black.parsing import InvalidInput

from codegen.errors import TasklayerError
from codegen.render.layout import LINE_LENGTH
from codegen.render.preformatted import put_back, set_aside

MODE = black.Mode(target_versions={TargetVersion.PY310}, line_length=LINE_LENGTH)
FILES_PER_WORKER = 8  # below this a worker process is not worth starting
_Result = tuple[str, str | None]  # (formatted source, black's error message)
# sha256 of sources black was seen to leave unchanged, under KNOWN_CLEAN's black version and
# mode: the runtime's own modules, which every generate copies verbatim. A pure function's
# verdict, recorded once (tests/test_preformatted.py holds the list to the runtime's current
# files and black); a source not on it, or another black, is formatted as any other.
KNOWN_CLEAN = Path(__file__).with_name("black_clean.json")
# source -> black's result, for this process: the runtime's modules and unchanged resources
# are the same text on every run, and black is a pure function of its input and MODE
_FORMATTED: dict[str, _Result] = {}


def format_python(files: dict[str, str], workers: int | None = None) -> dict[str, str]:
    """``files`` with every ``.py`` source formatted by black; other files unchanged, key order
    kept. ``workers``: processes to use (default: one per CPU for large batches, else 1).

    A source black cannot parse is a generator or template bug; it is reported as a
    :class:`TasklayerError` naming the file and black's message, not as a traceback.
    """
    paths = [path for path in files if path.endswith(".py")]
    clean = _known_clean()
    _FORMATTED.update((files[p], (files[p], None)) for p in paths if clean and _digest(files[p]) in clean)
    todo = list(dict.fromkeys(files[p] for p in paths if files[p] not in _FORMATTED))
    count = _default_workers(len(todo)) if workers is None else max(1, workers)
    _FORMATTED.update(zip(todo, _map(_black, todo, count)))
    results = {p: _FORMATTED[files[p]] for p in paths}
    for path in paths:  # the first failure in the files' own order: the same error every run
        error = results[path][1]
        if error is not None:
            raise TasklayerError(f"generated source is not valid Python (a generator or template bug): {error}", file=path)
    return {path: results[path][0] if path in results else text for path, text in files.items()}


def _digest(source: str) -> str:
    return hashlib.sha256(source.encode("utf-8")).hexdigest()


def _clean_key() -> dict[str, str]:
    return {"black": black.__version__, "mode": repr(MODE)}


def _known_clean() -> frozenset[str]:
    try:
        recorded = json.loads(KNOWN_CLEAN.read_text())
    except (OSError, ValueError):
        return frozenset()
    if not isinstance(recorded, dict) or {k: recorded.get(k) for k in _clean_key()} != _clean_key():
        return frozenset()
    return frozenset(recorded.get("sha256", ()))


def known_clean_record(sources: Iterable[str]) -> dict[str, object]:
    """The KNOWN_CLEAN record for ``sources``: those black leaves unchanged, run through black
    itself now (writing it: ``python -m codegen.render.formatting``)."""
    digests = sorted({_digest(s) for s in sources if _black(s) == (s, None)})
    return {**_clean_key(), "sha256": digests}


def runtime_sources(templates: Path) -> list[str]:
    """The modules every generate copies verbatim from ``templates``."""
    return [
        p.read_text()
        for folder in ("runtime", "testing")
        for p in sorted((templates / folder).rglob("*.py"))
        if "__pycache__" not in p.parts
    ]


def _black(source: str) -> _Result:
    """black's output, or black's message; a plain pair so it crosses process boundaries.

    Statements the templates already wrote in black's layout (a core's ``SPEC``; see
    :mod:`codegen.render.preformatted`) are set aside while black formats the rest: the result
    is the same text, for a fraction of black's time.
    """
    try:
        reduced, aside = set_aside(source, MODE.line_length)
        if aside:
            try:
                restored = put_back(black.format_str(reduced, mode=MODE), aside)
            except InvalidInput:
                restored = None  # black's own message, with the right line numbers, comes below
            if restored is not None:
                return restored, None
        return black.format_str(source, mode=MODE), None
    except InvalidInput as err:
        return source, str(err)


def _map(fn: Callable[[str], _Result], items: list[str], workers: int) -> list[_Result]:
    if workers <= 1 or len(items) <= 1:
        return [fn(item) for item in items]
    with ProcessPoolExecutor(max_workers=workers, initializer=_die_with_parent, initargs=(os.getpid(),)) as pool:
        return list(pool.map(fn, items, chunksize=max(1, len(items) // (workers * 4))))


def _die_with_parent(parent: int) -> None:
    """A worker must not outlive a killed ``generate``: Linux sends it SIGKILL when its parent
    dies (``prctl(PR_SET_PDEATHSIG)``); elsewhere the pool's own shutdown is all there is."""
    import ctypes
    import signal

    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (AttributeError, OSError):
        pass
    if os.getppid() != parent:  # the parent died before the line above took effect
        os._exit(1)


_PR_SET_PDEATHSIG = 1


def _default_workers(file_count: int) -> int:
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, file_count // FILES_PER_WORKER))


if __name__ == "__main__":  # refresh KNOWN_CLEAN after changing the runtime or black
    record = known_clean_record(runtime_sources(Path(__file__).resolve().parents[2] / "templates"))
    KNOWN_CLEAN.write_text(json.dumps(record, indent=1) + "\n")
