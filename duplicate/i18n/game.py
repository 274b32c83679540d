"""Guandan in words, in one card convention, for every human output (CLI, report, hand
records, the service).

The convention: ranks 2..9, **10** (never T), J Q K A; suits ♠ ♥ ♣ ♦ (hearts and diamonds
red); the jokers 大王 / 小王 (Red Joker / Black Joker in English); a wild heart (逢人配,
RULES.md §2) is drawn with its own face, *in the place of the card it stands for*, and
marked as wild. Words (头游, 双下, 升3级, 三连对, 接风 ...) come from the message catalogue
(``duplicate/locale``, domains ``game`` and ``core``), never from strings in code, and
follow docs/GLOSSARY.md: a sequence is written out as the seed texts write it (三连对
AA2233, 钢板333444, 顺子10-J-Q-K-A: its highest card last), a double down names the losing
side (南北双下), and Chinese text takes Chinese punctuation (、，（）).

:class:`Face` is one card as drawn: templates (``templates/cards.html``) and text output
both take faces, so the two never disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from duplicate.i18n.catalogue import catalogue, translator
from engine.cards import (
    KIND_HR,
    KIND_SB,
    KIND_TOKENS,
    Cards,
    Kind,
    iter_kinds,
    level_value,
    parse_cards,
    parse_level,
    sort_key,
    wild_kind,
)
from engine.combo import Combo, ComboType
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Seat
from engine.uses import CardUse, UseError, card_uses, sequence_ranks

SUIT_GLYPHS = "♠♥♣♦"
SUIT_KEYS = "SHCD"
RANK_LABELS: tuple[str, ...] = (*"23456789", "10", "J", "Q", "K", "A")
_RED_SUITS = (1, 3)


def rank_label(rank: int, lang: str = "en") -> str:
    """A rank index as a player writes it: ``10`` for ten, 大王/小王 for the jokers."""
    if rank < 13:
        return RANK_LABELS[rank]
    t = translator(lang)
    return t("card.SB") if rank == 13 else t("card.HR")


@dataclass(frozen=True, slots=True)
class Face:
    """One card as drawn: ``text`` (``10♥``, ``大王``), ``red``, ``joker``, ``wild`` and,
    for a wild heart in a play, ``stands_for`` (``5``, ``♠5``, or ``""`` as itself)."""

    kind: Kind
    text: str
    title: str
    red: bool
    joker: bool
    wild: bool
    stands_for: str | None = None

    @property
    def token(self) -> str:
        """The FORMAT.md token (``HT``), for machines."""
        return KIND_TOKENS[self.kind]

    def classes(self) -> str:
        """CSS classes of the card (``card red wild``)."""
        out = ["card"]
        if self.red:
            out.append("red")
        if self.joker:
            out.append("joker")
        if self.wild:
            out.append("wild")
        return " ".join(out)

    def to_dict(self) -> dict[str, object]:
        """JSON form for the movie script: text, classes, title."""
        return {"t": self.text, "c": self.classes(), "h": self.title, "k": self.token}


def face(kind: Kind, level: int, lang: str = "en", use: CardUse | None = None) -> Face:
    """The face of ``kind`` at ``level``; ``use`` says what a wild heart stood for in a play."""
    t = translator(lang)
    if kind in (KIND_SB, KIND_HR):
        key = "HR" if kind == KIND_HR else "SB"
        return Face(kind, t(f"card.{key}_short"), t(f"card.{key}"), kind == KIND_HR, True, False)
    rank, suit = kind >> 2, kind & 3
    text = RANK_LABELS[rank] + SUIT_GLYPHS[suit]
    wild = kind == wild_kind(level)
    title = f"{t('suit.' + SUIT_KEYS[suit])} {RANK_LABELS[rank]}"
    stands: str | None = None
    if wild:
        title = t("card.title_wild", card=title, wild=t("card.wild"))
        if use is not None:
            if use.as_itself(level):
                stands = ""
                title = t("card.title_use", card=text, use=t("card.wild_itself"))
            else:
                stands = ("" if use.suit is None else SUIT_GLYPHS[use.suit]) + RANK_LABELS[use.rank]
                title = t("card.title_use", card=text, use=t("card.wild_as", card=stands))
    return Face(kind, text, title, suit in _RED_SUITS, False, wild, stands)


def hand_faces(cards: Cards, level: int, lang: str = "en", high_first: bool = False) -> list[Face]:
    """A hand's faces in level order (RULES.md §2: the level rank above A, wild hearts with
    it), low to high or high to low."""
    kinds = sorted(iter_kinds(cards), key=lambda k: sort_key(k, level), reverse=high_first)
    return [face(k, level, lang) for k in kinds]


def play_faces(combo: Combo, level: int, lang: str = "en") -> list[Face]:
    """A play's cards in the order a player reads them: a sequence low to high with each
    wild heart in the place it stands for; any other play in level order, wilds last."""
    try:
        uses = card_uses(combo, level)
    except UseError:  # not a reading the comparison knows: plain level order
        return hand_faces(combo.cards, level, lang)
    if combo.type.is_sequence:
        ranks = _sequence_slots(combo)
        ordered = sorted(uses, key=lambda u: (ranks.get(u.rank, 99), u.kind == wild_kind(level)))
    else:
        ordered = sorted(
            uses, key=lambda u: (u.kind == wild_kind(level), level_value(u.rank, level), u.kind)
        )
    return [face(u.kind, level, lang, u if u.kind == wild_kind(level) else None) for u in ordered]


def _sequence_slots(combo: Combo) -> dict[int, int]:
    """Rank -> position in a sequence (A low in A-2-3-4-5)."""
    length = {ComboType.THREE_PAIR: 3, ComboType.TWO_TRIPS: 2}.get(combo.type, 5)
    return {r: i for i, r in enumerate(sequence_ranks(combo.rank, length))}


def faces_text(faces: Sequence[Face]) -> str:
    """Faces as plain text for a terminal: ``3♠ 4♣ 5♥(=5) 6♦ 7♠``; wilds marked ``*``."""
    out = []
    for f in faces:
        mark = ""
        if f.wild:
            mark = "*" if not f.stands_for else f"(={f.stands_for})"
        out.append(f.text + mark)
    return " ".join(out)


def combo_name(combo: Combo, lang: str = "en") -> str:
    """The combination's name: 三连对, 钢板, 天王炸 / three pairs, plate, joker bomb."""
    return translator(lang)(f"combo.{combo.type.record_name}")


