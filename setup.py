"""Build of the optional compiled core (engine/_native, docs/CORE.md); the rest is pyproject.toml.

``pip install -e '.[test]'`` compiles ``engine._native._core`` with the system C compiler.
When that fails (no compiler, ``CC=false``, missing headers) the install still succeeds and
the engine runs on its pure-Python implementation, as the build log says.
"""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

_SOURCES = sorted(str(p) for p in Path("engine/_native").glob("*.c"))
_FLAGS = ["-O3", "-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter", "-fno-strict-aliasing"]


class OptionalBuildExt(build_ext):
    """build_ext that reports a failed compilation and carries on without the core."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - any build failure means "no native core"
            self._fallback(exc)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:  # noqa: BLE001
            self._fallback(exc)

    @staticmethod
    def _fallback(exc: BaseException) -> None:
        msg = (
            f"guandan-duplicate: the compiled core could not be built ({exc}); "
            "the pure-Python core is used (docs/CORE.md)"
        )
        print(msg, file=sys.stderr)
        print(msg)


setup(
    ext_modules=[
        Extension(
            "engine._native._core",
            sources=_SOURCES,
            depends=[str(p) for p in Path("engine/_native").glob("*.h")],
            extra_compile_args=_FLAGS,
        )
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
