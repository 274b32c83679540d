"""What the library stores and people read later, in the reader's language: an event's own
board set is named as the event (no English word in a stored name; an old database's
``<event> boards`` is still the event's set), and the change log's details of a board
released, boards reused and an unreleased export are said in Chinese under ``--lang zh``
(and on the desk) and in English as before; old rows stored as English show as stored.
One message says that a board is not one of its round's (or that a round has no boards),
wherever it is refused. An import's unfinished boards, a board marked unfinished, a table's
request accepted after publication (public pages, desk, CLI) and the hall's unknown event
or room are said in Chinese too. SQLite, and PostgreSQL when configured (the
``migrated_url`` fixture)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

import pytest
from click.testing import CliRunner
from conftest import DESK_PASSWORD
from fastapi.testclient import TestClient
from sqlalchemy import Engine, select

from cli import main
from duplicate import events, hall, models
from duplicate.boards import generate_set, list_sets, store_set
from duplicate.db import session_scope
from duplicate.dealing import parse_seed_file, seed_file_bytes
from duplicate.events import Correction, EventError
from duplicate.i18n import messages

EV = "淮安杯"
TEAMS = [(f"{t}队", [f"{t}{i}" for i in range(1, 5)]) for t in "甲乙丙丁"]
SEED_BYTES = seed_file_bytes(bytes(range(32)))
SEED = parse_seed_file(SEED_BYTES)
OTHER = parse_seed_file(seed_file_bytes(bytes(range(1, 33))))
BY, WHY = "吴裁判", "补打"
#: English words the program used to write into these outputs (a Chinese reader's must
#: hold none): any run of two or more Latin letters, since every name here is Chinese
LATIN = re.compile(r"[A-Za-z]{2,}")


def make_event(engine: Engine, name: str = EV, rounds: int = 3) -> None:
    """A round-robin event of four teams, two boards a round, rounds 1 and 2 paired."""
    events.create_event(engine, name, fmt="rr", seed="ab", boards_per_round=2, rounds=rounds)
    for team, players in TEAMS:
        events.add_team(engine, name, team, players)
    events.pair_round(engine, name)
    events.pair_round(engine, name)


def cli(lang: str, url: str, *args: str, code: int = 0) -> str:
    res = CliRunner().invoke(main, ["--lang", lang, "event", *args, "--db", url])
    assert res.exit_code == code, res.output
    return res.output


def latin(text: str) -> list[str]:
    """The Latin words of ``text`` once file paths, options, the sets' generator and
    commitments, and the words GLOSSARY allows in Chinese (UTC) are taken out."""
    text = re.sub(r"/\S+|--[a-z-]+|UTC|NAME|TEXT|gd-sha256ctr-fy/1|\b[0-9a-f]{16,}\b", " ",
                  text)
    return LATIN.findall(text)


def _director_flow(lang: str, url: str, seed: Path) -> dict[str, str]:
    """Boards for round 1 from the seed file; round 2 refused the same boards, then given
    them as a reuse; board 1 released; every round's and round 1's records exported
    unreleased; the log. Each command's output by name."""
    out = {"assign": cli(lang, url, "assign-boards", EV, "--round", "1", "--seed-file",
                         str(seed))}
    out["refused"] = cli(lang, url, "assign-boards", EV, "--round", "2", "--seed-file",
                         str(seed), "--first", "1", code=1)
    out["reuse"] = cli(lang, url, "assign-boards", EV, "--round", "2", "--seed-file", str(seed),
                       "--first", "1", "--reuse", "--by", BY, "--reason", WHY)
    out["release"] = cli(lang, url, "release", EV, "--round", "1", "--board", "1", "--by", BY,
                         "--reason", WHY)
    out["export"] = cli(lang, url, "export", EV, "--unreleased", "--by", BY, "--reason", WHY)
    cli(lang, url, "export", EV, "--round", "1", "--unreleased", "--by", BY, "--reason", WHY)
    out["log"] = cli(lang, url, "log", EV)
    res = CliRunner().invoke(main, ["--lang", lang, "deals", "list", "--db", url])
    assert res.exit_code == 0, res.output
    out["sets"] = res.output
    return out


@pytest.fixture
def seed(tmp_path: Path) -> Path:
    path = tmp_path / "cup.seed"
    path.write_bytes(SEED_BYTES)
    path.chmod(0o600)
    return path


