"""Words a Chinese player would write (docs/GLOSSARY.md): every page and every listing of
one event, rendered in Chinese, holds no untranslated word and no card token; rendered in
English, no Chinese outside a gloss.

One Swiss event with Chinese team names (and one named in Latin letters), round 1 played by
the bots at level 10 (so a 10 and wild 10♥ are on every board) with a director's
correction, round 2 seated with table tokens and its clock started. Checked in Chinese
and in English: the static report (index, match, board, team, player and cross-table pages
and the hand records), the hall's public pages and a table's West and North pages, the
director's desk after login, and every listing and summary of ``guandan --lang zh event``
and ``guandan compare``.

A Latin word is allowed in Chinese text only when it is a name from the fixture, part of a
URL or file name, a rank letter (J Q K A, a sequence such as AA2233) or a word the
glossary's list "Latin letters allowed in Chinese text" names. Then words once wrong, each
as it read before.
"""

from __future__ import annotations

import html
import json
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from test_pairs import event_files  # noqa: F401  (the fixture)

from cli import main
from duplicate import events, hall, i18n
from duplicate.db import make_engine
from duplicate.i18n import game as vocab
from duplicate.i18n import gettext, translator
from duplicate.store import default_by
from duplicate.web.app import create_app
from duplicate.web.settings import Settings
from engine.cards import parse_cards
from engine.combo import Combo, ComboType
from engine.seat import Seat

GLOSSARY = Path(__file__).resolve().parent.parent / "docs" / "GLOSSARY.md"
EVENT = "杯赛"
TEAMS = [
    ("龙队", ["张伟", "李娜", "王芳", "陈静"]),
    ("虎队", ["赵敏", "黄涛", "刘洋", "杨磊"]),
    ("凤队", ["孙丽", "周强", "吴军", "郑华"]),
    ("Tigers", ["Zhao Min", "Huang Tao", "Liu Yang", "Yang Lei"]),
]
DIRECTOR, REASON = "裁判长王", "藏牌"
PASSWORD = "words-director-password"
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def allowed_latin() -> set[str]:
    """The glossary's list of Latin words allowed in Chinese text (one backticked word
    each, in the section that names them)."""
    text = GLOSSARY.read_text(encoding="utf-8")
    section = text.split("## Latin letters allowed in Chinese text", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"`([A-Za-z]+)`", section))


def glossary_terms() -> set[str]:
    """Every Chinese term of the glossary's tables (a gloss on an English page names one)."""
    text = GLOSSARY.read_text(encoding="utf-8")
    return {cell for row in re.findall(r"^\|([^\n]+)\|$", text, re.M)
            for cell in re.findall(r"[\u3400-\u9fff]+", row)}


NAMES = {w for team, players in TEAMS for w in (team, *players)} | {
    EVENT, DIRECTOR, REASON, "gd-sha256ctr-fy/1",  # the event (its set is named so), the generator
    "杨雷",  # a player renamed
    "bots round 1 table 1",  # the source play-bots names its records by, as a file name
    default_by(),  # who the command line says made a change when --by is not given
    "heuristic",  # the bots' policy, as --x-policy names it (simulate's teams)
    "Asia/Shanghai",  # the event's time zone: an IANA name, as the director chose it
}
NAME_WORDS = {w for n in NAMES for w in re.findall(r"[A-Za-z]+", n)}


