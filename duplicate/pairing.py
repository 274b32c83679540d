"""Pairing teams: Swiss rounds, round robins, seeded draws, and the seating of a match.

Pure functions (DUPLICATE.md, "Events"; seeds/004: 瑞士移位制). Every draw is derived
from the event's seed with SHA-256, never from ``random``, so the same seed gives the same
pairings on every machine. Team ids are ``int`` or ``str``; they are hashed by ``str(id)``.
"""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from duplicate.errors import PhrasedError
from duplicate.i18n import Phrase, Term, phrase
from engine.errors import GuandanError
from engine.seat import Seat

TeamId = int | str


class PairingError(PhrasedError, GuandanError):
    """A pairing that cannot be made (no pairing without a repeat exists) or bad input
    (English, or a catalogue phrase: :class:`~duplicate.errors.PhrasedError`)."""


class SeatingError(PairingError):
    """A match seating that breaks the two-room swap of RULES.md §11."""


def _seat(seat: Seat) -> Term:
    """A seat in an error: its letter in English (``N``), its word in another language (北)."""
    return Term(seat.name, f"seat.{seat.name}")


@dataclass(frozen=True, slots=True)
class Pairing:
    """One round's pairing: ``tables`` of ``(x, y)`` (X sits N–S in the open room), and the bye."""

    tables: tuple[tuple[TeamId, TeamId], ...]
    bye: TeamId | None = None

    def teams(self) -> list[TeamId]:
        """Every team of the round, the bye included."""
        out = [t for table in self.tables for t in table]
        if self.bye is not None:
            out.append(self.bye)
        return out


def _check_teams(teams: Sequence[TeamId]) -> None:
    """Refuse duplicate ids (also ids equal as text, since draws hash ``str(id)``)."""
    seen: set[str] = set()
    for t in teams:
        if isinstance(t, bool) or not isinstance(t, (int, str)):
            raise PairingError(phrase("pairing.err.team_id", team=repr(t)))
        key = str(t)
        if key in seen:
            raise PairingError(phrase("pairing.err.team_twice", team=repr(t)))
        seen.add(key)


def draw_key(seed: str | bytes, team: TeamId, purpose: str = "draw") -> bytes:
    """SHA-256 over the seed, a purpose label and the team id: the team's lot in a draw."""
    s = seed.encode() if isinstance(seed, str) else bytes(seed)
    return hashlib.sha256(
        b"guandan-duplicate/" + purpose.encode() + b"\0" + s + b"\0" + str(team).encode()
    ).digest()


def seeded_order(teams: Iterable[TeamId], seed: str | bytes, purpose: str = "draw") -> list[TeamId]:
    """The teams in the order of their lots (a uniformly random permutation for a secret seed).

    Sorting by SHA-256 lots is a deterministic shuffle that does not depend on the order
    the teams were given in.
    """
    ts = list(teams)
    _check_teams(ts)
    return sorted(ts, key=lambda t: draw_key(seed, t, purpose))


def first_round(teams: Sequence[TeamId], seed: str | bytes) -> Pairing:
    """Round 1 of a Swiss event, drawn from the seed: lots 1 v 2, 3 v 4, …; the last lot has the bye."""
    order = seeded_order(teams, seed, "round1")
    if not order:
        raise PairingError(phrase("pairing.err.no_teams"))
    bye = order.pop() if len(order) % 2 else None
    return Pairing(tuple((order[i], order[i + 1]) for i in range(0, len(order), 2)), bye)


# --- perfect matching (Edmonds' blossom algorithm) ------------------------------------


