"""The tribute phase's refusals (engine.match) in the reader's language: each carries a
key and values (engine.errors; lists and what is still owed as parts with keys of their
own), the ``engine`` catalogue domain words them, and the English is the engine's own."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from test_engine_words import _left
from test_match import k, phase

from duplicate.i18n import Phrase, engine_phrase
from engine.errors import TributeError
from engine.seat import Seat

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def _cases() -> list[tuple[Callable[[], object], str, str]]:
    single = phase("N E S W", {N: "S3 S4 SJ", W: "S5 DA SK C9", E: "S6", S: "S7"})
    double = phase("N S W E", {E: "SA S6", W: "SK S9", N: "S3 S4", S: "S7 S8"})
    wild = phase("N E S W", {W: "H7 S7 SA S3", N: "S4"}, level="7")
    equal = phase("N E S W", {W: "H7 H7 SA CA S3", N: "S4"}, level="7")
    resisted = phase("N E S W", {W: "HR HR S3", N: "S4"})
    done = phase("N E S W", {N: "S3 S4 SJ", W: "S5 DA SK C9", E: "S6", S: "S7"})
    done.tribute(W, k("DA"))
    return [
        (lambda: single.tribute(W, k("SK")), "W cannot pay SK as tribute: the tribute is the "
         "highest card in level order, wild hearts excepted (RULES.md §9); must pay DA",
         "西家不能进贡 SK：进贡的是按级牌顺序最大的一张牌，逢人配除外（§9）；应进贡 DA"),
        (lambda: single.tribute(E, k("S6")), "E owes no tribute: only W pays (§9)",
         "东家不用进贡：只有西家进贡（§9）"),
        (lambda: double.tribute(N, k("S3")), "N owes no tribute: only W and E pay (§9)",
         "北家不用进贡：只有西家、东家进贡（§9）"),
        (lambda: single.give_return(N, k("S3")), "N cannot return yet: W owes a tribute",
         "北家还不能还牌：西家该进贡"),
        (lambda: double.give_return(N, k("S3")),
         "N cannot return yet: W owes a tribute; E owes a tribute",
         "北家还不能还牌：西家该进贡；东家该进贡"),
        (lambda: single.leader, "the tribute phase is not complete: W owes a tribute",
         "进贡还没完成：西家该进贡"),
        (lambda: single.give_return(S, k("S7")), "S owes no return card (§9)",
         "南家不用还牌（§9）"),
        (lambda: done.give_return(N, k("SJ")), "N cannot return SJ: the return card is of "
         "rank T or below, or the lowest card when there is none (RULES.md §9); may return "
         "S3 or S4", "北家不能还 SJ：还的牌不大于10，没有这样的牌时还最小的一张（§9）；可还 S3 或 S4"),
        (lambda: done.give_return(N, k("S9")), "N cannot give S9 as return: not in their hand",
         "北家不能还 S9：手中没有这张牌"),
        (lambda: done.tribute(W, k("SK")), "W has already paid tribute (DA)",
         "西家已经进贡了（DA）"),
        (lambda: wild.tribute(W, k("H7")), "W cannot pay H7 as tribute: wild hearts are never "
         "demanded as tribute (RULES.md §9); must pay S7",
         "西家不能进贡 H7：逢人配（红心级牌）不用进贡（§9）；应进贡 S7"),
        (lambda: equal.tribute(W, k("S3")), "W cannot pay S3 as tribute: the tribute is the "
         "highest card in level order, wild hearts excepted (RULES.md §9); must pay SA or CA",
         "西家不能进贡 S3：进贡的是按级牌顺序最大的一张牌，逢人配除外（§9）；应进贡 SA 或 CA"),
        (lambda: resisted.tribute(W, k("HR")), "W owes no tribute: the tribute is resisted "
         "(抗贡, §9), the payers hold both big jokers", "西家不用进贡：进贡方持有两张大王，抗贡（§9）"),
        (lambda: single.tribute("X", k("S5")),  # type: ignore[arg-type]
         "tribute: 'X' is not a seat (N, E, S or W)", "进贡：“X”不是座位（北、东、南、西）"),
        (lambda: single.tribute(W, 999), "W's tribute: 999 is not a card kind",
         "西家的进贡：999 不是一种牌"),
    ]


@pytest.mark.parametrize("n", range(15))
def test_tribute_refusals_in_both_languages(n: int) -> None:
    call, english, chinese = _cases()[n]
    with pytest.raises(TributeError) as info:
        call()
    assert str(info.value) == english  # the engine's English, unchanged
    said = engine_phrase(info.value)
    assert isinstance(said, Phrase), f"no key for {english!r}"
    assert str(said) == english
    assert said.text("zh") == chinese
    assert _left(said.text("zh")) == []


def test_every_tribute_error_of_the_engine_has_a_key() -> None:
    import engine.match

    source = open(engine.match.__file__, encoding="utf-8").read()
    assert "raise TributeError(" not in source  # each is made by _error(english, key, ...)
