"""The exact solver's compiled search: ``_solver`` is built from the C sources here and the
engine's (engine/_native), docs/CORE.md; engine.core loads it (``load_layer``).

``GUANDAN_CORE_BUILD=DIR`` loads ``_solver`` from ``DIR`` first, as engine._native does.
"""

import os

_build = os.environ.get("GUANDAN_CORE_BUILD")
if _build:
    __path__.insert(0, _build)
