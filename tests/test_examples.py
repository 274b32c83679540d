"""The 26 deals played by OpenGuanDan (``shared/examples``) all read and replay cleanly.

The file is copied into ``tests/golden/gdn`` so that the test needs nothing outside the
repository; when the shared original is beside the checkout, the copy must equal it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from duplicate import gdn
from duplicate.replay import finish_agrees, replay

COPY = Path(__file__).parent / "golden" / "gdn" / "openguandan-26-deals.gdn"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "examples" / COPY.name


def test_copy_equals_the_shared_example() -> None:
    if not SHARED.exists():
        pytest.skip(
            f"only compares the repository's copy with the shared original, and {SHARED} is "
            "not beside this checkout (the deals themselves are tested from the copy, "
            f"{COPY.relative_to(Path(__file__).parent)}, by the tests below)"
        )
    assert COPY.read_bytes() == SHARED.read_bytes()


def test_every_example_deal_replays_with_its_recorded_finish_and_result() -> None:
    records = gdn.loads(COPY.read_bytes(), file=COPY.name)
    assert len(records) == 26
    outcomes = []
    for rec in records:
        res = replay(rec)
        assert res.ok, str(res.error)
        assert res.result is not None and rec.finish is not None and rec.result is not None
        assert rec.result == (res.result.winner, res.result.levels)
        assert finish_agrees(rec.finish, res.result)
        assert len(res.actions) == len(rec.plays or [])
        outcomes.append(res.result.result_tag)
    # the spread of results: 7 double downs, 3 partner-3rd wins, 16 partner-4th wins
    assert sorted(set(outcomes)) == ["EW +1", "EW +2", "EW +3", "NS +1", "NS +3"]
    assert sum(o.endswith("+3") for o in outcomes) == 7
    assert sum(o.endswith("+2") for o in outcomes) == 3
