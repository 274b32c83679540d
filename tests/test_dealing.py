"""The dealing generator, pinned: golden vectors, an independent reimplementation of the
specification in docs/BOARDS.md, level schedules, leaders, DealId, and seed files."""

from __future__ import annotations

import ast
import hashlib
import inspect
import itertools
import json
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duplicate import dealing
from duplicate.boards import hand_records
from duplicate.dealing import (
    GENERATOR_ID,
    GENERATORS,
    LevelSchedule,
    board_from_hands,
    board_from_ids,
    create_seed_file,
    deal_id,
    derive_key,
    generate_board,
    generate_boards,
    get_generator,
    leader_for,
    parse_seed_file,
    read_seed_file,
    seed_file_bytes,
    stream_words,
)
from duplicate.errors import GeneratorError, LevelScheduleError, SeedFileError
from engine.cards import FULL_PACK, from_ids, rank_name, size
from engine.seat import Seat

GOLDEN = Path(__file__).parent / "golden"
SECRET = bytes(range(32))
DELAYED = "FTSE 100 close 2026-12-01: 8123.45"


# --- an independent implementation of docs/BOARDS.md, written for clarity, not speed ----


def ref_words(key: bytes, domain: bytes, number: int) -> Iterator[int]:
    """Block i = SHA-256(key || domain || number (8 B, BE) || i (8 B, BE)); 8 BE words each."""
    for counter in itertools.count():
        block = hashlib.sha256(
            key + domain + number.to_bytes(8, "big") + counter.to_bytes(8, "big")
        ).digest()
        for i in range(8):
            yield int.from_bytes(block[4 * i : 4 * i + 4], "big")


def exact_limit(n: int) -> int:
    return 2**32 - 2**32 % n


def ref_uniform(words: Iterator[int], n: int, limit: Callable[[int], int] = exact_limit) -> int:
    for w in words:
        if w < limit(n):
            return w % n
    raise AssertionError("endless stream ended")


def ref_shuffle(key: bytes, number: int, limit: Callable[[int], int] = exact_limit) -> list[int]:
    words = ref_words(key, b"", number)
    ids = list(range(108))
    for i in range(107, 0, -1):
        j = ref_uniform(words, i + 1, limit)
        ids[i], ids[j] = ids[j], ids[i]
    return ids