@dataclass
class Texts:
    """What a person reads, by where it came from: ``{(lang, place): text}``."""

    pages: dict[tuple[str, str], str] = field(default_factory=dict)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def readable(page: str) -> str:
    """A page's text as a person meets it: the visible text, the attributes read aloud or
    shown on hover (title, aria-label, alt, placeholder), the texts the scripts show
    (data-* attributes holding words) and the movie's human strings."""
    parts = []
    movie = re.search(r'<script id="movie-data" type="application/json">(.*?)</script>', page, re.S)
    if movie:  # the movie's texts: every string holding words (not ids or CSS classes)
        parts += [s for s in _strings(json.loads(movie.group(1))) if CJK.search(s)]
    body = re.sub(r"(?is)<(script|style)\b.*?</\1>", " ", page)
    for name, value in re.findall(r'\s(title|aria-label|alt|placeholder|data-[a-z-]+)="([^"]*)"',
                                  body):
        if name == "data-finish":  # seat letters for scripts and tests, never shown
            continue
        if not name.startswith("data-") or CJK.search(value) or " " in value:
            parts.append(html.unescape(value))
    body = re.sub(r"(?s)<!--.*?-->", " ", body)
    parts.append(html.unescape(re.sub(r"(?s)<[^>]+>", " ", body)))
    return re.sub(r"\{[a-z_]+\}", " ", "\n".join(parts))  # a script's template fills these


def _without_names(text: str, filler: str = " ") -> str:
    for name in sorted(NAMES, key=len, reverse=True):  # a file name with its line: FILE:207
        text = re.sub(re.escape(name) + r"(?::\d+)?", filler, text)
    text = re.sub(r"(?:https?://|/)\S*", " ", text)  # addresses and paths
    text = re.sub(r"\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b", " ", text)  # hashes
    return re.sub(r"\S+\.(?:html|gdn|json|csv|css|js|sqlite|pdf)\b", " ", text)


TOKEN = re.compile(r"(?<![A-Za-z0-9])(?:[SHCD][2-9TJQKA]|SB|HR)(?![A-Za-z0-9])")


def untranslated(text: str, allowed: set[str]) -> list[str]:
    """The Latin words of Chinese ``text`` that are neither names, addresses, rank letters
    nor allowed by the glossary; card tokens (``ST``, ``HR``) are always wrong."""
    text = _without_names(text).replace(translator("en")("lang.name"), " ")  # the switch
    bad = [m.group(0) for m in TOKEN.finditer(text)]
    text = TOKEN.sub(" ", text)
    for word in re.findall(r"[A-Za-z]+", text):
        if word in allowed or word in NAME_WORDS or set(word) <= set("JQKA"):
            continue
        bad.append(word)
    return sorted(set(bad))


def chinese_left(text: str, terms: set[str]) -> list[str]:
    """The Chinese of English ``text`` that is not a name, the other language's name on
    the switch, or a glossary term given as a gloss in brackets."""
    text = _without_names(text).replace(translator("zh")("lang.name"), " ")

    def gloss(m: re.Match[str]) -> str:
        inside = set(CJK.findall(m.group(1))) and re.findall(r"[\u3400-\u9fff]+", m.group(1))
        return " " if inside and all(w in terms for w in inside) else m.group(0)

    text = re.sub(r"\(([^()]*)\)", gloss, text)
    return sorted(set(re.findall(r"[\u3400-\u9fff]+", text)))


# --- the event ----------------------------------------------------------------------------


