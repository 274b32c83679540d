"""The arena's user-facing strings in English and Chinese (zh-CN), key -> {"en", "zh"}.

Kept in one dict so that they can move to the project's message catalogue later.
:func:`text` gives one language, :func:`both` the two side by side.
"""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "listening": {
        "en": "arena listening on {url}<id>: waiting for {n} clients",
        "zh": "竞技场已在 {url}<id> 监听：等待 {n} 个客户端连接",
    },
    "match_line": {
        "en": "{a} against {b}: margin {margin:+d} over {boards} boards, match points {pa:g}-{pb:g}",
        "zh": "{a} 对 {b}：{boards} 副牌级差 {margin:+d}，场分 {pa:g}-{pb:g}",
    },
    "records": {"en": "records written to {path}", "zh": "牌谱已写入 {path}"},
    "abandoned": {"en": "match abandoned: {why}", "zh": "比赛中止：{why}"},
    "faults": {"en": "{n} client faults (see the log)", "zh": "客户端违规 {n} 次（见日志）"},
    "speed": {
        "en": "{deals} deals in {seconds:.1f} s ({rate:.1f} deals/s, {msgs:.0f} messages/s)",
        "zh": "{deals} 副牌用时 {seconds:.1f} 秒（每秒 {rate:.1f} 副，{msgs:.0f} 条消息）",
    },
    "standings": {"en": "standings", "zh": "排名"},
    "rating": {
        "en": ("rating (Bradley-Terry over board swings, fitted to 1e-10; prior: one virtual "
               "tie of each agent against a reference; 95% profile-likelihood interval)"),
        "zh": ("等级分（按每副牌级差的 Bradley-Terry 模型，拟合至 1e-10；先验：每个智能体与"
               "参照者各有一局虚拟平局；95% 轮廓似然区间）"),
    },
    "ordinary_line": {
        "en": "{a} (N-S) against {b} (E-W): {deals} deals, winner {winner}, levels {ln}-{le}",
        "zh": "{a}（南北）对 {b}（东西）：共 {deals} 副，胜方 {winner}，级数 {ln}-{le}",
    },
    "agent_done": {
        "en": "agent done: {episodes} deals (小局), {acts} actions, {games} games",
        "zh": "智能体结束：{episodes} 小局，{acts} 次出牌，{games} 场",
    },
    "seating_help": {
        "en": ("seat the agents by id: write a seating file, one line a table, the client ids "
               "at positions 0 1 2 3 ({a} {b} {a} {b}): '{line}', and run with --seating FILE; "
               "or have the clients connect as /game/{a}-1, /game/{b}-1, /game/{a}-2, "
               "/game/{b}-2; or seat them in the order they connect with --seating order"),
        "zh": ("按编号入座：写一个座位文件，每桌一行，依次为 0 1 2 3 号位的客户端编号"
               "（{a} {b} {a} {b}）：'{line}'，再加 --seating 文件 运行；"
               "或让客户端以 /game/{a}-1、/game/{b}-1、/game/{a}-2、/game/{b}-2 连接；"
               "或用 --seating order 按连接顺序入座"),
    },
    "seat_line": {
        "en": "table {table}, position {pos}: client {id} plays for {agent}",
        "zh": "第 {table} 桌 {pos} 号位：客户端 {id}，代表 {agent}",
    },
    "refused": {
        "en": "refused client {id}: {why}",
        "zh": "拒绝客户端 {id}：{why}",
    },
    "logs": {
        "en": "agents' standard output and error: {path}",
        "zh": "智能体的标准输出与错误输出：{path}",
    },
    "forfeit": {
        "en": "{agent} forfeits the boards not played: a client did not come back within {s:g} s",
        "zh": "{agent} 未打的牌判负：客户端未在 {s:g} 秒内重新连接",
    },
    "imported": {
        "en": "{n} deals read from {file}, replayed: written to {out}",
        "zh": "从 {file} 读取 {n} 副牌并复盘校验：已写入 {out}",
    },
}


def text(key: str, lang: str = "en", **values: object) -> str:
    """One message in one language, formatted."""
    return MESSAGES[key][lang].format(**values)


def both(key: str, **values: object) -> str:
    """The English and the Chinese message on one line: ``en / zh``."""
    return f"{text(key, 'en', **values)} / {text(key, 'zh', **values)}"
