"""Printable hand records (duplicate.handrecords): the card convention, wild hearts, QR
codes, dealing slips, escaping."""

from __future__ import annotations

import re

from duplicate.boards import BoardSet, SetInfo, generate_set
from duplicate.dealing import parse_seed_file, seed_file_bytes
from duplicate.handrecords import qr_payload, render_html


def _set(name: str) -> BoardSet:
    seed = parse_seed_file(seed_file_bytes(bytes(range(32))))
    s = generate_set(seed, 6, "cup", schedule="cycle")
    i = s.info
    return BoardSet(SetInfo(name, i.generator, i.commitment, i.level_schedule, None, 6), s.boards)


def test_hand_records_page() -> None:
    bs = _set("cup <b>&")
    text = render_html(bs, lang="zh")
    assert "cup &lt;b&gt;&amp;" in text and "<b>&" not in text
    assert '<meta name="viewport"' in text and '<html lang="zh-CN">' in text
    assert text.count('class="hr-board"') == 6 and text.count('class="slip hr-hand"') == 24
    ranks = re.findall(r'<span class="ranks [shcd]">([^<]*(?:<span[^>]*>[^<]*</span>[^<]*)*)', text)
    assert ranks and not any(re.search(r"\bT\b", r) for r in ranks)  # 10, never T
    assert "10" in text and ("大王" in text or "小王" in text)
    # the wild hearts of each board's level are marked: board 1 is level 2 (cycle)
    assert 'class="wildrank"' in text
    assert text.count("<svg") == 6  # one QR code a board
    assert qr_payload(bs.boards[0], bs.info.commitment).endswith(bs.info.commitment)
    en = render_html(bs, lang="en")
    assert "Red Joker" in en or "Black Joker" in en