def cli(lang: str, *args: str) -> str:
    result = CliRunner().invoke(main, ["--lang", lang, *args], catch_exceptions=False)
    assert result.exit_code == 0, (args, result.output)
    return result.output


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory, _sqlite_template: Path) -> Iterator[Any]:
    """The event, every page and listing in both languages: ``{(lang, place): text}``."""
    tmp = tmp_path_factory.mktemp("words")
    path = tmp / "event.sqlite"
    shutil.copyfile(_sqlite_template, path)
    url = f"sqlite:///{path}"
    out = Texts()
    seed = tmp / "seed.json"
    cli("en", "deals", "seed", str(seed))

    def listing(place: str, *args: str) -> None:
        for lang in ("zh", "en"):
            out.pages[lang, place] = cli(lang, "event", "--db", url, *args)

    for lang, (team, players) in zip(("zh", "en", "zh", "en"), TEAMS, strict=True):
        if team == TEAMS[0][0]:
            out.pages["zh", "create"] = cli("zh", "event", "--db", url, "create", EVENT,
                                            "--format", "swiss", "--rounds", "2",
                                            "--boards-per-round", "4", "--seed", "5eed")
        out.pages[lang, f"team add {team}"] = cli(lang, "event", "--db", url, "team", "add",
                                                  EVENT, team, *players)
    out.pages["zh", "pair-round"] = cli("zh", "event", "--db", url, "pair-round", EVENT)
    out.pages["zh", "assign-boards"] = cli(
        "zh", "event", "--db", url, "assign-boards", EVENT, "--round", "1",
        "--seed-file", str(seed), "--level-schedule", "fixed:10")
    out.pages["zh", "play-bots"] = cli("zh", "event", "--db", url, "play-bots", EVENT,
                                       "--round", "1")
    engine = make_engine(url)
    now = next(b.open_ns for b in events.match_boards(engine, EVENT, 1, 1) if b.board == 2)
    engine.dispose()
    # a correction changes the result (the boards come from a fresh seed each run)
    out.pages["zh", "correct"] = cli(
        "zh", "event", "--db", url, "correct", EVENT, "--round", "1", "--table", "1",
        "--board", "2", "--room", "open", "--result", "NS +1" if now == -3 else "EW +3",
        "--by", DIRECTOR, "--reason", REASON)
    listing("list", "list")
    listing("team list", "team", "list", EVENT)
    listing("matches", "matches", EVENT)
    listing("score", "score", EVENT)
    listing("standings", "standings", EVENT)
    listing("boards", "boards", EVENT, "1", "1")
    listing("corrections", "corrections", EVENT)
    for lang in ("zh", "en"):
        site = tmp / f"report-{lang}"
        out.pages[lang, "report"] = cli(lang, "event", "--db", url, "report", EVENT,
                                        "--out", str(site))
        for page in sorted(site.glob("*.html")):
            out.pages[lang, page.name] = readable(page.read_text(encoding="utf-8"))
    records = tmp / "round1.gdn"
    cli("en", "event", "--db", url, "export", EVENT, "--round", "1", "--output", str(records))
    for lang in ("zh", "en"):
        out.pages[lang, "compare"] = cli(lang, "compare", str(records), "--detail")
        out.pages[lang, "replay"] = cli(lang, "replay", str(records))
        site = tmp / f"compare-{lang}"
        cli(lang, "compare", str(records), "--html", str(site))
        for page in sorted(site.glob("*.html")):
            out.pages[lang, f"compare --html {page.name}"] = readable(
                page.read_text(encoding="utf-8"))
    listing("history", "history", EVENT, "--round", "1", "--table", "1", "--board", "2",
            "--room", "open")
    out.pages["zh", "rename-player"] = cli("zh", "event", "--db", url, "rename-player", EVENT,
                                           "Yang Lei", "杨雷", "--by", DIRECTOR, "--reason",
                                           REASON)
    listing("log", "log", EVENT)
    out.pages["zh", "db current"] = cli("zh", "db", "--db", url, "current")
    hand = "S2 S2 H3 C4 D5 S6 H7 H7 ST ST SJ SQ SK SA"
    out.pages["zh", "plays"] = cli("zh", "plays", "--level", "10", "--hand", hand)
    out.pages["zh", "plays --follow"] = cli("zh", "plays", "--level", "7", "--hand", hand,
                                            "--follow", "Pair 3 S3 C3")
    out.pages["zh", "read"] = cli("zh", "read", "--level", "7", "H7", "S5", "S5")
    out.pages["zh", "simulate"] = cli("zh", "simulate", "--seed-file", str(seed), "--boards",
                                      "2", "--stats")
    for lang in ("zh", "en"):
        hr = tmp / f"hand-records-{lang}.html"
        cli(lang, "deals", "export", "--db", url, EVENT, "-f", "html",
            "-o", str(hr))
        out.pages[lang, "hand records"] = readable(hr.read_text(encoding="utf-8"))
        out.pages[lang, "deals list"] = cli(lang, "deals", "list", "--db", url)
        # (``deals show`` prints .gdn hand records: a machine format, tokens by design)
    engine = make_engine(url)
    try:
        events.pair_round(engine, EVENT)
        events.assign_boards(engine, EVENT, 2, set_name=EVENT)
        cards = hall.issue_tokens(engine, EVENT, 2, by=DIRECTOR)
        hall.start_round(engine, EVENT, 2, by=DIRECTOR)
    finally:
        engine.dispose()
    app = create_app(Settings(url, PASSWORD, "a secret key of the word tests, long enough"))
    e = quote(EVENT, safe="")
    public = ["/", f"/e/{e}", f"/e/{e}/round/1", f"/e/{e}/round/1/table/1",
              f"/e/{e}/round/1/board/1", f"/e/{e}/round/2", f"/e/{e}/round/2/board/5",
              f"/t/{cards[0].report_token}", f"/t/{cards[0].confirm_token}"]
    desk = ["/desk", f"/desk/e/{e}", f"/desk/e/{e}/round/1", f"/desk/e/{e}/round/2",
            f"/desk/e/{e}/round/2/cards"]
    with TestClient(app) as client:
        for lang in ("zh", "en"):
            client.cookies.clear()
            pages = [*public, "/desk/login"]
            for where in pages:
                r = client.get(where, params={"lang": lang})
                held = where.endswith("/board/5")  # still being played: the held page
                assert r.status_code == (403 if held else 200), (where, r.text[:300])
                out.pages[lang, where] = readable(r.text)
            r = client.post("/desk/login", data={"password": PASSWORD, "next": "/desk"},
                            follow_redirects=False)
            assert r.status_code == 303
            for where in desk:
                r = client.get(where, params={"lang": lang})
                assert r.status_code == 200, (where, r.text[:300])
                out.pages[lang, where] = readable(r.text)
    app.state.engine.dispose()
    yield out


