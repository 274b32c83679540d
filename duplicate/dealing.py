"""Fair, reproducible dealing: generators, seeds, commitments, level schedules, DealId.

DUPLICATE.md ("Boards", "Fair dealing") asks for boards that nobody can predict or choose
and that anyone can regenerate afterwards, identically on every machine, for years. The
anchors are Big Deal and its SquareDeal protocol. ``docs/BOARDS.md`` defines every byte of
what this module computes, so that the generator can be reimplemented elsewhere.

* A **generator** turns a 32-byte key and a board number into a shuffle of the 108 card ids.
  ``gd-sha256ctr-fy/1`` feeds a SHA-256 counter-mode stream into a Fisher–Yates shuffle
  with rejection sampling, so every arrangement of the 108 distinguishable cards is equally
  likely. Generators are registered by id and an id never changes what it produces: a new
  algorithm gets a new id, old ids stay in :data:`GENERATORS` forever.
* The **key** is SHA-256 of the secret seed, followed by the optional delayed information.
* The **seed file** holds the secret (from :mod:`secrets`); its SHA-256 is the
  **commitment** published before the event.
* A **level schedule** gives each board its level: fixed, cycling 2…A, or drawn from the
  seed (a separate stream domain, so the levels never touch the shuffle).
* A board's **DealId** is SHA-256 of its four hands as sorted kind lists: copies of a card
  are indistinguishable, so two deals that are the same game get the same id.

Never Python's :mod:`random`.
"""

from __future__ import annotations

import hashlib
import json
import operator
import os
import secrets
import struct
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Literal

from duplicate.errors import GeneratorError, LevelScheduleError, SeedFileError
from duplicate.i18n import Term, engine_phrase, normalise_language, os_reason, phrase, translator
from engine.cards import (
    FULL_PACK,
    KIND_BIT,
    KIND_TOKENS,
    NUM_CARDS,
    Cards,
    iter_kinds,
    parse_level,
    rank_name,
)
from engine.errors import InvalidCardError
from engine.seat import Seat

#: The current (default) generator id; see docs/BOARDS.md for its exact definition.
GENERATOR_ID = "gd-sha256ctr-fy/1"
#: Length of the secret seed in bytes (fixed, so that secret || delayed info is unambiguous).
SECRET_BYTES = 32
#: ``format`` field of a seed file.
SEED_FORMAT = "guandan-seed/1"
#: Cards per hand.
HAND_SIZE = 27
#: Stream domain of the shuffle (empty) and of the drawn levels.
DEAL_DOMAIN = b""
LEVEL_DOMAIN = b"level"

_WORD = 1 << 32
#: ``_LIMIT[n]``: the largest multiple of ``n`` not above 2**32; a 32-bit word ``w`` is
#: accepted for a uniform draw in ``[0, n)`` only when ``w < _LIMIT[n]`` (rejection sampling).
_LIMIT: tuple[int, ...] = (0,) + tuple(_WORD - _WORD % n for n in range(1, NUM_CARDS + 1))
#: 14 blocks = 112 words cover the 107 draws of a shuffle unless more than 5 are rejected.
_FIRST_BLOCKS = 14
_FIRST_COUNTERS = tuple(c.to_bytes(8, "big") for c in range(_FIRST_BLOCKS))
_UNPACK_FIRST = struct.Struct(f">{8 * _FIRST_BLOCKS}I").unpack
_UNPACK_BLOCK = struct.Struct(">8I").unpack
#: the positions i = 107..1 of the shuffle, the draw sizes n = i + 1, and their bounds
_STEP_I = tuple(range(NUM_CARDS - 1, 0, -1))
_STEP_N = tuple(i + 1 for i in _STEP_I)
_STEP_LIMITS = tuple(_LIMIT[n] for n in _STEP_N)
_HAND_SLICES = tuple((HAND_SIZE * s, HAND_SIZE * (s + 1)) for s in range(4))


def _check_board_number(number: int) -> None:
    if not 1 <= number < 1 << 63:
        raise GeneratorError(f"invalid board number {number}: boards are numbered from 1")


def _block(key: bytes, domain: bytes, number: int, counter: int) -> bytes:
    """Stream block ``counter`` of ``(key, domain, board)``: SHA-256(key||domain||board||counter)."""
    return hashlib.sha256(
        key + domain + number.to_bytes(8, "big") + counter.to_bytes(8, "big")
    ).digest()


