"""Which implementation of the engine's hot paths runs: the compiled core or pure Python.

The pure-Python engine (``engine.reading``, ``engine.moves``, ``engine.deal``) is the
reference. When the compiled core ``engine._native._core`` was built (docs/CORE.md), the
public functions of those modules are its; they keep their signatures, their answers and
their errors. The choice is made once, at import, as msgpack and simplejson make it: each
module defines its reference ``py_NAME`` and its compiled ``c_NAME`` and binds ``NAME`` to
one of them (``NAME = c_NAME if core.native is not None else py_NAME``); no function tests
the choice when it is called. ``GUANDAN_CORE`` chooses:

* unset or ``auto``: the compiled core when it loads, else pure Python;
* ``python``: pure Python;
* ``native``: the compiled core, and an error (:class:`CoreUnavailableError`) when it
  cannot be loaded.

A compiled core built from other sources than the checkout's ``engine/_native`` (its
built-in ``SOURCE_HASH`` differs, or its ``API_VERSION``: a stale build after an edit or an
update) is not used: ``native`` refuses it, ``auto`` runs pure Python with a
:class:`StaleCoreWarning`; both name the fix (``pip install -e .``).

:data:`native` is the loaded module when the compiled core is chosen, else ``None``;
:data:`compiled` is the loaded module whatever was chosen (``None`` when it is not built or
stale), so that the differential tests call ``c_NAME`` beside ``py_NAME`` in one process.
Both are fixed at import.
"""

from __future__ import annotations

import importlib
import os
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

from engine._native.sources import extension_files, source_hash
from engine.combo import Combo, ComboType
from engine.constants import CORE_API_VERSION
from engine.errors import (
    GameOverError,
    GuandanError,
    IllegalPlayError,
    InvalidCardError,
    InvalidComboError,
    OutOfTurnError,
)
from engine.ruleset import Ruleset
from engine.seat import Seat

__all__ = [
    "CoreUnavailableError", "ENV", "StaleCoreWarning", "available", "choose", "compiled",
    "implementation", "native",
]

#: the environment variable that forces an implementation
ENV = "GUANDAN_CORE"
#: the compiled core's API this engine speaks (engine/constants.py, built into the core)
API_VERSION = CORE_API_VERSION
#: the engine's C sources (in a source checkout)
ENGINE_C = Path(__file__).parent / "_native"
#: what to run when the compiled core is stale
REBUILD = "pip install -e ."


class CoreUnavailableError(GuandanError):
    """The compiled core was asked for (``GUANDAN_CORE=native``) but cannot be loaded."""


class StaleCoreWarning(RuntimeWarning):
    """The compiled core was built from other sources than the checkout's: the engine runs
    in pure Python until it is rebuilt."""


def checkout_hash(*directories: Path) -> str | None:
    """The fingerprint of the C sources an extension is built from (its layer's directory
    first, the engine's last) in a source checkout, or ``None`` when the first holds none
    (an installed wheel: its build is trusted)."""
    files = extension_files(*directories)
    return source_hash(files) if files else None


def stale_reason(built_api: object, built_hash: object, here: str | None, where: str) -> str:
    """Why a compiled core built as ``built_api``/``built_hash`` must not run against
    sources whose fingerprint is ``here``; "" when it may. A build without a fingerprint
    (one made by hand, as tools/core_sanitize.sh does not) and a checkout without sources
    are trusted."""
    if built_api != API_VERSION:
        return (f"the build in {where} speaks API {built_api}, this engine {API_VERSION}: "
                f"a stale build, rebuild it with {REBUILD}")
    if built_hash and here is not None and built_hash != here:
        return (f"the build in {where} was compiled from other sources than engine/_native "
                f"holds: a stale build, rebuild it with {REBUILD}")
    return ""


def _load() -> tuple[ModuleType | None, str, str]:
    """The compiled core, initialised, or None, why (``unbuilt`` or ``stale``) and the
    reason in words."""
    try:
        from engine._native import _core  # type: ignore[attr-defined]
    except ImportError as exc:
        return None, "unbuilt", str(exc)
    stale = stale_reason(getattr(_core, "API_VERSION", None), getattr(_core, "SOURCE_HASH", ""),
                         checkout_hash(ENGINE_C), _core.__file__)
    if stale:
        return None, "stale", stale
    _init(_core)
    Sequence.register(_core.PlayList)
    return _core, "", ""


def _init(module: ModuleType) -> None:
    """Hand a compiled module the engine's classes (each extension keeps its own copy)."""
    module._init(
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
        Ruleset,
    )