def test_the_events_set_and_its_log_in_chinese(
    migrated_url: str, migrated_engine: Engine, seed: Path
) -> None:
    make_event(migrated_engine)
    out = _director_flow("zh", migrated_url, seed)
    assert out["assign"] == "第1轮：牌组“淮安杯”的第1至2副\n"
    assert "牌组“淮安杯”第1至2副已用于赛事“淮安杯”第1轮" in out["refused"], out["refused"]
    assert "牌组“淮安杯”的第1至2副" in out["reuse"]
    assert [s.name for s in list_sets(migrated_engine)] == [EV]  # the event's name, no word
    assert events.event_board_set(migrated_engine, EV) == EV == events.event_set_name(EV)
    log = out["log"]
    for words in ("第2轮：牌组“淮安杯”第1至2副：牌组“淮安杯”第1至2副已用于赛事“淮安杯”第1轮",
                  "第1轮第1副", "所有轮次：0份牌谱", "第1轮：0份牌谱", "牌组"):
        assert words in log, (words, log)
    for name, text in out.items():
        assert latin(text) == [], (name, text)
    rows = events.admin_log(migrated_engine, EV, "zh")
    assert [(r["action"], r["set"]) for r in rows] == [
        ("reuse boards", EV), ("release board", None), ("export unreleased", None),
        ("export unreleased", None)]
    assert latin(" ".join(str(r["detail"]) for r in rows)) == []


def test_the_events_set_and_its_log_in_english(
    migrated_url: str, migrated_engine: Engine, seed: Path
) -> None:
    make_event(migrated_engine)
    out = _director_flow("en", migrated_url, seed)
    assert out["assign"] == "round 1: boards 1 to 2 of set '淮安杯'\n"
    assert ("event '淮安杯', round 2: boards 1 to 2 of set '淮安杯' are those of round 1 of "
            "event '淮安杯'; playing boards again needs who and why") in out["refused"]
    assert [r["detail"] for r in events.admin_log(migrated_engine, EV)] == [
        "round 2: boards 1 to 2 of set '淮安杯': boards 1 to 2 of set '淮安杯' are those of "
        "round 1 of event '淮安杯'",
        "round 1, board 1",
        "every round: 0 records",
        "round 1: 0 records",
    ]
    assert "every round: 0 records" in out["log"] and "round 1, board 1" in out["log"]


def test_a_reuse_of_a_revealed_set_and_of_one_board_in_both_languages(
    migrated_engine: Engine,
) -> None:
    store_set(migrated_engine, generate_set(OTHER, 8, "春季"))
    make_event(migrated_engine)
    events.assign_boards(migrated_engine, EV, 1, set_name="春季", first=1)
    with pytest.raises(EventError) as exc:
        events.assign_boards(migrated_engine, EV, 2, set_name="春季", first=2)
    assert str(exc.value).startswith(
        "event '淮安杯', round 2: board 2 of set '春季' is one of round 1 of event '淮安杯'")
    assert exc.value.text("zh").startswith(
        "赛事“淮安杯”第2轮：牌组“春季”第2副已用于赛事“淮安杯”第1轮；")
    from duplicate.boards import reveal_set

    reveal_set(migrated_engine, "春季", OTHER)
    events.assign_boards(migrated_engine, EV, 2, set_name="春季", first=2,
                         reuse=Correction(reason=WHY, by=BY))
    [row] = events.admin_log(migrated_engine, EV, "zh")
    assert row["detail"] == ("第2轮：牌组“春季”第2至3副：牌组“春季”的种子已公开：任何人都能算出其中的牌；"
                             "牌组“春季”第2副已用于赛事“淮安杯”第1轮")
    [row] = events.admin_log(migrated_engine, EV, "en")
    assert row["detail"] == (
        "round 2: boards 2 to 3 of set '春季': set '春季' is revealed: anyone can compute its "
        "boards; board 2 of set '春季' is one of round 1 of event '淮安杯'")


# --- an old database ------------------------------------------------------------------


def test_an_old_sets_name_is_still_the_events_set(migrated_engine: Engine) -> None:
    """A database from before: the event's set stored as '<event> boards' and played by
    round 1; a set of the event's own name is somebody else's. Round 2's boards from the
    seed file come from the old set, which the desk preselects; nothing new is stored."""
    old = f"{EV} boards"
    make_event(migrated_engine)
    store_set(migrated_engine, generate_set(SEED, 6, old))  # as assign-boards stored it then
    with session_scope(migrated_engine) as s:  # round 1 given its boards then
        rnd = s.scalar(select(models.EventRound).where(models.EventRound.number == 1))
        assert rnd is not None
        rnd.board_set_id = s.scalar(select(models.BoardSet.id)
                                    .where(models.BoardSet.name == old))
        rnd.first_board = 1
    store_set(migrated_engine, generate_set(OTHER, 4, EV))  # a director's own set, so named
    assert events.event_board_set(migrated_engine, EV) == old
    rnd2 = events.assign_boards(migrated_engine, EV, 2, seed=SEED)
    assert (rnd2.board_set, rnd2.boards) == (old, (3, 4))
    assert sorted(s.name for s in list_sets(migrated_engine)) == sorted([EV, old])


