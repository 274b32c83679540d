"""Replaying a deal record play by play, proving every play legal, checking the result.

:func:`state_actions` steps through a record as pokerkit's ``HandHistory.state_actions``
does: it yields, for every line of the play list, the position the seat faced and the
action the engine made of the line. :func:`replay` runs it to the end and checks what the
record claims: each play is that seat's turn, its cards are held, it is a reading of its
cards (the declared one, or RULES.md §5's when none is declared), it beats the play to beat
(§4); and at the end the record's ``Finish`` and ``Result`` agree with the replay (§6–7).
The first point of failure is reported as a :class:`ReplayError` with file, line, seat,
reason and the engine's one-line position; nothing after it counts. Its :class:`Failure`
says what kind it is: a record or board that cannot be read, or a play refused or a tag
that disagrees, the two a rule variant can cause.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple

from duplicate.dealing import deal_id
from duplicate.gdn import DealRecord, GdnError, Play, iter_records
from duplicate.i18n import Named, Phrase, engine_phrase, phrase
from duplicate.shapes import HIDDEN, Shaped
from engine.bulk import replay_log
from engine.combo import Combo
from engine.deal import Action, Deal, DealResult
from engine.errors import GuandanError
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Seat

__all__ = [
    "DealReport",
    "Failure",
    "Position",
    "ReplayError",
    "ReplayResult",
    "Step",
    "quick_replay",
    "check_text",
    "finish_agrees",
    "finish_text",
    "replay",
    "report",
    "start",
    "state_actions",
]

_POSITION_MARK = " [position "


class Failure(StrEnum):
    """What kind of failure a deal's replay met: ``read`` and ``board`` no rule variant
    can cause; ``play`` and ``tags`` one can (a record played under 接风 to the 下家 fails
    with a play out of turn, a ``double_down_plus4`` double down with its ``Result``)."""

    #: the file or the record cannot be read (not UTF-8, a malformed tag, bad hands)
    READ = "read"
    #: the engine refuses the record's board (hands, level, leader), or its ``DealId``
    BOARD = "board"
    #: the engine refuses a play of the play list (§4–6), or a play after the deal ended
    PLAY = "play"
    #: the record's ``Finish`` or ``Result`` does not say what the replay found (§6–7)
    TAGS = "tags"

    @property
    def rules_may_cause(self) -> bool:
        """Whether the record may replay under other rules (``guandan replay --variant``)."""
        return self in (Failure.PLAY, Failure.TAGS)


class ReplayError(GdnError):
    """A record whose board, plays or result do not replay: ``kind`` says which
    (:class:`Failure`); ``position`` is the engine's one-line picture of the deal where it
    failed (empty when the failure is not tied to one)."""

    def __init__(
        self,
        reason: str | Phrase,
        *,
        kind: Failure,
        file: str | None = None,
        line: int | None = None,
        seat: Seat | None = None,
        position: str = "",
    ) -> None:
        self.kind = kind
        self.position = position
        super().__init__(reason, file=file, line=line, seat=seat)

    def _text(self) -> str:
        text = super()._text()
        return f"{text}{_POSITION_MARK}{self.position}]" if self.position else text


class Position(NamedTuple):
    """The state of a deal before an action: what the seat to act saw.

    ``ply`` counts the actions made before it (0 for the first); ``hands`` are N, E, S, W;
    ``to_beat`` and ``last_player`` are ``None`` when ``turn`` leads; ``finished`` lists the
    seats already out.
    """

    ply: int
    hands: tuple[int, ...]
    turn: Seat
    to_beat: Combo | None
    last_player: Seat | None
    finished: tuple[Seat, ...]


class Step(NamedTuple):
    """One step of a replay: the position, and the action the record's play made of it."""

    position: Position
    action: Action


