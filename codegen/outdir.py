"""Safety around the output folder: one writer at a time, an atomic swap, and repair of what a
killed run left behind.

- **Lock.** ``flock`` on the output's parent folder (no lock file to leave behind): a second
  generate into the same place waits, saying so, and fails clearly after ``timeout`` seconds.
- **Swap.** On Linux the new tree and ``generated/`` trade places in one ``renameat2
  (RENAME_EXCHANGE)`` call, so at no moment is there no ``generated/``. Elsewhere two renames
  are used, and the gap between them is repaired by :func:`recover` on the next run.
- **Recover.** Temporary trees (``.generated.tmp-*``) of a killed run are removed; if the kill
  fell between the two renames, the moved-aside tree is put back first.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from codegen.errors import TasklayerError

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2
OLD_SUFFIX = "-old"


def temp_prefix(target: Path) -> str:
    return f".{target.name}.tmp-"


@contextlib.contextmanager
def locked(target: Path, *, shared: bool = False, timeout: float = 120.0) -> Iterator[None]:
    """Hold the output's lock: exclusive to write, shared to compare (``--check``)."""
    import fcntl

    parent = target.parent
    parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(parent, os.O_RDONLY)
    mode = fcntl.LOCK_SH if shared else fcntl.LOCK_EX
    try:
        deadline = time.monotonic() + timeout
        waiting = False
        while True:
            try:
                fcntl.flock(fd, mode | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if not waiting:
                    print(
                        f"tasklayer: waiting for another tasklayer generate writing {target} ...",
                        file=sys.stderr,
                    )
                    waiting = True
                if time.monotonic() > deadline:
                    raise TasklayerError(
                        f"another tasklayer generate has held the lock for {timeout:.0f}s; not "
                        "writing",
                        file=str(target),
                    ) from None
                time.sleep(0.1)
        yield
    finally:
        os.close(fd)  # releases the lock


def recover(target: Path) -> list[Path]:
    """Repair what a killed run left beside ``target``; returns the temporary trees removed."""
    prefix = temp_prefix(target)
    leftovers = sorted(p for p in target.parent.glob(prefix + "*") if p.is_dir())
    if not target.exists():
        aside = [p for p in leftovers if p.name.endswith(OLD_SUFFIX)]
        if aside:  # killed between "generated -> -old" and "new -> generated"
            aside[0].rename(target)
            leftovers.remove(aside[0])
    for path in leftovers:
        shutil.rmtree(path, ignore_errors=True)
    return leftovers


def exchange(a: Path, b: Path) -> bool:
    """Atomically trade the names of two folders; False where the system cannot."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    renameat2.argtypes = [
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_uint,
    ]
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (
        errno.ENOSYS,
        errno.EINVAL,
        errno.ENOTSUP,
    ):  # an old kernel or a filesystem without it
        return False
    raise OSError(err, os.strerror(err), str(b))


def swap_in(target: Path, staging: Path) -> Path | None:
    """Put ``staging`` at ``target``; returns the previous tree, now at a temporary name."""
    if not target.exists():
        staging.rename(target)
        return None
    if exchange(staging, target):
        return staging  # the old tree now lives under the staging name
    old = staging.with_name(staging.name + OLD_SUFFIX)
    target.rename(old)
    try:
        staging.rename(target)
    except BaseException:
        old.rename(target)
        raise
    return old