def test_every_place_was_rendered(event: Texts) -> None:
    places = {p for _, p in event.pages}
    for name in ("index.html", "crosstable.html", "players.html", "team-1.html",
                 "match-r1-t1.html", "board-r1-t1-1.html", "/desk", "/", "standings",
                 "compare", "corrections"):
        assert name in places, name
    assert any(p.startswith("hand records") for p in places)


def test_chinese_pages_and_listings_hold_no_untranslated_word(event: Texts) -> None:
    allowed = allowed_latin()
    assert {"VP", "UTC"} <= allowed  # the glossary names them
    found = {place: bad for (lang, place), text in sorted(event.pages.items())
             if lang == "zh" and (bad := untranslated(text, allowed))}
    assert found == {}, "\n".join(f"{p}: {b}" for p, b in found.items())


def ascii_punctuation(text: str) -> list[str]:
    """ASCII commas, semicolons, colons and brackets touching Chinese in ``text`` (an
    input's syntax shown as its example excepted): Chinese text takes 、，；：（）."""
    for key in SYNTAX:
        text = text.replace(gettext("zh", key).split("{")[0], " ")
    text = _without_names(text, "某")  # a name in a list of names counts as Chinese
    near = r"[\u3400-\u9fff] ?[,;:()]|[,;:()] ?[\u3400-\u9fff]"
    return sorted({m.group(0) for m in re.finditer(near, text)})


def test_chinese_pages_and_listings_take_chinese_punctuation(event: Texts) -> None:
    found = {place: bad for (lang, place), text in sorted(event.pages.items())
             if lang == "zh" and (bad := ascii_punctuation(text))}
    assert found == {}, "\n".join(f"{p}: {b}" for p, b in found.items())


def test_english_pages_and_listings_hold_no_chinese_but_glosses(event: Texts) -> None:
    terms = glossary_terms()
    assert {"接风", "累进分", "双下"} <= terms
    found = {place: bad for (lang, place), text in sorted(event.pages.items())
             if lang == "en" and (bad := chinese_left(text, terms)
                                  + sorted({m.group(0) for m in TOKEN.finditer(
                                      _without_names(text))}))}
    assert found == {}, "\n".join(f"{p}: {b}" for p, b in found.items())


