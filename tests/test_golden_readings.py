"""Golden tables of readings (RULES.md §2-3), comparisons (§4) and §5 choices.

The tables in ``tests/golden/`` were written from RULES.md and FORMAT.md alone, as a check
independent of ``engine/reading.py``; their syntax is documented at the top of each file.
Every case is its own test, named by file and line number, so a failure points at the
line to read.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TypeVar

import pytest

from engine.cards import Cards, format_cards, parse_cards, parse_level, parse_rank, rank_name
from engine.combo import Combo, ComboType
from engine.errors import GuandanError
from engine.ruleset import COMPETITION, Ruleset

GOLDEN = Path(__file__).parent / "golden"
READINGS_FILE = GOLDEN / "readings.txt"
COMPARE_FILE = GOLDEN / "compare.txt"

T = TypeVar("T")
#: a reading as the tables write it: (type, record rank index)
Reading = tuple[ComboType, int]


class GoldenSyntaxError(ValueError):
    """A malformed line in a golden table; the message names the file and line."""


@dataclass(frozen=True)
class Line:
    """Where a case comes from: file name, line number and the text without comment."""

    file: str
    number: int
    text: str

    def __str__(self) -> str:
        return f"{self.file}:{self.number}: {self.text}"


@dataclass(frozen=True)
class ReadingCase:
    """Cards at a level and the exact set of their readings."""

    line: Line
    level: int
    cards: Cards
    expected: frozenset[Reading]
    rules: Ruleset


@dataclass(frozen=True)
class ChooseCase:
    """Undeclared cards, the play to beat (None when leading) and the §5 choice.

    ``expected`` is None when no reading is legal (choose_reading must raise).
    """

    line: Line
    level: int
    cards: Cards
    to_beat: Combo | None
    expected: Reading | None
    rules: Ruleset


@dataclass(frozen=True)
class CompareCase:
    """Two declared plays at a level and whether the first beats the second."""

    line: Line
    level: int
    a: Combo
    b: Combo
    beats: bool


def _content_lines(path: Path) -> list[Line]:
    """Non-blank lines of ``path`` with ``;`` comments removed, with their numbers."""
    out = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        text = raw.split(";", 1)[0].strip()
        if text and not text.startswith("#"):
            out.append(Line(path.name, number, text))
    return out


def _fields(line: Line, counts: tuple[int, ...]) -> list[str]:
    """The ``|``-separated fields of a case line, checking there are an allowed number."""
    fields = [f.strip() for f in line.text.split("|")]
    if len(fields) not in counts:
        raise GoldenSyntaxError(f"{line}: expected {' or '.join(map(str, counts))} fields")
    return fields


def _wrap(line: Line, what: str, text: str, parse: Callable[[str], T]) -> T:
    """Call ``parse(text)``, re-raising an engine error with the file and line."""
    try:
        return parse(text)
    except GuandanError as exc:
        raise GoldenSyntaxError(f"{line}: bad {what} {text!r}: {exc}") from exc


def _level(line: Line, text: str) -> int:
    return _wrap(line, "level", text, parse_level)


def _cards(line: Line, text: str) -> Cards:
    """Cards of a field; ``-`` is the empty set."""
    if text == "-":
        return 0
    return _wrap(line, "cards", text, parse_cards)


def _reading(line: Line, text: str) -> Reading:
    """``Type rank`` into a (type, rank index) pair."""
    words = text.split()
    if len(words) != 2:
        raise GoldenSyntaxError(f"{line}: a reading is `Type rank`, not {text!r}")
    return (
        _wrap(line, "type", words[0], ComboType.from_name),
        _wrap(line, "rank", words[1], parse_rank),
    )


def _play(line: Line, text: str) -> Combo:
    """A declared play ``Type rank cards…`` into a Combo (FORMAT.md, without the seat)."""
    words = text.split()
    if len(words) < 3:
        raise GoldenSyntaxError(f"{line}: a play is `Type rank cards...`, not {text!r}")
    t, r = _reading(line, " ".join(words[:2]))
    return Combo(t, r, _cards(line, " ".join(words[2:])))


def _rules(line: Line, text: str) -> Ruleset:
    """``name=value`` words into a Ruleset; values take the type of the default."""
    settings: dict[str, object] = {}
    for word in text.split():
        name, sep, value = word.partition("=")
        if not sep or not hasattr(COMPETITION, name):
            raise GoldenSyntaxError(f"{line}: unknown variant setting {word!r}")
        default = getattr(COMPETITION, name)
        if isinstance(default, bool):
            if value not in ("true", "false"):
                raise GoldenSyntaxError(f"{line}: {name} must be true or false, not {value!r}")
            settings[name] = value == "true"
        else:
            try:
                settings[name] = int(value)
            except ValueError as exc:
                raise GoldenSyntaxError(f"{line}: {name} must be an integer") from exc
    try:
        return Ruleset.from_dict({**COMPETITION.to_dict(), **settings})
    except ValueError as exc:
        raise GoldenSyntaxError(f"{line}: {exc}") from exc


def parse_readings_file(path: Path) -> tuple[list[ReadingCase], list[ChooseCase]]:
    """Parse readings.txt: its ``[readings]`` and ``[choose]`` sections."""
    readings: list[ReadingCase] = []
    choices: list[ChooseCase] = []
    section = ""
    for line in _content_lines(path):
        if line.text.startswith("["):
            section = line.text
            if section not in ("[readings]", "[choose]"):
                raise GoldenSyntaxError(f"{line}: unknown section")
            continue
        if section == "[readings]":
            f = _fields(line, (3, 4))
            expected = frozenset(
                () if f[2] == "-" else (_reading(line, r.strip()) for r in f[2].split(","))
            )
            rules = _rules(line, f[3]) if len(f) == 4 else COMPETITION
            readings.append(
                ReadingCase(line, _level(line, f[0]), _cards(line, f[1]), expected, rules)
            )
        elif section == "[choose]":
            f = _fields(line, (4, 5))
            to_beat = None if f[2] == "lead" else _play(line, f[2])
            choice = None if f[3] == "!" else _reading(line, f[3])
            rules = _rules(line, f[4]) if len(f) == 5 else COMPETITION
            choices.append(
                ChooseCase(line, _level(line, f[0]), _cards(line, f[1]), to_beat, choice, rules)
            )
        else:
            raise GoldenSyntaxError(f"{line}: case before any [readings] or [choose] section")
    return readings, choices


def parse_compare_file(path: Path) -> list[CompareCase]:
    """Parse compare.txt: ``level | play A | play B | yes/no``."""
    cases = []
    for line in _content_lines(path):
        f = _fields(line, (4,))
        if f[3] not in ("yes", "no"):
            raise GoldenSyntaxError(f"{line}: the last field is yes or no, not {f[3]!r}")
        level = _level(line, f[0])
        cases.append(CompareCase(line, level, _play(line, f[1]), _play(line, f[2]), f[3] == "yes"))
    return cases


READING_CASES, CHOOSE_CASES = parse_readings_file(READINGS_FILE)
COMPARE_CASES = parse_compare_file(COMPARE_FILE)


def _id(case: ReadingCase | ChooseCase | CompareCase) -> str:
    return f"{case.line.file}:{case.line.number}"


def _show(readings: Iterable[Reading]) -> str:
    """Readings as sorted ``Type rank`` text, for failure messages."""
    names = sorted(f"{t.record_name} {rank_name(r)}" for t, r in readings)
    return "{" + ", ".join(names) + "}" if names else "{} (no combination)"


def _engine_reading() -> ModuleType:
    """Import engine.reading only when a test runs, so that collection never depends on it."""
    return importlib.import_module("engine.reading")


def test_tables_are_complete() -> None:
    """The tables hold the promised number of cases, every kind represented."""
    total = len(READING_CASES) + len(CHOOSE_CASES) + len(COMPARE_CASES)
    assert total >= 180, f"only {total} golden cases"
    assert len(CHOOSE_CASES) >= 10
    assert {t for c in READING_CASES for t, _ in c.expected} == set(ComboType)
    assert any(not c.expected for c in READING_CASES)
    assert {c.beats for c in COMPARE_CASES} == {True, False}


def test_parser_names_the_line(tmp_path: Path) -> None:
    """A malformed case is reported with its file and line number."""
    bad = tmp_path / "compare.txt"
    bad.write_text("; comment\n\n2 | Single 3 S3 | Single 4 S4 | maybe\n", encoding="utf-8")
    with pytest.raises(GoldenSyntaxError, match=r"compare\.txt:3: .*yes or no"):
        parse_compare_file(bad)
    bad.write_text("[readings]\n2 | S3 X9 | Single 3\n", encoding="utf-8")
    with pytest.raises(GoldenSyntaxError, match=r"compare\.txt:2: .*bad cards"):
        parse_readings_file(bad)
    bad.write_text("[readings]\n2 | S3 | Single 3 | bomb_max=11\n", encoding="utf-8")
    with pytest.raises(GoldenSyntaxError, match=r"compare\.txt:2: .*bomb_max"):
        parse_readings_file(bad)


@pytest.mark.parametrize("case", READING_CASES, ids=_id)
def test_readings(case: ReadingCase) -> None:
    """``readings`` returns exactly the expected distinct readings, of exactly these cards."""
    combos = _engine_reading().readings(case.cards, case.level, case.rules)
    got = [(c.type, c.rank) for c in combos]
    where = f"{case.line}\n  cards {format_cards(case.cards)!r} at level {rank_name(case.level)}"
    assert len(got) == len(set(got)), f"{where}\n  duplicate readings: {_show(got)}"
    assert set(got) == case.expected, (
        f"{where}\n  engine:   {_show(set(got))}\n  expected: {_show(case.expected)}"
    )
    for c in combos:
        assert c.cards == case.cards, f"{where}\n  {c.describe()} holds other cards"


@pytest.mark.parametrize("case", CHOOSE_CASES, ids=_id)
def test_choose_reading(case: ChooseCase) -> None:
    """``choose_reading`` takes the legal reading that ranks highest (RULES.md §5)."""
    choose = _engine_reading().choose_reading
    where = f"{case.line}\n  cards {format_cards(case.cards)!r} at level {rank_name(case.level)}"
    if case.expected is None:
        with pytest.raises(GuandanError):
            got = choose(case.cards, case.level, case.to_beat, case.rules)
            pytest.fail(f"{where}\n  engine chose {got.describe()}, expected no legal reading")
        return
    got = choose(case.cards, case.level, case.to_beat, case.rules)
    assert (got.type, got.rank) == case.expected, (
        f"{where}\n  engine chose {got.describe()}, expected {_show({case.expected})}"
    )
    assert got.cards == case.cards, f"{where}\n  the chosen reading holds other cards"


@pytest.mark.parametrize("case", COMPARE_CASES, ids=_id)
def test_compare(case: CompareCase) -> None:
    """``Combo.beats`` agrees with the table (RULES.md §4)."""
    got = case.a.beats(case.b, case.level)
    assert got is case.beats, f"{case.line}\n  engine says A beats B: {got}, expected {case.beats}"
