"""Board sets in the database (SQLite, and PostgreSQL when configured): store, load,
refuse repeated boards, all-or-nothing writes, reveal and verify, hand records."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from sqlalchemy import Engine, func, select, text, update

from duplicate import boards as boards_mod
from duplicate import models
from duplicate.boards import (
    generate_set,
    hand_record,
    list_sets,
    load_set,
    reveal_set,
    store_set,
    verify_hand_records,
    verify_set,
)
from duplicate.db import DEFAULT_URL, ENV_VAR, check_schema, resolve_url, session_scope
from duplicate.dealing import (
    LevelSchedule,
    SeedFile,
    deal_id_of_kinds,
    derive_key,
    generate_board,
    parse_seed_file,
    seed_file_bytes,
)
from duplicate.errors import (
    BoardExistsError,
    BoardSetNotFoundError,
    DatabaseError,
    DatabaseUrlError,
    GeneratorError,
    VerificationError,
)
from duplicate.handrecords import render_html
from engine.cards import parse_cards

SECRET = bytes(range(32))


@pytest.fixture
def seed() -> SeedFile:
    return parse_seed_file(seed_file_bytes(SECRET), "golden.seed")


def _count(engine: Engine, model: type[models.Base]) -> int:
    with session_scope(engine) as session:
        return int(session.scalar(select(func.count()).select_from(model)) or 0)


def test_store_and_load_round_trip(migrated_engine: Engine, seed: SeedFile) -> None:
    generated = generate_set(seed, 30, "Cup 2026", "cycle")
    info = store_set(migrated_engine, generated)
    assert info.created_at is not None
    assert info.commitment == seed.commitment
    loaded = load_set(migrated_engine, "Cup 2026")
    assert loaded.boards == generated.boards
    assert loaded.info.level_schedule == "cycle"
    assert loaded.info.board_count == 30
    assert loaded.info.revealed_seed is None
    assert [b.number for b in load_set(migrated_engine, "Cup 2026", [7, 3]).boards] == [3, 7]
    assert [s.name for s in list_sets(migrated_engine)] == ["Cup 2026"]


def test_hands_are_stored_as_readable_tokens(migrated_engine: Engine, seed: SeedFile) -> None:
    generated = generate_set(seed, 2, "tokens")
    store_set(migrated_engine, generated)
    with session_scope(migrated_engine) as session:
        row = session.scalars(select(models.Board).where(models.Board.number == 1)).one()
        assert row.hand_n == generated.boards[0].tokens(0)  # type: ignore[arg-type]
        assert parse_cards(row.hand_w) == generated.boards[0].hands[3]
        assert (row.level, row.leader) == (0, 0)


def test_same_name_is_refused(migrated_engine: Engine, seed: SeedFile) -> None:
    store_set(migrated_engine, generate_set(seed, 3, "A"))
    other = parse_seed_file(seed_file_bytes(bytes(32)))
    with pytest.raises(BoardExistsError, match="a board set named 'A' is already stored"):
        store_set(migrated_engine, generate_set(other, 3, "A"))
    assert _count(migrated_engine, models.Board) == 3


def test_a_stored_board_is_never_stored_again(migrated_engine: Engine, seed: SeedFile) -> None:
    store_set(migrated_engine, generate_set(seed, 10, "first"))
    with pytest.raises(
        BoardExistsError,
        match=r"board 1 of set 'again' is already stored as board 1 of set 'first' \(DealId .*\(and 9 more\): nothing stored",
    ):
        # the same secret in other bytes: another commitment, the same boards
        store_set(migrated_engine, generate_set(parse_seed_file(seed.data + b"\n"), 12, "again"))
    # nothing of the refused set was written
    assert [s.name for s in list_sets(migrated_engine)] == ["first"]
    assert _count(migrated_engine, models.Board) == 10


def test_a_set_never_holds_two_identical_boards(
    seed: SeedFile, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = boards_mod.generate_boards

    def stuck(*args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        first = next(real(*args, **kwargs))  # type: ignore[arg-type]
        yield first
        yield type(first)(2, first.level, first.leader, first.kinds, first.deal_id, first.generator)

    monkeypatch.setattr(boards_mod, "generate_boards", stuck)
    with pytest.raises(BoardExistsError, match="set 'x': board 2 repeats board 1"):
        generate_set(seed, 2, "x")


def test_interrupted_store_leaves_nothing(
    migrated_engine: Engine, seed: SeedFile, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(boards_mod, "CHUNK", 4)
    calls: list[int] = []

    def interrupt(n: int) -> None:
        calls.append(n)
        if len(calls) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        store_set(migrated_engine, generate_set(seed, 20, "cut"), progress=interrupt)
    assert calls == [4, 4]
    assert list_sets(migrated_engine) == []
    assert _count(migrated_engine, models.Board) == 0
    # and the same set can then be stored whole
    store_set(migrated_engine, generate_set(seed, 20, "cut"))
    assert _count(migrated_engine, models.Board) == 20


def test_secret_stays_out_of_the_database_until_revealed(
    migrated_engine: Engine, seed: SeedFile
) -> None:
    store_set(migrated_engine, generate_set(seed, 5, "secret"))

    def everything() -> str:
        with migrated_engine.connect() as conn:
            return " ".join(
                json.dumps([str(v) for v in row])
                for table in ("board_sets", "boards")
                for row in conn.execute(text(f"SELECT * FROM {table}"))
            )

    assert SECRET.hex() not in everything()
    assert seed.commitment in everything()
    reveal_set(migrated_engine, "secret", seed)
    assert SECRET.hex() in everything()
    assert load_set(migrated_engine, "secret").info.revealed_seed == seed.data.decode()


def test_reveal_checks_the_commitment(migrated_engine: Engine, seed: SeedFile) -> None:
    store_set(migrated_engine, generate_set(seed, 2, "r"))
    wrong = parse_seed_file(seed_file_bytes(bytes(32)))
    with pytest.raises(VerificationError, match="not the stored commitment"):
        reveal_set(migrated_engine, "r", wrong)
    with pytest.raises(VerificationError, match="not the published one"):
        reveal_set(migrated_engine, "r", seed, commitment="ab" * 32)
    assert load_set(migrated_engine, "r").info.revealed_seed is None
    info = reveal_set(migrated_engine, "r", seed, commitment=seed.commitment.upper())
    assert info.revealed_seed is not None


def test_verify_a_whole_set(migrated_engine: Engine) -> None:
    announced = parse_seed_file(seed_file_bytes(SECRET, delayed_info="index close"))
    store_set(migrated_engine, generate_set(announced, 40, "v", "random", delayed="101.5"))
    steps: list[int] = []
    result = verify_set(migrated_engine, "v", announced, progress=steps.append)
    assert result.boards_checked == 40 and sum(steps) == 40
    assert result.info.revealed_seed is None  # a check only: revealing is reveal_set
    assert result.to_dict()["ok"] is True
    with pytest.raises(VerificationError, match="delayed value '101.5', not '101.6'"):
        verify_set(migrated_engine, "v", announced, delayed="101.6")


def _tamper(engine: Engine, number: int, **values: object) -> None:
    with session_scope(engine) as session:
        session.execute(update(models.Board).where(models.Board.number == number).values(**values))


def test_verify_finds_tampered_boards(migrated_engine: Engine, seed: SeedFile) -> None:
    generated = generate_set(seed, 8, "t", "cycle")
    store_set(migrated_engine, generated)
    b3, b5 = generated.boards[2], generated.boards[4]

    _tamper(migrated_engine, 3, level=b3.level + 1)
    with pytest.raises(VerificationError, match="board 3: stored level 5 is not the regenerated 4"):
        verify_set(migrated_engine, "t", seed)
    _tamper(migrated_engine, 3, level=b3.level)

    # hands of board 5 exchanged N <-> E: DealId column no longer matches the hands
    _tamper(migrated_engine, 5, hand_n=b5.tokens(1), hand_e=b5.tokens(0))  # type: ignore[arg-type]
    with pytest.raises(VerificationError, match="board 5: stored DealId .* is not the hash"):
        verify_set(migrated_engine, "t", seed)
    # ... and with a DealId forged to match: the regeneration catches it
    forged = b5.__class__(5, b5.level, b5.leader, (b5.kinds[1], b5.kinds[0], *b5.kinds[2:]), "", "")
    _tamper(migrated_engine, 5, deal_id=deal_id_of_kinds(forged.kinds))
    with pytest.raises(VerificationError, match=r"board 5: stored hands \(DealId\)"):
        verify_set(migrated_engine, "t", seed)
    assert load_set(migrated_engine, "t").info.revealed_seed is None


def test_verify_refuses_the_wrong_seed(migrated_engine: Engine, seed: SeedFile) -> None:
    store_set(migrated_engine, generate_set(seed, 4, "w"))
    with pytest.raises(VerificationError, match="seed file's SHA-256 is"):
        verify_set(migrated_engine, "w", parse_seed_file(seed_file_bytes(bytes(32))))


def test_unknown_sets_and_boards(migrated_engine: Engine, seed: SeedFile) -> None:
    with pytest.raises(BoardSetNotFoundError, match="no board set named 'nope'"):
        load_set(migrated_engine, "nope")
    store_set(migrated_engine, generate_set(seed, 4, "s"))
    with pytest.raises(BoardSetNotFoundError, match="set 's' has no board 9 \\(boards 1 to 4\\)"):
        load_set(migrated_engine, "s", [2, 9])


def test_unmigrated_database_is_refused(db_engine: Engine, seed: SeedFile) -> None:
    with pytest.raises(DatabaseError, match="run 'guandan db upgrade'"):
        check_schema(db_engine)
    with pytest.raises(DatabaseError, match="none \\(empty\\)"):
        store_set(db_engine, generate_set(seed, 1, "x"))


@pytest.mark.parametrize("count", [0, -3, 1_000_001])
def test_bad_counts_and_names(seed: SeedFile, count: int) -> None:
    with pytest.raises(GeneratorError, match=f"invalid board count {count}"):
        generate_set(seed, count, "x")
    with pytest.raises(GeneratorError, match="invalid set name"):
        generate_set(seed, 1, "  ")


def test_resolve_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    assert resolve_url() == DEFAULT_URL == "sqlite:///guandan.sqlite"
    monkeypatch.setenv(ENV_VAR, "sqlite:////tmp/x.sqlite")
    assert resolve_url() == "sqlite:////tmp/x.sqlite"
    assert resolve_url("postgresql://u@h:5/d") == "postgresql+psycopg://u@h:5/d"
    assert resolve_url("postgres://u:p@h/d") == "postgresql+psycopg://u:p@h/d"
    with pytest.raises(DatabaseUrlError, match="invalid database URL 'not a url'"):
        resolve_url("not a url")


def test_unreachable_database_is_one_clear_error(tmp_path: Path) -> None:
    from duplicate.db import make_engine

    engine = make_engine(f"sqlite:///{tmp_path}/missing/dir/x.sqlite")
    try:
        with pytest.raises(DatabaseError, match="cannot open database"):
            check_schema(engine)
    finally:
        engine.dispose()


def test_hand_records(seed: SeedFile) -> None:
    board_set = generate_set(seed, 3, "<b>Cup</b>", "fixed:7")
    record = hand_record(board_set.boards[1], 'Cup "A"')
    lines = record.splitlines()
    assert [line.split()[0] for line in lines] == [
        "[Event",
        "[Board",
        "[Level",
        "[Leader",
        "[Generator",
        "[DealId",
        "[Deal",
    ]
    assert lines[0] == '[Event "Cup \\"A\\""]'
    assert lines[2:4] == ['[Level "7"]', '[Leader "E"]']
    html = render_html(board_set)
    assert html.count('<section class="hr-board"') == 3
    assert "&lt;b&gt;Cup&lt;/b&gt;" in html and "<b>Cup" not in html
    assert "level 7" in html and "South leads" in html
    assert SECRET.hex() not in html
    # the wild hearts of the level (H7 at level 7) are marked wherever they are dealt:
    # on the boards and again on the dealing slips
    assert html.count('<span class="wildrank" title="wild heart">7</span>') == 2 * 6


# --- published hand records, checked without a database ------------------------------------

GOLDEN = Path(__file__).parent / "golden"


def test_verify_published_hand_records(seed: SeedFile) -> None:
    text = (GOLDEN / "boards_gd-sha256ctr-fy-1_cycle.gdn").read_text()
    assert verify_hand_records(seed, text, "cycle", commitment=seed.commitment) == 16
    announced = parse_seed_file(seed_file_bytes(SECRET, delayed_info="an index close"))
    late = (GOLDEN / "boards_gd-sha256ctr-fy-1_delayed_random.gdn").read_text()
    delayed = "FTSE 100 close 2026-12-01: 8123.45"
    assert verify_hand_records(announced, late, "random", delayed) == 8
    with pytest.raises(VerificationError, match="board 1: published hands"):
        verify_hand_records(announced, late, "random", delayed + "0")


def test_published_hand_records_that_differ(seed: SeedFile) -> None:
    text = (GOLDEN / "boards_gd-sha256ctr-fy-1_cycle.gdn").read_text()
    with pytest.raises(VerificationError, match=r"x.gdn:8, board 2: published level 3 is not"):
        verify_hand_records(seed, text, "fixed", source="x.gdn")
    board = generate_board(derive_key(SECRET), 3, LevelSchedule.parse("cycle"))
    n, e, s, w = board.kinds
    i = next(i for i in range(27) if n[i] != e[0])  # give N's card i to E, E's first to N
    moved_n = bytes(sorted(n[:i] + n[i + 1 :] + e[:1]))
    moved_e = bytes(sorted(e[1:] + n[i : i + 1]))
    tampered = dataclasses.replace(board, kinds=(moved_n, moved_e, s, w))
    with pytest.raises(VerificationError, match="board 3: DealId .* is not the hash of the hands"):
        verify_hand_records(seed, hand_record(tampered), "cycle")
    forged = dataclasses.replace(tampered, deal_id=deal_id_of_kinds(tampered.kinds))
    with pytest.raises(VerificationError, match=r"board 3: published hands \(DealId\)"):
        verify_hand_records(seed, hand_record(forged), "cycle")
    other_generator = text.replace("gd-sha256ctr-fy/1", "gd-other/1", 1)
    with pytest.raises(VerificationError, match="board 1: generator gd-other/1"):
        verify_hand_records(seed, other_generator, "cycle")
    with pytest.raises(VerificationError, match="not the published commitment"):
        verify_hand_records(seed, text, "cycle", commitment="00")
    with pytest.raises(VerificationError, match="no boards to verify"):
        verify_hand_records(seed, "", "cycle")