@dataclass(slots=True)
class ReplayResult:
    """What a replay found.

    Attributes:
        record: the record, its plays completed with the type and rank the engine read
            (ready for :func:`duplicate.gdn.dumps`); the input record when replay failed.
        error: the first point of failure, or ``None`` when the record replays cleanly.
        actions: the actions made before the end or the failure.
        result: the computed result; ``None`` for a hand record, an unfinished deal or a
            failure before the end.
    """

    record: DealRecord
    error: GdnError | None = None
    actions: list[Action] = dataclasses.field(default_factory=list)
    result: DealResult | None = None

    @property
    def ok(self) -> bool:
        """True when the record read and replayed cleanly and its tags agree with it."""
        return self.error is None

    @property
    def finished(self) -> bool:
        """True when the play list ran to the end of the deal (§6)."""
        return self.result is not None

    @property
    def failure(self) -> Failure | None:
        """The kind of :attr:`error` (``None`` without one): a :class:`ReplayError` says
        its own; any other error is the record's, found reading it."""
        if self.error is None:
            return None
        return self.error.kind if isinstance(self.error, ReplayError) else Failure.READ

    def raise_for_error(self) -> ReplayResult:
        """Raise :attr:`error` if there is one; return ``self`` otherwise."""
        if self.error is not None:
            raise self.error
        return self


def _fail(
    record: DealRecord,
    error: str | Phrase | GuandanError,
    *,
    kind: Failure,
    line: int | None,
    seat: Seat | None,
    deal: Deal | None,
) -> ReplayError:
    """A :class:`ReplayError` from an engine message or error, its ``[position …]`` split
    off; an engine error is worded in the reader's language (:func:`engine_phrase`)."""
    reason = str(error)
    position = ""
    cut = reason.find(_POSITION_MARK)
    if cut >= 0 and reason.endswith("]"):
        position = reason[cut + len(_POSITION_MARK) : -1]
        reason = reason[:cut]
    elif deal is not None:
        position = deal.position()
    worded: str | Phrase = reason
    if isinstance(error, Phrase):
        worded = error
    elif isinstance(error, GuandanError):
        worded = engine_phrase(error)
    if isinstance(error, GuandanError) and not isinstance(worded, str) and str(worded) != reason:
        worded = reason  # the catalogue's English differs from the engine's: keep the engine's
    return ReplayError(worded, kind=kind, file=record.file, line=line, seat=seat,
                       position=position)


def start(record: DealRecord, rules: Ruleset = COMPETITION) -> Deal:
    """The engine's :class:`Deal` at the start of ``record`` (hands, level, leader).

    Raises the record's first read error, or :class:`ReplayError` when the engine refuses
    the board.
    """
    if record.errors:
        raise record.errors[0]
    line = record.lines.get("Deal", record.line)
    try:
        deal = Deal(record.hands, record.level, record.leader, rules)
    except GuandanError as e:
        raise _fail(record, e, kind=Failure.BOARD, line=line, seat=None, deal=None) from None
    stated = record.tags.get("DealId")
    if stated is not None and stated.strip() not in ("", "?"):
        actual = deal_id(record.hands)
        if stated.strip().lower() != actual:
            raise ReplayError(
                phrase("gdn.replay.deal_id", stated=Named(stated), actual=actual),
                kind=Failure.BOARD,
                file=record.file,
                line=record.lines.get("DealId", line),
            )
    return deal


def state_actions(record: DealRecord, rules: Ruleset = COMPETITION) -> Iterator[Step]:
    """Yield each :class:`Step` of ``record``'s play list in order.

    Raises :class:`ReplayError` at the first play the engine refuses (out of turn, cards not
    held, not a reading, not beating the play to beat, after the end of the deal).
    """
    deal = start(record, rules)
    yield from _steps(record, deal)


def _steps(record: DealRecord, deal: Deal) -> Iterator[Step]:
    for i, play in enumerate(record.plays or ()):
        turn = deal.turn
        if turn is None:
            raise _after_end(record, play, deal)
        position = Position(
            i, deal.hands, turn, deal.to_beat, deal.last_player, tuple(deal.finish_order)
        )
        yield Step(position, _act(record, deal, play))


def _act(record: DealRecord, deal: Deal, play: Play) -> Action:
    """Make ``play`` in ``deal``: the engine checks turn, cards held, reading and beating."""
    try:
        if play.is_pass:
            return deal.pass_(play.seat)
        return deal.play_cards(play.cards, play.type, play.rank, play.seat)
    except GuandanError as e:
        if deal.turn is None:
            raise _after_end(record, play, deal) from None
        raise _fail(record, e, kind=Failure.PLAY, line=play.line, seat=play.seat,
                    deal=deal) from None


