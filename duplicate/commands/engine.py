"""Engine commands: ``guandan read`` and ``guandan plays``."""

from __future__ import annotations

from typing import Any

import click

from duplicate import __version__
from duplicate.commands.common import F, cli_lang, emit_rows, error_text, output_options, say


def colon() -> str:
    """The colon after an option's name in an error line, in the output's language."""
    return "：" if cli_lang() == "zh" else ": "


def _rules_options(func: F) -> F:
    """Add the rule variants that change readings (RULES.md §3) to an engine command."""
    func = click.option(
        "--bomb-max",
        type=click.IntRange(4, 10),
        default=10,
        show_default=True,
        help="Largest bomb, in cards (variant bomb_max).",
    )(func)
    func = click.option(
        "--joker-pair/--no-joker-pair",
        default=True,
        show_default=True,
        help="A pair of jokers may be a full house's pair (variant joker_pair_in_full_house).",
    )(func)
    return func


def _combo_row(combo: Any, level: int, tokens: list[str] | None = None) -> dict[str, Any]:
    """A play as a FORMAT.md row: type name, record rank character, card tokens.

    Without ``tokens``, sequences list their natural cards in natural order, the rest in
    level order, low to high; wild hearts come last (what they stand for is in the reading).
    """
    from engine.cards import KIND_BIT, count, format_cards, rank_name, wild_kind

    if tokens is None:
        wk = wild_kind(level)
        wilds = count(combo.cards, wk)
        natural = combo.cards - wilds * KIND_BIT[wk]
        order = None if combo.type.is_sequence else level
        tokens = format_cards(natural, order).split() + format_cards(wilds * KIND_BIT[wk]).split()
    return {"type": combo.type.record_name, "rank": rank_name(combo.rank), "cards": tokens}


#: Combination names players write (docs/GLOSSARY.md) beside the catalogue's (三同张,
#: 三连对, 天王炸), read by ``--follow`` as the record names (FORMAT.md).
_CHINESE_ALIASES = {"单牌": "Single", "三张": "Trips", "三不带": "Trips", "连对": "ThreePair",
                    "二连三": "TwoTrips", "火箭": "StraightFlush", "四大天王": "FourKings"}


def _chinese_types() -> dict[str, str]:
    """Chinese combination name -> its record name (``顺子`` -> ``Straight``)."""
    from duplicate.i18n import gettext
    from engine.combo import ComboType

    names = {gettext("zh", f"combo.{t.record_name}"): t.record_name for t in ComboType}
    return {**_CHINESE_ALIASES, **names}


def _play_text(text: str) -> str:
    """A play as ``--follow`` takes it, its type named in Chinese too (``顺子 3 S3 H4 C5 D6
    H7``, ``顺子3 …``, ``炸弹 …``): the type replaced by its record name."""
    stripped = text.strip()
    for name, record in sorted(_chinese_types().items(), key=lambda kv: -len(kv[0])):
        if stripped.startswith(name):
            return f"{record} {stripped[len(name):].strip()}"
    return text


def _engine_text(exc: BaseException) -> str:
    """:func:`error_text` of an engine error, a combination type it names (``Straight``)
    worded in the output's language (顺子)."""
    lang = cli_lang()
    if lang == "en":
        return error_text(exc)
    from duplicate.i18n import Phrase, Term, engine_phrase, gettext
    from engine.combo import ComboType

    said = engine_phrase(exc)
    if not isinstance(said, Phrase):
        return said
    if said.key in _DECLARED:
        worded = _declared_text(said.values, lang)
        if worded is not None:
            return worded
    types = {t.record_name for t in ComboType}
    kind = said.values.get("type")
    if isinstance(kind, str) and kind in types:
        said.values["type"] = Term(kind, f"combo.{kind}")
    readings = said.values.get("readings")
    if isinstance(readings, str):  # "Pair 5, Trips 5": the record names worded
        words = [r.split(" ", 1) for r in readings.split(", ")]
        said.values["readings"] = gettext(lang, "list.sep").join(
            f"{gettext(lang, f'combo.{w[0]}')} {w[1]}" if len(w) == 2 and w[0] in types
            else " ".join(w) for w in words)
    if said.key == "engine.unknown_type":
        said.values["names"] = gettext(lang, "list.sep").join(
            gettext(lang, f"combo.{t.record_name}") for t in ComboType)
    return said.text(lang)


