"""A board's comparison as a few lines for a terminal, in a player's words and in the
language asked (``guandan compare``): results (南北升2级), finishes (头游东、二游西), the swing,
the first divergence with what each room did, cards in the one convention of
:mod:`duplicate.i18n.game` (10, 大王, a wild heart where it stands)."""

from __future__ import annotations

from duplicate.compare import BoardComparison
from duplicate.i18n import game as vocab
from duplicate.i18n import translator
from duplicate.i18n.stored import who_said


def headline(c: BoardComparison, lang: str = "en") -> list[str]:
    """The comparison's headline lines (``compare.headline`` in words)."""
    t = translator(lang)
    lv = c.level
    def label(room: str) -> str:
        key = room.lower()
        return t(f"report.room.{key}") if key in ("open", "closed") else room

    rooms = []
    for r in c.rooms:
        # a double down: the result names it (南北升3级（东西双下）), the order says it not again
        dd = r.result_ns is not None and abs(r.result_ns) >= 3
        rooms.append(t("compare.room", room=label(r.room), result=vocab.result_text(r.result_ns, lang),
                       finish=vocab.finish_text(r.finish[:2] if dd else r.finish, lang)))
    lines = [t("compare.board", board=c.board or "?", level=vocab.level_text(lv, lang),
               leader=vocab.seat_name(c.leader, lang))]
    lines += [f"  {r}" for r in rooms]
    for r in c.rooms:
        if r.ruling is not None:
            lines.append("  " + t("compare.room_note", room=label(r.room), note=t(
                "report.ruling.line", result=vocab.result_text(r.ruling.result_ns, lang),
                by=who_said(r.ruling.by, lang), reason=r.ruling.reason)))
    if c.forfeited_by:  # an arena's agent did not come back: the board is scored as conceded
        lines.append("  " + t("compare.forfeit", who=c.forfeited_by))
    if c.swing is not None:
        lines.append("  " + t("compare.swing", swing=f"{c.swing:+d}" if c.swing else "0"))
    d = c.divergence
    if d is None:
        lines.append("  " + t("compare.same"))
        return lines
    if d.to_beat is None:
        situation = t("report.div.leads")
    else:
        by = vocab.seat_name(d.to_beat_by, lang) if d.to_beat_by is not None else "—"
        situation = t("report.div.to_beat", play=vocab.describe_play(d.to_beat, lv, lang), seat=by)
    lines.append("  " + t("compare.diverge", index=d.index + 1,
                          seat=vocab.seat_name(d.turn, lang), situation=situation))
    for room, m in zip(c.rooms, d.moves, strict=True):
        did = (t("report.movie.finished") if m is None else
               t("compare.seat_play", seat=vocab.seat_name(m.seat, lang),
                 play=vocab.play_text(m.combo, lv, lang)))
        lines.append("    " + t("compare.room_note", room=label(room.room), note=did))
    lines.append("  " + t("compare.position", position=vocab.position_text(d.position, lv, lang)))
    return lines
