"""``guandan analyse`` and analysis.annotate on real records (four deals of the OpenGuanDan
example file, copied into tests/golden), and analysis.rooms on a two-room board."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main
from duplicate.analysis.annotate import AnalysisError, annotate, positions, start_ply
from duplicate.analysis.estimate import Budget, Evaluation, evaluate
from duplicate.analysis.rooms import analyse_rooms
from duplicate.analysis.solver import Solver
from duplicate.gdn import loads

DATA = Path(__file__).parent / "golden" / "analyse_openguandan_4_deals.gdn"


@pytest.fixture(scope="module")
def records():  # type: ignore[no-untyped-def]
    return loads(DATA.read_bytes(), file=str(DATA))


def test_values_are_consistent_with_the_result(records) -> None:  # type: ignore[no-untyped-def]
    for rec in records:
        a = annotate(rec, "last:2", with_par=True)
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
    a = annotate(board3, "action:136", with_par=False)
    d = a.decisions[0]
    assert d.seat.name == "E" and d.action is None and d.mark == "??"
    assert (d.before.value, d.after.value) == (1, 3)
    assert d.best and all(e.value == 1 for _, e in d.best)
    # the best line starts with a best play and keeps the value to its end
    assert d.line and d.line[0] == (d.seat, d.best[0][0])
    from duplicate.analysis.annotate import positions as _positions
    from duplicate.analysis.solver import Solver as _Solver
    from duplicate.analysis.solver import step as _step

    pos, solver = _positions(board3)[135][0], _Solver(board3.level)
    for seat, combo in d.line:
        assert seat == pos.turn
        pos = _step(pos, combo, solver.rules)
        assert (pos if isinstance(pos, int) else solver.value(pos)) == 1


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
    e = evaluate(steps[0][0], solver, Budget(nodes=20_000, playouts=8), seed=1)
    assert not e.exact and e.samples == 8 and e.stderr >= 0 and not e.cut
    assert e.to_dict()["kind"] == "estimate" and "est." in e.text()
    assert -3 <= e.value <= 3
    assert Evaluation(2, True).to_dict() == {"kind": "exact", "value": 2}


def test_cli_analyse(tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(main, ["analyse", str(DATA), "--board", "3", "--from", "last:2"])
    assert res.exit_code == 0, res.output
    assert "actual result N–S +3" in res.output and "??" in res.output
    assert "best play by all four, every hand seen" in res.output
    assert "every position with 24 cards or fewer in the four hands valued exactly" in res.output
    res = runner.invoke(main, ["analyse", str(DATA), "--board", "3", "--from", "last:1",
                               "--lang", "zh", "--no-par"])
    assert res.exit_code == 0 and "实际结果" in res.output
    res = runner.invoke(main, ["analyse", str(DATA), "--board", "2", "--from", "last:1",
                               "--json"])
    doc = json.loads(res.output)
    assert (doc["format"], doc["version"]) == ("guandan-analysis", 2)
    data = doc["annotations"]
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
    r = analyse_rooms(recs, budget=Budget(nodes=100_000, playouts=4))
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
    small = ["--nodes", "100000", "--playouts", "4"]
    res = runner.invoke(main, ["compare", str(path), "--analyse", *small])
    assert res.exit_code == 0, res.output
    assert "first divergence at action" in res.output and "open room:" in res.output
    res = runner.invoke(main, ["compare", str(path), "--analyse", "--json", *small])
    data = json.loads(res.output)
    analysis = data[0]["analysis"]
    assert analysis["divergence"] is not None and len(analysis["rooms"]) == 2
    assert all(r["choice"]["after"]["kind"] in ("exact", "estimate") for r in analysis["rooms"])


# --- reproducible, versioned, in the output's language -----------------------------------

SMALL = ["--nodes", "3000", "--playouts", "6"]


def _early_estimates(runner: CliRunner) -> str:
    """An annotation that needs estimates (from trick 16 of board 3: out of the solver's
    reach at 3,000 nodes)."""
    res = runner.invoke(main, ["analyse", str(DATA), "--board", "3", "--from", "trick:16",
                               "--json", "--no-par", *SMALL])
    assert res.exit_code == 0, res.output
    return res.output


def test_the_same_budget_gives_the_same_analysis_twice_and_under_load() -> None:
    import multiprocessing

    runner = CliRunner()
    first = _early_estimates(runner)
    kinds = [d["before"]["kind"] for d in json.loads(first)["annotations"][0]["decisions"]]
    assert "estimate" in kinds and "exact" in kinds  # both kinds are compared
    assert _early_estimates(runner) == first
    ctx = multiprocessing.get_context("spawn")
    burners = [ctx.Process(target=_burn, args=(6.0,)) for _ in range(2)]
    for b in burners:
        b.start()
    try:
        assert _early_estimates(runner) == first  # a loaded machine changes nothing
    finally:
        for b in burners:
            b.terminate()
            b.join()
    other_seed = runner.invoke(main, ["analyse", str(DATA), "--board", "3", "--from",
                                      "trick:16", "--json", "--no-par", *SMALL, "--seed", "7"])
    assert json.loads(other_seed.output)["budget"]["seed"] == 7
    assert other_seed.output != first  # the seed reaches the playouts


def _burn(seconds: float) -> None:
    import time

    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def test_a_time_cap_says_what_it_cut(records) -> None:  # type: ignore[no-untyped-def]
    steps = positions(records[0])
    solver = Solver(records[0].level)
    e = evaluate(steps[0][0], solver, Budget(nodes=10**8, playouts=10_000, seconds=0.05))
    assert not e.exact and e.cut and e.samples < 10_000
    assert e.to_dict()["cut"] is True and "!" in e.text()
    full = evaluate(steps[0][0], solver, Budget(nodes=20_000, playouts=3))
    assert not full.cut and "cut" not in full.to_dict()


def test_json_actions_are_type_rank_cards() -> None:
    res = CliRunner().invoke(main, ["analyse", str(DATA), "--board", "3", "--from", "last:2",
                                    "--json"])
    doc = json.loads(res.output)
    ann = doc["annotations"][0]
    assert doc["budget"] == {"cards": 24, "playouts": 24, "seed": 0, "seconds": None}
    blunder = next(d for d in ann["decisions"] if d["mark"] == "??")
    assert blunder["action"] == {"pass": True}
    assert blunder["best"][0]["action"] == {"type": "Single", "rank": "9", "cards": ["C9"]}
    for d in ann["decisions"]:
        a = d["action"]
        assert a == {"pass": True} or set(a) == {"type", "rank", "cards"}


def test_no_par_prints_no_par() -> None:
    runner = CliRunner()
    for lang in ("en", "zh"):
        res = runner.invoke(main, ["--lang", lang, "analyse", str(DATA), "--board", "3",
                                   "--from", "last:1", "--no-par"])
        assert res.exit_code == 0, res.output
        assert "best play by all four, every hand seen" not in res.output
        assert "四家明牌最优" not in res.output and "未算出最优结果" not in res.output
    res = runner.invoke(main, ["analyse", str(DATA), "--board", "3", "--from", "last:1",
                               "--no-par", "--json"])
    assert "par" not in json.loads(res.output)["annotations"][0]


def test_the_global_language_reaches_analyse_and_compare(tmp_path: Path) -> None:
    import re

    runner = CliRunner()
    res = runner.invoke(main, ["--lang", "zh", "analyse", str(DATA), "--board", "3",
                               "--from", "last:2"])
    assert res.exit_code == 0, res.output
    out = res.output
    assert "实际结果 南北 +3" in out and "单张" in out and "过" in out and "最佳" in out
    # no English word and no card token (S5, C9, H2...) in the Chinese report
    assert not re.search(r"\b(?:Single|Pair|PASS|Board|room|level|best|North|East)\b", out)
    assert not re.search(r"\b[SHCD][2-9TJQKA]\b", out)
    res = runner.invoke(main, ["analyse", str(DATA), "--board", "3", "--from", "last:1"],
                        env={"GUANDAN_LANG": "zh"})
    assert "实际结果" in res.output


def test_the_last_action_of_an_unfinished_record_is_valued(records) -> None:  # type: ignore[no-untyped-def]
    import dataclasses

    rec = next(r for r in records if r.board == "3")
    cut = dataclasses.replace(rec, plays=rec.plays[:-3], finish=None, result=None,
                              tags={**rec.tags, "Unfinished": "time"})
    a = annotate(cut, "last:1", budget=Budget(nodes=200_000, playouts=4), with_par=False)
    assert a.result is None
    assert a.decisions[-1].ply == len(cut.plays) - 1  # the last action is there, valued
    full = annotate(rec, f"action:{len(cut.plays) + 1}",
                    budget=Budget(nodes=200_000, playouts=4), with_par=False)
    # the position the cut record stopped in is the full record's position there
    assert full.decisions[0].ply == len(cut.plays)
    after, there = a.decisions[-1].after, full.decisions[0].before
    assert after.exact and (after.value, after.exact) == (there.value, there.exact)
