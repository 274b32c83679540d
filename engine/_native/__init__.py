"""The compiled core's package: ``_core`` is built from the C sources here (docs/CORE.md).

``GUANDAN_CORE_BUILD=DIR`` loads ``_core`` from ``DIR`` first: tools/core_sanitize.sh runs
the tests that way on a build instrumented with AddressSanitizer and UBSan.
"""

import os

_build = os.environ.get("GUANDAN_CORE_BUILD")
if _build:
    __path__.insert(0, _build)
