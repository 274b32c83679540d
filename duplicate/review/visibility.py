"""May a board's hands and plays be shown? One rule, one place.

Every page of the report that could show a board's hands or plays (its board page, the
link to it, the per-player statistics drawn from its plays) asks :func:`board_visible`.
For an event the rule is the library's (:mod:`duplicate.events.release`: every table of
the round has the board in, or the director released it, logged), passed in as
``released``; for matches read from files, a board is shown when every match of its round
has both rooms of it in.
"""

from __future__ import annotations

from collections.abc import Iterable

from duplicate.review.model import MatchSummary

#: The status of a board line whose rooms are not both stored yet.
NOT_IN = "not in yet"


def board_visible(round_matches: Iterable[MatchSummary], board: str) -> bool:
    """True when every match of the round has both rooms of ``board`` stored."""
    seen = False
    for m in round_matches:
        for line in m.boards:
            if line.board == board:
                seen = True
                if line.status == NOT_IN:
                    return False
    return seen


def visible_boards(
    matches: Iterable[MatchSummary], released: frozenset[tuple[str, str]] | None = None
) -> set[tuple[str, str]]:
    """(round, board) of every board that may be shown, over all the event's matches:
    those ``released`` by the library's rule when given, else by :func:`board_visible`."""
    matches = list(matches)
    if released is not None:
        return {(m.round, line.board) for m in matches for line in m.boards} & set(released)
    by_round: dict[str, list[MatchSummary]] = {}
    for m in matches:
        by_round.setdefault(m.round, []).append(m)
    return {
        (rnd, board)
        for rnd, ms in by_round.items()
        for board in {line.board for m in ms for line in m.boards}
        if board_visible(ms, board)
    }
