"""A 4-team Swiss event from the director's side, each behaviour kept:

1. a bye's points were in the totals but in no listing of a team's rounds (``event score``,
   the report's cross-table and team page), and a withdrawn team was not marked;
2. a record whose finishing order differs from the order a table reported (the same
   result, another player out first) was stored as agreeing;
3. ``event play-bots`` after a table's report clashed with it, suggested options it does
   not have and left its ``-o`` file behind;
4. "pair it first" for a round the event can never have;
5. one word for each standings column, the place of a conflict said once, the report's
   rulings line without a stray 、.

On SQLite, and on PostgreSQL when configured (the ``migrated_*`` fixtures)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import Engine

from cli import main
from duplicate import events, gdn, store
from duplicate.db import make_engine
from duplicate.dealing import parse_seed_file, seed_file_bytes
from duplicate.events import Correction, EventError
from duplicate.i18n import catalogue
from duplicate.replay import replay
from duplicate.store import Author, StoreError
from engine.seat import Seat

SEED = parse_seed_file(seed_file_bytes(bytes(range(32))))
CUP = "Huai'an Cup"
TEAMS = ["淮安队", "Eagles", "Lions", "Tigers"]


def run(url: str, *args: str, lang: str = "en") -> Result:
    return CliRunner().invoke(main, ["--lang", lang, "event", "--db", url, *args])


def ok(url: str, *args: str, lang: str = "en") -> str:
    r = run(url, *args, lang=lang)
    assert r.exit_code == 0, r.output
    return r.output


@pytest.fixture
def engine(migrated_url: str) -> Iterator[Engine]:
    eng = make_engine(migrated_url)
    try:
        yield eng
    finally:
        eng.dispose()


def _event(engine: Engine, rounds: int = 3, boards: int = 1) -> None:
    """The README's event: 4 teams, Swiss, 20-VP scale (a bye scores 12)."""
    events.create_event(engine, CUP, seed="ab", boards_per_round=boards, rounds=rounds,
                        scale="vp20")
    for i, team in enumerate(TEAMS, 1):
        events.add_team(engine, CUP, team, [f"P{i}{j}" for j in range(1, 5)])


def _play_round(engine: Engine) -> int:
    rnd = events.pair_round(engine, CUP)
    events.assign_boards(engine, CUP, rnd.number, seed=SEED)
    events.play_bots(engine, CUP, rnd.number)
    events.score_event(engine, CUP, rnd.number)
    return rnd.number


