"""Rows for every table of every migration revision, written as that revision's code wrote
them (plain SQL on its schema: no model of today's), and a snapshot of a database to
compare. For tests/test_migrations_data.py and tests/test_migrations_kill.py.

:func:`fill` adds the rows of the tables revision ``rev`` adds (or the columns it adds),
valid at ``rev`` and every later revision of the chain; :func:`build` migrates an empty
database step by step to ``rev``, filling each revision on its way, as a database used
since 0001 would be. The records are real plays (``duplicate.simulate``) stored in the
form of the code of the time: revision 0002's imports stored the replayed record as the
file gave it, without a computed ``Finish`` and ``Result``.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, inspect, text

from duplicate import db, gdn
from duplicate.boards import BoardSet, _board_row, generate_set
from duplicate.dealing import parse_seed_file, seed_file_bytes
from duplicate.gdn import DealRecord
from duplicate.records import canonical_form
from duplicate.replay import finish_text, replay
from duplicate.simulate import simulate_match
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Side

SEED = parse_seed_file(seed_file_bytes(bytes(range(32))), "old.seed")
#: Revision 0004's text of the competition rules, and one variant.
COMPETITION_JSON = (
    '{"a_fail_limit": 0, "bomb_max": 10, "double_down_plus4": false, "jiefeng_next": false, '
    '"joker_pair_in_full_house": true, "return_lower_at_ten": false, "return_max_rank": 8}'
)
PLUS4_JSON = COMPETITION_JSON.replace('"double_down_plus4": false', '"double_down_plus4": true')


def revisions() -> list[str]:
    """Every revision id, oldest first."""
    script = ScriptDirectory(db.migrations_dir())
    return [r.revision for r in reversed(list(script.walk_revisions()))]


@functools.cache
def board_set() -> BoardSet:
    return generate_set(SEED, 2, "old set")


@functools.cache
def played(key: bytes = b"k" * 32) -> tuple[DealRecord, ...]:
    """Boards 1-2 in an open and a closed room, as a file gives them: tags of a club
    night, no ``Finish`` and ``Result`` (the replay computes them)."""
    out = []
    for rec in simulate_match(board_set(), "heuristic", "random", key):
        tags = {**rec.tags, "Event": "Club night", "Round": "1"}
        out.append(dataclasses.replace(rec, tags=tags, finish=None, result=None))
    return tuple(out)


#: Whether :func:`fill` stores records in today's canonical form (else in revision 0002's).
CANONICAL = {"today": True}
PLUS4 = Ruleset(double_down_plus4=True)


def old_form(rec: DealRecord, rules: Ruleset = COMPETITION) -> dict[str, Any]:
    """What an import stored of ``rec``: in revision 0002's form, the replayed record as
    given; in today's (:data:`CANONICAL`), what ``duplicate.records`` stores."""
    res = replay(rec, rules)
    assert res.result is not None and res.error is None
    body = gdn.dumps(res.record)
    if CANONICAL["today"]:
        form = canonical_form(body, rules)
        assert form is not None
        body = form.text
    return {
        "gdn": body,
        "content_hash": hashlib.sha256(body.encode("utf-8")).hexdigest(),
        "finish": finish_text(res.result),
        "result": res.result.result_tag,
        "ns_score": res.result.score(Side.NS),
        "level": rec.level,
        "leader": int(rec.leader),
        "plays": len(rec.plays or ()),
    }


def _insert(conn: Connection, table: str, **values: Any) -> None:
    names = ", ".join(values)
    conn.execute(
        text(f"INSERT INTO {table} ({names}) VALUES ({', '.join(':' + n for n in values)})"),
        values,
    )


T0 = datetime(2026, 11, 29, 12, 0, 0)


def _record_row(
    rec: DealRecord, version: int, rules: Ruleset = COMPETITION, **extra: Any
) -> dict[str, Any]:
    form = old_form(rec, rules)
    t = rec.tags
    row = {
        "deal_id": t["DealId"], "event": t["Event"], "round": t["Round"], "room": t["Room"],
        "version": version, "board_id": int(t["Board"]), "board_number": t["Board"],
        "north": t["North"], "east": t["East"], "south": t["South"], "west": t["West"],
        **form, "source": f"club.gdn:{version}", "created_at": T0,
        "correction_reason": None if version == 1 else "typo",
        "corrected_by": None if version == 1 else "Zhou",
    }  # fmt: skip
    row.update(extra)
    return row


