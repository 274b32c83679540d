"""A board's rooms as a "movie": the data ``static/movie.js`` renders step by step.

The page holds no future play in its DOM: it carries this JSON (initial hands and the
actions), and the script draws the position after the current step only — hands that
shrink as cards are played, the current trick in the middle, whose turn, card counts and
the 报牌 mark. The rooms step together by decision point (action index): step *k* shows
every room after its first *k* actions, so at the first divergence both rooms show the
same position and the next step shows the two choices side by side.

Everything shown is computed here with the engine (``duplicate.compare``), in the page's
language and the one card convention of :mod:`duplicate.i18n.game`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from duplicate.compare import BoardComparison, RoomSummary
from duplicate.i18n import game as vocab
from duplicate.i18n import translator
from duplicate.i18n.stored import who_said
from duplicate.review.model import Ruling
from engine.cards import Cards
from engine.combo import Combo, ComboType
from engine.moves import legal_readings
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Seat

BAOPAI = 10  # RULES.md §6: a count of 10 or fewer is reported (报牌)


def _faces(faces: Sequence[vocab.Face]) -> list[dict[str, object]]:
    return [f.to_dict() | ({"a": f.stands_for} if f.wild and f.stands_for else {}) for f in faces]


@lru_cache(maxsize=1 << 16)
def _play(combo: Combo | None, level: int, lang: str) -> dict[str, Any]:
    """A play's words and faces (cached: the same plays recur on every table of a board;
    callers copy before changing it)."""
    if combo is None:
        return {"d": vocab.describe_play(None, level, lang), "f": None}
    return {
        "d": vocab.describe_play(combo, level, lang),
        "f": _faces(vocab.play_faces(combo, level, lang)),
    }


@lru_cache(maxsize=1 << 12)
def _hand(cards: Cards, level: int, lang: str) -> list[dict[str, object]]:
    """A hand's faces as JSON (cached: every table of a board starts from the same hands)."""
    return _faces(vocab.hand_faces(cards, level, lang))


def _moves(room: RoomSummary, level: int, lang: str) -> list[dict[str, Any]]:
    leads = {t.steps[0].index for t in room.tricks}
    jiefeng = {room.tricks[i + 1].steps[0].index for i, t in enumerate(room.tricks) if t.jiefeng}
    counts = [27, 27, 27, 27]
    out = []
    for m in room.moves:
        before = counts[m.seat]
        counts[m.seat] = m.cards_left
        item = {"s": int(m.seat), "n": m.cards_left, **_play(m.combo, level, lang)}
        if m.index in leads:
            item["lead"] = 1
        if m.index in jiefeng:
            item["jf"] = 1
        if m.combo is not None and before > BAOPAI >= m.cards_left > 0:
            item["bao"] = 1
        out.append(item)
    return out


def _result(room: RoomSummary, lang: str, ruling: Ruling | None) -> dict[str, Any]:
    t = translator(lang)
    double_down = room.result_ns is not None and abs(room.result_ns) >= 3
    out: dict[str, Any] = {
        "finish": vocab.finish_text(room.finish, lang, double_down),
        "result": vocab.result_text(room.result_ns, lang),
    }
    if ruling is not None:
        out["ruled"] = t(
            "report.ruling.line", result=vocab.result_text(ruling.counted, lang),
            by=who_said(ruling.by, lang), reason=ruling.reason,
        )
    return out


def _seat_rows(comp: BoardComparison, lang: str) -> list[dict[str, Any]]:
    """Per seat and room, what each player did with the same cards (for a person)."""
    t = translator(lang)
    lv = comp.level
    rows = []
    for seat in Seat:
        rooms = []
        for r in comp.rooms:
            s = r.seats[seat]
            wilds = [
                t("report.seat.wild_use", play=vocab.describe_play(_combo_of(r, w.index), lv, lang),
                  use=vocab.wild_use_text(w.use, lv, lang))
                for w in s.wilds
            ]
            rooms.append({
                "player": s.player,
                "place": vocab.place_name(
                    s.place, lang, r.result_ns is not None and abs(r.result_ns) == 3
                ),
                "plays": s.plays, "passes": s.passes, "tricks": s.tricks_won, "leads": s.leads,
                "bombs": s.bombs + s.straight_flushes + s.joker_bombs,
                "jf": s.jiefeng_given, "wilds": wilds,
                "left": _hand(s.cards_left, lv, lang),
            })
        rows.append({"seat": vocab.seat_name(seat, lang), "rooms": rooms})
    return rows


def _combo_of(room: RoomSummary, index: int) -> Combo | None:
    return room.moves[index].combo if index < len(room.moves) else None


