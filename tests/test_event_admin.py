"""An event changed after pairing, each change logged (who, when, why):
a name fixed, a player substituted, a team withdrawn, an event or an unused set deleted."""

from __future__ import annotations

import unicodedata

import pytest
from click.testing import CliRunner
from sqlalchemy import Engine, func, select

from cli import main
from duplicate import events, models
from duplicate.boards import generate_set, list_sets, store_set
from duplicate.db import session_scope
from duplicate.dealing import parse_seed_file, seed_file_bytes
from duplicate.events import EventError

SEED = parse_seed_file(seed_file_bytes(bytes(range(32))))
SPARE = parse_seed_file(seed_file_bytes(bytes(range(2, 34))))
WHO = {"by": "TD Wu", "reason": "as the captain asked"}


def make_event(engine: Engine, teams: int = 4, rounds: int = 3, fmt: str = "swiss") -> None:
    events.create_event(engine, "Cup", seed="ab", boards_per_round=2, rounds=rounds, fmt=fmt)
    for i in range(1, teams + 1):
        events.add_team(engine, "Cup", f"T{i}", [f"P{i}{j}" for j in range(1, 5)])


def play(engine: Engine, number: int) -> None:
    events.pair_round(engine, "Cup")
    events.assign_boards(engine, "Cup", number, seed=SEED)
    events.play_bots(engine, "Cup", number)


def log(engine: Engine) -> list[tuple[str, str]]:
    return [(e["action"], e["detail"]) for e in events.admin_log(engine, "Cup")]


def test_rename_a_team_and_a_player_after_pairing(migrated_engine: Engine) -> None:
    make_event(migrated_engine)
    play(migrated_engine, 1)
    nfd = unicodedata.normalize("NFD", "Zhāng Wěi")
    events.rename_player(migrated_engine, "Cup", "P11", nfd, **WHO)
    events.rename_team(migrated_engine, "Cup", "T1", " Tigers ", **WHO)
    teams = {t.name: t for t in events.list_teams(migrated_engine, "Cup")}
    assert "Tigers" in teams and "T1" not in teams
    assert teams["Tigers"].players[0] == "Zhāng Wěi"  # stored NFC
    assert any("Tigers" in (m.team_x, m.team_y) for m in events.list_matches(migrated_engine, "Cup"))
    with pytest.raises(EventError, match="no player named 'P11'"):
        events.rename_player(migrated_engine, "Cup", "P11", "X", **WHO)
    with pytest.raises(EventError, match="'P21' already plays in event 'Cup'"):
        events.rename_player(migrated_engine, "Cup", "P22", "P21", **WHO)
    with pytest.raises(EventError, match="a team named 'T2' is already"):
        events.rename_team(migrated_engine, "Cup", "Tigers", "T2", **WHO)
    with pytest.raises(EventError, match="who and why"):
        events.rename_team(migrated_engine, "Cup", "Tigers", "Lions", by="", reason="x")
    assert log(migrated_engine) == [
        ("rename player", "'P11' -> 'Zhāng Wěi'"),
        ("rename team", "'T1' -> 'Tigers'"),
    ]
    # the new name is the one an import must name (NFD in the record is the same name)
    rnd = events.pair_round(migrated_engine, "Cup")
    assert all("T1" not in (m.team_x, m.team_y) for m in rnd.matches)


def test_substitute_a_player_who_has_played(migrated_engine: Engine) -> None:
    make_event(migrated_engine)
    play(migrated_engine, 1)
    before = events.list_matches(migrated_engine, "Cup", 1)
    events.substitute_player(migrated_engine, "Cup", "T1", "P12", "Q1", **WHO)
    assert events.list_matches(migrated_engine, "Cup", 1) == before  # history stands
    team = next(t for t in events.list_teams(migrated_engine, "Cup") if t.name == "T1")
    assert team.players == ("P11", "P12", "P13", "P14", "Q1")
    assert team.pairs[0] == ("P11", "Q1")  # pair 1 plays on with the substitute
    play(migrated_engine, 2)  # the bots' records name Q1, and are accepted
    r2 = events.list_matches(migrated_engine, "Cup", 2)
    t1 = next(m for m in r2 if "T1" in (m.team_x, m.team_y))
    seated = t1.open_players + t1.closed_players
    assert "Q1" in seated and "P12" not in seated
    assert log(migrated_engine) == [("substitute", "team 'T1': 'P12' -> 'Q1'")]
    with pytest.raises(EventError, match="'P21' does not play for team 'T1'"):
        events.substitute_player(migrated_engine, "Cup", "T1", "P21", "Q2", **WHO)


def test_substitute_before_playing_replaces_the_player(migrated_engine: Engine) -> None:
    make_event(migrated_engine)
    events.pair_round(migrated_engine, "Cup")  # paired, nothing played
    events.substitute_player(migrated_engine, "Cup", "T2", "P21", "Q2", **WHO)
    team = next(t for t in events.list_teams(migrated_engine, "Cup") if t.name == "T2")
    assert team.players == ("Q2", "P22", "P23", "P24")
    m = next(m for m in events.list_matches(migrated_engine, "Cup", 1) if "T2" in (m.team_x, m.team_y))
    assert "Q2" in m.open_players + m.closed_players