def ref_deal_id(ids: list[int]) -> str:
    hands = [bytes(sorted(c // 2 for c in ids[27 * s : 27 * s + 27])) for s in range(4)]
    return hashlib.sha256(b"".join(hands)).hexdigest()


# --- golden vectors ----------------------------------------------------------------------


def test_golden_vectors() -> None:
    vec = json.loads((GOLDEN / "boards_gd-sha256ctr-fy-1_vectors.json").read_text())
    key = derive_key(bytes.fromhex(vec["secret"]))
    assert vec["generator"] == GENERATOR_ID
    assert key.hex() == vec["key"] == hashlib.sha256(SECRET).hexdigest()
    assert dealing._block(key, b"", 1, 0).hex() == vec["block_0"]
    assert list(itertools.islice(stream_words(key, b"", 1), 16)) == vec["words_0_15"]
    assert GENERATORS[GENERATOR_ID].shuffle(key, 1) == vec["shuffle"]
    assert generate_board(key, 1).deal_id == vec["deal_id"]
    schedule = LevelSchedule.parse("random")
    levels = [
        rank_name(schedule.level_for(n, key, get_generator(GENERATOR_ID))) for n in range(1, 27)
    ]
    assert levels == vec["random_levels_boards_1_26"]


@pytest.mark.parametrize(
    ("filename", "delayed", "schedule", "count", "event"),
    [
        ("boards_gd-sha256ctr-fy-1_cycle.gdn", None, "cycle", 16, None),
        ("boards_gd-sha256ctr-fy-1_delayed_random.gdn", DELAYED, "random", 8, "Golden vectors"),
    ],
)
def test_golden_hand_records_byte_for_byte(
    filename: str, delayed: str | None, schedule: str, count: int, event: str | None
) -> None:
    expected = (GOLDEN / filename).read_bytes()
    boards = generate_boards(derive_key(SECRET, delayed), count, LevelSchedule.parse(schedule))
    assert hand_records(boards, event).encode("utf-8") == expected


def test_reference_implementation_agrees() -> None:
    for secret in (SECRET, bytes(32), b"\xff" * 32):
        key = derive_key(secret)
        for number in itertools.chain(range(1, 40), (1000, 2**40)):
            ids = ref_shuffle(key, number)
            assert GENERATORS[GENERATOR_ID].shuffle(key, number) == ids
            assert generate_board(key, number).deal_id == ref_deal_id(ids)


def test_rejections_consume_the_stream_as_specified() -> None:
    # Real rejections are too rare to meet (< 3e-8 per draw): force about half of the
    # words to be rejected and check the general loop against the reference.
    def strict(n: int) -> int:
        return n * (2**31 // n)

    limits = [0] + [strict(n) for n in range(1, 109)]
    key = derive_key(SECRET)
    for number in range(1, 30):
        first = list(itertools.islice(stream_words(key, b"", number), 112))
        assert dealing._fisher_yates(key, number, first, limits) == ref_shuffle(key, number, strict)


def test_fast_path_equals_general_loop() -> None:
    key = derive_key(b"\x07" * 32)
    for number in range(1, 300):
        first = list(itertools.islice(stream_words(key, b"", number), 112))
        assert dealing._shuffle_v1(key, number) == dealing._fisher_yates(
            key, number, first, dealing._LIMIT
        )


def test_uniform_draw_matches_reference() -> None:
    key = derive_key(SECRET)
    for n in (1, 2, 3, 13, 107, 108):
        for number in range(1, 20):
            expected = ref_uniform(ref_words(key, b"level", number), n)
            assert dealing._uniform_v1(key, b"level", number, n) == expected
    with pytest.raises(GeneratorError, match="uniform draw over 0"):
        dealing._uniform_v1(key, b"level", 1, 0)


def test_never_uses_python_random() -> None:
    tree = ast.parse(inspect.getsource(dealing))
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in (
            node.names if isinstance(node, ast.Import) else [ast.alias(node.module or "")]
        )
    }
    assert "random" not in imported
    assert "secrets" in imported


@settings(max_examples=60, deadline=None)
@given(key=st.binary(min_size=32, max_size=32), number=st.integers(1, 2**63 - 1))
def test_every_board_is_a_partition_of_the_pack(key: bytes, number: int) -> None:
    ids = GENERATORS[GENERATOR_ID].shuffle(key, number)
    assert sorted(ids) == list(range(108))
    board = generate_board(key, number)
    assert board.hands == tuple(from_ids(ids[27 * s : 27 * s + 27]) for s in range(4))
    assert all(size(h) == 27 for h in board.hands)
    assert sum(board.hands) == FULL_PACK
    assert board.leader == Seat((number - 1) % 4)


# --- generators, keys, leaders, level schedules ------------------------------------------


def test_registry_keeps_the_first_generator() -> None:
    assert GENERATOR_ID == "gd-sha256ctr-fy/1"
    assert get_generator("gd-sha256ctr-fy/1").id == "gd-sha256ctr-fy/1"
    with pytest.raises(GeneratorError, match="unknown generator 'gd-none/9'"):
        get_generator("gd-none/9")
    with pytest.raises(GeneratorError, match="unknown generator"):
        next(generate_boards(derive_key(SECRET), 3, generator="gd-none/9"))


def test_derive_key() -> None:
    assert derive_key(SECRET) == hashlib.sha256(SECRET).digest()
    assert derive_key(SECRET, "") == derive_key(SECRET)
    assert derive_key(SECRET, "é 1") == hashlib.sha256(SECRET + "é 1".encode()).digest()
    with pytest.raises(SeedFileError, match="31 bytes"):
        derive_key(SECRET[:31])


def test_board_numbers_must_be_positive() -> None:
    key = derive_key(SECRET)
    for bad in (0, -1, 2**63):
        with pytest.raises(GeneratorError, match=f"invalid board number {bad}"):
            generate_board(key, bad)
    with pytest.raises(GeneratorError, match="invalid board count -1"):
        list(generate_boards(key, -1))


def test_leader_rotates_n_e_s_w() -> None:
    assert [leader_for(n).name for n in range(1, 10)] == list("NESWNESWN")
    key = derive_key(SECRET)
    assert [b.leader for b in generate_boards(key, 8)] == [Seat(i % 4) for i in range(8)]


def test_level_schedules() -> None:
    key = derive_key(SECRET)
    cycle = [b.level for b in generate_boards(key, 27, LevelSchedule.parse("cycle"))]
    assert [rank_name(x) for x in cycle] == list("23456789TJQKA23456789TJQKA2")
    assert {b.level for b in generate_boards(key, 5)} == {0}  # default: all at 2
    assert {b.level for b in generate_boards(key, 5, LevelSchedule.parse("fixed:7"))} == {5}
    drawn = [b.level for b in generate_boards(key, 300, LevelSchedule.parse("random"))]
    assert set(drawn) == set(range(13))
    # the levels come from their own stream domain: the hands do not depend on them
    plain = [b.deal_id for b in generate_boards(key, 20)]
    assert [b.deal_id for b in generate_boards(key, 20, LevelSchedule.parse("random"))] == plain


@pytest.mark.parametrize(
    ("spec", "canonical"),
    [
        ("fixed", "fixed:2"),
        ("fixed:10", "fixed:T"),
        (" Fixed:a ", "fixed:A"),
        ("cycle", "cycle"),
        ("RANDOM", "random"),
    ],
)
def test_level_schedule_round_trip(spec: str, canonical: str) -> None:
    schedule = LevelSchedule.parse(spec)
    assert str(schedule) == canonical
    assert LevelSchedule.parse(str(schedule)) == schedule


@pytest.mark.parametrize("spec", ["", "fixed:1", "fixed:B", "cyclic", "fixed:", "random:3"])
def test_bad_level_schedule(spec: str) -> None:
    with pytest.raises(LevelScheduleError, match="invalid level schedule"):
        LevelSchedule.parse(spec)


# --- DealId ------------------------------------------------------------------------------


def test_deal_id_ignores_which_copy_of_a_card() -> None:
    key = derive_key(SECRET)
    ids = GENERATORS[GENERATOR_ID].shuffle(key, 5)
    board = board_from_ids(ids, 5, 0)
    # exchange the two copies of every kind: the same game, so the same DealId
    swapped = [c ^ 1 for c in ids]
    assert board_from_ids(swapped, 5, 0).deal_id == board.deal_id
    # move one card between hands: a different game
    moved = ids.copy()
    i = next(i for i in range(27, 108) if ids[i] >> 1 != ids[0] >> 1)
    moved[0], moved[i] = moved[i], moved[0]
    assert board_from_ids(moved, 5, 0).deal_id != board.deal_id
    assert deal_id(board.hands) == board.deal_id == ref_deal_id(ids)


def test_deal_id_depends_on_seats() -> None:
    board = generate_board(derive_key(SECRET), 1)
    n, e, s, w = board.hands
    assert deal_id([e, n, s, w]) != board.deal_id
    with pytest.raises(GeneratorError, match="four hands, not 3"):
        deal_id([n, e, s])


def test_board_from_hands_checks_the_pack() -> None:
    board = generate_board(derive_key(SECRET), 3)
    again = board_from_hands(board.hands, 3, board.level)
    assert again == board
    n, e, s, w = board.hands
    with pytest.raises(GeneratorError, match="board 3: N holds 28 cards"):
        board_from_hands([n + 1, e, s, w], 3, 0)
    with pytest.raises(GeneratorError, match="not the 108 cards"):
        board_from_hands([n, n, s, w], 3, 0)
    with pytest.raises(GeneratorError, match="level 13"):
        board_from_hands(board.hands, 3, 13)
    with pytest.raises(GeneratorError, match="permutation"):
        board_from_ids(list(range(107)) + [0], 1, 0)


def test_deal_text_tokens_are_in_natural_order() -> None:
    board = generate_board(derive_key(SECRET), 2)
    text = board.deal_text()
    parts = text.split()
    assert parts[0].startswith("N:")
    assert [p[:2] for p in parts if ":" in p] == ["N:", "E:", "S:", "W:"]
    assert len(parts) == 108


# --- seed files ---------------------------------------------------------------------------


def test_create_seed_file(tmp_path: Path) -> None:
    path = tmp_path / "event.seed"
    seed = create_seed_file(path)
    data = path.read_bytes()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert seed.commitment == hashlib.sha256(data).hexdigest()
    assert read_seed_file(path) == seed
    assert json.loads(data)["secret"] == seed.secret.hex()
    assert len(seed.secret) == 32 and seed.generator == GENERATOR_ID
    with pytest.raises(SeedFileError, match="already exists"):
        create_seed_file(path)
    assert path.read_bytes() == data
    other = create_seed_file(tmp_path / "other.seed")
    assert other.secret != seed.secret


def test_seed_file_bytes_are_canonical() -> None:
    data = seed_file_bytes(SECRET, delayed_info="an index close")
    assert data == (
        b'{\n  "delayed_info": "an index close",\n  "format": "guandan-seed/1",\n'
        b'  "generator": "gd-sha256ctr-fy/1",\n  "secret": "' + SECRET.hex().encode() + b'"\n}\n'
    )
    assert parse_seed_file(data).delayed_info == "an index close"


def test_delayed_information_must_be_given_exactly_when_announced() -> None:
    plain = parse_seed_file(seed_file_bytes(SECRET))
    announced = parse_seed_file(seed_file_bytes(SECRET, delayed_info="an index close"))
    assert plain.key() == derive_key(SECRET)
    assert announced.key("8123.45") == derive_key(SECRET, "8123.45")
    with pytest.raises(SeedFileError, match="announces delayed information"):
        announced.key()
    with pytest.raises(SeedFileError, match="announces no delayed information"):
        plain.key("8123.45")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"not json", "invalid JSON"),
        (b'{"format": "other"}', "not a seed file"),
        (b'{"format": "guandan-seed/1", "generator": "gd-sha256ctr-fy/1"}', "secret"),
        (b'{"format": "guandan-seed/1", "secret": "zz", "generator": "x"}', "not hexadecimal"),
        (b'{"format": "guandan-seed/1", "secret": "00ff", "generator": "x"}', "2 bytes"),
        (
            b'{"format": "guandan-seed/1", "secret": "' + b"00" * 32 + b'", "generator": "x/1"}',
            "unknown generator",
        ),
    ],
)
def test_bad_seed_files(data: bytes, message: str) -> None:
    with pytest.raises(SeedFileError, match=message) as info:
        parse_seed_file(data, "x.seed")
    assert str(info.value).startswith("x.seed: ")


def test_missing_seed_file(tmp_path: Path) -> None:
    with pytest.raises(SeedFileError, match="cannot read seed file"):
        read_seed_file(tmp_path / "nope.seed")