def fill(conn: Connection, rev: str) -> None:  # noqa: C901 - one branch a revision
    """The rows revision ``rev`` adds, as its code wrote them."""
    if rev == "0001":
        bs = board_set()
        info = bs.info
        _insert(conn, "board_sets", id=1, name=info.name, generator=info.generator,
                commitment=info.commitment, level_schedule=info.level_schedule,
                delayed_value=None, board_count=info.board_count, created_at=T0)  # fmt: skip
        for board in bs.boards:
            _insert(conn, "boards", **_board_row(1, board))
    elif rev == "0002":
        recs = played()
        for rec in recs:
            _insert(conn, "deal_records", **_record_row(rec, 1))
        # a correction: the open room of board 1 played otherwise (another bot key)
        other = played(b"o" * 32)[0]
        _insert(conn, "deal_records", **_record_row(other, 2))
    elif rev == "0003":
        _insert(conn, "events", id=1, name="Old Cup", seed="ab", format="rr",
                scale='{"name": "wdl", "win": 2.0, "draw": 1.0, "loss": 0.0}',
                unfinished_rule="average", boards_per_round=2, rounds=1,
                bye_points_cents=200, bye_won=True, created_at=T0)  # fmt: skip
        for team in (1, 2):
            _insert(conn, "event_teams", id=team, event_id=1, number=team, name=f"T{team}")
            for pos in range(1, 5):
                pid = team * 10 + pos
                _insert(conn, "event_players", id=pid, event_id=1, team_id=team,
                        position=pos, name=f"P{pid}")  # fmt: skip
            for pair in (1, 2):
                a = team * 10 + 2 * pair - 1
                _insert(conn, "event_pairs", id=team * 10 + pair, team_id=team, number=pair,
                        player_1_id=a, player_2_id=a + 1)  # fmt: skip
        _insert(conn, "event_rounds", id=1, event_id=1, number=1, board_set_id=1,
                first_board=1)  # fmt: skip
        _insert(conn, "event_matches", id=1, round_id=1, table_no=1, team_x_id=1,
                team_y_id=2, open_ns_pair_id=11, open_ew_pair_id=21, closed_ns_pair_id=22,
                closed_ew_pair_id=12)  # fmt: skip
        opened = old_form(played()[0])
        _insert(conn, "event_results", match_id=1, board=1, room="open", status="played",
                ns_result=opened["ns_score"], reason=None, record_hash=opened["content_hash"],
                record_text=opened["gdn"])  # fmt: skip
        _insert(conn, "event_results", match_id=1, board=1, room="closed", status="unfinished",
                ns_result=None, reason="time", record_hash=None, record_text=None)  # fmt: skip
        _insert(conn, "event_results", match_id=1, board=2, room="open", status="played",
                ns_result=2, reason="director's ruling", record_hash=None,
                record_text=None)  # fmt: skip
        _insert(conn, "event_corrections", event_id=1, match_id=1, board=2, room="open",
                made_by="TD", reason="revoke", made_at=T0, before="NS +1",
                after="NS +2 (director's ruling)")  # fmt: skip
    elif rev == "0004":
        _insert(conn, "events", id=2, name="Folk Cup", seed="cd", format="swiss",
                scale='{"name": "wdl", "win": 2.0, "draw": 1.0, "loss": 0.0}',
                unfinished_rule="not_scored", boards_per_round=1, rounds=3,
                bye_points_cents=100, bye_won=False, created_at=T0, rules=PLUS4_JSON)  # fmt: skip
        rec = dataclasses.replace(played()[3], tags={**played()[3].tags, "Room": "Lounge"})
        _insert(conn, "deal_records", **_record_row(rec, 1, PLUS4), rules=PLUS4_JSON)
    elif rev == "0005":
        _insert(conn, "room_results", id=100, deal_id=played()[2].tags["DealId"], board_id=2,
                board="2", event="Club night", round="2", table_key="", room="Open",
                rules=COMPETITION_JSON, match_id=None, created_at=T0)  # fmt: skip
        _insert(conn, "result_changes", result_id=100, action="report", made_by="West",
                made_at=T0, reason="reported at the table", status="played", ns_result=2,
                finish="N S E W")  # fmt: skip
    elif rev == "0006":
        _insert(conn, "event_releases", round_id=1, board=2, made_by="TD",
                reason="table 2 slow", made_at=T0)  # fmt: skip
        _insert(conn, "event_withdrawals", team_id=2, after_round=1, made_by="TD",
                reason="went home", made_at=T0)  # fmt: skip
        _insert(conn, "admin_log", action="rename", event="Old Cup", board_set=None,
                detail="team T1 was Team 1", made_by="TD", reason="typo",
                made_at=T0)  # fmt: skip
    elif rev == "0007":
        conn.execute(text("UPDATE events SET lang = 'zh' WHERE id = 1"))
    elif rev == "0008":
        _insert(conn, "hall_rounds", round_id=1, started_at=T0, minutes=60,
                warning_minutes=10, correction_minutes=15, started_by="TD")  # fmt: skip
        _insert(conn, "hall_checkins", round_id=1, team_id=1, checked_in_at=T0, made_by="TD")
        _insert(conn, "hall_tokens", round_id=1, table_no=1, room="open", role="report",
                token_hash="a" * 64, issued_at=T0, void=False)  # fmt: skip
        _insert(conn, "hall_reports", round_id=1, table_no=1, room="closed", board=2,
                finish="N S", ns_result=3, state="reported", live=True, rev=1,
                reported_by="table 1 closed West", reported_at=T0)  # fmt: skip
        _insert(conn, "hall_rulings", round_id=1, table_no=1, category="warning",
                effect="none", made_by="TD", reason="slow play", made_at=T0)  # fmt: skip
    elif rev == "0014":
        conn.execute(text("UPDATE events SET time_zone = 'Asia/Shanghai', director_minutes = 30"
                          " WHERE id = 1"))
    elif rev == "0015":
        conn.execute(text("UPDATE events SET tiebreaks = 'friendly' WHERE id = 1"))
    elif rev == "0016":
        _insert(conn, "capture_boards", id=1, round_id=1, table_no=1, room="open", board=1,
                state="ended", started_by="table 1 open recorder", started_at=T0,
                ended_at=T0)  # fmt: skip
        _insert(conn, "capture_actions", capture_id=1, seq=1, seat="N", cards="S3",
                ctype="Single", rank="3", live=True, entered_by="table 1 open recorder",
                entered_at=T0)  # fmt: skip
    elif rev == "0018":
        _insert(conn, "analyses", key="a" * 64, result="{}", computed_by="host 1",
                computed_at=T0)  # fmt: skip
        _insert(conn, "analysis_events", event_id=1, budget="{}", requested_at=T0)
        _insert(conn, "analysis_requests", event_id=1, key="a" * 64, requested_at=T0)
    elif rev == "0019":
        conn.execute(text("UPDATE events SET live_mode = 'delayed', live_delay = 10, "
                          "watch_hash = '" + "e" * 64 + "' WHERE id = 1"))
        _insert(conn, "capture_corrections", capture_id=1, kind="play", seq=1,
                before="N S3", after="N S4", made_by="TD", reason="misentered",
                made_at=T0)  # fmt: skip
        _insert(conn, "capture_analyses", round_id=1, table_no=1, board=1,
                records_hash="f" * 64, body="{}", made_at=T0)  # fmt: skip
    elif rev == "0012":
        _insert(conn, "desk_sessions", id_hash="b" * 64, csrf="c" * 64, key_tag="d" * 64,
                created_at=T0, expires_at=T0)  # fmt: skip
        _insert(conn, "desk_login_failures", address="127.0.0.1", failures=3, last_at=T0,
                blocked_until=None)  # fmt: skip


