"""Property test of the table's reports (hypothesis): whatever West, North and the director
do to one board of one room, in any order, there is at most one live report, the store's
result is that of the last report confirmed or settled, and every refusal changes nothing."""

from __future__ import annotations

import itertools
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session
from test_hall_support import TEAMS

from duplicate import events, hall, models, store
from duplicate.db import make_engine
from duplicate.dealing import parse_seed_file, seed_file_bytes
from duplicate.hall import HallError

ORDERS = ("N S", "E W", "N E S", "E S N", "W N E", "S E N")
ACTION = st.one_of(
    st.tuples(st.just("report"), st.sampled_from(ORDERS), st.booleans()),
    st.tuples(st.just("confirm")),
    st.tuples(st.just("dispute"), st.sampled_from(("wrong", "not so"))),
    st.tuples(st.just("settle"), st.sampled_from((-3, -1, 2))),
)
_names = itertools.count(1)


@pytest.fixture(scope="module")
def engine(_sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    path = tmp_path_factory.mktemp("hall_props") / "hall.sqlite"
    shutil.copyfile(_sqlite_template, path)
    e = make_engine(f"sqlite:///{path}")
    yield e
    e.dispose()


def _event(e: Engine) -> tuple[str, hall.Grant, hall.Grant]:
    n = next(_names)
    name = f"Props {n}"
    events.create_event(e, name, seed="5eed", fmt="rr", rounds=3, boards_per_round=1)
    for team, players in TEAMS:
        events.add_team(e, name, team, players)
    events.pair_round(e, name)
    events.assign_boards(
        e, name, 1, seed=parse_seed_file(seed_file_bytes(bytes([n % 256, n // 256] + [7] * 30)))
    )
    card = hall.issue_tokens(e, name, 1, "director")[0]
    return name, hall.grant_for(e, card.report_token), hall.grant_for(e, card.confirm_token)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(ACTION, min_size=1, max_size=8))
def test_reports_keep_their_invariants(engine: Engine, actions: list[tuple[object, ...]]) -> None:
    e = engine
    name, west, north = _event(e)
    live: hall.Report | None = None
    stored: int | None = None
    for action in actions:
        before = (live, stored)
        try:
            if action[0] == "report":
                finish, corr = str(action[1]), bool(action[2])
                rep, created = hall.west_report(
                    e, west, 1, finish=finish, correction="fix" if corr else None
                )
                assert created == (live is None or live.finish != rep.finish)
                if not created:
                    assert live is not None and rep.id == live.id
                else:  # a new report: replaced the live one only as a correction
                    ns = store.result_of_finish(finish)
                    assert live is None or (corr and live.state != "settled")
                    assert corr or stored is None or stored == ns
                live = rep
            elif action[0] == "confirm" and live is not None:
                rep = hall.north_confirm(e, north, 1, live.id)
                assert live.state in ("reported", "confirmed")
                live, stored = rep, rep.ns_result
            elif action[0] == "dispute" and live is not None:
                rep = hall.north_dispute(e, north, 1, live.id, str(action[1]))
                assert live.state == "reported" or live.dispute_note == action[1]
                live = rep
            elif action[0] == "settle" and live is not None:
                ns = int(action[1])  # type: ignore[call-overload]
                rep = hall.settle_dispute(e, name, live.id, "director", "heard", ns_result=ns)
                assert live.state == "disputed"
                live, stored = rep, ns
        except HallError as exc:
            assert exc.kind in ("conflict", "invalid"), exc
            assert (live, stored) == before
        # the database agrees with the model
        with Session(e) as s:
            h, r = models.HallReport, models.EventRound
            rows = list(
                s.scalars(
                    select(h)
                    .join(r, r.id == h.round_id)
                    .join(models.Event, models.Event.id == r.event_id)
                    .where(models.Event.name == name, h.live.is_(True))
                )
            )
        assert [x.id for x in rows] == ([live.id] if live is not None else [])
        if live is not None:
            assert rows[0].state == live.state
        now = [c.state.ns_result for c in store.current_results(e, event=name)]
        assert now == ([stored] if stored is not None else [])