def test_an_old_set_unplayed_is_found_and_no_second_set_is_made(
    migrated_engine: Engine,
) -> None:
    make_event(migrated_engine)
    store_set(migrated_engine, generate_set(SEED, 6, f"{EV} boards"))
    assert events.event_board_set(migrated_engine, EV) == f"{EV} boards"
    assert events.assign_boards(migrated_engine, EV, 1, seed=SEED).board_set == f"{EV} boards"
    with pytest.raises(EventError, match="another seed file"):
        events.assign_boards(migrated_engine, EV, 2, seed=OTHER)
    assert [s.name for s in list_sets(migrated_engine)] == [f"{EV} boards"]


def test_old_english_log_rows_show_as_stored(migrated_engine: Engine) -> None:
    make_event(migrated_engine)
    events.assign_boards(migrated_engine, EV, 1, seed=SEED)
    old = ["round 2: boards 1 to 2 of set '淮安杯 boards': boards 1 to 2 of set '淮安杯 boards' "
           "are those of round 1 of event '淮安杯'", "every round: 3 records",
           "round 1, board 2"]
    with session_scope(migrated_engine) as s:
        for action, detail in zip(("reuse boards", "export unreleased", "release board"), old,
                                  strict=True):
            s.add(models.AdminLog(action=action, event=EV, detail=detail, made_by=BY,
                                  reason=WHY, made_at=datetime(2026, 12, 1, tzinfo=UTC)))
    events.release_board(migrated_engine, EV, 1, 1, BY, WHY)
    events.export_records(migrated_engine, EV, unreleased=Correction(reason=WHY, by=BY))
    zh = [r["detail"] for r in events.admin_log(migrated_engine, EV, "zh")]
    assert zh == [old[0], old[1], "第1轮第2副", "第1轮第1副", "所有轮次：0份牌谱"]
    assert [r["detail"] for r in events.admin_log(migrated_engine, EV)] == [
        *old, "round 1, board 1", "every round: 0 records"]
    with session_scope(migrated_engine) as s:  # the new rows are stored as codes
        stored = list(s.scalars(select(models.AdminLog.detail).order_by(models.AdminLog.id)))
    assert stored[:3] == old and all(d.startswith("@@lw.detail.") for d in stored[3:])


# --- one message for a board not in the round ------------------------------------------


def test_one_message_for_a_board_not_in_its_round(migrated_engine: Engine) -> None:
    make_event(migrated_engine)
    events.assign_boards(migrated_engine, EV, 1, seed=SEED)
    refusals: list[EventError | hall.HallError] = []
    with pytest.raises(EventError) as exc:
        events.release_board(migrated_engine, EV, 1, 9, BY, WHY)
    refusals.append(exc.value)
    with pytest.raises(EventError) as exc:
        events.result_slot(migrated_engine, EV, 1, 1, 9, "open")
    refusals.append(exc.value)
    with pytest.raises(hall.HallError) as hexc:
        hall.board_released(migrated_engine, EV, 1, 9)
    refusals.append(hexc.value)
    for e in refusals:
        assert e.phrase is not None and e.phrase.key == "events.err.not_round_board"
        assert str(e) == "round 1 plays boards 1 to 2, not board 9"
        assert e.text("zh") == "第1轮打的是第1至2副，没有第9副"
    for gone in ("out.release.not_in_round", "results.board_range", "hall.err.not_a_board"):
        assert gone not in messages()