#: The engine's refusals of a declared reading -> their words for a player (cli.plays.*)
_DECLARED = {"engine.not_declared": "cli.plays.not_declared",
             "engine.not_declared_none": "cli.plays.not_declared_none"}


def _declared_text(values: dict[str, Any], lang: str) -> str | None:
    """A play that is not the reading it declares, as a player says it (docs/GLOSSARY.md):
    the cards in the card convention, each combination by ``vocab.describe_play``
    (``打7时♠3不是顺子9-10-J-Q-K：这些牌可读作单张3``); ``None`` when the engine's values
    cannot be read back (its message is shown as it is)."""
    from duplicate.i18n import game as vocab
    from duplicate.i18n import gettext
    from engine.cards import RANK_NAMES, parse_cards, parse_level
    from engine.combo import Combo, ComboType
    from engine.errors import GuandanError

    by_name = {t.record_name: t for t in ComboType}
    key = _DECLARED["engine.not_declared" if "readings" in values else "engine.not_declared_none"]
    try:
        level = parse_level(str(values["level"]))
        cards = parse_cards(str(values["cards"]))
        declared = (by_name[str(values["type"])], RANK_NAMES.index(str(values["rank"])))
        readings = [(by_name[kind], RANK_NAMES.index(rank)) for kind, rank in
                    (r.split(" ", 1) for r in str(values.get("readings", "")).split(", ") if r)]
    except (KeyError, ValueError, GuandanError):
        return None

    def named(kind: ComboType, rank: int) -> str:
        if kind == ComboType.BOMB and kind == declared[0] and rank == declared[1]:
            # a bomb's size is its cards' count: the declared one is not these cards'
            return gettext(lang, "play.described", combo=gettext(lang, "combo.Bomb"),
                           rank=vocab.rank_label(rank, lang))
        return vocab.describe_play(Combo(kind, rank, cards), level, lang)

    return gettext(lang, key, level=vocab.rank_label(level, lang),
                   cards=vocab.faces_text(vocab.hand_faces(cards, level, lang)),
                   play=named(*declared),
                   readings=gettext(lang, "list.sep").join(named(*r) for r in readings))


def _level_option(text: str) -> int:
    """The ``--level`` of an engine command as a rank index; a bad one names the option."""
    from engine.cards import parse_level
    from engine.errors import GuandanError

    try:
        return parse_level(text)
    except GuandanError as exc:
        raise click.ClickException(say("out.engine.level", shown=repr(text))) from exc


def _hand_option(text: str) -> Any:
    """The ``--hand`` of ``guandan plays``: 1 to 27 cards (a dealt hand, RULES.md §1)."""
    from engine.cards import parse_cards, size
    from engine.errors import GuandanError

    try:
        held = parse_cards(text)
    except GuandanError as exc:
        raise click.ClickException(say("out.engine.option", option="--hand",
                                       error=_engine_text(exc))) from exc
    if size(held) == 0:
        raise click.UsageError(say("cli.err.hand_empty"))
    if size(held) > _HAND_SIZE:
        raise click.ClickException(
            f"--hand: {size(held)} cards, but a hand holds at most {_HAND_SIZE}"
        )
    return held


#: Cards dealt to each player (two packs of 108 among four).
_HAND_SIZE = 27


def _echo_plays(rows: list[dict[str, Any]], fmt: str, combos: list[Any] | None = None,
                level: int = 0) -> None:
    """Print plays as ``Type rank  cards`` lines (English: the notation ``--follow`` reads),
    or in the output's language as a player says them in the card convention
    (``对子7  7♥ 7♥``), or through :func:`emit_rows`."""
    if fmt != "table":
        emit_rows(rows, fmt, ["type", "rank", "cards"])
        return
    lang = cli_lang()
    if lang != "en" and combos is not None:
        from duplicate.i18n.game import play_text

        for combo in combos:
            click.echo(play_text(combo, level, lang))
        return
    width = max((len(r["type"]) + 1 + len(r["rank"]) for r in rows), default=0)
    for r in rows:
        click.echo(f"{(r['type'] + ' ' + r['rank']).ljust(width)}  {' '.join(r['cards'])}")