def test_withdrawn_team_is_not_paired_and_its_results_stand(migrated_engine: Engine) -> None:
    make_event(migrated_engine, teams=5)
    play(migrated_engine, 1)
    standing = {r.team: r.points for r in events.event_standings(migrated_engine, "Cup")[0]}
    events.withdraw_team(migrated_engine, "Cup", "T3", **WHO)
    with pytest.raises(EventError, match="already withdrawn"):
        events.withdraw_team(migrated_engine, "Cup", "T3", **WHO)
    rnd = events.pair_round(migrated_engine, "Cup")
    assert all("T3" not in (m.team_x, m.team_y) for m in rnd.matches) and rnd.bye != "T3"
    assert len(rnd.matches) == 2 and rnd.bye is None  # four teams left
    after = {r.team: r.points for r in events.event_standings(migrated_engine, "Cup", 1)[0]}
    assert after == standing  # round 1 as played
    assert log(migrated_engine) == [("withdraw team", "team 'T3' after round 1")]


def test_withdrawn_team_in_a_round_robin(migrated_engine: Engine) -> None:
    make_event(migrated_engine, teams=4, fmt="rr")
    play(migrated_engine, 1)
    events.withdraw_team(migrated_engine, "Cup", "T4", **WHO)
    rnd = events.pair_round(migrated_engine, "Cup")
    assert len(rnd.matches) == 1 and all("T4" not in (m.team_x, m.team_y) for m in rnd.matches)
    assert rnd.bye is not None and rnd.bye != "T4"  # T4's opponent of the schedule


def test_delete_an_event_and_an_unused_set(migrated_engine: Engine) -> None:
    make_event(migrated_engine)
    play(migrated_engine, 1)
    store_set(migrated_engine, generate_set(SPARE, 4, "spare"))
    with pytest.raises(EventError, match="set 'Cup' is used by round 1 of event 'Cup'"):
        events.delete_board_set(migrated_engine, "Cup", **WHO)
    events.delete_board_set(migrated_engine, "spare", **WHO)
    assert [s.name for s in list_sets(migrated_engine)] == ["Cup"]
    events.delete_event(migrated_engine, "Cup", **WHO)
    assert events.list_events(migrated_engine) == []
    with session_scope(migrated_engine) as s:
        for model in (models.EventTeam, models.EventMatch, models.RoomResult, models.EventRound):
            assert s.scalar(select(func.count()).select_from(model)) == 0
    events.delete_board_set(migrated_engine, "Cup", **WHO)  # now unused
    entries = events.admin_log(migrated_engine)
    assert [(e["action"], e["event"], e["set"]) for e in entries] == [
        ("delete set", None, "spare"),
        ("delete event", "Cup", None),
        ("delete set", None, "Cup"),
    ]
    assert all(e["by"] == "TD Wu" and e["at"].endswith("+00:00") for e in entries)


def test_cli_commands(migrated_url: str, migrated_engine: Engine) -> None:
    make_event(migrated_engine)
    play(migrated_engine, 1)

    def run(*args: str, code: int = 0) -> str:
        res = CliRunner().invoke(main, [*args[:1], "--db", migrated_url, *args[1:]])
        assert res.exit_code == code, res.output
        return res.output

    who = ("--by", "TD Wu", "--reason", "misspelt")
    assert "T1 -> Tigers" in run("event", "rename-team", "Cup", "T1", "Tigers", *who)
    run("event", "rename-player", "Cup", "P11", "Li", *who)
    run("event", "substitute", "Cup", "T2", "P21", "Q2", *who)
    run("event", "withdraw", "Cup", "T4", *who)
    run("event", "rename-team", "Cup", "Tigers", "X", code=2)  # no --by
    rows = loads_json(run("event", "log", "Cup", "--json"))
    assert [r["action"] for r in rows] == [
        "rename team", "rename player", "substitute", "withdraw team"
    ]
    store_set(migrated_engine, generate_set(SPARE, 4, "spare"))
    run("deals", "delete", "spare", *who)
    run("event", "delete", "Cup", *who)
    assert "no event named 'Cup'" in run("event", "matches", "Cup", code=1)
    assert [r["action"] for r in loads_json(run("event", "log", "--json"))][-2:] == [
        "delete set", "delete event"
    ]


def loads_json(text: str) -> list[dict[str, str]]:
    import json

    out: list[dict[str, str]] = json.loads(text)
    return out


def test_names_are_compared_in_nfc(migrated_engine: Engine) -> None:
    nfc, nfd = "Zhāng Wěi", unicodedata.normalize("NFD", "Zhāng Wěi")
    assert nfc != nfd
    events.create_event(migrated_engine, "Cup", seed="ab", boards_per_round=1, rounds=1)
    events.add_team(migrated_engine, "Cup", "A", [nfd, "a2", "a3", "a4"])
    events.add_team(migrated_engine, "Cup", "B", ["b1", "b2", "b3", "b4"])
    assert events.list_teams(migrated_engine, "Cup")[0].players[0] == nfc  # stored NFC
    with pytest.raises(EventError, match="already plays for another team"):
        events.add_team(migrated_engine, "Cup", "C", [nfc, "c2", "c3", "c4"])
    events.pair_round(migrated_engine, "Cup")
    events.assign_boards(migrated_engine, "Cup", 1, seed=SEED)
    text = events.bot_records(migrated_engine, "Cup", 1)[0]
    assert nfc in text
    summary = events.import_texts(migrated_engine, "Cup", [text.replace(nfc, nfd)])
    assert summary.added == 2  # the record's NFD name is the seated player