def test_one_message_for_a_round_without_boards(migrated_engine: Engine) -> None:
    make_event(migrated_engine)  # round 2 paired, no boards yet
    refusals: list[EventError | hall.HallError] = []
    with pytest.raises(EventError) as exc:
        events.release_board(migrated_engine, EV, 2, 1, BY, WHY)
    refusals.append(exc.value)
    with pytest.raises(EventError) as exc:
        events.result_slot(migrated_engine, EV, 2, 1, 1, "open")
    refusals.append(exc.value)
    with pytest.raises(hall.HallError) as hexc:
        hall.board_released(migrated_engine, EV, 2, 1)
    refusals.append(hexc.value)
    with pytest.raises(hall.HallError) as hexc:
        hall.start_round(migrated_engine, EV, 2, BY)
    refusals.append(hexc.value)
    for e in refusals:
        assert e.phrase is not None and e.phrase.key == "events.err.no_boards"
        assert str(e) == "event '淮安杯', round 2 has no boards assigned"
        assert e.text("zh") == "赛事“淮安杯”第2轮还没有分配牌"
    for gone in ("out.release.no_boards", "results.no_boards", "hall.err.no_boards"):
        assert gone not in messages()


# --- the desk ------------------------------------------------------------------------

#: the director's password of the ``client`` fixture (tests/conftest.py)
PASSWORD = DESK_PASSWORD


def _csrf(client: TestClient) -> str:
    r = client.post("/desk/login", data={"password": PASSWORD, "next": "/desk"},
                    follow_redirects=False)
    assert r.status_code == 303
    m = re.search(r'name="csrf" value="([^"]+)"', client.get("/desk").text)
    assert m
    return m.group(1)


def test_the_desk_names_and_preselects_the_events_set_in_chinese(client: TestClient) -> None:
    engine: Engine = client.app.state.engine  # type: ignore[attr-defined]
    csrf = _csrf(client)
    client.cookies.set("lang", "zh")
    make_event(engine)
    url = f"/desk/e/{quote(EV)}"
    r = client.post(f"{url}/boards", data={"csrf": csrf, "round_no": "1"},
                    files={"seed_file": ("cup.seed", SEED_BYTES, "application/json")},
                    follow_redirects=True)
    assert "第1轮：牌组 淮安杯 的第1至2副。" in r.text, r.text
    page = client.get(url).text
    assert f'<option value="{EV}" selected>' in page
    assert "boards" not in re.sub(r"<[^>]*>", " ", page)  # no English word shown
    # an event of an old database: its set preselected by the name it was stored under
    make_event(engine, "旧杯")
    store_set(engine, generate_set(OTHER, 6, "旧杯 boards"))
    assert '<option value="旧杯 boards" selected>' in client.get(f"/desk/e/{quote('旧杯')}").text


# --- an import's unfinished boards -----------------------------------------------------


def test_an_imports_unfinished_boards_and_their_history_in_both_languages(
    migrated_url: str, migrated_engine: Engine, tmp_path: Path
) -> None:
    """Boards a record leaves unfinished (``Unfinished "time"``): the import's lines and the
    room's history say where and why in the reader's language; English as before."""
    from duplicate.gdn import format_record, loads

    make_event(migrated_engine)
    events.assign_boards(migrated_engine, EV, 1, seed=SEED)
    recs = loads(events.bot_records(migrated_engine, EV, 1)[0])
    for rec, why in zip(recs[:2], ("time", "退赛"), strict=True):  # board 1, both rooms
        rec.plays, rec.finish, rec.result = (rec.plays or [])[:3], None, None
        rec.tags["Unfinished"] = why
    path = tmp_path / "t1.gdn"
    path.write_text("\n".join(format_record(r) for r in recs), encoding="utf-8")
    zh = cli("zh", migrated_url, "import", EV, str(path), "--by", BY)
    assert "  未完成：第1轮第1桌开室第1副（超时）\n" in zh, zh
    assert "  未完成：第1轮第1桌闭室第1副（退赛）\n" in zh, zh
    assert latin(zh) == [], zh
    history = cli("zh", migrated_url, "history", EV, "--round", "1", "--table", "1",
                  "--board", "1", "--room", "open")
    assert "未完成（超时）" in history and latin(history) == [], history
    en = cli("en", migrated_url, "history", EV, "--round", "1", "--table", "1", "--board", "1",
             "--room", "closed")
    assert "unfinished (退赛)" in en, en
    from duplicate.events.imports import unfinished_board_words

    line = "round 1, table 1, board 1, open room (time)"
    assert unfinished_board_words(line, "en") == line
    from duplicate.i18n.stored import state_words

    assert state_words("unfinished (record ends before the deal)", "zh") == (
        "未完成（牌谱未打到本副结束）")


