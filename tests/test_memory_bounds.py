"""Memory does not grow with a bad file: ``guandan import`` and ``guandan replay`` (table
and ``--json``) of a file of many tiny bad deals (``[Event "x"]`` repeated) print each
deal's error as it comes and hold no list of them. (They held every outcome, report and
row: 746 MB for 9.6 MB, 1.65 GB with ``--json``.)

Measured in a process of its own (``ru_maxrss``): each command run first on a small file
(every module loaded, every buffer at its size), then on one 12 times as big; the peak may
not grow by more than a few megabytes (it grew by about 1 MB per 1,000 deals).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from duplicate import db

SMALL, BIG = 2_000, 25_000
#: The growth allowed from the small file's peak to the big one's, in MB.
ALLOWED_MB = 8

CHILD = r"""
import contextlib, json, os, resource, sys
from cli import main

small, big, url = sys.argv[1:4]
commands = [["import"], ["import", "--json"], ["replay"], ["replay", "--json"]]

def run(args):
    with open(os.devnull, "w") as out, contextlib.redirect_stdout(out):
        try:
            main(["--db", url, *args], standalone_mode=False)
        except SystemExit:
            pass

def peak():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # MB (Linux: KB)

for args in commands:
    run([*args, small])
base = peak()
growth = {}
for args in commands:
    run([*args, big])
    growth[" ".join(args)] = peak() - base
print(json.dumps(growth))
"""


def test_a_file_of_many_bad_deals_does_not_grow_memory(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/m.sqlite"
    engine = db.make_engine(url)
    db.upgrade(engine)
    engine.dispose()
    small, big = tmp_path / "small.gdn", tmp_path / "big.gdn"
    small.write_text('[Event "x"]\n\n' * SMALL, encoding="utf-8")
    big.write_text('[Event "x"]\n\n' * BIG, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(small), str(big), url],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == 0, done.stderr
    growth = json.loads(done.stdout.splitlines()[-1])
    assert set(growth) == {"import", "import --json", "replay", "replay --json"}
    assert all(mb <= ALLOWED_MB for mb in growth.values()), growth
