"""Rule variants for events and record imports (RULES.md variants, ``engine.ruleset``).

An event plays, checks and scores its records under its own rule set (``events.rules``);
``guandan import --variant`` replays records under the given rules and stores them with
each record, as part of its key; scoring takes ±4 results and ±8 swings under
``double_down_plus4`` (RULES.md §7); migration ``0004`` gives existing rows the competition
rules. Database tests run on SQLite and, when configured, PostgreSQL (tests/conftest.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, inspect, select, text

from cli import main
from duplicate import db, events, models, store
from duplicate.boards import generate_set, store_set
from duplicate.db import session_scope
from duplicate.dealing import parse_seed_file, seed_file_bytes
from duplicate.errors import DatabaseError
from duplicate.events import Correction, EventError
from duplicate.gdn import DealRecord, format_record, loads
from duplicate.records import (
    RecordImportError,
    describe_rules,
    import_records,
    load_rules,
    rules_json,
    stored_records,
)
from duplicate.replay import replay
from duplicate.scoring import (
    GUANDAN_VP,
    BoardResult,
    ScoringError,
    UnfinishedRule,
    check_result,
    score_match,
    swing,
)
from duplicate.store import State
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Side

SEED = parse_seed_file(seed_file_bytes(bytes(range(32))))
JIEFENG = Ruleset(jiefeng_next=True)
PLUS4 = Ruleset(double_down_plus4=True)
RULING = Correction(reason="test ruling", by="Director")


def make_event(
    engine: Engine, name: str, rules: Ruleset, teams: int = 2, boards: int = 4, **kw: object
) -> None:
    """An event on the stored set ``S`` with ``teams`` teams (A, B, ...; players A1..A4, ...)
    whose round 1 is paired and given boards 1..``boards``.

    Events made with the same team count have the same draw (seed ``ab``) and the same
    player names, so a record of one fits the seating of another.
    """
    settings_: dict[str, object] = {"seed": "ab", "boards_per_round": boards, "rounds": 2}
    settings_.update(kw)
    events.create_event(engine, name, rules=rules, **settings_)  # type: ignore[arg-type]
    for t in "ABCD"[:teams]:
        events.add_team(engine, name, t, [f"{t}{i}" for i in range(1, 5)])
    events.pair_round(engine, name)
    # the events of a test play the same boards on purpose (said so, logged)
    reuse = events.Correction(reason="the same boards under other rules", by="test")
    events.assign_boards(engine, name, 1, set_name="S", reuse=reuse)


@pytest.fixture
def engine(migrated_engine: Engine) -> Engine:
    """The migrated database with the board set ``S`` (8 boards, all at level 2) stored."""
    store_set(migrated_engine, generate_set(SEED, 8, "S", "fixed", None))
    return migrated_engine


def results_of(engine: Engine, event: str) -> list[State]:
    """Every current result of ``event`` in the store, in match, board and room order."""
    rows = store.current_results(engine, event=event)
    rows.sort(key=lambda r: (r.match_id or 0, int(r.board), r.key.room))
    return [r.state for r in rows]


def rule_sensitive(records: list[DealRecord], played: Ruleset, other: Ruleset) -> list[bool]:
    """For each record (played under ``played``): does ``other`` refuse its replay?"""
    assert all(replay(r, played).error is None for r in records)
    return [replay(r, other).error is not None for r in records]


# --- an event's rules --------------------------------------------------------------------


def test_event_keeps_its_rules_and_lists_them(engine: Engine) -> None:
    info = events.create_event(engine, "Folk", seed="ab", rules=JIEFENG)
    assert info.rules == JIEFENG
    events.create_event(engine, "Cup", seed="ab")
    assert {e.name: e.rules for e in events.list_events(engine)} == {
        "Cup": COMPETITION,
        "Folk": JIEFENG,
    }
    assert events.get_event(engine, "Folk").to_dict()["rules"]["jiefeng_next"] is True
    assert events.event_rules(engine, "Cup") == COMPETITION
    with session_scope(engine) as s:
        stored = s.scalar(select(models.Event.rules).where(models.Event.name == "Folk"))
    assert stored == rules_json(JIEFENG) and json.loads(stored)["jiefeng_next"] is True
    with pytest.raises(EventError, match="must be a Ruleset"):
        events.create_event(engine, "Bad", rules={"jiefeng_next": True})  # type: ignore[arg-type]


def test_jiefeng_next_event_accepts_what_the_competition_rules_refuse(
    engine: Engine, tmp_path: Path
) -> None:
    make_event(engine, "Folk", JIEFENG)
    make_event(engine, "Cup", COMPETITION)
    out = tmp_path / "folk.gdn"
    summary = events.play_bots(engine, "Folk", 1, out=out)  # the bots play under 接风 to 下家
    assert (summary.added, summary.unchanged) == (8, 0)
    records = loads(out.read_text(encoding="utf-8"))
    # the rule changed who led after 接风 in most of the deals (RULES.md §6 variant)
    assert sum(rule_sensitive(records, JIEFENG, COMPETITION)) >= 4
    with pytest.raises(EventError, match=r"folk\.gdn:\d+: board \d, room \w+: does not replay: "
                       r".*out of turn"):
        events.import_files(engine, "Cup", [out], round_no=1)
    assert results_of(engine, "Cup") == []  # refused whole: one transaction
    again = events.import_files(engine, "Folk", [out], round_no=1)
    assert (again.added, again.unchanged) == (0, 8)
    stored = results_of(engine, "Folk")
    assert [r.ns_result for r in stored] == [
        (1 if r.result[0] is Side.NS else -1) * r.result[1]
        for r in sorted(records, key=lambda r: (int(r.board or 0), str(r.room).lower()))
    ]


def test_competition_event_accepts_what_a_jiefeng_next_event_refuses(engine: Engine) -> None:
    make_event(engine, "Folk", JIEFENG)
    make_event(engine, "Cup", COMPETITION)
    texts = events.bot_records(engine, "Cup", 1)
    assert sum(rule_sensitive(loads(texts[0]), COMPETITION, JIEFENG)) >= 4
    with pytest.raises(
        EventError,
        match=r"<text 1>:\d+: board \d, room \w+: does not replay under the rules "
        r"jiefeng_next=true: .*out of turn",
    ):
        events.import_texts(engine, "Folk", texts, round_no=1)
    assert results_of(engine, "Folk") == []
    assert events.import_texts(engine, "Cup", texts, round_no=1).added == 8


def test_worker_processes_replay_under_the_event_rules(engine: Engine, tmp_path: Path) -> None:
    make_event(engine, "Folk", JIEFENG, teams=4, boards=2)
    make_event(engine, "Cup", COMPETITION, teams=4, boards=2)
    files = []
    for i, t in enumerate(events.bot_records(engine, "Folk", 1)):
        files.append(tmp_path / f"t{i + 1}.gdn")
        files[-1].write_text(t, encoding="utf-8")
    with pytest.raises(EventError, match="does not replay"):
        events.import_files(engine, "Cup", files, jobs=2)
    summary = events.import_files(engine, "Folk", files, jobs=2)
    assert (summary.files, summary.added) == (2, 8)


def test_records_replayed_under_other_rules_are_refused_by_the_importer(engine: Engine) -> None:
    make_event(engine, "Folk", JIEFENG)
    records = loads(events.bot_records(engine, "Folk", 1)[0])
    either = records[rule_sensitive(records, JIEFENG, COMPETITION).index(False)]
    # a deal the rule does not touch replays under both: the importer still refuses it
    prepared = events.prepare_text(format_record(either), "f.gdn", COMPETITION)
    with pytest.raises(EventError, match="replayed under the rules competition, but event "
                       "'Folk' plays under jiefeng_next=true"):
        events.import_prepared(engine, "Folk", [prepared])
    assert results_of(engine, "Folk") == []
    ok = events.import_prepared(engine, "Folk", [events.prepare_text(format_record(either),
                                                                     "f.gdn", JIEFENG)])
    assert ok.added == 1


def test_report_compares_the_rooms_under_the_event_rules(engine: Engine, tmp_path: Path) -> None:
    make_event(engine, "Folk", JIEFENG)
    events.play_bots(engine, "Folk", 1)
    report = events.event_report(engine, "Folk")
    assert "rules: jiefeng_next=true" in " ".join(report.notes)
    comparisons = [line.comparison for m in report.matches for line in m.boards]
    assert len(comparisons) == 4 and all(c is not None for c in comparisons)
    index = events.write_event_report(engine, "Folk", tmp_path / "site")
    assert "jiefeng_next=true" in index.read_text(encoding="utf-8")


# --- double down +4 ----------------------------------------------------------------------


def test_double_down_plus4_event_scores_4_and_swings_of_8(engine: Engine) -> None:
    make_event(engine, "Plus", PLUS4, scale="vp20")
    make_event(engine, "Cup", COMPETITION)
    texts = events.bot_records(engine, "Plus", 1, "heuristic", "random")
    records = loads(texts[0])
    assert any(r.result is not None and r.result[1] == 4 for r in records)
    # a record that says +4 is refused under the competition rules (its Result is +3 there)
    with pytest.raises(EventError, match="does not replay"):
        events.import_texts(engine, "Cup", texts, round_no=1)
    events.import_texts(engine, "Plus", texts, round_no=1)
    stored = results_of(engine, "Plus")
    assert {abs(r.ns_result or 0) for r in stored} >= {4}
    for rec in records:  # each room's result is the replay's under the event's rules
        res = replay(rec, PLUS4).result
        assert res is not None and (res.levels == 4) == res.double_down
    [scored] = events.score_event(engine, "Plus", 1)
    swings = [b.swing for b in scored.score.boards]
    assert max(abs(s or 0) for s in swings) == 8
    assert scored.score.margin == sum(s or 0 for s in swings)
    assert 0.0 <= scored.score.points_x <= 20.0 and 0.0 <= scored.score.points_y <= 20.0
    assert scored.score.points_x + scored.score.points_y == pytest.approx(20.0)
    rows = events.match_boards(engine, "Plus", 1, 1)
    assert any(r.to_dict()["swing"] in ("+8", "-8") for r in rows)
    assert any(r.to_dict()["open"] in ("+4", "-4") for r in rows)


def test_rulings_of_4_levels_follow_the_event_rules(engine: Engine) -> None:
    make_event(engine, "Plus", PLUS4, scale="vp20")
    make_event(engine, "Cup", COMPETITION)
    for board in range(1, 5):  # X wins every board by a double down in both rooms
        events.correct_result(engine, "Plus", 1, 1, board, "open", 4, RULING)
        events.correct_result(engine, "Plus", 1, 1, board, "closed", -4, RULING)
    [scored] = events.score_event(engine, "Plus", 1)
    assert [b.swing for b in scored.score.boards] == [8, 8, 8, 8]
    assert scored.score.margin == 32
    assert (scored.score.points_x, scored.score.points_y) == (20.0, 0.0)
    rows, _ = events.event_standings(engine, "Plus")
    assert [(r.swing, r.points) for r in rows] == [(32, 20.0), (-32, 0.0)]
    with pytest.raises(ScoringError, match=r"event 'Cup', board 1, open room: an N–S result "
                       r"must be ±1\.\.±3"):
        events.correct_result(engine, "Cup", 1, 1, 1, "open", 4, RULING)
    with pytest.raises(ScoringError, match=r"±1\.\.±4"):
        events.correct_result(engine, "Plus", 1, 1, 1, "open", 5, RULING)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([-4, -3, -2, -1, 1, 2, 3, 4]),
            st.sampled_from([-4, -3, -2, -1, 1, 2, 3, 4]),
        ),
        min_size=1,
        max_size=16,
    )
)
def test_plus4_swings_stay_within_8_and_vp_within_20(rooms: list[tuple[int, int]]) -> None:
    results = [BoardResult(i + 1, o, c) for i, (o, c) in enumerate(rooms)]
    score = score_match(results, GUANDAN_VP, UnfinishedRule.AVERAGE, PLUS4)
    assert all(-8 <= (b.swing or 0) <= 8 for b in score.boards)
    assert score.margin == sum(o - c for o, c in rooms)
    assert 0.0 <= score.points_x <= 20.0 and 0.0 <= score.points_y <= 20.0
    assert score.points_x + score.points_y == pytest.approx(20.0)


def test_scoring_bounds_are_the_rules() -> None:
    assert swing(4, -4, PLUS4) == 8 and swing(-4, 4, PLUS4) == -8
    assert check_result(-4, PLUS4) == -4
    with pytest.raises(ScoringError, match=r"±1\.\.±3"):
        swing(4, -4)
    with pytest.raises(ScoringError, match=r"±1\.\.±3"):
        score_match([BoardResult(1, 4, -4)])
    with pytest.raises(ScoringError, match=r"±1\.\.±4"):
        check_result(5, PLUS4)


# --- guandan import --variant ------------------------------------------------------------


def _folk_records(engine: Engine) -> list[DealRecord]:
    make_event(engine, "Folk", JIEFENG)
    return loads(events.bot_records(engine, "Folk", 1)[0])


def test_import_replays_under_the_rules_and_stores_them(engine: Engine) -> None:
    records = _folk_records(engine)
    sensitive = rule_sensitive(records, JIEFENG, COMPETITION)
    refused = import_records(engine, records, per="deal")
    assert [o.status == "error" for o in refused] == sensitive
    assert all("out of turn" in (o.error or "") for o in refused if o.status == "error")
    stored = import_records(engine, records, rules=JIEFENG)
    assert [o.status for o in stored] == ["stored"] * 8
    assert [o.status for o in import_records(engine, records, rules=JIEFENG)] == ["unchanged"] * 8
    rows = stored_records(engine)
    # the deals the rule does not touch were stored under both rule sets: two records each
    assert len(rows) == 8 + sensitive.count(False)
    assert sorted(describe_rules(r.rules) for r in rows) == sorted(
        ["jiefeng_next=true"] * 8 + ["competition"] * sensitive.count(False)
    )
    with session_scope(engine) as s:  # the column holds the canonical JSON of each rule set
        texts = set(s.scalars(select(models.RoomResult.rules)))
    assert texts == {rules_json(JIEFENG), rules_json(COMPETITION)}


def test_rules_are_part_of_the_record_key(engine: Engine) -> None:
    records = _folk_records(engine)
    sensitive = rule_sensitive(records, JIEFENG, COMPETITION)
    either = records[sensitive.index(False)]  # replays under both rule sets
    assert import_records(engine, [either])[0].status == "stored"
    under_folk = import_records(engine, [either], rules=JIEFENG)[0]
    assert (under_folk.status, under_folk.version) == ("stored", 1)  # another record
    fix = Correction(reason="retyped", by="Zhou")
    nothing = import_records(engine, [records[sensitive.index(True)]], rules=JIEFENG,
                             correction=fix)[0]
    assert nothing.status == "refused"
    assert "nothing to correct" in (nothing.error or "")
    assert "rules jiefeng_next=true" in (nothing.error or "")


def test_import_under_plus4_stores_4_level_results(engine: Engine) -> None:
    make_event(engine, "Plus", PLUS4)
    records = loads(events.bot_records(engine, "Plus", 1, "heuristic", "random")[0])
    outcomes = import_records(engine, records, rules=PLUS4)
    assert all(o.status == "stored" for o in outcomes)
    scores = {r.ns_score for r in stored_records(engine)}
    assert scores & {4, -4}
    assert all(r.rules == PLUS4 for r in stored_records(engine))


def test_load_rules_refuses_what_is_not_a_rule_set() -> None:
    assert load_rules('{"jiefeng_next": true}') == JIEFENG  # a missing variant: its default
    with pytest.raises(RecordImportError, match="event 'X': stored rules .* unknown rule"):
        load_rules('{"no_such_rule": 1}', "event 'X'")
    with pytest.raises(RecordImportError, match="not a rule set"):
        load_rules("[1, 2]")
    with pytest.raises(RecordImportError, match="not a rule set"):
        load_rules('{"bomb_max": 12}')
    assert describe_rules(Ruleset(double_down_plus4=True, bomb_max=8)) == (
        "bomb_max=8, double_down_plus4=true"
    )


# --- command line --------------------------------------------------------------------------


def test_cli_event_create_variant_and_list(migrated_url: str) -> None:
    runner = CliRunner()
    res = runner.invoke(
        main,
        ["event", "--db", migrated_url, "create", "Folk", "--seed", "ab",
         "--variant", "jiefeng_next=true", "--variant", "double_down_plus4=yes"],
    )
    assert res.exit_code == 0, res.output
    assert "rules jiefeng_next=true, double_down_plus4=true" in res.output
    assert runner.invoke(main, ["event", "--db", migrated_url, "create", "Cup"]).exit_code == 0
    table = runner.invoke(main, ["event", "--db", migrated_url, "list"])
    assert table.exit_code == 0, table.output
    lines = table.output.splitlines()
    assert lines[0].split()[-1] == "rules"
    assert lines[2].startswith("Cup") and lines[2].endswith("competition")
    assert lines[3].startswith("Folk")
    assert lines[3].endswith("jiefeng_next=true, double_down_plus4=true")
    data = json.loads(runner.invoke(main, ["event", "--db", migrated_url, "list", "--json"]).output)
    assert data[1]["rules"] == Ruleset(jiefeng_next=True, double_down_plus4=True).to_dict()
    bad = runner.invoke(main, ["event", "--db", migrated_url, "create", "B", "--variant", "x=1"])
    assert bad.exit_code == 2 and "--variant" in bad.output


#: ``migrations/versions/0004_rules.py``: the text migration 0004 gave every existing row.
COMPETITION_JSON_0004 = (
    '{"a_fail_limit": 0, "bomb_max": 10, "double_down_plus4": false, "jiefeng_next": false, '
    '"joker_pair_in_full_house": true, "return_lower_at_ten": false, "return_max_rank": 8}'
)


def test_limit_draw_keeps_the_stored_text_of_earlier_rule_sets() -> None:
    # The rules column is part of a record's key: the variants added later (limit_draw,
    # RULES.md §8) must not change the text of the rule sets stored before them, or a
    # re-import of a stored record would become a second record.
    assert rules_json(COMPETITION) == COMPETITION_JSON_0004
    assert rules_json(JIEFENG) == COMPETITION_JSON_0004.replace(
        '"jiefeng_next": false', '"jiefeng_next": true'
    )
    draw = Ruleset(limit_draw=True)
    assert json.loads(rules_json(draw)) == {**json.loads(COMPETITION_JSON_0004), "limit_draw": True}
    assert load_rules(rules_json(draw)) == draw and load_rules(COMPETITION_JSON_0004) == COMPETITION
    assert describe_rules(draw) == "limit_draw=true"


def test_cli_event_create_limit_draw(migrated_url: str) -> None:
    runner = CliRunner()
    res = runner.invoke(
        main, ["event", "--db", migrated_url, "create", "Cup", "--variant", "limit_draw=true"]
    )
    assert res.exit_code == 0, res.output
    assert "rules limit_draw=true" in res.output
    data = json.loads(runner.invoke(main, ["event", "--db", migrated_url, "list", "--json"]).output)
    assert data[0]["rules"]["limit_draw"] is True


def test_cli_import_variant(engine: Engine, migrated_url: str, tmp_path: Path) -> None:
    records = _folk_records(engine)
    path = tmp_path / "folk.gdn"
    path.write_text(events.bot_records(engine, "Folk", 1)[0], encoding="utf-8")
    runner = CliRunner()
    refused = runner.invoke(main, ["import", "--db", migrated_url, str(path)])
    assert refused.exit_code == 1 and "out of turn" in refused.output
    ok = runner.invoke(
        main, ["import", "--db", migrated_url, "--variant", "jiefeng_next=true", str(path)]
    )
    assert ok.exit_code == 0, ok.output
    assert ok.output.splitlines()[-1].startswith(f"{len(records)} deals: {len(records)} stored")
    assert {r.rules for r in stored_records(engine)} == {JIEFENG}


# --- migration 0004 ------------------------------------------------------------------------


def _columns(engine: Engine, table: str) -> set[str]:
    return {c["name"] for c in inspect(engine).get_columns(table)}


def test_migration_gives_existing_rows_the_competition_rules(db_engine: Engine) -> None:
    db.upgrade(db_engine, "0003")
    with db_engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO events (name, seed, format, scale, unfinished_rule, boards_per_round, "
            "rounds, bye_points_cents, bye_won) VALUES ('Old', 'ab', 'swiss', "
            "'{\"name\": \"wdl\", \"win\": 2.0, \"draw\": 1.0, \"loss\": 0.0}', 'average', 2, 1, "
            "200, :won)"), {"won": True})
        for room in ("Open", "Closed"):
            conn.execute(text(
                "INSERT INTO deal_records (deal_id, event, round, room, version, level, leader, "
                "plays, finish, result, ns_score, gdn, content_hash) VALUES ('d1', 'Old', '1', "
                ":room, 1, 0, 0, 40, 'N S', 'NS +3', 3, '[Event \"Old\"]', 'h')"), {"room": room})
    db.upgrade(db_engine, "0004")  # the head is later: look at the tables themselves
    assert "rules" in _columns(db_engine, "events")
    assert "rules" in _columns(db_engine, "deal_records")
    with db_engine.connect() as conn:
        assert conn.execute(text("SELECT name, rules FROM events")).one() == (
            "Old",
            rules_json(COMPETITION),
        )
        rows = conn.execute(text("SELECT room, rules FROM deal_records ORDER BY id")).all()
    assert [tuple(r) for r in rows] == [
        ("Open", rules_json(COMPETITION)),
        ("Closed", rules_json(COMPETITION)),
    ]
    with db_engine.begin() as conn:  # the same key under other rules: a record of its own
        conn.execute(text(
            "INSERT INTO deal_records (deal_id, event, round, room, version, level, leader, "
            "plays, finish, result, ns_score, gdn, content_hash, rules) VALUES ('d1', 'Old', "
            "'1', 'Open', 1, 0, 0, 40, 'N S', 'NS +4', 4, '[Event \"Old\"]', 'h4', :rules)"),
            {"rules": rules_json(PLUS4)})
    with db_engine.connect() as conn:
        assert conn.execute(text("SELECT COUNT(*) FROM deal_records")).scalar() == 3
    # down again: refused while one key holds records under two rule sets, nothing changed
    with pytest.raises(DatabaseError, match="several rule sets"):
        db.downgrade(db_engine, "0003")
    assert db.current_revision(db_engine) == "0004"
    assert "rules" in _columns(db_engine, "deal_records")
    with db_engine.begin() as conn:
        conn.execute(text("DELETE FROM deal_records WHERE content_hash = 'h4'"))
    db.downgrade(db_engine, "0003")
    assert "rules" not in _columns(db_engine, "events")
    assert "rules" not in _columns(db_engine, "deal_records")
    with db_engine.connect() as conn:
        assert conn.execute(text("SELECT COUNT(*) FROM deal_records")).scalar() == 2
        assert conn.execute(text("SELECT name FROM events")).scalar() == "Old"
    db.upgrade(db_engine)  # through 0005: the records move into the store
    assert [r.rules for r in stored_records(db_engine)] == [COMPETITION, COMPETITION]
    [old] = events.list_events(db_engine)
    assert (old.name, old.rules) == ("Old", COMPETITION)


def test_compare_replays_under_the_variant(engine: Engine, tmp_path: Path) -> None:
    """``guandan compare --variant`` replays both rooms under the rules they were played by."""
    make_event(engine, "Folk", JIEFENG)
    out = tmp_path / "folk.gdn"
    events.play_bots(engine, "Folk", 1, out=out)
    runner = CliRunner()
    plain = runner.invoke(main, ["compare", str(out)])
    assert plain.exit_code == 1 and "out of turn" in plain.stderr
    folk = runner.invoke(main, ["compare", str(out), "--variant", "jiefeng_next=true", "--json"])
    assert folk.exit_code == 0, folk.output
    assert len(json.loads(folk.stdout)) == 4  # boards 1..4, both rooms each