def sequence_text(combo: Combo) -> str:
    """A sequence's ranks as the seed texts write them, low to high so that its highest
    card ends it: ``AA2233``, ``333444``, ``10-J-Q-K-A``, ``A-2-3-4-5`` (a pair or triple
    with a 10 in it is set off by hyphens: ``1010-JJ-QQ``)."""
    per = {ComboType.THREE_PAIR: 2, ComboType.TWO_TRIPS: 3}.get(combo.type, 1)
    length = {ComboType.THREE_PAIR: 3, ComboType.TWO_TRIPS: 2}.get(combo.type, 5)
    groups = [RANK_LABELS[r] * per for r in sequence_ranks(combo.rank, length)]
    return "-".join(groups) if per == 1 or any("10" in g for g in groups) else "".join(groups)


def describe_play(combo: Combo | None, level: int, lang: str = "en") -> str:
    """A play in words, its type then its rank as the seeds write them (单牌3, 对3):
    ``对子10`` / ``pair 10``, ``五个9（炸弹）`` / ``5-card bomb of 9``; a sequence written out low to high
    as the seed texts do (``三连对AA2233``, ``顺子10-J-Q-K-A`` / ``three pairs AA2233``)."""
    t = translator(lang)
    if combo is None:
        return t("play.pass")
    if combo.type == ComboType.FOUR_KINGS:
        return combo_name(combo, lang)
    if combo.type.is_sequence:
        return t("play.sequence", combo=combo_name(combo, lang), cards=sequence_text(combo))
    rank = rank_label(combo.rank, lang)
    if combo.type == ComboType.BOMB:
        # as players count a bomb's cards: 四个2, 六个10 (004: "如四个8，六个10")
        return t("play.bomb", count=t(f"bomb.count.{combo.size}"), rank=rank)
    return t("play.described", combo=combo_name(combo, lang), rank=rank)


