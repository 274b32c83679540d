"""The JSON form's refusals (duplicate.gdn.from_json, loads_json) in the reader's
language: every one a catalogue phrase, Chinese with no English left, English as it always
read."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from test_cli_click_words import english_runs
from test_gdn import _canonical_text

from duplicate import gdn
from duplicate.gdn import GdnError
from duplicate.i18n import Phrase


def _obj() -> dict[str, Any]:
    return gdn.to_json(gdn.loads(_canonical_text())[0])


def chinese_left(text: str) -> list[str]:
    """English words of a Chinese refusal: quoted tokens, card tokens, the file's name,
    JSON and the placeholders' ``U+0007 (BEL)`` aside."""
    text = re.sub(r"'[^']*'|“[^”]*”|\"[^\"]*\"|\bd\.json\b|\bJSON\b|U\+[0-9A-F]{4}( \(\w+\))?", " ", text)
    text = re.sub(r"\b(?:[SHCD][2-9TJQKA]|SB|HR)\b", " ", text)
    return re.findall(r"[A-Za-z]{2,}", text)


CASES: list[tuple[Callable[[dict[str, Any]], Any], str, str]] = [
    (lambda o: o.update(level=5), "JSON: 'level' is a string", "JSON：'level' 须是字符串"),
    (lambda o: o.update(extra=1), "JSON: unknown key(s) extra", "JSON：未知的键：extra"),
    (lambda o: o["tags"].update(Level="2"), "JSON: tag Level is a key of its own, not one of "
     "'tags'", "JSON：标签 'Level' 有自己的键，不放在 'tags' 里"),
    (lambda o: o["hands"].pop("W"), "JSON: 'hands' maps each of N, E, S, W to a list of cards",
     "JSON：'hands' 须给出北、东、南、西四家各自的牌的列表"),
    (lambda o: o["hands"].update(N=["S2"]), "JSON: the hand of N has 1 cards, not 27",
     "JSON：北家的手牌有1张，不是27张"),
    (lambda o: o["plays"][0].update(type="Blob"), "JSON: play 1: unknown combination type "
     "'Blob'", "JSON：第 1 手出牌：未知的牌型“Blob”"),
    (lambda o: o["plays"][0].pop("rank"), "JSON: play 1: a play declares both 'type' and "
     "'rank', or neither", "JSON：第 1 手出牌：'type' 和 'rank' 要么都写，要么都不写"),
    (lambda o: o["plays"][3].update(cards=["S2"]), "JSON: play 4: a pass has no cards, type "
     "or rank", "JSON：第 4 手出牌：过牌没有牌、牌型或点数"),
    (lambda o: o.update(result={"side": "NE", "levels": 1}),
     "JSON: invalid Result side 'NE': expected \"NS\" or \"EW\"",
     "JSON：结果中的一方“NE”无效：应为 \"NS\" 或 \"EW\""),
    (lambda o: o.update(result={"side": "NS"}),
     "JSON: 'result' is {\"side\": \"NS\" or \"EW\", \"levels\": 1..4}",
     "JSON：'result' 须是 {\"side\": \"NS\" 或 \"EW\", \"levels\": 1..4}"),
    (lambda o: o.update(finish="N S"), "JSON: 'finish' is a list of seats",
     "JSON：'finish' 须是座位的列表"),
    (lambda o: o.update(comments=["a\x07b"]), "JSON: a comment holds a control character "
     "U+0007", "JSON：一条注释含有控制字符 U+0007"),
    (lambda o: o["plays"][0].update(seat="Q"), "JSON: play 1: invalid seat 'Q'",
     "JSON：第 1 手出牌："),
    (lambda o: o["plays"][0].update(cards=["Q9"]), "seat N: JSON: invalid card 'Q9'",
     "JSON：牌“Q9”无效"),
]


@pytest.mark.parametrize("n", range(len(CASES)))
def test_a_json_refusal_in_both_languages(n: int) -> None:
    mutate, english, chinese = CASES[n]
    obj = _obj()
    mutate(obj)
    with pytest.raises(GdnError) as info:
        gdn.from_json(obj, file="d.json")
    assert isinstance(info.value.worded, Phrase)
    assert english in str(info.value)
    zh = info.value.text("zh")
    assert chinese in zh, zh
    assert chinese_left(zh.replace("extra", "")) == [], zh  # the key the record holds
    assert english_runs(zh) == [], zh


@pytest.mark.parametrize(("text", "english", "chinese"), [
    ('[{"tags": }]', "JSON: not valid JSON: Expecting value: line 1 column 11 (char 10)",
     "JSON：不是有效的 JSON：第 1 行第 11 列（第 10 个字符）：这里应有一个值"),
    ('{"a": 1} x', "Extra data: line 1 column 10", "有多余的内容"),
    ('[' * 100_000, "JSON: arrays or objects nested too deeply", "JSON：数组或对象嵌套太深"),
    ("[1]", "JSON: a deal is a JSON object", "JSON：一副牌须是一个 JSON 对象"),
])
def test_text_that_is_no_json(text: str, english: str, chinese: str) -> None:
    with pytest.raises(GdnError) as info:
        gdn.loads_json(text, file="d.json")
    assert english in str(info.value)
    zh = info.value.text("zh")
    assert chinese in zh and chinese_left(zh) == [], zh
