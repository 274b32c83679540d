"""Per-player statistics across an event: from each board's comparison, the figures of
every seat summed by player name (plays, bombs, 接风, wild hearts used, 头游). A name
that held several seats of a board (an arena's agent: two seats, both rooms) counts the
board once.

A board's figures are plain JSON (:func:`board_stats`) so that the site writer can keep
them in its manifest and not replay an unchanged board to rebuild ``players.html``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from duplicate.compare import BoardComparison

#: The figures kept per player, in the order the page shows them.
FIGURES: tuple[str, ...] = (
    "boards", "plays", "bombs", "straight_flushes", "joker_bombs", "jiefeng", "wilds", "first",
)


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's figures over the boards counted."""

    player: str
    boards: int
    plays: int
    bombs: int
    straight_flushes: int
    joker_bombs: int
    jiefeng: int
    wilds: int
    first: int  # boards finished 头游


def board_stats(comp: BoardComparison) -> dict[str, dict[str, int]]:
    """Player name -> figures of one board (every room the player sat in)."""
    out: dict[str, dict[str, int]] = {}
    for room in comp.rooms:
        for s in room.seats:
            if not s.player:
                continue
            fig = out.setdefault(s.player, dict.fromkeys(FIGURES, 0))
            fig["boards"] = 1  # a board, however many of its seats the name held (an agent)
            fig["plays"] += s.plays
            fig["bombs"] += s.bombs
            fig["straight_flushes"] += s.straight_flushes
            fig["joker_bombs"] += s.joker_bombs
            fig["jiefeng"] += s.jiefeng_given
            fig["wilds"] += len(s.wilds)
            fig["first"] += 1 if s.place == 1 else 0
    return out


def compact(stats: Mapping[str, Mapping[str, int]]) -> dict[str, list[int]]:
    """A board's figures as lists in :data:`FIGURES` order (what the manifest keeps)."""
    return {p: [int(f.get(k, 0)) for k in FIGURES] for p, f in stats.items()}


def merge(per_board: Iterable[Mapping[str, Sequence[int]]]) -> list[PlayerStats]:
    """Sum boards' figures (:func:`compact` form) by player; most boards won as 头游 first,
    then by name."""
    total: dict[str, list[int]] = {}
    for board in per_board:
        for player, fig in board.items():
            acc = total.setdefault(player, [0] * len(FIGURES))
            for i, v in enumerate(fig):
                acc[i] += int(v)
    rows = [PlayerStats(p, *f) for p, f in total.items()]
    return sorted(rows, key=lambda r: (-r.first, -r.boards, r.player))