def test_the_checks_catch_what_they_are_for() -> None:
    allowed = allowed_latin()
    assert untranslated("当ST 当C8 H6=S5 级牌 T", allowed) == ["C8", "H6", "S5", "ST", "T"]
    assert untranslated("计分：vp20，规则：competition，级牌 cycle", allowed) == [
        "competition", "cycle", "vp"]
    assert untranslated("三连对AA2233 顺子10-J-Q-K-A 20–0 胜利分（VP）Tigers", allowed) == []
    terms = glossary_terms()
    assert chinese_left("Progressive score (累进分) Plays (出牌回数)", terms) == ["出牌回数"]
    assert untranslated("3ea0367bc3a0efa3b0b8 牌谱 98426a71958c", allowed) == []
    assert ascii_punctuation("头游 东, 二游 西 (南北双下)") == ["下)", "东,", "西 ("]
    assert ascii_punctuation("东\n  (2)") == []  # not touching
    assert ascii_punctuation("头游东、二游西，南北双下（裁定）") == []
    assert help_prose("用 search[:PLAYOUTS]（默认1,2）标 ?（一级）") == "用  （默认 ）标  （一级）"
    assert re.search(r"[,(]", help_prose("头游, 二游 (双下)"))
    assert chinese_left("累进分 接风 given", terms) == ["接风", "累进分"]


# --- words once wrong, each as it read before --------------------------------------------


def test_double_down_names_the_losing_side_as_players_write_it() -> None:
    order = (Seat.E, Seat.W, Seat.S, Seat.N)  # E and W out first: N–S double down
    assert vocab.finish_text(order, "zh", double_down=True) == "头游东、二游西，南北双下"
    assert vocab.finish_text(order, "en", double_down=True) == (
        "1st out East, 2nd out West, N–S double down")
    assert vocab.finish_text((Seat.N, Seat.S, Seat.W, Seat.E), "zh", True).endswith("东西双下")
    assert vocab.result_text(-3, "zh") == "东西升3级（南北双下）"


def test_place_of_a_double_downs_last_two_is_double_down() -> None:
    assert vocab.place_name(None, "zh", double_down=True) == "双下"
    assert vocab.place_name(None, "en", double_down=True) == "double down"
    assert vocab.place_name(4, "zh") == "末游"


def test_sequences_are_written_out_to_their_highest_card() -> None:
    low = Combo(ComboType.THREE_PAIR, 12, parse_cards("SA HA S2 C2 S3 D3"))
    assert vocab.describe_play(low, 8, "zh") == "三连对AA2233"  # not A三连对
    assert vocab.describe_play(low, 8, "en") == "three pairs AA2233"
    top = Combo(ComboType.STRAIGHT, 8, parse_cards("ST SJ HQ CK DA"))
    assert vocab.describe_play(top, 0, "zh") == "顺子10-J-Q-K-A"
    plate = Combo(ComboType.TWO_TRIPS, 1, parse_cards("S3 H3 C3 S4 H4 D4"))
    assert vocab.describe_play(plate, 0, "zh") == "钢板333444"


def test_wild_hearts_and_positions_in_the_card_convention() -> None:
    from duplicate.compare import CardUse

    wild = parse_cards_kind("HT")  # the wild heart at level 10
    assert vocab.use_text(CardUse(kind=wild, rank=4, suit=0), 8, "zh") == "♠6"
    assert vocab.use_text(CardUse(kind=wild, rank=4, suit=None), 8, "zh") == "6"
    hand = vocab.position_text("N:SJ,DJ E:- S:HT W:SB level=T turn=N beat=- out=-", 8, "zh")
    assert hand == "北：J♠ J♦；东：无牌；南：10♥*；西：小王"
    assert vocab.level_text(8, "zh") == "打10"


