"""The same analysis on either core: a budget counted in cards (``--exact-cards``) settles
the same positions on the compiled core and on pure Python, and the estimates' playouts
are the same plays, so every value, mark, best play, line and par is the same, and
``guandan analyse --json`` prints the same bytes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main
from duplicate.analysis.annotate import annotate
from duplicate.analysis.estimate import Budget
from duplicate.gdn import loads
from engine import core

pytestmark = pytest.mark.skipif(not core.available(), reason="the compiled core is not built")

DATA = Path(__file__).parent / "golden" / "analyse_openguandan_4_deals.gdn"
BUDGET = Budget(playouts=3, seed=5, cards=14)


@pytest.fixture(autouse=True)
def _restore() -> Iterator[None]:
    before = core.implementation()
    yield
    core.use(before)


def _both(call: object) -> tuple[object, object]:
    out = []
    for impl in ("native", "python"):
        core.use(impl)
        out.append(call())  # type: ignore[operator]
    return out[0], out[1]


def test_every_value_is_the_same_on_both_cores() -> None:
    records = loads(DATA.read_bytes())
    assert len(records) == 4
    kinds = set()
    for record in records:
        native, python = _both(lambda r=record: annotate(r, "last:7", budget=BUDGET).to_dict())
        assert native == python, record.board
        kinds |= {d["before"]["kind"] for d in native["decisions"]}  # type: ignore[index]
    assert kinds == {"exact", "estimate"}  # both kinds were compared


def test_guandan_analyse_prints_the_same_json_on_both_cores() -> None:
    args = ["analyse", str(DATA), "--board", "2", "--from", "last:4", "--exact-cards", "12",
            "--playouts", "2", "--json"]
    native, python = _both(lambda: CliRunner().invoke(main, args, catch_exceptions=False).output)
    assert native == python
    doc = json.loads(str(native))
    assert doc["budget"] == {"cards": 12, "playouts": 2, "seed": 0, "seconds": None}
