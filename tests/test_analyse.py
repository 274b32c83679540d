"""``guandan analyse`` and analysis.annotate on real records (four deals of the OpenGuanDan
example file, copied into tests/golden), and analysis.rooms on a two-room board."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from analysis.annotate import AnalysisError, annotate, positions, start_ply
from analysis.estimate import Evaluation, evaluate
from analysis.rooms import analyse_rooms
from analysis.solver import Solver
from cli import main
from duplicate.gdn import loads

DATA = Path(__file__).parent / "golden" / "analyse_openguandan_4_deals.gdn"


@pytest.fixture(scope="module")
def records():  # type: ignore[no-untyped-def]
    return loads(DATA.read_bytes(), file=str(DATA))


def test_values_are_consistent_with_the_result(records) -> None:  # type: ignore[no-untyped-def]
    for rec in records:
        a = annotate(rec, "last:2", budget=1.0, with_par=True)
        assert a.decisions, rec.board
        last = a.decisions[-1]
        # the value after the last play is the deal's actual result
        assert last.after.exact and last.after.value == a.result
        for d1, d2 in zip(a.decisions, a.decisions[1:], strict=False):
            assert d1.after == d2.before  # one position, one value
        for d in a.decisions:
            if d.before.exact and d.after.exact:
                sign = 1 if d.seat % 2 == 0 else -1
                # nobody can do better than best play: the value never moves in their favour
                assert sign * (d.after.value - d.before.value) <= 0
                assert (d.mark != "") == (d.after.value != d.before.value)
        assert a.par is not None and a.par.ply <= a.start


def test_a_blunder_is_marked(records) -> None:  # type: ignore[no-untyped-def]
    board3 = next(r for r in records if r.board == "3")
    a = annotate(board3, "action:136", budget=1.0, with_par=False)
    d = a.decisions[0]
    assert d.seat.name == "E" and d.action is None and d.mark == "??"
    assert (d.before.value, d.after.value) == (1, 3)
    assert d.best and all(e.value == 1 for _, e in d.best)


def test_start_points(records) -> None:  # type: ignore[no-untyped-def]
    steps = positions(records[0])
    assert start_ply("action:1", steps) == 0
    assert start_ply("trick:1", steps) == 0
    t2 = start_ply("trick:2", steps)
    assert steps[t2][1] == 2 and steps[t2 - 1][1] == 1 and steps[t2][0].to_beat is None
    assert start_ply("last:1", steps) == max(p for p, (_, t) in enumerate(steps) if t == steps[-1][1] and (p == 0 or steps[p - 1][1] != t))
    for bad in ("trick:0", "action:9999", "later", "divergence"):
        with pytest.raises(AnalysisError):
            start_ply(bad, steps)


def test_estimate_is_labelled(records) -> None:  # type: ignore[no-untyped-def]
    steps = positions(records[0])
    solver = Solver(records[0].level)
    e = evaluate(steps[0][0], solver, seconds=0.3, seed=1)
    assert not e.exact and e.samples >= 8 and e.stderr >= 0
    assert e.to_dict()["kind"] == "estimate" and "est." in e.text()
    assert -3 <= e.value <= 3
    assert Evaluation(2, True).to_dict() == {"kind": "exact", "value": 2}


def test_cli_analyse(tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(main, ["analyse", str(DATA), "--board", "3", "--from", "last:2",
                               "--budget", "0.5"])
    assert res.exit_code == 0, res.output
    assert "actual result N-S +3" in res.output and "??" in res.output
    res = runner.invoke(main, ["analyse", str(DATA), "--board", "3", "--from", "last:1",
                               "--budget", "0.5", "--lang", "zh", "--no-par"])
    assert res.exit_code == 0 and "实际结果" in res.output
    res = runner.invoke(main, ["analyse", str(DATA), "--board", "2", "--from", "last:1",
                               "--budget", "0.5", "--json"])
    data = json.loads(res.output)
    assert data[0]["board"] == "2" and data[0]["decisions"][-1]["after"] == {
        "kind": "exact", "value": data[0]["result_ns"]}
    res = runner.invoke(main, ["analyse", str(DATA), "--board", "9"])
    assert res.exit_code == 1 and "no record" in res.output
    res = runner.invoke(main, ["analyse", str(DATA), "--board", "1", "--from", "trick:99"])
    assert res.exit_code == 1 and "trick" in res.output and "Traceback" not in res.output
    missing = tmp_path / "none.gdn"
    res = runner.invoke(main, ["analyse", str(missing)])
    assert res.exit_code == 1 and "cannot read" in res.output


def test_rooms_from_divergence(records) -> None:  # type: ignore[no-untyped-def]
    import dataclasses

    from duplicate.compare import first_divergence, trace_room
    from duplicate.dealing import generate_boards
    from duplicate.simulate import simulate_match, simulation_key

    key = simulation_key(b"test-analyse-rooms")
    recs = simulate_match(list(generate_boards(key, 1)), "heuristic", "random", key)
    r = analyse_rooms(recs, budget=0.3)
    d = first_divergence([trace_room(x) for x in recs])
    assert r.divergence == d is not None and len(r.rooms) == 2
    for room in r.rooms:
        assert room.choice is not None and room.choice.ply == d
        assert room.annotation.decisions, "the end of every deal is within reach"
        assert room.annotation.decisions[-1].after.value == room.annotation.result
        for s in room.swings:
            assert s.before.exact and s.after.exact and s.before.value != s.after.value
    assert r.to_dict()["rooms"][0]["room"] == "Open"
    # the same record twice: no divergence, nothing to value
    same = dataclasses.replace(records[1], tags={**records[1].tags, "Room": "Closed"})
    assert analyse_rooms([records[1], same]).divergence is None


def test_cli_compare_analyse(tmp_path: Path) -> None:
    from duplicate.dealing import generate_boards
    from duplicate.gdn import dumps
    from duplicate.simulate import simulate_match, simulation_key

    key = simulation_key(b"test-compare-analyse")
    path = tmp_path / "match.gdn"
    path.write_text(dumps(simulate_match(list(generate_boards(key, 1)), "heuristic", "random", key)))
    runner = CliRunner()
    res = runner.invoke(main, ["compare", str(path), "--analyse"])
    assert res.exit_code == 0, res.output
    assert "first divergence at action" in res.output and "room Open:" in res.output
    res = runner.invoke(main, ["compare", str(path), "--analyse", "--json"])
    data = json.loads(res.output)
    analysis = data[0]["analysis"]
    assert analysis["divergence"] is not None and len(analysis["rooms"]) == 2
    assert all(r["choice"]["after"]["kind"] in ("exact", "estimate") for r in analysis["rooms"])
