"""Events in the database (duplicate.events): teams, pairing, seating, imports, unfinished
boards, corrections, scores and standings, on every configured database."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import Engine, select
from sqlalchemy.exc import IntegrityError

from cli import main
from duplicate import events, models, store
from duplicate.db import session_scope
from duplicate.dealing import parse_seed_file, seed_file_bytes
from duplicate.errors import DuplicateError
from duplicate.events import Correction, EventError
from duplicate.events import imports as events_imports
from duplicate.pairing import SeatingError, first_round, seat_match
from duplicate.scoring import UnfinishedRule

SEED = parse_seed_file(seed_file_bytes(bytes(range(32))))
TEAMS = {f"T{i}": [f"P{i}{j}" for j in range(1, 5)] for i in range(1, 5)}


def make_event(
    engine: Engine, name: str = "Cup", teams: int = 4, boards: int = 2, **kw: object
) -> None:
    """An event of ``teams`` teams (T1.. with players Pi1..Pi4), ``boards`` boards a round."""
    events.create_event(engine, name, seed="ab", boards_per_round=boards, **kw)  # type: ignore[arg-type]
    for i in range(1, teams + 1):
        events.add_team(engine, name, f"T{i}", [f"P{i}{j}" for j in range(1, 5)])


def play_round(engine: Engine, name: str = "Cup") -> events.RoundInfo:
    """Pair the next round, give it its boards and let the bots play it."""
    rnd = events.pair_round(engine, name)
    events.assign_boards(engine, name, rnd.number, seed=SEED)
    events.play_bots(engine, name, rnd.number)
    return rnd


def count(engine: Engine, model: type[models.Base]) -> int:
    with session_scope(engine) as s:
        return len(s.scalars(select(model)).all())


# --- settings and teams ------------------------------------------------------------------


def test_create_event_checks_its_settings(migrated_engine: Engine) -> None:
    info = events.create_event(migrated_engine, "Cup", seed="AB12", scale="vp20", rounds=5)
    assert (info.seed, info.format, info.rounds, info.scale.name) == ("ab12", "swiss", 5, "vp20")
    assert info.bye.points == 12.0  # a bye on the VP scale: 12 of 20
    with pytest.raises(EventError, match="already exists"):
        events.create_event(migrated_engine, "Cup")
    with pytest.raises(EventError, match="format 'knockout'"):
        events.create_event(migrated_engine, "B", fmt="knockout")
    with pytest.raises(EventError, match="hexadecimal"):
        events.create_event(migrated_engine, "C", seed="xyz")
    with pytest.raises(EventError, match="unknown scale"):
        events.create_event(migrated_engine, "D", scale="imps")
    assert [e.name for e in events.list_events(migrated_engine)] == ["Cup"]


def test_teams_have_four_to_six_players_each_in_one_team(migrated_engine: Engine) -> None:
    events.create_event(migrated_engine, "Cup", seed="ab")
    with pytest.raises(EventError, match="4 to 6 players, not 3"):
        events.add_team(migrated_engine, "Cup", "A", ["a", "b", "c"])
    with pytest.raises(EventError, match="4 to 6 players, not 7"):
        events.add_team(migrated_engine, "Cup", "A", list("abcdefg"))
    six = events.add_team(migrated_engine, "Cup", "A", list("abcdef"))
    assert six.pairs == (("a", "b"), ("c", "d"), ("e", "f"))
    with pytest.raises(EventError, match="player 'c' already plays for another team"):
        events.add_team(migrated_engine, "Cup", "B", ["c", "x", "y", "z"])
    with pytest.raises(EventError, match="pair w/q is not two players"):
        events.add_team(migrated_engine, "Cup", "B", list("wxyz"), [("w", "q"), ("x", "y")])
    events.add_team(migrated_engine, "Cup", "B", list("wxyz"), [("w", "y"), ("x", "z")])
    teams = events.list_teams(migrated_engine, "Cup")
    assert [(t.number, t.name, t.pairs[0]) for t in teams] == [
        (1, "A", ("a", "b")),
        (2, "B", ("w", "y")),
    ]
    events.pair_round(migrated_engine, "Cup")
    with pytest.raises(EventError, match="the field is closed"):
        events.add_team(migrated_engine, "Cup", "C", list("klmn"))


def test_teams_file_errors_name_the_line(tmp_path: Path, migrated_engine: Engine) -> None:
    assert events.parse_teams_file("# teams\n\nA: a, b, c, d\nB: e,f,g,h\n") == [
        ("A", ["a", "b", "c", "d"]),
        ("B", ["e", "f", "g", "h"]),
    ]
    with pytest.raises(EventError, match=r"teams.txt:2: expected 'TEAM: player"):
        events.parse_teams_file("A: a, b, c, d\nB e f g h\n", "teams.txt")
    bad = tmp_path / "teams.txt"
    bad.write_text("A: a, b, c, d\nB: a, f, g, h\n", encoding="utf-8")
    events.create_event(migrated_engine, "Cup", seed="ab")
    with pytest.raises(EventError, match="player 'a' already plays"):
        events.add_teams_file(migrated_engine, "Cup", bad)
    assert events.list_teams(migrated_engine, "Cup") == []  # one transaction: nothing kept
    teams = events.read_teams_file(bad)
    with pytest.raises(EventError, match="player 'a' already plays"):
        events.create_event(migrated_engine, "Other", teams=teams)
    assert [e.name for e in events.list_events(migrated_engine)] == ["Cup"]  # not created


# --- pairing and seating -----------------------------------------------------------------


def test_swiss_round_one_is_drawn_from_the_seed_and_seated(migrated_engine: Engine) -> None:
    make_event(migrated_engine)
    rnd = events.pair_round(migrated_engine, "Cup")
    expected = first_round(list(TEAMS), "ab")
    assert [(m.team_x, m.team_y) for m in rnd.matches] == list(expected.tables)
    m = rnd.matches[0]
    x, y = TEAMS[m.team_x], TEAMS[m.team_y]
    # RULES.md §11: open room X pair 1 N–S, Y pair 1 E–W; closed room Y pair 2 N–S, X pair 2 E–W
    assert m.open_players == (x[0], y[0], x[1], y[1])
    assert m.closed_players == (y[2], x[2], y[3], x[3])


def test_the_next_swiss_round_waits_for_every_result(migrated_engine: Engine) -> None:
    make_event(migrated_engine)
    rnd = events.pair_round(migrated_engine, "Cup")
    events.assign_boards(migrated_engine, "Cup", 1, seed=SEED)
    with pytest.raises(EventError, match=r"no result for round 1, table 1 .* board 1, open room"):
        events.pair_round(migrated_engine, "Cup")
    events.play_bots(migrated_engine, "Cup", 1)
    met = {frozenset((m.team_x, m.team_y)) for m in rnd.matches}
    for _ in range(2):
        nxt = events.pair_round(migrated_engine, "Cup")
        pairs = {frozenset((m.team_x, m.team_y)) for m in nxt.matches}
        assert not pairs & met, "a Swiss round paired two teams a second time"
        met |= pairs
        events.assign_boards(migrated_engine, "Cup", nxt.number, seed=SEED)
        events.play_bots(migrated_engine, "Cup", nxt.number)
    assert len(met) == 6  # 4 teams, 3 rounds: everyone met everyone once
    with pytest.raises(EventError, match="all are paired"):
        events.pair_round(migrated_engine, "Cup")


def test_odd_field_bye_goes_to_lowest_team_without_one(migrated_engine: Engine) -> None:
    make_event(migrated_engine, teams=5, rounds=3)
    byes: list[str] = []
    for _ in range(3):
        before, _after = events.event_standings(migrated_engine, "Cup")
        rnd = play_round(migrated_engine)
        if rnd.number > 1:  # the lowest team in the standings that has not had a bye
            assert rnd.bye == [r.team for r in before if r.team not in byes][-1]
        assert rnd.bye is not None
        byes.append(rnd.bye)
        table, after = events.event_standings(migrated_engine, "Cup")
        assert after == rnd.number
        bye_row = next(r for r in table if r.team == rnd.bye)
        assert bye_row.played == rnd.number - byes.count(rnd.bye)
    assert len(set(byes)) == 3, "a team had a second bye while others had none"
    scored = events.score_event(migrated_engine, "Cup")
    assert len(scored) == 6
    table, _ = events.event_standings(migrated_engine, "Cup")
    points = {r.team: r.points for r in table}
    # a bye scores the event's bye points (2 on the 2/1/0 scale) and counts as a round won
    assert all(points[b] >= 2 for b in byes)


def test_round_robin_plays_every_pair_once(migrated_engine: Engine) -> None:
    make_event(migrated_engine, fmt="rr", rounds=3)
    met = set()
    for n in range(1, 4):
        rnd = events.pair_round(migrated_engine, "Cup")
        met |= {frozenset((m.team_x, m.team_y)) for m in rnd.matches}
        assert rnd.number == n
    assert len(met) == 6


def test_lineups_choose_the_pairs_and_bad_ones_are_refused(migrated_engine: Engine) -> None:
    events.create_event(migrated_engine, "Cup", seed="ab", fmt="rr", rounds=1)
    events.add_team(migrated_engine, "Cup", "A", list("abcdef"))
    events.add_team(migrated_engine, "Cup", "B", list("ghij"))
    with pytest.raises(EventError, match="line-up 1,4 is not two of its pairs"):
        events.pair_round(migrated_engine, "Cup", {"A": (1, 4)})
    rnd = events.pair_round(migrated_engine, "Cup", {"A": (3, 1)})
    m = rnd.matches[0]
    a_open = m.open_players[0::2] if m.team_x == "A" else m.open_players[1::2]
    assert a_open == ("e", "f")


def test_database_refuses_a_seating_that_breaks_the_swap(migrated_engine: Engine) -> None:
    make_event(migrated_engine)
    events.pair_round(migrated_engine, "Cup")
    with pytest.raises(IntegrityError):
        with session_scope(migrated_engine) as s:
            m = s.scalars(select(models.EventMatch)).first()
            assert m is not None
            # X's closed-room pair replaced by one of Y's pairs: not a pair of team X
            m.closed_ew_pair_id = m.closed_ns_pair_id
    with pytest.raises(IntegrityError):
        with session_scope(migrated_engine) as s:
            m = s.scalars(select(models.EventMatch)).first()
            assert m is not None
            m.closed_ew_pair_id = m.open_ns_pair_id  # the same X pair in both rooms
    with pytest.raises(SeatingError, match="already sits"):
        seat_match((("a", "b"), ("a", "c")), (("d", "e"), ("f", "g")))


# --- boards and imports ------------------------------------------------------------------


def test_rounds_get_distinct_boards_from_the_events_set(migrated_engine: Engine) -> None:
    make_event(migrated_engine, boards=2, rounds=3)
    events.pair_round(migrated_engine, "Cup")
    r1 = events.assign_boards(migrated_engine, "Cup", 1, seed=SEED)
    assert (r1.board_set, r1.boards) == ("Cup", (1, 2))
    with pytest.raises(EventError, match="has no round 2"):
        events.assign_boards(migrated_engine, "Cup", 2, seed=SEED)
    with pytest.raises(EventError, match="needs 2 boards from board 6"):
        events.assign_boards(migrated_engine, "Cup", 1, set_name="Cup", first=6)
    with pytest.raises(EventError, match="no board set named 'nope'"):
        events.assign_boards(migrated_engine, "Cup", 1, set_name="nope")
    # The event's set exists: another seed file is refused, never silently ignored.
    other = parse_seed_file(seed_file_bytes(bytes(range(1, 33))))
    with pytest.raises(EventError, match="generated from another seed file"):
        events.assign_boards(migrated_engine, "Cup", 1, seed=other)
    assert events.assign_boards(migrated_engine, "Cup", 1, seed=SEED).boards == (1, 2)


def test_import_is_idempotent_and_checks_board_and_seating(
    tmp_path: Path, migrated_engine: Engine
) -> None:
    make_event(migrated_engine)
    events.pair_round(migrated_engine, "Cup")
    events.assign_boards(migrated_engine, "Cup", 1, seed=SEED)
    texts = events.bot_records(migrated_engine, "Cup", 1)
    path = tmp_path / "t1.gdn"
    path.write_text(texts[0], encoding="utf-8")
    first = events.import_files(migrated_engine, "Cup", [path])
    assert (first.records, first.added, first.unchanged) == (4, 4, 0)
    again = events.import_files(migrated_engine, "Cup", [path])
    assert (again.added, again.unchanged) == (0, 4)
    assert count(migrated_engine, models.RoomResult) == 4

    # a record of board 1 that claims to be board 2: the hands are not board 2's
    rec1 = texts[1].split("\n\n")[0]
    wrong_board = rec1.replace('[Board "1"]', '[Board "2"]')
    bad = tmp_path / "bad.gdn"
    bad.write_text(texts[1] + "\n" + wrong_board + "\n", encoding="utf-8")
    with pytest.raises(EventError, match=r"bad.gdn:\d+: board 2, room Open: the hands differ"):
        events.import_files(migrated_engine, "Cup", [bad])
    assert count(migrated_engine, models.RoomResult) == 4  # the whole file refused

    swapped = re.sub(r'\[South "([^"]+)"\]', r'[South "X\1"]', rec1)
    with pytest.raises(EventError, match=r"seat S is 'P\d\d' in the seating of table 2, not 'XP"):
        events.import_texts(migrated_engine, "Cup", [swapped])
    flipped = re.sub(
        r'\[Result "(NS|EW)', lambda m: '[Result "' + ("EW" if m.group(1) == "NS" else "NS"), rec1
    )
    with pytest.raises(EventError, match="does not replay"):
        events.import_texts(migrated_engine, "Cup", [flipped])


def test_a_different_record_needs_a_correction_and_changes_the_standings(
    migrated_engine: Engine,
) -> None:
    make_event(migrated_engine, rounds=1)
    play_round(migrated_engine)
    before, _ = events.event_standings(migrated_engine, "Cup")
    other = events.bot_records(migrated_engine, "Cup", 1, "random", "random")
    with pytest.raises(EventError, match="a different record is a correction"):
        events.import_texts(migrated_engine, "Cup", other)
    with pytest.raises(DuplicateError, match="needs a reason"):
        Correction(reason=" ", by="director")
    fix = Correction(reason="records swapped at table", by="director")
    summary = events.import_texts(migrated_engine, "Cup", other, correction=fix)
    assert summary.corrected + summary.unchanged == summary.records == 8
    assert summary.corrected > 0
    log = events.list_corrections(migrated_engine, "Cup")
    assert len(log) == summary.corrected
    assert {c["by"] for c in log} == {"director"} and log[0]["at"]
    after, _ = events.event_standings(migrated_engine, "Cup")
    assert [r.swing for r in before] != [r.swing for r in after] or [r.team for r in before] != [
        r.team for r in after
    ]


def test_director_ruling_is_kept_and_recomputes_standings(migrated_engine: Engine) -> None:
    make_event(migrated_engine, rounds=1, boards=1)
    rnd = play_round(migrated_engine)
    m = rnd.matches[0]
    rows = events.match_boards(migrated_engine, "Cup", 1, m.table)
    open_ns, closed_ns = rows[0].open_ns, rows[0].closed_ns
    assert open_ns is not None and closed_ns is not None
    new = -3 if open_ns != -3 else 3
    fix = Correction(reason="wrong card exposed", by="TD Wang")
    events.correct_result(migrated_engine, "Cup", 1, m.table, 1, "open", new, fix)
    rows = events.match_boards(migrated_engine, "Cup", 1, m.table)
    assert rows[0].open_ns == new
    assert rows[0].swing == new - closed_ns
    table, _ = events.event_standings(migrated_engine, "Cup")
    swing_x = next(r.swing for r in table if r.team == m.team_x)
    assert swing_x == new - closed_ns
    (log,) = events.list_corrections(migrated_engine, "Cup")
    assert (log["by"], log["reason"], log["after"]) == (
        "TD Wang",
        "wrong card exposed",
        f"{'NS' if new > 0 else 'EW'} +3 (director's ruling)",
    )
    with pytest.raises(EventError, match="invalid result"):
        events.parse_result("NS 5")
    assert events.parse_result("EW +2") == -2


# --- unfinished boards -------------------------------------------------------------------


@pytest.mark.parametrize("rule", ["average", "not-scored"])
def test_unfinished_boards_are_scored_by_the_events_rule(
    migrated_engine: Engine, rule: str
) -> None:
    make_event(migrated_engine, rounds=1, boards=2, unfinished=rule)
    rnd = events.pair_round(migrated_engine, "Cup")
    events.assign_boards(migrated_engine, "Cup", 1, seed=SEED)
    texts = events.bot_records(migrated_engine, "Cup", 1)
    # import only board 1 of every match; board 2 ran out of time
    firsts = ["\n\n".join(t.split("\n\n")[:2]) + "\n" for t in texts]
    events.import_texts(migrated_engine, "Cup", firsts)
    with pytest.raises(
        EventError, match=r"board 2, open room \(and 3 more\): import the record or mark"
    ):
        events.score_event(migrated_engine, "Cup")
    for m in rnd.matches:
        events.record_unfinished(migrated_engine, "Cup", 1, m.table, 2, "time")
    scored = events.score_event(migrated_engine, "Cup")
    for s in scored:
        assert s.score.unfinished == (2,)
        assert s.score.boards_scored == (
            2 if UnfinishedRule(rule.replace("-", "_")) is UnfinishedRule.AVERAGE else 1
        )
        assert s.to_dict()["unfinished"] == [2]
    with pytest.raises(EventError, match="already has unfinished \\(time\\)"):
        events.record_unfinished(migrated_engine, "Cup", 1, 1, 2, "withdrawal")


def test_a_record_that_stops_before_the_end_is_stored_unfinished(migrated_engine: Engine) -> None:
    make_event(migrated_engine, rounds=1, boards=1)
    events.pair_round(migrated_engine, "Cup")
    events.assign_boards(migrated_engine, "Cup", 1, seed=SEED)
    text = events.bot_records(migrated_engine, "Cup", 1)[0]
    open_rec, closed_rec = text.strip().split("\n\n")
    lines = open_rec.splitlines()
    play_at = lines.index("[Play]")
    # five plays, no Finish or Result, and why (a reason is required)
    cut = "\n".join([*lines[:play_at], '[Unfinished "time"]', *lines[play_at : play_at + 6]])
    summary = events.import_texts(migrated_engine, "Cup", [cut + "\n\n" + closed_rec + "\n"])
    assert summary.unfinished == 1
    rows = events.match_boards(migrated_engine, "Cup", 1, 1)
    assert rows[0].status == "unfinished" and rows[0].open_ns is None
    assert rows[0].swing == 0  # the average rule


# --- report and export -------------------------------------------------------------------


def test_report_and_export(tmp_path: Path, migrated_engine: Engine) -> None:
    make_event(migrated_engine, rounds=1)
    play_round(migrated_engine)
    events.score_event(migrated_engine, "Cup")
    index = events.write_event_report(migrated_engine, "Cup", tmp_path / "rep")
    html = index.read_text(encoding="utf-8")
    assert all(t in html for t in TEAMS) and "Standings" in html
    pages = sorted(p.name for p in (tmp_path / "rep").iterdir())
    assert "match-r1-t1.html" in pages and any(p.startswith("board-r1-t1-") for p in pages)
    exported = events.export_records(migrated_engine, "Cup")
    assert exported.count("[Play]") == 8  # 2 matches × 2 boards × 2 rooms
    with pytest.raises(EventError, match="no event named 'Nope'"):
        events.export_records(migrated_engine, "Nope")


def test_report_shows_matches_not_yet_in_without_points(migrated_engine: Engine) -> None:
    make_event(migrated_engine, rounds=2)
    play_round(migrated_engine)
    rnd = events.pair_round(migrated_engine, "Cup")
    events.assign_boards(migrated_engine, "Cup", rnd.number, seed=SEED)
    report = events.event_report(migrated_engine, "Cup")
    later = [m for m in report.matches if m.round == "2"]
    assert later and all(m.state == "not played yet" for m in later)
    assert all(m.points_x is None and m.points_y is None for m in later)
    assert all(b.status == "not in yet" and b.swing is None for m in later for b in m.boards)
    done = [m for m in report.matches if m.round == "1"]
    assert done and all(m.state == "" and m.points_x is not None for m in done)
    # one board of one match in: the match is in progress, still without points
    assert events.record_unfinished(migrated_engine, "Cup", 2, 1, 3, "time") == 2
    report = events.event_report(migrated_engine, "Cup")
    first = next(m for m in report.matches if m.round == "2" and m.key.endswith("-t1"))
    assert first.state == "1 of 2 boards in" and first.points_x is None
    rows = events.match_boards(migrated_engine, "Cup", 2, 1)
    assert [(r.board, r.status, r.swing) for r in rows] == [
        (3, "unfinished", 0),
        (4, "not in yet", None),
    ]


def test_import_replays_files_in_worker_processes(tmp_path: Path, migrated_engine: Engine) -> None:
    make_event(migrated_engine, rounds=1)
    events.pair_round(migrated_engine, "Cup")
    events.assign_boards(migrated_engine, "Cup", 1, seed=SEED)
    paths = []
    for i, text in enumerate(events.bot_records(migrated_engine, "Cup", 1)):
        paths.append(tmp_path / f"m{i}.gdn")
        paths[-1].write_text(text, encoding="utf-8")
    broken = tmp_path / "broken.gdn"
    broken.write_text(paths[0].read_text(encoding="utf-8").replace("[Play]", "[Play]\nN PASS"))
    with pytest.raises(EventError, match=r"broken.gdn:\d+: board 1, room Open: does not replay"):
        events.import_files(migrated_engine, "Cup", [broken, *paths], jobs=2)
    assert count(migrated_engine, models.RoomResult) == 0
    ticks: list[int] = []
    summary = events.import_files(migrated_engine, "Cup", paths, jobs=2, progress=ticks.append)
    assert (summary.files, summary.records, summary.added) == (2, 8, 8)
    assert ticks == [1, 1]


def test_a_concurrent_import_of_the_same_boards_is_refused_cleanly(
    migrated_engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_event(migrated_engine, rounds=1, boards=1)
    events.pair_round(migrated_engine, "Cup")
    events.assign_boards(migrated_engine, "Cup", 1, seed=SEED)
    texts = events.bot_records(migrated_engine, "Cup", 1)
    original = events_imports._Importer.flush

    def racing(self: events_imports._Importer) -> None:
        """Another import fills the first slot after this one found it empty."""
        slot, _ = self.new_rows[0]
        self.session.add(models.RoomResult(**store.result_values(slot)))
        self.session.flush()
        original(self)

    monkeypatch.setattr(events_imports._Importer, "flush", racing)
    with pytest.raises(EventError, match="another import stored results of these boards"):
        events.import_texts(migrated_engine, "Cup", texts[:1])
    assert count(migrated_engine, models.RoomResult) == 0


def test_parse_result_is_linear_and_quotes_bad_input_briefly() -> None:
    assert [events.parse_result(t) for t in ("NS +2", "ew 1", "E-W+3", " NS  + 2 ")] == [2, -1, -3, 2]
    # possessive quantifiers: a long run of spaces is refused at once, quoted briefly
    with pytest.raises(EventError, match=r"invalid result '.{40}'…: expected") as err:
        events.parse_result("NS" + " " * 50_000 + "x")
    assert len(str(err.value)) < 120


def test_cli_event_create_sets_the_bye_rule(migrated_url: str) -> None:
    runner = CliRunner()
    made = runner.invoke(
        main,
        ["event", "--db", migrated_url, "create", "Bye Cup", "--bye-points", "1", "--bye-not-won"],
    )
    assert made.exit_code == 0, made.output
    listed = runner.invoke(main, ["event", "--db", migrated_url, "list", "--json"])
    (info,) = json.loads(listed.output)
    assert (info["name"], info["bye_points"], info["bye_won"]) == ("Bye Cup", 1.0, False)
