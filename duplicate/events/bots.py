"""The self-play bots playing an event's rounds (``event play-bots``)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from sqlalchemy import Engine

from duplicate import models
from duplicate.bots import (
    MAX_ERROR_RATE,
    POLICIES,
    MixedPlayer,
    Player,
    make_player,
    mixed_error_rate,
)
from duplicate.db import check_schema, session_scope
from duplicate.events.base import (
    EventError,
    ImportSummary,
    _event_row,
    _matches,
    _round_board_set,
    _round_row,
    _rules,
)
from duplicate.events.field import _load_field, _match_info
from duplicate.events.imports import import_texts
from duplicate.events.rounds import get_round
from duplicate.gdn import format_record
from duplicate.i18n import Phrase, engine_phrase, phrase
from duplicate.simulate import play_deal, player_seed
from engine.errors import GuandanError
from engine.seat import Seat


def _match_seed(ev: models.Event, round_no: int, table: int) -> bytes:
    """The bots' seed for a match: from the event seed, the round and the table."""
    return hashlib.sha256(f"guandan-event/bots|{ev.seed}|{round_no}|{table}".encode()).digest()


#: Bot policies for ``play-bots``: the one list of ``duplicate.bots`` (``mixed`` first, the
#: default); ``search`` also takes a budget, ``search:PLAYOUTS``.
BOT_POLICIES = ("mixed", *(p for p in POLICIES if p != "mixed"))

__all__ = ["BOT_POLICIES", "MAX_ERROR_RATE", "MixedPlayer", "bot_records", "play_bots",
           "team_error_rate"]


def team_error_rate(seed: str, team: str) -> float:
    """A ``mixed`` team's error rate, drawn from the event seed: 0 to MAX_ERROR_RATE."""
    return mixed_error_rate(f"guandan-event/skill|{seed}|{team}")


def _bot(policy: str, seed: bytes, event_seed: str, team: str) -> Player:
    if policy == "mixed":
        return make_player(policy, seed, error_rate=team_error_rate(event_seed, team))
    try:
        return make_player(policy, seed)
    except GuandanError as exc:
        said = getattr(exc, "phrase", None)
        why = said if isinstance(said, Phrase) else engine_phrase(exc)
        raise EventError(phrase("events.err.or_mixed", error=why)) from None


def bot_records(
    engine: Engine,
    event: str,
    round_no: int,
    x_policy: str = "mixed",
    y_policy: str = "mixed",
) -> list[str]:
    """Play every match of a round with the self-play bots (``simulate.play_deal``) under
    the event's rules, with the seating's player names in the records; returns one ``.gdn`` text per match (open
    room before closed, board by board). Nothing is stored.

    ``x_policy``/``y_policy`` are the policies of each match's teams X and Y: ``mixed``
    (:class:`MixedPlayer`, each team its own error rate), ``heuristic``, ``random``,
    ``search`` or ``search:PLAYOUTS`` (``duplicate.search``).
    """
    for policy in (x_policy, y_policy):
        if policy not in BOT_POLICIES and policy.partition(":")[0] != "search":
            raise EventError(phrase("events.err.bot_policy", policy=repr(policy),
                                    names=", ".join(BOT_POLICIES)))
        if policy != "mixed":
            _bot(policy, b"check", "", "")  # a bad search budget is refused before any play
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        f = _load_field(session, ev)
        rnd = _round_row(session, ev, round_no)
        boards = _round_board_set(session, ev, rnd)
        plans = [
            (_match_info(f, round_no, m), _match_seed(ev, round_no, m.table_no))
            for m in _matches(session, rnd)
        ]
        event_name, event_seed, rules = ev.name, ev.seed, _rules(ev)
    # team X holds open N–S and closed E–W (RULES.md §11)
    x_seats = {"Open": (True, False, True, False), "Closed": (False, True, False, True)}
    texts = []
    for info, seed in plans:
        records = []
        for number in sorted(boards):
            board = boards[number]
            for room, players in (("Open", info.open_players), ("Closed", info.closed_players)):
                bots = [
                    _bot(
                        x_policy if is_x else y_policy,
                        player_seed(seed, board, room, seat),
                        event_seed,
                        info.team_x if is_x else info.team_y,
                    )
                    for seat, is_x in zip(Seat, x_seats[room], strict=True)
                ]
                tags = {
                    "Event": event_name,
                    "Round": str(round_no),
                    "Room": room,
                    "North": players[0],
                    "East": players[1],
                    "South": players[2],
                    "West": players[3],
                }
                records.append(format_record(play_deal(board, bots, rules, tags=tags)))
        texts.append("\n\n".join(records) + "\n")
    return texts


def play_bots(
    engine: Engine,
    event: str,
    round_no: int,
    x_policy: str = "mixed",
    y_policy: str = "mixed",
    out: str | os.PathLike[str] | None = None,
) -> ImportSummary:
    """Play a round's matches with the bots and import the records (one transaction per
    match, named ``bots round N table T`` in errors); with ``out``, also write them all to
    that ``.gdn`` file."""
    texts = bot_records(engine, event, round_no, x_policy, y_policy)
    if out is not None:
        Path(out).write_text("\n".join(texts), encoding="utf-8")
    tables = [m.table for m in get_round(engine, event, round_no).matches]
    names = [f"bots round {round_no} table {t}" for t in tables]
    return import_texts(engine, event, texts, round_no=round_no, names=names)