def use_text(use: CardUse, level: int, lang: str = "en") -> str:
    """What a wild heart stood for, as a player says it: ``♠6`` (in a straight flush),
    ``6``, or 本身 / itself: never a token."""
    t = translator(lang)
    if use.as_itself(level):
        return t("card.itself")
    return ("" if use.suit is None else SUIT_GLYPHS[use.suit]) + rank_label(use.rank, lang)


def wild_use_text(use: CardUse, level: int, lang: str = "en") -> str:
    """A wild heart and what it stood for, as players say it: ``红桃2当6``, ``红桃2当本身``
    (``♥2 as 6``, ``♥2 as itself``)."""
    return translator(lang)("card.wild_use", level=rank_label(level, lang),
                            card=use_text(use, level, lang))


def play_text(combo: Combo | None, level: int, lang: str = "en") -> str:
    """A play in words and cards, for a terminal: ``three pairs 10  10♠ 10♣ J♥ J♦ Q♠ Q♠``."""
    if combo is None:
        return describe_play(None, level, lang)
    return f"{describe_play(combo, level, lang)}  {faces_text(play_faces(combo, level, lang))}"


def seat_name(seat: Seat, lang: str = "en") -> str:
    """北 东 南 西 / North East South West."""
    return translator(lang)(f"seat.{seat.name}")


def side_name(ns: bool, lang: str = "en") -> str:
    """南北 / 东西 (N–S / E–W)."""
    return translator(lang)("side.NS" if ns else "side.EW")


def direction_text(direction: str, lang: str = "en") -> str:
    """Where a pair of a pairs event sat, ``NS``, ``EW`` or ``NS+EW`` (both ways): as it is
    in English, in the reader's words in another language (南北, 东西, 南北、东西)."""
    if lang == "en":
        return direction
    sides = direction.split("+")
    if not all(s in ("NS", "EW") for s in sides):
        return direction
    return str(translator(lang)("list.sep").join(side_name(s == "NS", lang) for s in sides))


def result_text(ns_result: int | None, lang: str = "en", ns: str | None = None,
                ew: str | None = None) -> str:
    """A room's result from N–S's view in a player's words: ``南北升2级``, ``东西升3级（南北双下）``.

    ``ns``/``ew`` replace the side names (a team's name, say)."""
    t = translator(lang)
    if ns_result is None:
        return t("result.unfinished")
    winner_ns = ns_result > 0
    names = (ns or side_name(True, lang), ew or side_name(False, lang))
    winner, loser = (names[0], names[1]) if winner_ns else (names[1], names[0])
    levels = abs(ns_result)
    if levels >= 3:
        return t("result.up_double_down", side=winner, levels=levels, loser=loser)
    return t("result.up", side=winner, levels=levels)


def place_name(place: int | None, lang: str = "en", double_down: bool = False) -> str:
    """头游 二游 三游 末游 / 1st out, 2nd out, 3rd out, last; a double down's last two
    (no place between them) 双下 / double down; a seat not out yet ``—``."""
    if place is None:
        return translator(lang)("place.double_down") if double_down else "—"
    return translator(lang)(f"place.{place}")


def finish_text(finish: Sequence[Seat], lang: str = "en", double_down: bool = False) -> str:
    """A finishing order in words, as players write it: ``头游东、二游西、三游北、末游南`` /
    ``1st out East, 2nd out West, ...``; after a double down the last two have no order
    between them and are named as their side: ``头游东、二游西，南北双下``."""
    t = translator(lang)
    if not finish:
        return "—"
    dd = double_down and len(finish) == 4
    shown = finish[:2] if dd else finish
    order = t("list.sep").join(
        t("finish.place", place=place_name(i + 1, lang), seat=seat_name(seat, lang))
        for i, seat in enumerate(shown)
    )
    if dd:
        losers = side_name(finish[2] in (Seat.N, Seat.S), lang)
        return t("finish.double_down", order=order, side=losers)
    return order