class _Matcher:
    """Maximum matching in a general graph (Edmonds), over an adjustable set of active vertices.

    Used to know, before committing to a table, that the teams left can still all be paired
    without a repeat: a greedy "best partner first" choice checked this way gives the same
    pairing as exhaustive backtracking, in polynomial time.
    """

    def __init__(self, n: int, allowed: list[list[bool]]) -> None:
        self.n = n
        self.allowed = allowed
        self.active = [True] * n
        self.mate = [-1] * n

    def _find_path(self, root: int) -> int:
        """BFS for an augmenting path from ``root``; fills ``self._p``; returns its end or -1."""
        n, mate, active = self.n, self.mate, self.active
        used = [False] * n
        p = [-1] * n
        base = list(range(n))
        self._p = p
        used[root] = True
        q = deque([root])

        def lca(a: int, b: int) -> int:
            seen = [False] * n
            while True:
                a = base[a]
                seen[a] = True
                if mate[a] == -1:
                    break
                a = p[mate[a]]
            while True:
                b = base[b]
                if seen[b]:
                    return b
                b = p[mate[b]]

        def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
            while base[v] != b:
                blossom[base[v]] = blossom[base[mate[v]]] = True
                p[v] = child
                child = mate[v]
                v = p[mate[v]]

        while q:
            v = q.popleft()
            row = self.allowed[v]
            for to in range(n):
                if not row[to] or not active[to]:
                    continue
                if base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] != -1 and p[mate[to]] != -1):
                    cur = lca(v, to)
                    blossom = [False] * n
                    mark(v, cur, to, blossom)
                    mark(to, cur, v, blossom)
                    for i in range(n):
                        if active[i] and blossom[base[i]]:
                            base[i] = cur
                            if not used[i]:
                                used[i] = True
                                q.append(i)
                elif p[to] == -1:
                    p[to] = v
                    if mate[to] == -1:
                        return to
                    used[mate[to]] = True
                    q.append(mate[to])
        return -1

    def augment_from(self, root: int) -> bool:
        """Try to match the exposed vertex ``root`` along an augmenting path."""
        end = self._find_path(root)
        if end == -1:
            return False
        v = end
        while v != -1:
            pv = self._p[v]
            nxt = self.mate[pv]
            self.mate[v] = pv
            self.mate[pv] = v
            v = nxt
        return True

    def perfect(self) -> bool:
        """Complete the matching over the active vertices; True when every one is matched."""
        ok = True
        for v in range(self.n):
            if self.active[v] and self.mate[v] == -1 and not self.augment_from(v):
                ok = False
        return ok


def has_perfect_matching(n: int, allowed: list[list[bool]]) -> bool:
    """Whether vertices ``0..n-1`` can all be paired along ``allowed`` edges."""
    return _Matcher(n, allowed).perfect()


def _greedy_pairs(order: list[int], allowed: list[list[bool]]) -> list[tuple[int, int]] | None:
    """Pair the indices of ``order`` (best first): each best unpaired one meets the best
    partner it may meet such that the rest can still be paired. ``None`` if impossible."""
    n = len(allowed)
    m = _Matcher(n, allowed)
    m.active = [False] * n
    for i in order:
        m.active[i] = True
    if not m.perfect():
        return None
    rank = {v: i for i, v in enumerate(order)}
    remaining = sorted(order, key=rank.__getitem__)
    pairs: list[tuple[int, int]] = []
    while remaining:
        a = remaining[0]
        for b in remaining[1:]:
            if not allowed[a][b]:
                continue
            if m.mate[a] == b:
                break
            saved = list(m.mate)
            a2, b2 = m.mate[a], m.mate[b]
            m.active[a] = m.active[b] = False
            m.mate[a] = m.mate[b] = m.mate[a2] = m.mate[b2] = -1
            if m.augment_from(a2):
                m.active[a] = m.active[b] = True
                m.mate[a], m.mate[b] = b, a
                break
            m.active[a] = m.active[b] = True
            m.mate = saved
        else:  # pragma: no cover - the matching of ``a`` itself always succeeds
            raise AssertionError("perfect matching lost")
        pairs.append((a, b))
        m.active[a] = m.active[b] = False
        remaining = [v for v in remaining if v not in (a, b)]
    return pairs


def swiss_round(
    standings: Sequence[TeamId],
    played: Iterable[tuple[TeamId, TeamId]] = (),
    byes: Iterable[TeamId] = (),
) -> Pairing:
    """A Swiss round from the current standings (best team first).

    High against high: the best unpaired team meets the best team it has not met yet,
    provided the others can still all be paired without a repeat; a valid pairing is found
    whenever one exists (:class:`PairingError` otherwise). With an odd field the bye goes
    to the lowest team that has not had one (if every team has had one, to the lowest
    among those with the fewest byes) for which the rest can be paired.
    """
    teams = list(standings)
    _check_teams(teams)
    if not teams:
        raise PairingError(phrase("pairing.err.no_teams"))
    idx = {str(t): i for i, t in enumerate(teams)}
    n = len(teams)
    allowed = [[i != j for j in range(n)] for i in range(n)]
    for a, b in played:
        ia, ib = idx.get(str(a)), idx.get(str(b))
        if ia is not None and ib is not None:
            allowed[ia][ib] = allowed[ib][ia] = False
    bye_count = [0] * n
    for t in byes:
        if str(t) in idx:
            bye_count[idx[str(t)]] += 1
    everyone = list(range(n))
    if n % 2 == 0:
        candidates: list[int | None] = [None]
    else:
        candidates = [*sorted(everyone, key=lambda i: (bye_count[i], -i))]
    for bye in candidates:
        pairs = _greedy_pairs([i for i in everyone if i != bye], allowed)
        if pairs is not None:
            return Pairing(
                tuple((teams[a], teams[b]) for a, b in pairs),
                None if bye is None else teams[bye],
            )
    raise PairingError(phrase("pairing.err.repeat", n=n))