def stream_words(key: bytes, domain: bytes, number: int) -> Iterator[int]:
    """The endless stream of 32-bit big-endian words of ``(key, domain, board number)``.

    Block ``i`` is SHA-256(key || domain || board number (8 bytes BE) || i (8 bytes BE));
    each block gives 8 words, in order.
    """
    _check_board_number(number)
    counter = 0
    while True:
        yield from _UNPACK_BLOCK(_block(key, domain, number, counter))
        counter += 1


def _uniform_v1(key: bytes, domain: bytes, number: int, n: int) -> int:
    """A uniform integer in ``[0, n)``: the first word of the stream below ``_LIMIT[n]``, mod n."""
    if not 1 <= n <= NUM_CARDS:
        raise GeneratorError(f"uniform draw over {n} values: expected 1 to {NUM_CARDS}")
    limit = _LIMIT[n]
    for word in stream_words(key, domain, number):
        if word < limit:
            return word % n
    raise AssertionError("unreachable: the stream is endless")  # pragma: no cover


def _shuffle_v1(key: bytes, number: int) -> list[int]:
    """``gd-sha256ctr-fy/1``: the shuffled card ids 0..107 of board ``number``.

    Fisher–Yates (Durstenfeld): for i = 107 down to 1, draw j uniform in [0, i] from the
    deal-domain stream by rejection sampling, and swap positions i and j. This is the hot
    path of dealing: the first 14 blocks are hashed at once, and when none of the first 107
    words is rejected (all but about 3 boards in a million) the draws are the words taken in
    order, so the draws are computed without a Python-level loop over rejections.
    """
    _check_board_number(number)
    prefix = key + number.to_bytes(8, "big")
    sha256 = hashlib.sha256
    words = _UNPACK_FIRST(b"".join([sha256(prefix + c).digest() for c in _FIRST_COUNTERS]))
    if not all(map(operator.lt, words, _STEP_LIMITS)):
        return _fisher_yates(key, number, list(words), _LIMIT)
    ids = list(range(NUM_CARDS))
    for i, j in zip(_STEP_I, map(operator.mod, words, _STEP_N), strict=False):
        ids[i], ids[j] = ids[j], ids[i]
    return ids


