#!/usr/bin/env bash
# Build the compiled core (the engine's, the solver's and the players' extensions) with AddressSanitizer +
# UndefinedBehaviorSanitizer and run the
# differential tests (tests/test_core*.py) against it, bounded in time (docs/CORE.md).
#
# Usage: tools/core_sanitize.sh [seconds]   (default 150; run from any directory, inside the
# project's virtualenv). The instrumented module is built in a temporary directory that
# GUANDAN_CORE_BUILD names (engine/_native/__init__.py loads it from there); the installed
# core is left alone. Exit status: pytest's, or 124
# on timeout. Any sanitizer report aborts the run (halt_on_error, no recovery).
set -euo pipefail
cd "$(dirname "$0")/.."
limit="${1:-150}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cc="${CC:-gcc}"
suffix="$(python -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')"
include="$(python -c 'import sysconfig; print(sysconfig.get_paths()["include"])')"
# the shared constants' header and the sources' fingerprint, as setup.py makes them
# (engine.core refuses a core built from other sources)
python engine/_native/sources.py header "$tmp/generated" >/dev/null
hash="$(python engine/_native/sources.py hash)"
solver_hash="$(python engine/_native/sources.py hash duplicate/analysis/_native engine/_native)"
players_hash="$(python engine/_native/sources.py hash duplicate/_native engine/_native)"
shared="engine/_native/core_convert.c engine/_native/core_moves.c engine/_native/core_playlist.c
    engine/_native/core_tables.c"
"$cc" -shared -fPIC -std=c11 -O1 -g -fno-omit-frame-pointer \
    -fsanitize=address,undefined -fno-sanitize-recover=all \
    -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers \
    -DCORE_SOURCE_HASH="\"$hash\"" -I"$tmp/generated" -I"$include" engine/_native/*.c -o "$tmp/_core$suffix"
# the solver's own extension: its C and the engine's it uses, as setup.py builds it
"$cc" -shared -fPIC -std=c11 -O1 -g -fno-omit-frame-pointer \
    -fsanitize=address,undefined -fno-sanitize-recover=all \
    -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers \
    -DCORE_SOURCE_HASH="\"$solver_hash\"" -I"$tmp/generated" -Iengine/_native -I"$include" \
    duplicate/analysis/_native/*.c $shared -o "$tmp/_solver$suffix"
# the players' (the bot, playouts, the arena's text and agent)
"$cc" -shared -fPIC -std=c11 -O1 -g -fno-omit-frame-pointer \
    -fsanitize=address,undefined -fno-sanitize-recover=all \
    -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers \
    -DCORE_SOURCE_HASH="\"$players_hash\"" -I"$tmp/generated" -Iengine/_native -I"$include" \
    duplicate/_native/*.c $shared -o "$tmp/_players$suffix"
libasan="$("$cc" -print-file-name=libasan.so)"
libubsan="$("$cc" -print-file-name=libubsan.so)"
echo "sanitised core: $tmp/_core$suffix"
export GUANDAN_CORE_BUILD="$tmp"
export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:abort_on_error=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export GUANDAN_CORE=native
LD_PRELOAD="$libasan $libubsan" timeout "$limit" python - <<'PY'
import engine._native._core as c, sys
assert "/tmp" in c.__file__, c.__file__  # the instrumented build, not the installed one
from engine import core
assert core.implementation() == "native", core.describe()
from duplicate.analysis.solver import NATIVE
from duplicate.native import PLAYERS
for m in (NATIVE, PLAYERS):
    assert m is not None and "/tmp" in m.__file__, m
print("loaded", c.__file__, file=sys.stderr)
PY
LD_PRELOAD="$libasan $libubsan" timeout "$limit" \
    python -m pytest -q -n 0 -p no:cacheprovider tests/test_core.py tests/test_core_deal.py \
    tests/test_core_boundary.py tests/test_core_bots.py tests/test_core_solver.py \
    tests/test_arena_native.py tests/test_core_playout.py tests/test_core_threads.py \
    tests/test_core_parity.py
