"""The rules engine's refusals in the reader's language: an engine error carries a key and
values (``engine/errors.py``), the catalogue's ``engine`` domain words them, and a refused
``.gdn`` record reads in Chinese with no untranslated word, in English as the engine
always worded it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_cli_refusals_field_gdn import GOLDEN, zh_words_left
from test_cli_refusals_lang import run

from duplicate.gdn import loads
from duplicate.i18n import catalogue, check_catalogue, engine_phrase, gettext
from engine.cards import parse_cards
from engine.combo import ComboType
from engine.deal import Deal
from engine.errors import GuandanError
from engine.seat import Seat

ENGINE = Path(__file__).parent.parent / "engine"

#: the first play of the golden record's first deal (E leads) and the second (S follows)
FIRST = "E ThreeWithTwo 5 H5 D5 H5 SA SA"
SECOND = "S ThreeWithTwo J H4 D4 HJ CJ CJ"


def _left(line: str) -> list[str]:
    """Untranslated words, the record's tags, card tokens and combination types aside."""
    for name in sorted((t.record_name for t in ComboType), key=len, reverse=True):
        line = line.replace(name, " ")
    return zh_words_left(re.sub(r"\b(?:[SHCD][2-9TJQKA]|SB|HR)\b", " ", line))


@pytest.mark.parametrize(("name", "old", "new", "zh_words", "en_words"), [
    ("turn.gdn", FIRST, "W" + FIRST[1:], ":7：西家：西家不该出牌：现在轮到东家",
     ":7: seat W: W acted out of turn: it is E's turn"),
    ("held.gdn", FIRST, FIRST[:-2] + "HR", ":7：东家：东家手中没有 HR（出的是 H5 H5 D5 SA HR）",
     ":7: seat E: E does not hold HR (plays H5 H5 D5 SA HR)"),
    ("beat.gdn", SECOND, "S ThreeWithTwo 4 S4 H4 D4 H6 H6",
     ":8：南家：南家的 ThreeWithTwo 4（S4 H4 D4 H6 H6）压不过东家的 ThreeWithTwo 5",
     ":8: seat S: S's ThreeWithTwo 4 (S4 H4 D4 H6 H6) does not beat E's ThreeWithTwo 5"),
    ("token.gdn", SECOND, SECOND[:-2] + "XX", ":8：南家：牌“XX”无效：一张牌写作花色字母加点数",
     ":8: seat S: invalid card 'XX': a card is a suit S H C D and a rank 2-9 T J Q K A"),
    ("reading.gdn", SECOND, "S Pair 5 H6 H6",
     ":8：南家：南家的出牌不是这些牌的有效读法：打2时 H6 H6 不是 Pair 5：这些牌可读作 Pair 6",
     ":8: seat S: S's play is not a valid reading: H6 H6 is not Pair 5 at level 2: it reads as "
     "Pair 6"),
    ("lead.gdn", FIRST, "E PASS", ":7：东家：东家首出，不能过：首出者必须出牌",
     ":7: seat E: E leads and may not pass: the leader must play"),
])
def test_replay_refusal_in_chinese_and_english(
    tmp_path: Path, name: str, old: str, new: str, zh_words: str, en_words: str
) -> None:
    deal = GOLDEN.read_text(encoding="utf-8").split("\n\n")[0]
    assert old in deal
    path = tmp_path / name
    path.write_text(deal.replace(old, new, 1) + "\n", encoding="utf-8")
    code, zh = run("--lang", "zh", "replay", str(path))
    assert code == 1 and zh_words in zh, zh
    for line in (x for x in zh.splitlines() if zh_words in x):  # the row and the summary
        assert _left(line.split(name)[-1]) == [], line
    code, en = run("replay", str(path))
    assert code == 1 and f"Error: 1 of 1 deal not replayed; first: {path}{en_words}" in en, en


def _keys_raised() -> set[str]:
    found: set[str] = set()
    for path in ENGINE.glob("*.py"):
        found |= set(re.findall(r'"(engine\.[a-z_]+)"', path.read_text(encoding="utf-8")))
    return found