def _fisher_yates(key: bytes, number: int, words: list[int], limit: Sequence[int]) -> list[int]:
    """The general shuffle loop: ``words`` are the first stream words, more are fetched on need.

    ``limit[n]`` is the rejection bound of a draw in ``[0, n)``; it is a parameter only so
    that tests can force rejections and check that they consume the stream as specified.
    """
    ids = list(range(NUM_CARDS))
    k = 0
    for i in _STEP_I:
        n = i + 1
        w = words[k]
        k += 1
        while w >= limit[n]:
            # Rejected: one more word is used, so fetch one more block; the words still
            # unused then always cover the draws still to make.
            words.extend(_UNPACK_BLOCK(_block(key, DEAL_DOMAIN, number, len(words) // 8)))
            w = words[k]
            k += 1
        j = w % n
        ids[i], ids[j] = ids[j], ids[i]
    return ids


@dataclass(frozen=True, slots=True)
class Generator:
    """A registered dealing algorithm: its id, its shuffle, and its uniform draw.

    Attributes:
        id: the id written into every board's ``Generator`` tag.
        shuffle: ``(key, board number) -> permutation of 0..107``; hands are 27 consecutive
            ids each, in the order N, E, S, W.
        uniform: ``(key, domain, board number, n) -> integer in [0, n)``, for draws other
            than the shuffle (the levels of a ``random`` schedule).
    """

    id: str
    shuffle: Callable[[bytes, int], list[int]]
    uniform: Callable[[bytes, bytes, int, int], int]


#: Every generator id ever published. Never remove or change an entry: old boards must
#: regenerate identically for years. A new algorithm gets a new id (``.../2``).
GENERATORS: Mapping[str, Generator] = MappingProxyType(
    {GENERATOR_ID: Generator(GENERATOR_ID, _shuffle_v1, _uniform_v1)}
)


def get_generator(generator_id: str) -> Generator:
    """The registered generator ``generator_id``; :class:`GeneratorError` if unknown."""
    try:
        return GENERATORS[generator_id]
    except KeyError:
        known = ", ".join(sorted(GENERATORS))
        raise GeneratorError(f"unknown generator {generator_id!r}: known are {known}") from None


def derive_key(secret: bytes, delayed: str | None = None) -> bytes:
    """The generator key: SHA-256(secret || UTF-8 of the delayed information, if any).

    The secret has a fixed length (:data:`SECRET_BYTES`), so the concatenation is
    unambiguous. An empty delayed string counts as none.
    """
    if len(secret) != SECRET_BYTES:
        raise SeedFileError(f"secret seed has {len(secret)} bytes: expected {SECRET_BYTES}")
    return hashlib.sha256(secret + (delayed or "").encode("utf-8")).digest()


# --- level schedules -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LevelSchedule:
    """How a set gives each board its level (DUPLICATE.md "Boards").

    ``fixed`` (every board at ``level``, by default 2), ``cycle`` (board 1 at 2, board 2 at
    3, …, board 13 at A, board 14 at 2 again) or ``random`` (drawn uniformly from 2..A with
    the generator's uniform draw in the ``level`` stream domain). ``str()`` gives the
    canonical spec that is stored with the set and parsed back by :meth:`parse`.
    """

    mode: Literal["fixed", "cycle", "random"]
    level: int = 0

    @classmethod
    def parse(cls, spec: str) -> LevelSchedule:
        """Parse ``fixed``, ``fixed:LEVEL`` (``fixed:7``, ``fixed:T``), ``cycle`` or ``random``."""
        text = spec.strip().lower()
        if text in ("cycle", "random"):
            return cls(text)  # type: ignore[arg-type]
        if text == "fixed":
            return cls("fixed", 0)
        if text.startswith("fixed:"):
            try:
                return cls("fixed", parse_level(text[6:]))
            except InvalidCardError as exc:
                raise LevelScheduleError(phrase("seed.schedule_level", spec=repr(spec),
                                                error=engine_phrase(exc))) from None
        raise LevelScheduleError(
            phrase("seed.schedule", spec=repr(spec))
        )

    def __str__(self) -> str:
        return f"fixed:{rank_name(self.level)}" if self.mode == "fixed" else self.mode

    def level_for(self, number: int, key: bytes, generator: Generator) -> int:
        """The level (rank index 0..12) of board ``number``."""
        if self.mode == "fixed":
            return self.level
        if self.mode == "cycle":
            return (number - 1) % 13
        return generator.uniform(key, LEVEL_DOMAIN, number, 13)


#: The default schedule: every board at 2 (DUPLICATE.md).
DEFAULT_SCHEDULE = LevelSchedule("fixed", 0)


def leader_for(number: int) -> Seat:
    """First leader of board ``number``: rotating N, E, S, W as the bridge dealer does."""
    _check_board_number(number)
    return Seat((number - 1) % 4)


# --- boards and DealId ---------------------------------------------------------------


def deal_id_of_kinds(kinds: Sequence[bytes]) -> str:
    """DealId: hex SHA-256 of the four hands' ascending kind lists (one byte per card), N E S W."""
    return hashlib.sha256(b"".join(kinds)).hexdigest()


def deal_id(hands: Sequence[Cards]) -> str:
    """The DealId of four hands (``Cards``, in seat order N, E, S, W)."""
    if len(hands) != 4:
        raise GeneratorError(f"a deal has four hands, not {len(hands)}")
    return _deal_id(tuple(hands))


@lru_cache(maxsize=4096)
def _deal_id(hands: tuple[Cards, ...]) -> str:
    """:func:`deal_id`, remembered: every table's records of a board name the same hands."""
    return deal_id_of_kinds([bytes(iter_kinds(h)) for h in hands])


@dataclass(frozen=True, slots=True)
class Board:
    """One board: four hands, a level, a first leader, and where it came from.

    ``kinds`` holds each seat's cards as ascending kind bytes (N, E, S, W): the canonical
    form from which the DealId is computed and the ``Deal`` tokens are written.
    """

    number: int
    level: int
    leader: Seat
    kinds: tuple[bytes, bytes, bytes, bytes]
    deal_id: str
    generator: str

    @property
    def hands(self) -> tuple[Cards, Cards, Cards, Cards]:
        """The four hands as ``Cards``, in seat order N, E, S, W."""
        bit = KIND_BIT.__getitem__
        n, e, s, w = (sum(map(bit, k)) for k in self.kinds)
        return (n, e, s, w)

    def tokens(self, seat: Seat) -> str:
        """The hand of ``seat`` as space-separated tokens in natural order (FORMAT.md)."""
        return " ".join(map(KIND_TOKENS.__getitem__, self.kinds[seat]))

    def deal_text(self) -> str:
        """The value of the ``Deal`` tag: ``N:<27 tokens> E:… S:… W:…``."""
        return " ".join(f"{seat.name}:{self.tokens(seat)}" for seat in Seat)


def board_from_ids(
    ids: Sequence[int], number: int, level: int, generator: str = GENERATOR_ID
) -> Board:
    """A board from a permutation of the 108 card ids (27 consecutive ids per seat, N E S W)."""
    if sorted(ids) != list(range(NUM_CARDS)):
        raise GeneratorError("a deal is a permutation of the 108 card ids 0..107")
    return _board_of_ids(ids, number, level, generator)


def _board_of_ids(ids: Sequence[int], number: int, level: int, generator: str) -> Board:
    """The board dealt by a (trusted) permutation of the card ids: 27 per seat, N E S W."""
    n, e, s, w = (bytes(sorted([i >> 1 for i in ids[a:b]])) for a, b in _HAND_SLICES)
    return Board(
        number, level, leader_for(number), (n, e, s, w), deal_id_of_kinds((n, e, s, w)), generator
    )


def board_from_hands(
    hands: Sequence[Cards], number: int, level: int, generator: str = GENERATOR_ID
) -> Board:
    """A board from four stored hands; they must be 27 cards each and make up the full pack."""
    if len(hands) != 4:
        raise GeneratorError(f"board {number}: a deal has four hands, not {len(hands)}")
    kinds = [bytes(iter_kinds(h)) for h in hands]
    for seat, k in zip(Seat, kinds, strict=True):
        if len(k) != HAND_SIZE:
            raise GeneratorError(f"board {number}: {seat.name} holds {len(k)} cards, not 27")
    if sum(hands) != FULL_PACK:
        raise GeneratorError(f"board {number}: the four hands are not the 108 cards of two packs")
    if not 0 <= level <= 12:
        raise GeneratorError(f"board {number}: level {level} is not a rank index 0..12")
    n, e, s, w = kinds
    return Board(
        number, level, leader_for(number), (n, e, s, w), deal_id_of_kinds(kinds), generator
    )


def generate_board(
    key: bytes,
    number: int,
    schedule: LevelSchedule = DEFAULT_SCHEDULE,
    generator: str = GENERATOR_ID,
) -> Board:
    """Board ``number`` of the set keyed by ``key`` (see :func:`derive_key`)."""
    gen = get_generator(generator)
    ids = gen.shuffle(key, number)
    return _board_of_ids(ids, number, schedule.level_for(number, key, gen), gen.id)


def generate_boards(
    key: bytes,
    count: int,
    schedule: LevelSchedule = DEFAULT_SCHEDULE,
    generator: str = GENERATOR_ID,
    first: int = 1,
) -> Iterator[Board]:
    """Boards ``first`` .. ``first + count - 1`` of the set keyed by ``key``, lazily."""
    if count < 0:
        raise GeneratorError(f"invalid board count {count}: must be 0 or more")
    get_generator(generator)
    for number in range(first, first + count):
        yield generate_board(key, number, schedule, generator)


# --- seed files and commitments ------------------------------------------------------


def commitment_of(data: bytes) -> str:
    """The commitment to a seed file: hex SHA-256 of its exact bytes."""
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True, slots=True)
class SeedFile:
    """A parsed seed file: the secret, the generator it is for, and its exact bytes.

    ``delayed_info`` describes delayed information announced when the commitment was
    published (e.g. "closing value of an index on a date"); when it is set, the value must be
    given to derive the key, and when it is not, no value may be given, so the organiser
    cannot choose afterwards whether to mix one in.
    """

    secret: bytes
    generator: str
    delayed_info: str | None
    data: bytes

    @property
    def commitment(self) -> str:
        """Hex SHA-256 of the seed file's bytes: the value to publish before the event."""
        return commitment_of(self.data)

    def key(self, delayed: str | None = None) -> bytes:
        """The generator key, checking the delayed value against what the file announced."""
        if self.delayed_info is not None and not delayed:
            raise SeedFileError(phrase("seed.delayed_needed", info=self.delayed_info))
        if self.delayed_info is None and delayed:
            raise SeedFileError(phrase("seed.delayed_none"))
        return derive_key(self.secret, delayed)


def seed_file_bytes(
    secret: bytes, generator: str = GENERATOR_ID, delayed_info: str | None = None
) -> bytes:
    """The canonical bytes of a seed file (sorted-key JSON, two-space indent, final newline)."""
    get_generator(generator)
    if len(secret) != SECRET_BYTES:
        raise SeedFileError(f"secret seed has {len(secret)} bytes: expected {SECRET_BYTES}")
    doc = {
        "delayed_info": delayed_info or None,
        "format": SEED_FORMAT,
        "generator": generator,
        "secret": secret.hex(),
    }
    return (json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


class JsonFault:
    """Why a text is not JSON, as a phrase's value: the decoder's words in English, the
    place (line and column) in the catalogue's words in another language."""

    __slots__ = ("exc",)

    def __init__(self, exc: UnicodeDecodeError | json.JSONDecodeError) -> None:
        self.exc = exc

    def text(self, lang: str | None = "en") -> str:
        if normalise_language(lang) == "en":
            return str(self.exc)
        t = translator(lang)
        if isinstance(self.exc, json.JSONDecodeError):
            return str(t("out.json.bad", line=self.exc.lineno, column=self.exc.colno))
        return str(t("out.json.not_utf8", at=self.exc.start))

    def __str__(self) -> str:
        return self.text("en")


def parse_seed_file(data: bytes, source: str | Term = "<seed>") -> SeedFile:
    """Parse a seed file's bytes; :class:`SeedFileError` naming ``source`` when malformed."""
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SeedFileError(phrase("seed.not_json", source=source, error=JsonFault(exc))) from None
    if not isinstance(doc, dict) or doc.get("format") != SEED_FORMAT:
        raise SeedFileError(phrase("seed.not_format", source=source, format=SEED_FORMAT))
    secret_hex = doc.get("secret")
    generator = doc.get("generator")
    delayed_info = doc.get("delayed_info")
    if not isinstance(secret_hex, str):
        raise SeedFileError(phrase("seed.field_type", source=source, field="secret",
                                   kind=phrase("seed.kind.hex")))
    try:
        secret = bytes.fromhex(secret_hex)
    except ValueError:
        raise SeedFileError(phrase("seed.not_hex", source=source)) from None
    if len(secret) != SECRET_BYTES:
        raise SeedFileError(phrase("seed.secret_size", source=source, n=len(secret),
                                   expected=SECRET_BYTES))
    if not isinstance(generator, str):
        raise SeedFileError(phrase("seed.field_type", source=source, field="generator",
                                   kind=phrase("seed.kind.string")))
    if delayed_info is not None and not isinstance(delayed_info, str):
        raise SeedFileError(phrase("seed.field_type", source=source, field="delayed_info",
                                   kind=phrase("seed.kind.string_or_null")))
    try:
        get_generator(generator)
    except GeneratorError as exc:
        raise SeedFileError(phrase("seed.at", source=source, error=exc.phrase or str(exc))) from None
    return SeedFile(secret, generator, delayed_info or None, data)


def read_seed_file(path: str | os.PathLike[str]) -> SeedFile:
    """Read and parse the seed file at ``path``."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise SeedFileError(phrase("seed.unreadable", path=repr(os.fspath(path)),
                                   reason=os_reason(exc))) from None
    return parse_seed_file(data, os.fspath(path))


def create_seed_file(
    path: str | os.PathLike[str],
    generator: str = GENERATOR_ID,
    delayed_info: str | None = None,
) -> SeedFile:
    """Draw a new secret from the operating system and write it to a new file (mode 0600).

    An existing file is never overwritten: a seed whose commitment has been published must
    not be lost.
    """
    data = seed_file_bytes(secrets.token_bytes(SECRET_BYTES), generator, delayed_info)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise SeedFileError(phrase("seed.exists", path=repr(os.fspath(path)))) from None
    except OSError as exc:
        raise SeedFileError(phrase("seed.uncreatable", path=repr(os.fspath(path)),
                                   reason=os_reason(exc))) from None
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    return parse_seed_file(data, os.fspath(path))


#: How much of a file :func:`is_seed_file` reads: a seed file is a few hundred bytes.
_SEED_SNIFF = 64 * 1024


def is_seed_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a regular file that holds a seed file, by its content (its
    ``"format": "guandan-seed/1"`` line, whatever the file is named), so that no output
    is ever written over a secret seed."""
    try:
        with open(path, "rb") as f:
            head = f.read(_SEED_SNIFF)
    except OSError:  # missing, a folder, unreadable: not a seed file we could lose
        return False
    return SEED_FORMAT.encode("ascii") in head


def exposed_mode(path: str | os.PathLike[str]) -> int | None:
    """The permission bits of the seed file at ``path`` when users other than its owner may
    read it (group or others), else ``None``. A seed is secret until the boards are played."""
    try:
        mode = os.stat(path).st_mode & 0o777
    except OSError:
        return None
    return mode if mode & 0o044 else None
