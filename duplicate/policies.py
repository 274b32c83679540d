"""Every bot policy by name: the one list that ``simulate``, ``event play-bots``, the arena's
``agent`` and ``analyse --playout-policy`` accept, and :func:`make_player`, which builds a
player of a policy from a seed. It sits above every player it names (:mod:`duplicate.bots`,
:mod:`duplicate.search`)."""

from __future__ import annotations

from collections.abc import Callable

from duplicate.bots import (
    BotError,
    HeuristicPlayer,
    MixedPlayer,
    Player,
    RandomPlayer,
    mixed_error_rate,
    seed_bytes,
)
from duplicate.i18n import phrase
from duplicate.search import make_search

__all__ = ["POLICIES", "PlayerFactory", "make_player"]

#: a policy builds a player from a seed
PlayerFactory = Callable[[bytes], Player]


def _mixed(seed: bytes) -> Player:
    """A ``mixed`` player whose error rate comes from its own seed (a side of players
    that should share one is built with ``make_player(..., error_rate=...)``)."""
    return MixedPlayer(seed, mixed_error_rate("guandan-bots/mixed|" + seed.hex()))


def _search(seed: bytes) -> Player:
    return make_search(seed)


#: Every bot policy by name: the one list ``simulate``, ``event play-bots``, ``agent`` and
#: ``analyse --playout-policy`` accept (``search`` also as ``search:PLAYOUTS``).
POLICIES: dict[str, PlayerFactory] = {
    "random": RandomPlayer,
    "heuristic": HeuristicPlayer,
    "search": _search,
    "mixed": _mixed,
}


def make_player(policy: str, seed: int | str | bytes = 0, *,
                error_rate: float | None = None) -> Player:
    """Build the player of policy ``policy`` from a seed: ``random``, ``heuristic``,
    ``search`` or ``search:PLAYOUTS`` (the search's budget per decision, duplicate.search),
    ``mixed`` (with ``error_rate``, the rate its side shares; else one from its seed)."""
    name, sep, spec = policy.partition(":")
    factory = POLICIES.get(name)
    if factory is None or (sep and name != "search"):
        raise BotError(phrase("bots.policy.unknown", policy=repr(policy),
                              names=" / ".join(POLICIES)))
    if sep:
        return make_search(seed_bytes(seed), spec)
    if name == "mixed" and error_rate is not None:
        return MixedPlayer(seed_bytes(seed), error_rate)
    return factory(seed_bytes(seed))
