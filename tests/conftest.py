"""Shared test set-up: the generated package is imported from ``generated/`` as a user who
vendors it would, without installing it."""

from __future__ import annotations

import sys
from pathlib import Path

GENERATED = Path(__file__).resolve().parent.parent / "generated"
if str(GENERATED) not in sys.path:
    sys.path.insert(0, str(GENERATED))
