"""The players' compiled code: ``_players`` is built from the C sources here (the heuristic
bot, playouts, the unseen cards' draw, the arena's actionList text and agent) and the
engine's (engine/_native), docs/CORE.md; engine.core loads it (``load_layer``) for
``duplicate.players_native``.

``GUANDAN_CORE_BUILD=DIR`` loads ``_players`` from ``DIR`` first, as engine._native does.
"""

import os

_build = os.environ.get("GUANDAN_CORE_BUILD")
if _build:
    __path__.insert(0, _build)
