"""Build of the optional compiled core (engine/_native, docs/CORE.md); the rest is pyproject.toml.

``pip install -e '.[test]'`` compiles ``engine._native._core`` (the rules) and each layer's
own extension (``duplicate.analysis._native._solver``: the exact search, with the engine's
C it uses) with the system C compiler,
with the header of the constants it shares with Python generated from engine/constants.py
and the fingerprint of its sources built in (``SOURCE_HASH``: engine.core refuses a core built
from other sources than the checkout's). When the compilation fails (no compiler,
``CC=false``, missing headers) the install still succeeds and the engine runs on its
pure-Python implementation, as the build log says once.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

_NATIVE = Path("engine/_native")
_spec = importlib.util.spec_from_file_location("_core_sources", _NATIVE / "sources.py")
assert _spec is not None and _spec.loader is not None
_sources = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_sources)

_FLAGS = ["-O3", "-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter", "-fno-strict-aliasing"]


class OptionalBuildExt(build_ext):
    """build_ext that reports a failed compilation once and carries on without the core."""

    _reported = False

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - any build failure means "no native core"
            self._fallback(exc)

    def build_extension(self, ext: Extension) -> None:
        try:
            # the shared constants' header, generated from engine/constants.py
            generated = Path(self.build_temp) / "generated"
            _sources.write_header(generated)
            ext.include_dirs.append(str(generated))
            super().build_extension(ext)
        except Exception as exc:  # noqa: BLE001
            self._fallback(exc)

    def _fallback(self, exc: BaseException) -> None:
        if OptionalBuildExt._reported:
            return
        OptionalBuildExt._reported = True
        print(
            f"guandan-duplicate: the compiled core could not be built ({exc}); "
            "the pure-Python core is used (docs/CORE.md)",
            file=sys.stderr,
        )


#: the engine's C (the rules): compiled into every extension that uses it
_ENGINE_SHARED = ("core_convert.c", "core_moves.c", "core_playlist.c", "core_tables.c")


def _extension(name: str, *directories: Path) -> Extension:
    """The extension ``name`` built from the C of ``directories`` (its layer's own first,
    the engine's last: only the engine's shared files of those), its fingerprint built in."""
    files = _sources.extension_files(*directories)
    own = [p for p in files if p.suffix == ".c" and (p.parent == directories[0])]
    shared = [_NATIVE / f for f in _ENGINE_SHARED] if directories[0] != _NATIVE else []
    return Extension(
        name,
        sources=[str(p) for p in own + shared],
        depends=[str(p) for p in files if p.suffix != ".c"],
        include_dirs=[str(d) for d in directories],
        define_macros=[("CORE_SOURCE_HASH", f'"{_sources.source_hash(files)}"')],
        extra_compile_args=_FLAGS,
    )


setup(
    ext_modules=[
        _extension("engine._native._core", _NATIVE),
        _extension("duplicate.analysis._native._solver", Path("duplicate/analysis/_native"), _NATIVE),
        _extension("duplicate._native._players", Path("duplicate/_native"), _NATIVE),
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