def parse_cards_kind(token: str) -> int:
    from engine.cards import parse_kind

    return parse_kind(token)


def test_one_name_for_one_quantity_and_boards_are_fu() -> None:
    zh = {k: " ".join(v["zh"].forms) for k, v in i18n.messages().items()}
    assert not [k for k, text in zh.items() if "牌数" in text]  # boards: 副数
    assert not [k for k, text in zh.items() if "胜场" in text or re.search("胜轮(?!次)", text)]
    assert not [k for k, text in zh.items()
                if "比赛分" in text and not k.startswith(("pairs.", "help.pairs"))]  # pairs' only
    assert gettext("zh", "report.col.points") == gettext("zh", "cli.col.points") == "总积分"
    assert gettext("zh", "report.stats.boards") == "副数"


#: zh texts that show an input's syntax (what the form parses): their commas are the syntax
SYNTAX = {"desk.error.lineup", "desk.field.lineups", "desk.field.teams",
          "desk.field.teams_example", "events.err.teams_syntax",
          "gdn.json.result",  # the JSON a record's result is
          "out.deals.set_line", "out.deals.commit_line",  # a .gdn comment line starts with ;
          "bots.budget.syntax",  # a policy's budget: search:16,exact=8,nodes=100000
          # the analysis's marks ? and ?? (and ! for a value the time cap cut) are symbols
          "analysis.legend", "analysis.budget_capped", "report.analysis.note",
          "report.analysis.col.dubious", "report.analysis.col.blunders",
          "report.analysis.players_note"}


def help_prose(text: str) -> str:
    """A ``--help`` text without what the reader types: ASCII words holding a letter or
    digit (``search[:PLAYOUTS]``, ``1,2``, ``'TEAM: player, player'``) and the marks an
    analysis prints (`` ?``, `` ??``, `` !``)."""
    text = re.sub(r"'[^'\n]*'", " ", text)
    text = re.sub(r"[!-~]*[A-Za-z0-9][!-~]*", " ", text)
    return re.sub(r"(?<= )[?!]+(?![!-~])", " ", text)


def test_chinese_text_takes_chinese_punctuation() -> None:
    bad = {}
    for key, texts in i18n.messages().items():
        for form in texts["zh"].forms:
            # placeholders: {name}, {name!r}, and click's %(prog)s
            text = re.sub(r"\{[a-z_]+(?:![rsa])?\}|%\([a-z]+\)s", "", form)
            if key.startswith("help."):  # a help shows what is typed: options, examples
                text = help_prose(text)
            if key not in SYNTAX and re.search(r"[,;()!?]|(?<![0-9A-Za-z]):", text):
                bad[key] = form
    assert bad == {}


def test_counted_messages_have_plural_forms() -> None:
    t = translator("en")
    assert t("count.rounds", n=1) == "1 round" and t("count.rounds", n=2) == "2 rounds"
    assert t("count.boards", n=1) == "1 board" and translator("zh")("count.boards", n=1) == "1副"


def test_pairs_listing_and_page_in_chinese(event_files: list[str], tmp_path: Path) -> None:  # noqa: F811
    """``guandan --lang zh pairs``: the ranking, the board-by-board detail and the page."""
    allowed, page = allowed_latin(), tmp_path / "pairs.html"
    pair_names = {w for p in ("A1", "A2", "B1", "B2", "C1", "C2", "D1", "D2", "E1", "E2",
                              "F1", "F2") for w in (p, p[0])}
    found = {}
    for args in ((), ("--by-board",), ("--method", "xswing"), ("--html", str(page))):
        text = cli("zh", "pairs", *event_files, *args)
        if "--html" in args:
            text = readable(page.read_text(encoding="utf-8"))
        bad = [w for w in untranslated(text, allowed) if w not in pair_names]
        if bad or ascii_punctuation(text):
            found[args] = (bad, ascii_punctuation(text))
    assert found == {}
