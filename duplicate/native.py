"""The players' compiled module (duplicate/_native: the heuristic bot, playouts, the unseen
cards' draw, the arena's actionList text and agent), loaded once at import by
:func:`engine.core.load_layer`; docs/CORE.md, "The layout".

The players' modules define each function twice, ``py_NAME`` (the reference) and
``c_NAME`` (calling :data:`PLAYERS`), and bind ``NAME`` once, at import, to the compiled
one when :data:`CHOSEN` (as the engine's modules do with ``engine.core.native``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine import core

__all__ = ["CHOSEN", "PLAYERS"]

#: the compiled module, whatever GUANDAN_CORE chose (the ``c_`` functions call it), or None
#: when it is not built or cannot be used
PLAYERS: Any = core.load_layer("duplicate._native._players", Path(__file__).parent / "_native",
                               core.ENGINE_C)
#: True when the players' public names are the compiled module's: it loads and the
#: engine's compiled core is the one chosen
CHOSEN = PLAYERS is not None and core.native is not None
