"""Benchmark: the peak memory of ``guandan import`` on a 50 MB ``.gdn`` file (goal < 200 MB).

Run: ``python bench/bench_import_memory.py [--mb 50] [--per file|deal] [--pg URL]``.

The file is the 26 OpenGuanDan deals of ``tests/golden/gdn`` repeated until it reaches the
size asked for, each copy under its own Event tag, so that every deal is a record of its
own (about 1,000 copies, 26,000 deals, for 50 MB). ``guandan import`` runs in a child
process under ``/usr/bin/time -v``; the figure is its "Maximum resident set size" (the
whole process: Python, SQLAlchemy, the engine), with the wall time and the deals stored.
SQLite in a temporary folder by default; PostgreSQL with ``--pg URL`` (a temporary database
on that server). Reading the whole file at once took 1.18 GB for 50 MB.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from duplicate.db import make_engine, temporary_database, upgrade  # noqa: E402

EXAMPLE = ROOT / "tests" / "golden" / "gdn" / "openguandan-26-deals.gdn"
EVENT = '[Event "Played by OpenGuanDan'


def write_big_file(path: Path, megabytes: float) -> int:
    """Write copies of the example deals to ``path`` until it has ``megabytes`` MB; the
    number of deals written."""
    one = EXAMPLE.read_text(encoding="utf-8")
    per_copy = one.count(EVENT)
    target = int(megabytes * 1_000_000)
    deals = 0
    with path.open("w", encoding="utf-8") as f:
        copy = 0
        while f.tell() < target:
            f.write(one.replace(EVENT, f'[Event "Copy {copy}') + "\n")
            copy += 1
            deals += per_copy
    return deals


def measure(url: str, gdn_file: Path, per: str) -> tuple[int, float, str]:
    """Peak RSS in kB, wall seconds and the summary line of one ``guandan import``."""
    code = "import sys; from cli import main; sys.exit(main())"
    cmd = ["/usr/bin/time", "-v", sys.executable, "-c", code,
           "import", "--db", url, "--per", per, str(gdn_file)]
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - start
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
    if proc.returncode != 0 or m is None:
        sys.exit(f"import failed ({proc.returncode}):\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    summary = proc.stdout.strip().splitlines()[-1]
    return int(m.group(1)), wall, summary


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=50, help="size of the file in MB (10^6 bytes)")
    ap.add_argument("--per", choices=["file", "deal"], default="file", help="transactions")
    ap.add_argument("--pg", metavar="URL", help="measure on this PostgreSQL server instead")
    args = ap.parse_args()
    if not os.path.exists("/usr/bin/time"):
        sys.exit("/usr/bin/time is needed (Debian: apt-get install time)")

    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "big.gdn"
        deals = write_big_file(big, args.mb)
        size = big.stat().st_size
        print(f"python {platform.python_version()}, {os.cpu_count()} cores; file "
              f"{size / 1e6:.1f} MB, {deals:,} deals, one transaction per {args.per}")
        if args.pg:
            with temporary_database(args.pg, prefix="guandan_bench") as url:
                engine = make_engine(url)
                upgrade(engine)
                engine.dispose()
                rss, wall, summary = measure(url, big, args.per)
        else:
            url = f"sqlite:///{tmp}/bench.sqlite"
            engine = make_engine(url)
            upgrade(engine)
            engine.dispose()
            rss, wall, summary = measure(url, big, args.per)
        print(f"guandan import: {summary}")
        print(f"peak memory (maximum resident set size): {rss / 1024:.0f} MB "
              f"({rss * 1024 / size:.1f} x the file; goal < 200 MB); wall {wall:.1f} s "
              f"({deals / wall:,.0f} deals/s)")


if __name__ == "__main__":
    main()