def build(engine: Engine, rev: str, *, today: bool = True) -> None:
    """Migrate the empty database of ``engine`` to ``rev``, filling each revision; records
    in today's canonical form, or (``today=False``) in revision 0002's."""
    CANONICAL["today"] = today
    for step in revisions():
        db.upgrade(engine, step)
        with engine.begin() as conn:
            fill(conn, step)
        if step == rev:
            return
    raise AssertionError(f"no revision {rev}")


def _value(v: Any) -> Any:
    if isinstance(v, datetime):  # SQLite gives no time zone back; PostgreSQL gives one
        return v.replace(tzinfo=None).isoformat() if v.tzinfo is None else v.isoformat()
    return v


#: Tables that migration 0005 moves into the store and back (their rows get new ids,
#: which nothing refers to).
RENUMBERED = frozenset({"deal_records", "event_results", "event_corrections"})


def snapshot(engine: Engine, skip: Sequence[str] = ()) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table (the schema's revision included), sorted, for ``==``;
    without the id of a :data:`RENUMBERED` table."""
    out: dict[str, list[tuple[Any, ...]]] = {}
    with engine.connect() as conn:
        for table in sorted(inspect(conn).get_table_names()):
            if table in skip:
                continue
            result = conn.execute(text(f'SELECT * FROM "{table}"'))
            names = list(result.keys())
            rows = [dict(zip(names, r, strict=True)) for r in result]
            drop = {"id"} if table in RENUMBERED else set()
            out[table] = sorted(
                (tuple((k, _value(v)) for k, v in sorted(r.items()) if k not in drop) for r in rows),
                key=repr,
            )
    return out


def counts(engine: Engine) -> dict[str, int]:
    """The number of rows of every table."""
    with engine.connect() as conn:
        return {
            t: int(conn.execute(text(f'SELECT COUNT(*) FROM "{t}"')).scalar_one())
            for t in inspect(conn).get_table_names()
        }
