"""The players' compiled module (duplicate/_native: the heuristic bot, playouts, the unseen
cards' draw, the arena's actionList text and agent), loaded once at import by
:func:`engine.core.load_layer`; docs/CORE.md, "The layout"."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from engine import core

__all__ = ["PLAYERS", "players"]

#: the compiled module, or None when it is not built or cannot be used
PLAYERS = core.load_layer("duplicate._native._players", Path(__file__).parent / "_native",
                          core.ENGINE_C)


def players() -> ModuleType | None:
    """The players' compiled module while the engine's compiled core is in use (so that
    :func:`engine.core.use` switches every layer at once), else None."""
    return PLAYERS if core.native is not None else None