def _text(html: str) -> str:
    """A page's visible text, its tags as spaces."""
    html = re.sub(r"<head>.*?</head>", "", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#39;", "'")


# --- 1. byes shown wherever a team's rounds are, withdrawn teams marked ------------------


@pytest.fixture
def byed(engine: Engine, migrated_url: str) -> tuple[Engine, str, str, str]:
    """Rounds 1 and 2 of 4 teams, one team withdrawn, round 3 with a bye, all scored:
    (engine, url, the bye's team, the withdrawn team)."""
    _event(engine)
    _play_round(engine)
    _play_round(engine)
    gone = TEAMS[1]
    events.withdraw_team(engine, CUP, gone, by="TD Wu", reason="left")
    _play_round(engine)
    bye = events.get_round(engine, CUP, 3).bye
    assert bye is not None and bye != gone
    return engine, migrated_url, bye, gone


def test_event_score_lists_the_bye_so_that_a_teams_rows_add_up(
    byed: tuple[Engine, str, str, str],
) -> None:
    engine, url, bye, gone = byed
    rows = json.loads(ok(url, "score", CUP, "--json"))
    (mine,) = [r for r in rows if r["bye"]]
    assert (mine["round"], mine["team_x"], mine["team_y"], mine["table"]) == (3, bye, None, None)
    assert mine["points_x"] == 12.0
    standing, _ = events.event_standings(engine, CUP)
    for s in standing:  # every team's rows of the listing add up to its total
        got = sum(r["points_x"] if r["team_x"] == s.team else r["points_y"]
                  for r in rows if s.team in (r["team_x"], r["team_y"]))
        assert round(got, 2) == s.points, s.team
    table = ok(url, "score", CUP, "--round", "3")
    assert re.search(rf"^3 +{re.escape(bye)} +bye +12\.00$", table, re.M), table  # VP: two decimals
    zh = ok(url, "score", CUP, "--round", "3", lang="zh")
    assert re.search(rf"^3 +{re.escape(bye)} +轮空 +12\.00$", zh, re.M), zh
    assert [b.to_dict()["points_x"] for b in events.round_byes(engine, CUP)] == [12.0]
    # the withdrawn team is marked where the standings are listed
    listed = ok(url, "standings", CUP)
    assert f"{gone} (withdrawn)" in listed
    assert f"{gone}（退赛）" in ok(url, "standings", CUP, lang="zh")
    flags = {r["team"]: r["withdrawn"] for r in json.loads(ok(url, "standings", CUP, "--json"))}
    assert flags == {t: t == gone for t in TEAMS}
    assert events.withdrawals(engine, CUP) == {gone: 2}


def test_report_shows_the_bye_and_marks_the_withdrawn_team(
    byed: tuple[Engine, str, str, str], tmp_path: Path
) -> None:
    engine, url, bye, gone = byed
    standing = {s.team: s for s in events.event_standings(engine, CUP)[0]}
    numbers = {name: n for n, name in enumerate(TEAMS, 1)}
    for lang, word, mark, note in (("en", "Bye", " (withdrawn)", "Withdrawn after round 2"),
                                   ("zh", "轮空", "（退赛）", "第2轮后退赛")):
        out = tmp_path / lang
        ok(url, "report", CUP, "--out", str(out), "--lang", lang)
        cross = _text((out / "crosstable.html").read_text(encoding="utf-8"))
        opener = " (" if lang == "en" else "（"
        assert f"{word}{opener}12.00" in cross, cross
        page = (out / f"team-{numbers[bye]}.html").read_text(encoding="utf-8")
        rows = re.findall(r"<tr[^>]*>(.*?)</tr>", page.split('class="teammatches')[1], re.S)
        cells = [re.findall(r"<td[^>]*>(.*?)</td>", r, re.S) for r in rows[1:]]
        assert [re.sub(r"<[^>]+>", "", c[1]) for c in cells][-1] == word
        points = [float(re.sub(r"<[^>]+>", "", c[3])) for c in cells]
        assert points[-1] == 12 and round(sum(points), 2) == standing[bye].points
        index = _squash(_text((out / "index.html").read_text(encoding="utf-8")))
        assert _squash(f"{gone}{mark}") in index  # in the standings
        assert _squash(f"{bye}：{word}（12.00）" if lang == "zh" else f"{bye}: {word} (12.00)") in index
        team = _text((out / f"team-{numbers[gone]}.html").read_text(encoding="utf-8"))
        assert note in team and _squash(f"{gone}{mark}") in _squash(team)


# --- 2. a record with another finishing order disagrees --------------------------------


def _reported(engine: Engine) -> tuple[str, str, str]:
    """Round 1's table 1, board 1, open room reported by a phone with the order of its
    record's result read the other way (the same N–S result, another seat out first):
    (the record's text, its order, the order reported)."""
    _event(engine)
    events.pair_round(engine, CUP)
    events.assign_boards(engine, CUP, 1, seed=SEED)
    text = events.bot_records(engine, CUP, 1)[0]
    record = gdn.loads(text)[0]
    res = replay(record).result
    assert res is not None
    order = [s.name for s in res.finish_order]
    first, second = Seat[order[0]], Seat[order[1]]
    if second == first.partner:  # a double down: the partners the other way round
        other = [order[1], order[0]]
    elif Seat[order[2]] == first.partner:  # 1st and 3rd partners: they swap, +2 stays
        other = [order[2], order[1], order[0]]
    else:  # 1st and 4th partners: the 2nd and 3rd swap, +1 stays
        other = [order[0], order[2], order[1]]
    events.report_result(engine, CUP, 1, 1, 1, "open", Author("Li", "from the phone"),
                         finish=" ".join(other))
    canon = store.canonical_finish(" ".join(order))
    assert canon is not None
    return gdn.dumps(record), canon, " ".join(other)


def test_a_record_with_another_finishing_order_is_refused(engine: Engine) -> None:
    text, order, reported = _reported(engine)
    with pytest.raises(EventError) as info:
        events.import_texts(engine, CUP, [text])
    said = str(info.value)
    assert "finishing order" in said and order in said and reported in said, said
    assert "出完顺序" in info.value.text("zh")
    slot = events.result_slot(engine, CUP, 1, 1, 1, "open")
    (only,) = store.result_history(engine, slot.key)  # nothing changed
    assert (only.action, only.new.finish) == ("report", reported)
    # the store's own call refuses it alike
    with pytest.raises(StoreError, match="finishing order"):
        store.attach_record(engine, slot, text, Author("scorer", "typed in"))
    # a second phone with another order is refused too (it was "unchanged" before)
    with pytest.raises(EventError, match="finishing order"):
        events.report_result(engine, CUP, 1, 1, 1, "open", Author("Wang", "phone"),
                             finish=order)
    assert len(store.result_history(engine, slot.key)) == 1
    # the record that agrees in order backs the report, as ever
    closed = gdn.loads(events.bot_records(engine, CUP, 1)[0])[1]
    res = replay(closed).result
    assert res is not None
    events.report_result(engine, CUP, 1, 1, 1, "closed", Author("Li", "phone"),
                         finish=" ".join(s.name for s in res.finish_order))
    assert events.import_texts(engine, CUP, [gdn.dumps(closed)]).added == 1
    cslot = events.result_slot(engine, CUP, 1, 1, 1, "closed")
    assert [c.action for c in store.result_history(engine, cslot.key)] == ["report", "attach"]


def test_a_record_with_another_finishing_order_is_taken_as_a_correction(
    engine: Engine, migrated_url: str, tmp_path: Path
) -> None:
    text, order, reported = _reported(engine)
    path = tmp_path / "t1-open.gdn"
    path.write_text(text, encoding="utf-8")
    refused = run(migrated_url, "import", CUP, str(path))
    assert refused.exit_code == 1 and "finishing order" in refused.output
    fixed = ok(migrated_url, "import", CUP, str(path), "--correction", "--by", "TD Zhou",
               "--reason", "the phone swapped the first two")
    assert "1 corrected" in fixed
    slot = events.result_slot(engine, CUP, 1, 1, 1, "open")
    report, correction = store.result_history(engine, slot.key)
    assert correction.action == "correction" and correction.old == report.new
    assert (correction.by, correction.reason) == ("TD Zhou", "the phone swapped the first two")
    assert (correction.old.finish, correction.new.finish) == (reported, order)
    assert correction.new.record_id is not None
    (listed,) = events.list_corrections(engine, CUP)
    assert (listed["room"], listed["by"]) == ("open", "TD Zhou")
    # the history shows who went out first, before and after
    history = ok(migrated_url, "history", CUP, "--round", "1", "--table", "1", "--board", "1",
                 "--room", "open", lang="zh")
    assert "出完顺序" in history and "头游" in history
    # a phone's report with another order is a correction too, with who and why
    assert run(migrated_url, "result", CUP, "--round", "1", "--table", "1", "--board", "1",
               "--room", "open", "--finish", reported, "--by", "Li").exit_code == 1
    ok(migrated_url, "result", CUP, "--round", "1", "--table", "1", "--board", "1", "--room",
       "open", "--finish", reported, "--by", "TD Zhou", "--reason", "the record is wrong",
       "--correction")
    assert store.result_history(engine, slot.key)[-1].new.finish == reported


# --- 3. play-bots plays only the rooms with no result, writes -o only when imported -------


def _half_reported(engine: Engine) -> tuple[int, int]:
    """Round 1 with table 1, board 1, open room reported by a phone as the other side's
    win of what the bots would play there: (the N–S result reported, rooms in the round)."""
    _event(engine, boards=2)
    events.pair_round(engine, CUP)
    events.assign_boards(engine, CUP, 1, seed=SEED)
    bots = gdn.loads(events.bot_records(engine, CUP, 1)[0])[0]
    res = replay(bots).result
    assert res is not None
    ns = -(res.levels if res.winner.name == "NS" else -res.levels)
    events.report_result(engine, CUP, 1, 1, 1, "open", Author("Li", "phone"), ns_result=ns)
    return ns, 2 * 2 * 2  # tables, boards, rooms


def test_play_bots_finishes_a_round_the_tables_reported_in_part(
    engine: Engine, migrated_url: str, tmp_path: Path
) -> None:
    ns, rooms = _half_reported(engine)
    out = tmp_path / "round1-bots.gdn"
    said = ok(migrated_url, "play-bots", CUP, "--round", "1", "-o", str(out))
    assert f"{rooms - 1} records played and imported" in said
    played = gdn.loads(out.read_text(encoding="utf-8"))
    assert len(played) == rooms - 1  # every room but the one the table reported
    slot = events.result_slot(engine, CUP, 1, 1, 1, "open")
    (report,) = store.result_history(engine, slot.key)  # the table's result stays
    assert (report.action, report.new.ns_result) == ("report", ns)
    scored = events.score_event(engine, CUP, 1)  # the round is complete
    assert scored[0].results[0].open_ns == ns
    # again: nothing left to play, no file written
    again = ok(migrated_url, "play-bots", CUP, "--round", "1", "-o", str(tmp_path / "b.gdn"))
    assert "nothing for the bots to play" in again and not (tmp_path / "b.gdn").exists()
    assert "无牌可打" in ok(migrated_url, "play-bots", CUP, "--round", "1", lang="zh")


def test_play_bots_refused_writes_no_file_and_names_what_to_do(
    engine: Engine, migrated_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _half_reported(engine)
    # a result that comes in between the bots' read and their import: as if read empty
    import duplicate.events.bots as bots  # noqa: PLC0415

    monkeypatch.setattr(bots, "_current", lambda session, ids: {})
    folder = tmp_path / "out"
    folder.mkdir()
    out = folder / "round1-bots.gdn"
    r = run(migrated_url, "play-bots", CUP, "--round", "1", "-o", str(out))
    assert r.exit_code == 1
    assert "--correction" not in r.output and "play-bots' again" in r.output, r.output
    assert list(folder.iterdir()) == []  # no file, no leftover
    with pytest.raises(EventError):  # nothing of the round was imported
        events.score_event(engine, CUP, 1)
    zh = run(migrated_url, "play-bots", CUP, "--round", "1", "-o", str(out), lang="zh")
    assert zh.exit_code == 1 and "再运行" in zh.output and not out.exists()


# --- 4. a round beyond the event's rounds ----------------------------------------------


def test_a_round_the_event_never_has_is_named_as_such(engine: Engine, migrated_url: str) -> None:
    _event(engine)
    _play_round(engine)
    for args in (("standings", CUP, "--after", "9"), ("score", CUP, "--round", "9"),
                 ("boards", CUP, "9", "1"), ("matches", CUP, "--round", "9")):
        r = run(migrated_url, *args)
        assert r.exit_code == 1, args
        assert "has only 3 rounds: there is no round 9" in r.output, r.output
        assert "pair it first" not in r.output
        assert "只有3轮，没有第9轮" in run(migrated_url, *args, lang="zh").output
    # a round still to come is paired first
    assert "pair it first" in run(migrated_url, "score", CUP, "--round", "2").output


# --- 5. words -------------------------------------------------------------------------


def test_standings_columns_have_one_word_each() -> None:
    zh = {k: v["zh"] for k, v in catalogue().items() if "zh" in v}
    assert zh["cli.col.played"] == zh["report.col.played"] == "场次"
    assert zh["cli.col.decided_by"] == zh["report.col.decided_by"] == "排名依据"
    assert [k for k, v in zh.items() if "已赛" in v or "决胜依据" in v] == []
    glossary = (Path(__file__).resolve().parent.parent / "docs" / "GLOSSARY.md").read_text(
        encoding="utf-8")
    assert "| 场次 (never 已赛)" in glossary and "| 排名依据 (never 决胜依据)" in glossary
    assert "| 轮空 " in glossary and "| 退赛 |" in glossary


def test_a_conflicting_result_names_its_place_once(engine: Engine, migrated_url: str) -> None:
    _event(engine)
    events.pair_round(engine, CUP)
    events.assign_boards(engine, CUP, 1, seed=SEED)
    room = ("result", CUP, "--round", "1", "--table", "1", "--board", "1", "--room", "open")
    ok(migrated_url, *room, "--result", "NS +2", "--by", "Li")
    zh = run(migrated_url, *room, "--result", "EW +1", "--by", "Li", lang="zh").output.strip()
    assert zh == ("错误：第1轮第1桌第1副开室：已存的结果是南北升2级（报分），这次是东西升1级（报分）："
                  "替换它须按更正处理（由谁、为何）")
    en = run(migrated_url, *room, "--result", "EW +1", "--by", "Li").output.strip()
    assert en == ("Error: round 1, table 1, board 1, open room: the stored result is NS +2 "
                  "(reported), this one EW +1 (reported): replacing it is a correction (who, why)")


def test_report_rulings_line_has_no_stray_separator(engine: Engine, migrated_url: str,
                                                    tmp_path: Path) -> None:
    _event(engine)
    _play_round(engine)
    m = events.get_round(engine, CUP, 1).matches[0]
    now = next(b.open_ns for b in events.match_boards(engine, CUP, 1, m.table) if b.board == 1)
    # a correction changes the result (one that changes nothing is refused, not logged)
    events.correct_result(engine, CUP, 1, m.table, 1, "open", -1 if now == 1 else 1,
                          Correction(reason="revoke", by="Zhou"))
    for lang, place, colon in (("zh", f"第1轮 {m.team_x} – {m.team_y} 第1副开室", "："),
                               ("en", f"Round 1, {m.team_x} – {m.team_y}, board 1, open room",
                                ": ")):
        ok(migrated_url, "report", CUP, "--out", str(tmp_path / lang), "--lang", lang)
        page = (tmp_path / lang / "index.html").read_text(encoding="utf-8")
        rulings = page.split('<ul class="rulings">')[1].split("</ul>")[0]
        (line,) = re.findall(r"<li><a [^>]*>(.*?)</a>(.*?)</li>", rulings)
        assert line[0] == place and line[1].startswith(colon), line
        assert "、" not in line[0]


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)