def level_text(level: int, lang: str = "en") -> str:
    """打7 / level 7 (打10, never T)."""
    return translator(lang)("word.level", rank=rank_label(level, lang))


def position_text(position: str, level: int, lang: str = "en") -> str:
    """The engine's one-line position (``N:SJ,DJ,… E:… level=… turn=…``) for a person:
    each seat's hand in faces, ``北：♠J ♦J …；东：…`` (the tokens stay for ``--json``)."""
    t = translator(lang)
    parts = []
    for item in position.split():
        seat, sep, cards = item.partition(":")
        if not sep or seat not in Seat.__members__:
            continue
        hand = parse_cards(cards.split(",")) if cards not in ("", "-") else 0
        shown = faces_text(hand_faces(hand, level, lang)) if hand else t("word.no_cards")
        parts.append(t("position.hand", seat=seat_name(Seat[seat], lang), cards=shown))
    return t("list.clause_sep").join(parts)


def points_text(value: float | int | None, vp: bool = False) -> str:
    """Points (match points, victory points, a progressive score) as people write them, the
    one format of the pages and the command line: match points ``2``, ``0``, ``12.5``
    (never ``2.0``); victory points (``vp``: the event's scale is a VP scale) always with
    two decimals, as the WBF writes them, ``7.20``, ``11.48``, ``10.00``, a sum of them
    too; nothing for none."""
    if value is None:
        return ""
    if vp:
        text = f"{float(value):.2f}"
        return "0.00" if text == "-0.00" else text
    text = f"{float(value):.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def schedule_text(schedule: str, lang: str = "en") -> str:
    """A board set's level schedule (``fixed:T``, ``fixed``, ``cycle``, ``random``) in
    words: ``打10`` / ``level 10``, 固定级牌 / ``fixed``, 轮换 / ``cycle``, 随机 / ``random``."""
    t = translator(lang)
    name, _, level = schedule.partition(":")
    if name == "fixed":
        return level_text(parse_level(level), lang) if level else t("schedule.fixed")
    key = f"schedule.{name}"
    return t(key) if key in catalogue() else schedule


def describe_rules(rules: Ruleset) -> str:
    """The rules in a few words: ``competition``, or the variants that differ from it as
    ``--variant`` takes them (``jiefeng_next=true, double_down_plus4=true``)."""
    base = COMPETITION.to_dict()
    changed = [
        f"{name}={str(value).lower() if isinstance(value, bool) else value}"
        for name, value in rules.to_dict().items()
        if base[name] != value
    ]
    return ", ".join(changed) if changed else "competition"


def rules_text(rules: Ruleset, lang: str = "en") -> str:
    """The rules in a few words for a person: in English as ``describe_rules`` gives them
    (``competition``, or the variants as ``--variant`` takes them, ``jiefeng_next=true``);
    in another language each variant that differs from the competition rules named in its
    words (RULES.md: 接风由下家领出, 双下升4级), or the competition rules' name."""
    if lang == "en":
        return describe_rules(rules)
    t = translator(lang)
    base = COMPETITION.to_dict()
    words = []
    for name, value in rules.to_dict().items():
        if base[name] == value:
            continue
        if isinstance(value, bool):
            words.append(t(f"out.rule.{name}.{str(value).lower()}"))
        elif name == "return_max_rank":
            words.append(t("out.rule.return_max_rank", rank=rank_label(int(value), lang)))
        elif name == "a_fail_limit" and value == 0:
            words.append(t("out.rule.a_fail_limit.never"))
        else:
            words.append(t(f"out.rule.{name}", value=value))
    return t("list.sep").join(words) if words else t("report.rules.competition")