def _after_end(record: DealRecord, play: Play, deal: Deal) -> ReplayError:
    return _fail(
        record,
        phrase("gdn.replay.after_end"),
        kind=Failure.PLAY,
        line=play.line,
        seat=play.seat,
        deal=deal,
    )


def replay(record: DealRecord, rules: Ruleset = COMPETITION) -> ReplayResult:
    """Replay ``record`` and check it; never raises for a bad record (see ``.error``).

    A hand record (no ``[Play]``) only has its board checked. A play list that stops
    before the deal ends is accepted as an unfinished deal unless the record states a
    ``Finish`` or ``Result``.
    """
    out = ReplayResult(record)
    try:
        deal = start(record, rules)
        actions = out.actions
        for play in record.plays or ():  # _steps without the positions: the fast path
            actions.append(_act(record, deal, play))
    except GdnError as e:
        out.error = e
        return out
    if record.plays is None:
        return out
    if deal.is_over:
        out.result = deal.result()
    try:
        _check_tags(record, deal, out.result)
    except ReplayError as e:
        out.error = e
        return out
    out.record = _completed(record, out.actions)
    return out


def quick_replay(record: DealRecord, rules: Ruleset = COMPETITION) -> ReplayResult:
    """:func:`replay` by the fastest road: the same ``record``, ``result`` and ``error``,
    with ``actions`` left empty (callers that store or score a record need no more).

    A record whose every play names its type and rank is replayed by
    :func:`engine.bulk.replay_log` with each play's seat checked (the compiled core when
    it is loaded); anything it refuses, and every other record, is replayed by
    :func:`replay`, whose errors say where and why.
    """
    plays = record.plays
    if record.errors or plays is None or any(p.type is None and p.cards for p in plays):
        return replay(record, rules)
    try:
        summary = replay_log(
            record.hands, record.level, record.leader,
            [None if p.is_pass else (p.cards, p.type, p.rank) for p in plays], rules,
            bytes([p.seat for p in plays]),
        )
    except GuandanError:
        return replay(record, rules)
    stated = record.tags.get("DealId")
    if stated is not None and stated.strip() not in ("", "?") and (
            stated.strip().lower() != deal_id(record.hands)):
        return replay(record, rules)
    result = None
    if summary.over:
        order = summary.finish_order
        result = DealResult((order[0], order[1], order[2], order[3]), order[0].side,
                            summary.levels, summary.double_down)
        if record.finish is not None and not finish_agrees(record.finish, result):
            return replay(record, rules)
        if record.result is not None and record.result != (result.winner, result.levels):
            return replay(record, rules)
    elif record.finish is not None or record.result is not None:
        return replay(record, rules)
    return ReplayResult(record, result=result)


def _check_tags(record: DealRecord, deal: Deal, result: DealResult | None) -> None:
    """The record's ``Finish`` and ``Result`` must say what the replay found (§6–7)."""
    if result is None:
        if record.finish is not None or record.result is not None:
            tag = "Finish" if record.finish is not None else "Result"
            raise _fail(
                record,
                phrase("gdn.replay.ends_early", tag=tag),
                kind=Failure.TAGS,
                line=record.lines.get(tag),
                seat=None,
                deal=deal,
            )
        return
    if record.finish is not None and not finish_agrees(record.finish, result):
        raise ReplayError(
            phrase("gdn.replay.finish_double" if result.double_down else "gdn.replay.finish",
                   finish=Named(" ".join(s.name for s in record.finish)),
                   found=result.finish_tag),
            kind=Failure.TAGS,
            file=record.file,
            line=record.lines.get("Finish"),
        )
    if record.result is not None and record.result != (result.winner, result.levels):
        side, levels = record.result
        raise ReplayError(
            phrase("gdn.replay.result", result=Named(f"{side.name} +{levels}"),
                   found=result.result_tag),
            kind=Failure.TAGS,
            file=record.file,
            line=record.lines.get("Result"),
        )