@click.command("read")
@click.option("--level", required=True, metavar="RANK", help="The deal's level, 2..A (e.g. 7).")
@click.argument("cards", nargs=-1, required=True)
@_rules_options
@output_options
def read_command(
    level: str, cards: tuple[str, ...], bomb_max: int, joker_pair: bool, fmt: str
) -> None:
    """Print every reading of CARDS at a level (RULES.md §2-3: wild hearts may stand for any
    non-joker card), one "Type rank  cards" line each.

    \b
    Example: guandan read --level 7 S5 H7 D5 C5
    """
    from engine.cards import KIND_TOKENS, parse_cards, parse_kind
    from engine.errors import GuandanError
    from engine.reading import readings
    from engine.ruleset import Ruleset

    tokens = [t for arg in cards for t in arg.split()]
    if not tokens:
        raise click.UsageError(say("cli.err.cards_empty"))
    lv = _level_option(level)
    try:
        found = readings(
            parse_cards(tokens), lv, Ruleset(joker_pair_in_full_house=joker_pair, bomb_max=bomb_max)
        )
        shown = [KIND_TOKENS[parse_kind(t)] for t in tokens]
    except GuandanError as exc:
        raise click.ClickException(_engine_text(exc)) from exc
    rows = [_combo_row(c, lv, shown) for c in found]
    if fmt == "table" and not rows:
        if cli_lang() != "en":
            from duplicate.i18n import game as vocab
            from engine.cards import parse_cards as cards_of

            click.echo(say("cli.read.none", cards=vocab.faces_text(vocab.hand_faces(
                cards_of(tokens), lv, cli_lang())), level=vocab.level_text(lv, cli_lang())))
            return
        click.echo(f"{' '.join(shown)}: no combination at level {level.upper()}")
        return
    _echo_plays(rows, fmt, list(found), lv)


@click.command("plays")
@click.option("--level", required=True, metavar="RANK", help="The deal's level, 2..A (e.g. 7).")
@click.option("--hand", required=True, metavar="CARDS", help='The hand, e.g. "S2 S2 H3 … HR".')
@click.option(
    "--follow",
    metavar="PLAY",
    help='The play to beat, as FORMAT.md writes it: "Straight 3 S3 H4 C5 D6 H7" '
    "(or its cards alone, read by RULES.md §5).",
)
@click.option(
    "--all", "all_plays", is_flag=True, help="Every concrete card choice, not one per reading."
)
@_rules_options
@output_options
def plays_command(
    level: str,
    hand: str,
    follow: str | None,
    all_plays: bool,
    bomb_max: int,
    joker_pair: bool,
    fmt: str,
) -> None:
    """List the legal plays of a hand: one card choice per reading (type and rank; bombs
    also by size), or every concrete play with --all. Leading unless --follow is given.

    \b
    Example: guandan plays --level 7 --hand "S2 S2 H3 C4 D5 S6 H7 H7" --follow "Pair 3 S3 C3"
    """
    from engine.errors import GuandanError
    from engine.moves import legal_plays, legal_readings
    from engine.reading import parse_play
    from engine.ruleset import Ruleset

    rules = Ruleset(joker_pair_in_full_house=joker_pair, bomb_max=bomb_max)
    lv = _level_option(level)
    held = _hand_option(hand)
    try:
        to_beat = None if follow is None else parse_play(_play_text(follow), lv, None, rules)
    except GuandanError as exc:
        raise click.ClickException(say("out.engine.option", option="--follow",
                                       error=_engine_text(exc))) from exc
    try:
        found = (
            list(legal_plays(held, lv, to_beat, rules))
            if all_plays
            else legal_readings(held, lv, to_beat, rules)
        )
    except GuandanError as exc:
        raise click.ClickException(_engine_text(exc)) from exc
    rows = [_combo_row(c, lv) for c in found]
    _echo_plays(rows, fmt, list(found), lv)
    if fmt == "table":  # counted messages of the catalogue, in the output's language
        from duplicate.i18n.game import describe_play

        lang = cli_lang()
        shown = "" if to_beat is None else (
            to_beat.describe() if lang == "en" else describe_play(to_beat, lv, lang))
        beating = "" if to_beat is None else say("cli.plays.beating", play=shown)
        key = "cli.plays.count_all" if all_plays else "cli.plays.count"
        click.echo(say(key, n=len(rows), beating=beating) if rows
                   else say("cli.plays.none", beating=beating))



@click.command("version")
def version_command() -> None:
    """Print the package version and which engine core is in use (native or pure Python)."""
    from engine.core import why

    click.echo(f"guandan-duplicate {__version__}")
    kind, detail = why()
    click.echo(say(f"cli.version.{kind}", detail=detail))