def round_robin(teams: Sequence[TeamId]) -> list[Pairing]:
    """A round-robin schedule by the circle method: n − 1 rounds (n even) or n (odd, one bye each).

    The first place stays put (with an odd field it is the bye) and the others rotate; X
    and Y alternate so that every team is X (N–S in the open room) in half its matches,
    to within one.
    """
    ts: list[TeamId | None] = list(teams)
    _check_teams(teams)
    if len(ts) < 2:
        raise PairingError(phrase("pairing.err.rr_two", count=len(ts)))
    if len(ts) % 2:
        ts.insert(0, None)  # the fixed place is the bye: keeps X and Y exactly balanced
    n = len(ts)
    rounds: list[Pairing] = []
    for r in range(n - 1):
        tables: list[tuple[TeamId, TeamId]] = []
        bye: TeamId | None = None
        for i in range(n // 2):
            a, b = ts[i], ts[n - 1 - i]
            if i == 0 and r % 2:
                a, b = b, a
            elif i > 0 and i % 2 == 1:
                a, b = b, a
            if a is None:
                bye = b
            elif b is None:
                bye = a
            else:
                tables.append((a, b))
        rounds.append(Pairing(tuple(tables), bye))
        ts = [ts[0], ts[-1], *ts[1:-1]]
    return rounds


# --- seating of a match (RULES.md §11) -----------------------------------------------

PairOf = tuple[str, str]


@dataclass(frozen=True, slots=True)
class MatchSeating:
    """Who sits where in each room of a match between teams X and Y."""

    open_room: Mapping[Seat, str]
    closed_room: Mapping[Seat, str]


def seat_match(x_pairs: tuple[PairOf, PairOf], y_pairs: tuple[PairOf, PairOf]) -> MatchSeating:
    """Seat a match: open room X's first pair N–S, Y's first pair E–W; closed room Y's
    second pair N–S, X's second pair E–W (RULES.md §11). Each pair is ``(player, partner)``,
    the first of a pair sits N or E."""
    x1, x2 = x_pairs
    y1, y2 = y_pairs
    seating = MatchSeating(
        open_room={Seat.N: x1[0], Seat.S: x1[1], Seat.E: y1[0], Seat.W: y1[1]},
        closed_room={Seat.N: y2[0], Seat.S: y2[1], Seat.E: x2[0], Seat.W: x2[1]},
    )
    validate_seating(seating, [*x1, *x2], [*y1, *y2])
    return seating


def validate_seating(
    seating: MatchSeating, x_players: Collection[str], y_players: Collection[str]
) -> None:
    """Refuse a seating that breaks the swap: X must sit N–S in the open room and E–W in the
    closed one, Y the reverse, and no player may sit twice. Raises :class:`SeatingError`."""
    both = set(x_players) & set(y_players)
    if both:
        raise SeatingError(phrase("pairing.err.both_teams", players=", ".join(sorted(both))))
    rooms = (
        (Term("open room", "pairing.word.open"), seating.open_room, x_players),
        (Term("closed room", "pairing.word.closed"), seating.closed_room, y_players),
    )
    seen: dict[str, Phrase] = {}
    for room, seats, ns_team in rooms:
        if set(seats) != set(Seat):
            raise SeatingError(phrase("pairing.err.unfilled", room=room))
        for seat in Seat:
            player = seats[seat]
            if player in seen:
                raise SeatingError(phrase("pairing.err.sits_twice", room=room, seat=_seat(seat),
                                           player=player, where=seen[player]))
            seen[player] = phrase("pairing.word.place", room=room, seat=_seat(seat))
            want_ns = seat in (Seat.N, Seat.S)
            team = "X" if player in x_players else "Y" if player in y_players else None
            if team is None:
                raise SeatingError(phrase("pairing.err.neither", room=room, seat=_seat(seat),
                                           player=player))
            ns_team_name = "X" if ns_team is x_players else "Y"
            if (team == ns_team_name) != want_ns:
                side = Term("N–S", "pairing.word.ns") if want_ns else Term("E–W", "pairing.word.ew")
                raise SeatingError(phrase("pairing.err.wrong_side", room=room, seat=_seat(seat),
                                          player=player, team=team, side=side,
                                          ns=ns_team_name))