def test_every_key_the_engine_raises_is_in_the_engine_domain() -> None:
    keys = _keys_raised()
    assert len(keys) > 30 and "engine.out_of_turn" in keys
    words = catalogue()
    assert sorted(k for k in keys if k not in words) == []
    assert sorted(k for k in words if k.startswith("engine.") and k not in keys) == []
    assert check_catalogue() == []


def _errors() -> list[GuandanError]:
    """Engine errors of many kinds, raised by the engine itself."""
    out: list[GuandanError] = []
    calls = [
        lambda: parse_cards("S5 XX"),
        lambda: parse_cards("S5 S5 S5"),
        lambda: Seat.parse("Q"),
        lambda: ComboType.from_name("Flush"),
    ]
    record = loads(GOLDEN.read_text(encoding="utf-8").split("\n\n")[0], strict=True)[0]
    deal = Deal(record.hands, record.level, record.leader)
    calls += [
        lambda: deal.pass_(Seat.W),
        lambda: deal.pass_(),
        lambda: deal.play_cards(parse_cards("HR"), seat=Seat.E),
        lambda: deal.result(),
    ]
    for call in calls:
        try:
            call()
        except GuandanError as exc:
            out.append(exc)
    return out


def test_the_catalogue_english_is_the_engine_message() -> None:
    errors = _errors()
    assert len(errors) == 8
    for exc in errors:
        assert exc.key is not None
        said = engine_phrase(exc)
        assert not isinstance(said, str)
        assert str(said) == gettext("en", exc.key, **exc.values)
        # a deal's error adds where it stands; the phrase is the reason before it
        assert str(exc) == str(said) or str(exc).startswith(f"{said} [position ")
        assert _left(said.text("zh")) == [], said.text("zh")
    assert engine_phrase(ValueError("plain")) == "plain"


def test_a_record_sent_to_the_hall_is_refused_in_the_readers_language(tmp_path: Path) -> None:
    """The check a table's phone report goes through (``prepare_text``, then the hall's
    ``hall.err.record_bad``): the engine's reason in Chinese, the English whole."""
    from duplicate.errors import DuplicateError
    from duplicate.events.imports import prepare_text

    deal = GOLDEN.read_text(encoding="utf-8").split("\n\n")[0]
    with pytest.raises(DuplicateError) as info:
        prepare_text(deal.replace(FIRST, "W" + FIRST[1:], 1), "report.gdn")
    english = str(info.value)
    assert english.startswith("report.gdn:1: board 1, room ?: does not replay: report.gdn:7: "
                              "seat W: W acted out of turn: it is E's turn [position N:")
    zh = info.value.text("zh")
    assert zh.endswith("report.gdn:7：西家：西家不该出牌：现在轮到东家"), zh
    assert _left(zh.replace("?", " ")) == [], zh


def test_a_bad_record_from_a_tables_phone_is_refused_in_its_language(migrated_url: str) -> None:
    from helpers.hall import open_hall, refused
    from test_hall_truth import _record

    for h in open_hall(migrated_url):
        text, finish = _record(h, 1, "open", 1)
        head, plays = text.split("[Play]\n", 1)
        first = plays.split("\n", 1)[0]
        wrong = "NESW"[("NESW".index(first[0]) + 1) % 4]  # the next seat plays first
        bad = head + "[Play]\n" + wrong + plays[1:]
        url = f"/api/table/{h.token(1, 'open', 'report')}/reports"
        body = {"board": 1, "finish": finish, "record": bad}
        zh = refused(h.client.post(url + "?lang=zh", json=body), 422)["message"]
        seats = {"N": "北", "E": "东", "S": "南", "W": "西"}
        assert f"{seats[wrong]}家不该出牌：现在轮到{seats[first[0]]}家" in zh, zh
        assert _left(zh) == [], zh
        en = refused(h.client.post(url, json=body), 422)["message"]
        assert f"{wrong} acted out of turn: it is {first[0]}'s turn [position " in en, en
