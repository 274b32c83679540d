"""The same analysis on either core: a budget counted in cards (``--exact-cards``) settles
the same positions on the compiled core and on pure Python, and the estimates' playouts
are the same plays, so every value, mark, best play, line and par is the same, and
``guandan analyse --json`` prints the same bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.implementations import run_under

from engine import core

pytestmark = pytest.mark.skipif(core.compiled is None, reason="the compiled core is not built")

DATA = Path(__file__).parent / "golden" / "analyse_openguandan_4_deals.gdn"

#: each record's analysis of its last 7 tricks, as JSON, in the interpreter it runs in
ANNOTATE = f"""
import json
from duplicate.analysis.annotate import annotate
from duplicate.analysis.estimate import Budget
from duplicate.gdn import loads
from engine import core
budget = Budget(playouts=3, seed=5, cards=14)
records = loads(open({str(DATA)!r}, "rb").read())
print(json.dumps({{"core": core.implementation(), "records": [
    annotate(r, "last:7", budget=budget).to_dict() for r in records]}}))
"""


def _both(code: str) -> tuple[dict, dict]:  # type: ignore[type-arg]
    """What ``code`` prints as JSON under each core (a fresh interpreter each: the whole
    stack in one implementation, chosen at import)."""
    native, python = (json.loads(run_under(impl, code)) for impl in ("native", "python"))
    return native, python


def test_every_value_is_the_same_on_both_cores() -> None:
    native, python = _both(ANNOTATE)
    assert (native["core"], python["core"]) == ("native", "python")
    assert len(native["records"]) == 4
    for board, (n, p) in enumerate(zip(native["records"], python["records"], strict=True)):
        assert n == p, board
    kinds = {d["before"]["kind"] for r in native["records"] for d in r["decisions"]}
    assert kinds == {"exact", "estimate"}  # both kinds were compared


def test_guandan_analyse_prints_the_same_json_on_both_cores() -> None:
    args = ["analyse", str(DATA), "--board", "2", "--from", "last:4", "--exact-cards", "12",
            "--playouts", "2", "--json"]
    code = f"from cli import main; main({args!r})"
    native, python = (run_under(impl, code) for impl in ("native", "python"))
    assert native == python
    doc = json.loads(native)
    assert doc["budget"] == {"cards": 12, "playouts": 2, "seed": 0, "seconds": None}