#: The order of the alternatives' groups at the divergence: the strong and long plays
#: first, the long runs of singles and pairs last.
GROUP_ORDER = (
    ComboType.FOUR_KINGS, ComboType.STRAIGHT_FLUSH, ComboType.BOMB, ComboType.TWO_TRIPS,
    ComboType.THREE_PAIR, ComboType.STRAIGHT, ComboType.THREE_WITH_TWO, ComboType.TRIPS,
    ComboType.PAIR, ComboType.SINGLE,
)
#: Most plays listed in one group (the rest are counted).
MAX_PER_GROUP = 12


def alternatives(comp: BoardComparison, rules: Ruleset, lang: str) -> dict[str, Any] | None:
    """The legal plays the engine offers the seat to act at the first divergence: each
    room's own choice first (always, whatever the list's length), then the others grouped
    by type, strong and long plays first (:data:`GROUP_ORDER`), at most
    :data:`MAX_PER_GROUP` a group with the rest counted."""
    div = comp.divergence
    if div is None:
        return None
    hand = div.hands[div.turn]
    plays = legal_readings(hand, comp.level, div.to_beat, rules)
    t = translator(lang)
    chosen = []
    keys: set[tuple[object, ...]] = set()
    for r, m in zip(comp.rooms, div.moves, strict=False):
        label = t("report.room." + r.room.lower()) if r.room.lower() in ("open", "closed") \
            else r.room
        if m is None:
            continue
        chosen.append({"room": label, **_play(m.combo, comp.level, lang)})
        if m.combo is not None:
            keys.add((m.combo.type, m.combo.rank, m.combo.size))
    groups = []
    for ctype in GROUP_ORDER:
        mine = [c for c in plays if c.type == ctype and (c.type, c.rank, c.size) not in keys]
        if not mine:
            continue
        groups.append({"name": vocab.combo_name(mine[0], lang), "count": len(mine),
                       "plays": [_play(c, comp.level, lang) for c in mine[:MAX_PER_GROUP]],
                       "more": max(0, len(mine) - MAX_PER_GROUP)})
    return {"count": len(plays) + (1 if div.to_beat is not None else 0), "playable": len(plays),
            "chosen": chosen, "groups": groups, "can_pass": div.to_beat is not None}


def movie_data(
    comp: BoardComparison,
    lang: str = "en",
    rules: Ruleset = COMPETITION,
    rulings: Sequence[Ruling] = (),
) -> dict[str, Any]:
    """The JSON the board page's movie is drawn from (see the module's doc)."""
    t = translator(lang)
    lv = comp.level
    by_room = {r.room.lower(): r for r in rulings}
    rooms = []
    for r in comp.rooms:
        rooms.append({
            "name": r.room,
            "key": r.room.lower(),
            "label": t("report.room." + r.room.lower()) if r.room.lower() in ("open", "closed")
            else r.room,
            "players": list(r.players),
            "moves": _moves(r, lv, lang),
            "end": _result(r, lang, by_room.get(r.room.lower())),
        })
    div = comp.divergence
    divergence = None
    if div is not None:
        to_beat = (t("report.div.leads") if div.to_beat is None else
                   t("report.div.to_beat", play=vocab.describe_play(div.to_beat, lv, lang),
                     seat=vocab.seat_name(div.to_beat_by, lang) if div.to_beat_by is not None
                     else "—"))
        divergence = {
            "index": div.index,
            "turn": int(div.turn),
            "situation": to_beat,
            "choices": [None if m is None else _play(m.combo, lv, lang) for m in div.moves],
            "alternatives": alternatives(comp, rules, lang),
        }
    return {
        "lang": lang,
        "level": vocab.level_text(lv, lang),
        "leader": int(comp.leader),
        "seats": [vocab.seat_name(s, lang) for s in Seat],
        "hands": [_hand(comp.hands[s], lv, lang) for s in Seat],
        "rooms": rooms,
        "divergence": divergence,
        "summary": _seat_rows(comp, lang),
        "words": {k: t("report.movie." + k) for k in _WORDS} | {k: t(v) for k, v in _PUNCT.items()}
        | {"hand_group": t("report.movie.hand_group", seat="{seat}", n="{n}")},
    }


_WORDS = ("step", "step_of", "step_at", "start", "end", "prev_step", "next_step", "prev_trick", "next_trick", "said_sep",
          "to_act", "baopai", "jiefeng", "pass", "trick",
          "diverge", "alternatives", "options", "options_pass", "more", "can_pass", "chosen", "player", "place",
          "plays", "passes", "tricks", "leads", "bombs", "jf", "wilds", "left", "finished",
          "summary", "region", "hands")
#: The movie's separators, from the page's language ("开室：三带二6", "Open room: full house 6").
_PUNCT = {"colon": "punct.colon", "open": "punct.open", "close": "punct.close",
          "list_sep": "report.analysis.list_sep"}


def movie_json(data: dict[str, Any]) -> str:
    """The data as JSON safe inside ``<script type="application/json">`` (no ``</``)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