def load_layer(name: str, *directories: Path) -> ModuleType | None:
    """A layer's own compiled module (``duplicate.analysis._native._solver``), built from
    the C of ``directories`` (the layer's, then the engine's), checked as the engine's
    core is (API version, fingerprint) and initialised; ``None`` when the engine's core
    does not load or the module cannot be used. Called once, when the layer's Python
    module is imported; the layer binds its public names to it when :data:`native` is set.

    Under ``GUANDAN_CORE=native`` a module that cannot be used raises
    :class:`CoreUnavailableError`; under ``auto`` a stale one is skipped with a
    :class:`StaleCoreWarning`."""
    if _compiled is None:
        return None
    try:
        module = importlib.import_module(name)
    except ImportError as exc:
        reason = f"{name}: {exc}"
        if _asked == "native":
            raise CoreUnavailableError(
                f"{ENV}=native but the compiled core is not available ({reason}); "
                f"reinstall with a C compiler (pip install -e '.[test]') or set {ENV}=python",
                "engine.core_unavailable", detail=reason,
            ) from None
        return None
    here = checkout_hash(*directories)
    stale = stale_reason(getattr(module, "API_VERSION", None), getattr(module, "SOURCE_HASH", ""),
                         here, str(module.__file__))
    if stale:
        if _asked == "native":
            raise CoreUnavailableError(
                f"{ENV}=native but the compiled core is not available ({stale}); "
                f"reinstall with a C compiler (pip install -e '.[test]') or set {ENV}=python",
                "engine.core_unavailable", detail=stale,
            )
        if _asked != "python":
            warnings.warn(f"the compiled core is not used: {stale}", StaleCoreWarning,
                          stacklevel=2)
        return None
    _init(module)
    if hasattr(module, "PlayList"):
        Sequence.register(module.PlayList)
    return module


_compiled, _lack, _missing = _load()
#: what GUANDAN_CORE asks for
_asked = os.environ.get(ENV, "auto").strip().lower()

#: the compiled core's module when it loads and is fresh, whatever GUANDAN_CORE chose (the
#: ``c_NAME`` functions call it), else None
compiled: ModuleType | None = _compiled


def available() -> bool:
    """True when the compiled core was built and loads."""
    return _compiled is not None


def choose(name: str) -> ModuleType | None:
    """The compiled core's module when the setting ``name`` (``"native"``, ``"python"`` or
    ``"auto"``, what ``GUANDAN_CORE`` says) chooses it, else None.

    ``native`` without a usable compiled core raises :class:`CoreUnavailableError`, any
    other name :class:`GuandanError` (both one line, naming the fix)."""
    if name == "python":
        return None
    if name == "native":
        if _compiled is None:
            raise CoreUnavailableError(
                f"{ENV}=native but the compiled core is not available ({_missing}); "
                f"reinstall with a C compiler (pip install -e '.[test]') or set {ENV}=python",
                "engine.core_unavailable", detail=_missing,
            )
        return _compiled
    if name in ("auto", ""):
        return _compiled
    raise GuandanError(f"{ENV}={name!r}: expected native, python or auto",
                       "engine.core_env", value=repr(name))


def implementation() -> str:
    """``"native"`` or ``"python"``: the implementation in use."""
    return "python" if native is None else "native"


def why() -> tuple[str, str]:
    """Why this implementation is in use, for a line in the reader's language: ``("native",
    "")``, ``("unbuilt", reason)`` (the compiled core does not load: the reason, as the
    import system gives it), ``("stale", reason)`` (it was built from other sources) or
    ``("chosen", "GUANDAN_CORE=python")``."""
    if native is not None:
        return "native", ""
    if _compiled is None:
        return _lack, _missing
    return "chosen", f"{ENV}=python"


def describe() -> str:
    """One line in English: the implementation in use and why (``guandan version`` says
    it in the output's language from :func:`why`)."""
    kind, detail = why()
    if kind == "native":
        return "engine core: native (compiled C, engine/_native)"
    if kind == "unbuilt":
        return f"engine core: pure Python (the compiled core is not built: {detail})"
    if kind == "stale":
        return f"engine core: pure Python (the compiled core is stale: {detail})"
    return f"engine core: pure Python ({detail})"


#: the compiled core's module when it is chosen (the engine's public names are its), else
#: None; fixed here, at import
native: ModuleType | None = choose(_asked)
if _lack == "stale" and _asked != "python":
    warnings.warn(f"the compiled core is not used: {_missing}", StaleCoreWarning, stacklevel=2)