def finish_agrees(finish: tuple[Seat, ...], result: DealResult) -> bool:
    """Whether a recorded ``Finish`` states the replay's finishing order (FORMAT.md).

    The places that are decided must match; for a double down the last two have no
    order between them (§6) and may be omitted; otherwise the 4th may be, being implied.
    """
    order = result.finish_order
    if result.double_down:
        if len(finish) == 2:
            return finish == order[:2]
        return len(finish) == 4 and finish[:2] == order[:2] and set(finish[2:]) == set(order[2:])
    return len(finish) >= 3 and finish == order[: len(finish)]


def finish_text(result: DealResult) -> str:
    """The ``Finish`` value of a result as records write it: for a double down only the
    first two seats, the last two having no order between them (§6)."""
    order = result.finish_order[:2] if result.double_down else result.finish_order
    return " ".join(s.name for s in order)


def _completed(record: DealRecord, actions: list[Action]) -> DealRecord:
    """``record`` with every play's type and rank as the engine read it (canonical form)."""
    if record.plays is None or all(p.is_pass or p.type is not None for p in record.plays):
        return record
    plays: list[Play] = []
    for play, action in zip(record.plays, actions, strict=True):
        combo = action.combo
        if combo is not None and play.type is None:
            play = dataclasses.replace(
                play, type=combo.type, rank=combo.rank, comments=list(play.comments)
            )
        plays.append(play)
    return dataclasses.replace(record, plays=plays)


# --- checking files (the library behind ``guandan replay``) ---------------------------

@dataclass(frozen=True, slots=True)
class DealReport(Shaped):
    """One line of ``guandan replay``: where a deal is, what it came to, or what is wrong.

    ``status`` is ``ok`` (a finished deal that replays and agrees with its tags),
    ``unfinished`` (replays, but the play list stops before the end), ``hand record`` (no
    play list; the board is valid) or ``error`` (``error`` says where and why, ``failure``
    what kind of failure it is: :class:`Failure`, ``read`` for a file that cannot be read).
    """

    file: str | None
    line: int | None
    board: str | None
    room: str | None
    plays: int
    finish: str | None
    result: str | None
    status: str
    error: str | None
    #: the error as the catalogue words it (:meth:`message`), when it does
    said: Phrase | None = field(default=None, metadata=HIDDEN)
    #: the kind of the error (``None`` without one)
    failure: Failure | None = None

    @property
    def ok(self) -> bool:
        """True unless the deal failed to read or replay."""
        return self.status != "error"

    def message(self, lang: str | None) -> str | None:
        """The error in ``lang`` (English as :attr:`error` when the catalogue lacks it)."""
        return self.said.text(lang) if self.said is not None else self.error


def report(record: DealRecord, rules: Ruleset = COMPETITION) -> DealReport:
    """Replay ``record`` and sum it up as a :class:`DealReport`."""
    res = replay(record, rules)
    if res.error is not None:
        status = "error"
    elif record.plays is None:
        status = "hand record"
    else:
        status = "ok" if res.finished else "unfinished"
    result = res.result
    return DealReport(
        file=record.file,
        line=record.line,
        board=record.board,
        room=record.room,
        plays=len(record.plays or ()),
        finish=finish_text(result) if result is not None else None,
        result=result.result_tag if result is not None else None,
        status=status,
        error=str(res.error) if res.error is not None else None,
        said=res.error.phrase if res.error is not None else None,
        failure=res.failure,
    )


def check_text(
    text: str | bytes,
    *,
    file: str | None = None,
    first_line: int = 1,
    rules: Ruleset = COMPETITION,
) -> list[DealReport]:
    """Read (leniently) and replay every deal of ``.gdn`` text; one report per deal."""
    try:
        records = iter_records(text, file=file, strict=False, first_line=first_line)
        return [report(r, rules) for r in records]
    except GdnError as e:  # the text itself is unreadable (not UTF-8)
        return [_file_error(file, e)]


#: The error of a ``.gdn`` file that holds no deal at all (empty, or only comments).
NO_DEALS = "no deal in the file (it is empty or holds only comments)"


def _file_error(file: str | None, err: GdnError) -> DealReport:
    return DealReport(file, err.line, None, None, 0, None, None, "error", str(err), err.phrase,
                      Failure.READ)