def test_a_board_marked_unfinished_without_a_correction_says_why_in_both_languages(
    migrated_url: str, migrated_engine: Engine,
) -> None:
    """The reason the program writes for a board marked unfinished (no correction: the
    director's own 'unfinished: time') is said in the reader's language in the room's
    history; the export's UnfinishedReason tag (a file) holds the English words, never a
    code."""
    from duplicate.gdn import loads

    make_event(migrated_engine)
    events.assign_boards(migrated_engine, EV, 1, seed=SEED)
    cli("zh", migrated_url, "unfinished", EV, "--round", "1", "--table", "1", "--board", "1",
        "--room", "open", "--reason", "time")
    zh = cli("zh", migrated_url, "history", EV, "--round", "1", "--table", "1", "--board", "1",
             "--room", "open")
    assert "未完成：超时" in zh, zh
    en = cli("en", migrated_url, "history", EV, "--round", "1", "--table", "1", "--board", "1",
             "--room", "open")
    assert "unfinished: time" in en, en
    [rec] = loads(events.export_records(migrated_engine, EV, unreleased=Correction(WHY, BY)))
    assert (rec.tags["Unfinished"], rec.tags["UnfinishedReason"]) == ("time", "unfinished: time")
    # a row stored before, in English, is still said
    from duplicate.i18n.stored import said

    assert said("unfinished: 退赛", "zh") == "未完成：退赛"
    assert said("unfinished: time", "zh") == "未完成：超时"


# --- a table's request accepted after publication ---------------------------------------


def test_an_accepted_request_is_said_in_the_readers_language(migrated_url: str) -> None:
    """The director accepts a table's correction after publication: the result's reason
    (stored as '<why> (accepted: table 1 open West reported E W; its reason: …)', English
    words the public API returns) is said in Chinese on the public pages, the desk's
    history and the command line's; English as stored."""
    from helpers.hall import EV as EVQ
    from helpers.hall import EVENT, finish_round, open_hall
    from test_zh_logs_and_errors import login, visible

    for h in open_hall(migrated_url):
        finish_round(h)
        assert h.director("POST", "/rounds/1/close").status_code == 200
        assert h.director("POST", "/rounds/1/publish").status_code == 200
        r = h.report(1, "open", 1, finish="E W", correction="看错了顺序")
        assert r.status_code == 201, r.text
        r = h.director("POST", f"/requests/{r.json()['id']}/accept", json={"reason": "双方同意"})
        assert r.status_code == 200, r.text
        english = ("双方同意 (accepted: table 1 open West reported E W; its reason: 看错了顺序)")
        [c] = h.client.get(f"/api/events/{EVQ}/standings").json()["corrections"]
        assert c["reason"] == english  # the API's words, as before
        zh = "双方同意（同意第1桌开室西家的报分：头游东、二游西，南北双下；理由：看错了顺序）"
        for path in (f"/e/{EVQ}?lang=zh", f"/e/{EVQ}/round/1/board/1?lang=zh"):
            page = visible(h.client.get(path).text)
            assert zh in page and "accepted" not in page, (path, page)
        assert english in visible(h.client.get(f"/e/{EVQ}/round/1/board/1?lang=en").text)
        login(h)
        desk = visible(h.client.get(f"/desk/e/{EVQ}/round/1?lang=zh").text)
        assert zh in desk and "accepted" not in desk, desk
        res = CliRunner().invoke(main, ["--lang", "zh", "event", "history", EVENT, "--round",
                                        "1", "--table", "1", "--board", "1", "--room", "open",
                                        "--db", migrated_url])
        assert res.exit_code == 0 and zh in res.output and "accepted" not in res.output, \
            res.output
        res = CliRunner().invoke(main, ["--lang", "zh", "event", "log", EVENT, "--db",
                                        migrated_url])
        assert res.exit_code == 0 and "西家报头游东、二游西，南北双下" in res.output, res.output
        assert "报E W" not in res.output, res.output


def test_the_halls_unknown_event_and_room_refusals_in_chinese(migrated_engine: Engine) -> None:
    with pytest.raises(hall.HallError) as exc:
        hall.round_clock(migrated_engine, "无此赛", 1)
    assert exc.value.kind == "not_found" and str(exc.value) == "no event named '无此赛'"
    assert exc.value.text("zh") == "没有名为“无此赛”的赛事"
    make_event(migrated_engine)
    events.assign_boards(migrated_engine, EV, 1, seed=SEED)
    with pytest.raises(hall.HallError) as exc:
        hall.director_correct(migrated_engine, EV, 1, 1, 1, "lobby", 2, BY, WHY)
    assert str(exc.value) == "room must be open or closed, not 'lobby'"
    assert exc.value.text("zh") == "牌室必须是 open（开室）或 closed（闭室），不能是“lobby”"
