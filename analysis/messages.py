"""User-facing strings of the analysis (English and Chinese), key -> {"en", "zh"}.

Kept in one small dict so that they can move to a project-wide catalogue later.
"""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "header": {
        "en": "Board {board}, room {room}, level {level}: actual result N-S {result}",
        "zh": "第{board}副，{room}室，打{level}：实际结果 南北 {result}",
    },
    "par": {
        "en": "Par (best play by all four from action {ply}): N-S {value}",
        "zh": "标准结果（自第{ply}手起四家最佳打法）：南北 {value}",
    },
    "no_par": {
        "en": "Par: not reached within the budget",
        "zh": "标准结果：在预算内未能算出",
    },
    "legend": {
        "en": "Values: N-S levels with all four hands known and best play (+3 = N-S double "
              "down the opponents, -1 = E-W up one); ~v±e is an estimate from playouts; "
              "? lost one level, ?? two or more.",
        "zh": "数值：四家明牌、最佳打法下南北的升级数（+3 即东西双下，-1 即东西升一级）；"
              "~v±e 为模拟估计；? 损失一级，?? 损失两级以上。",
    },
    "from": {
        "en": "From action {ply} (trick {trick}):",
        "zh": "自第{ply}手（第{trick}圈）起：",
    },
    "row": {
        "en": "{ply:>4} t{trick:<3} {seat}  {action:<32} {before:>6} -> {after:<6} {mark}",
        "zh": "{ply:>4} 第{trick:<3}圈 {seat}  {action:<32} {before:>6} -> {after:<6} {mark}",
    },
    "best": {
        "en": "        best: {plays}",
        "zh": "        最佳：{plays}",
    },
    "pass": {"en": "PASS", "zh": "过"},
    "nothing": {
        "en": "no record to analyse in {file}",
        "zh": "{file} 中没有可分析的牌局记录",
    },
    "rooms": {
        "en": "Board {board}: first divergence at action {ply}; each room's choice there:",
        "zh": "第{board}副：第{ply}手起两室打法不同；各室在此的选择：",
    },
    "room_choice": {
        "en": "  room {room}: {seat} {action}  worth N-S {value}{mark}",
        "zh": "  {room}室：{seat} {action}  价值 南北 {value}{mark}",
    },
    "room_swing": {
        "en": "  room {room}, action {ply}: {seat} {action}  {before} -> {after} {mark}",
        "zh": "  {room}室，第{ply}手：{seat} {action}  {before} -> {after} {mark}",
    },
}


def message(key: str, lang: str = "en", **values: object) -> str:
    """The message ``key`` in ``lang`` (``en`` or ``zh``), formatted with ``values``."""
    entry = MESSAGES[key]
    return entry.get(lang, entry["en"]).format(**values)
