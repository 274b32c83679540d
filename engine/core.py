"""Which implementation of the engine's hot paths runs: the compiled core or pure Python.

The pure-Python engine (``engine.reading``, ``engine.moves``, ``engine.deal``) is the
reference. When the compiled core ``engine._native._core`` was built (docs/CORE.md), the
public functions of those modules hand their work to it; they keep their signatures, their
answers and their errors. ``GUANDAN_CORE`` chooses:

* unset or ``auto``: the compiled core when it loads, else pure Python;
* ``python``: pure Python;
* ``native``: the compiled core, and an error (:class:`CoreUnavailableError`) when it
  cannot be loaded.

``native`` is the loaded module while the compiled core is in use, else ``None``; the
engine's modules read it at every call, so :func:`use` switches at once (the tests run the
engine's suites against both implementations that way).
"""

from __future__ import annotations

import os
from types import ModuleType

from engine.combo import Combo, ComboType
from engine.errors import (
    GameOverError,
    GuandanError,
    IllegalPlayError,
    InvalidCardError,
    InvalidComboError,
    OutOfTurnError,
)
from engine.seat import Seat

__all__ = ["CoreUnavailableError", "ENV", "available", "implementation", "native", "use"]

#: the environment variable that forces an implementation
ENV = "GUANDAN_CORE"
#: the compiled core's API this engine speaks (CORE_API_VERSION in engine/_native/core_py.h)
API_VERSION = 3


class CoreUnavailableError(GuandanError):
    """The compiled core was asked for (``GUANDAN_CORE=native``) but cannot be loaded."""


def _load() -> tuple[ModuleType | None, str]:
    """The compiled core, initialised, or None and the reason it is missing."""
    try:
        from engine._native import _core  # type: ignore[attr-defined]
    except ImportError as exc:
        return None, str(exc)
    built = getattr(_core, "API_VERSION", None)
    if built != API_VERSION:
        return None, (
            f"the build in {_core.__file__} speaks API {built}, this engine {API_VERSION}: "
            f"a stale build, rebuild it with pip install -e ."
        )
    _core._init(
        Combo,
        ComboType,
        tuple(ComboType),
        tuple(Seat),
        GuandanError,
        InvalidCardError,
        InvalidComboError,
        IllegalPlayError,
        OutOfTurnError,
        GameOverError,
    )
    return _core, ""


_compiled, _missing = _load()

#: the compiled core's module while it is in use, else None
native: ModuleType | None = None


def available() -> bool:
    """True when the compiled core was built and loads."""
    return _compiled is not None


def use(name: str) -> None:
    """Switch to ``"native"``, ``"python"`` or ``"auto"`` (what ``GUANDAN_CORE`` says)."""
    global native
    if name == "python":
        native = None
    elif name == "native":
        if _compiled is None:
            raise CoreUnavailableError(
                f"{ENV}=native but the compiled core is not available ({_missing}); "
                f"reinstall with a C compiler (pip install -e '.[test]') or set {ENV}=python"
            )
        native = _compiled
    elif name in ("auto", ""):
        native = _compiled
    else:
        raise GuandanError(f"{ENV}={name!r}: expected native, python or auto")


def implementation() -> str:
    """``"native"`` or ``"python"``: the implementation in use."""
    return "python" if native is None else "native"


def why() -> tuple[str, str]:
    """Why this implementation is in use, for a line in the reader's language: ``("native",
    "")``, ``("unbuilt", reason)`` (the compiled core does not load: the reason, as the
    import system gives it), or ``("chosen", "GUANDAN_CORE=python")``."""
    if native is not None:
        return "native", ""
    if _compiled is None:
        return "unbuilt", _missing
    return "chosen", f"{ENV}=python"


def describe() -> str:
    """One line in English: the implementation in use and why (``guandan version`` says
    it in the output's language from :func:`why`)."""
    kind, detail = why()
    if kind == "native":
        return "engine core: native (compiled C, engine/_native)"
    if kind == "unbuilt":
        return f"engine core: pure Python (the compiled core is not built: {detail})"
    return f"engine core: pure Python ({detail})"


use(os.environ.get(ENV, "auto").strip().lower())
