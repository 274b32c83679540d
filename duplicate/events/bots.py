"""The self-play bots playing an event's rounds (``event play-bots``)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from sqlalchemy import Engine

from duplicate import models
from duplicate.bots import MAX_ERROR_RATE, MixedPlayer, Player, mixed_error_rate
from duplicate.db import check_schema, session_scope
from duplicate.events.base import (
    ROOMS,
    EventError,
    ImportSummary,
    _current,
    _event_row,
    _matches,
    _round_board_set,
    _round_row,
    _rules,
)
from duplicate.events.field import _load_field, _match_info, event_rules
from duplicate.events.imports import import_prepared, prepare_text
from duplicate.events.scores import _adjustments, _excused
from duplicate.gdn import GdnError, format_record
from duplicate.i18n import Phrase, engine_phrase, phrase
from duplicate.policies import POLICIES, make_player
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
    return [text for _, text in _bot_plays(engine, event, round_no, x_policy, y_policy, False)]


def _bot_plays(
    engine: Engine,
    event: str,
    round_no: int,
    x_policy: str,
    y_policy: str,
    missing_only: bool,
) -> list[tuple[int, str]]:
    """(table, ``.gdn`` text) of the round's matches played by the bots (see
    :func:`bot_records`); with ``missing_only``, only the rooms that have no result yet
    (nothing stored, not even an unfinished mark) and need one (not excused by a hall
    ruling: a conceded board, a forfeited match), and only the matches with such a room.
    Each room's bots are seeded by its board, room and seat, so a room plays the same
    whichever others are played."""
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
        matches = _matches(session, rnd)
        stored = _current(session, [m.id for m in matches]) if missing_only else {}
        conceded, forfeits = _adjustments(session, rnd, matches) if missing_only else ({}, {})
        plans = [
            (
                _match_info(f, round_no, m),
                _match_seed(ev, round_no, m.table_no),
                {  # the rooms the bots leave alone: a result is in, or none is needed
                    (b, room)
                    for b in boards
                    for room in ROOMS
                    if (m.id, b, room) in stored or _excused(m.id, b, conceded, forfeits)
                },
            )
            for m in matches
        ]
        event_name, event_seed, rules = ev.name, ev.seed, _rules(ev)
    # team X holds open N–S and closed E–W (RULES.md §11)
    x_seats = {"Open": (True, False, True, False), "Closed": (False, True, False, True)}
    texts = []
    for info, seed, skip in plans:
        records = []
        for number in sorted(boards):
            board = boards[number]
            for room, players in (("Open", info.open_players), ("Closed", info.closed_players)):
                if (number, room.lower()) in skip:
                    continue
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
        if records:
            texts.append((info.table, "\n\n".join(records) + "\n"))
    return texts


def play_bots(
    engine: Engine,
    event: str,
    round_no: int,
    x_policy: str = "mixed",
    y_policy: str = "mixed",
    out: str | os.PathLike[str] | None = None,
) -> ImportSummary:
    """Play the rooms of a round that have no result yet with the bots and import their
    records, all in one transaction (named ``bots round N table T`` in errors): what a
    table reported, or a director marked or ruled, stays; a round some tables have
    reported in part is finished by the bots. With ``out``, the records are also written
    to that ``.gdn`` file, once they are imported (a refused import leaves no file). A
    round with every room in plays nothing (``records`` 0, no file written)."""
    plays = _bot_plays(engine, event, round_no, x_policy, y_policy, True)
    if not plays:
        return ImportSummary()
    texts = [text for _, text in plays]
    names = [f"bots round {round_no} table {t}" for t, _ in plays]
    rules = event_rules(engine, event)
    try:
        batch = [rec for text, name in zip(texts, names, strict=True)
                 for rec in prepare_text(text, name, rules)]
    except GdnError as exc:  # pragma: no cover - the bots' records always read
        raise EventError(exc.phrase or str(exc)) from None
    staged = _stage(out, "\n".join(texts)) if out is not None else None
    try:
        summary = import_prepared(engine, event, [batch], round_no=round_no,
                                  hint=phrase("events.hint.bots"))
    except BaseException:
        if staged is not None:
            staged.unlink(missing_ok=True)
        raise
    if staged is not None and out is not None:
        os.replace(staged, out)
    return summary


def _stage(out: str | os.PathLike[str], text: str) -> Path:
    """``text`` written beside ``out`` under a temporary name (so that a folder that
    cannot be written is known before the import, and ``out`` appears whole or not at
    all, :func:`os.replace` once the records are stored), with the mode a new file gets."""
    target = Path(out)
    staged = target.with_name(f".{target.name}.{os.getpid()}.part")
    fd = os.open(staged, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
    except BaseException:
        staged.unlink(missing_ok=True)
        raise
    return staged
