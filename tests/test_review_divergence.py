"""The divergence on a board page (duplicate.review.movie.alternatives): each room's own
choice always listed first, named by its room, whatever the number of legal plays; the
other plays grouped by type, bombs and sequences before runs of singles."""

from __future__ import annotations

from duplicate.compare import compare_records
from duplicate.dealing import generate_boards
from duplicate.i18n.game import combo_name, describe_play
from duplicate.review.movie import GROUP_ORDER, alternatives, movie_data
from duplicate.simulate import simulate_match, simulation_key
from engine.moves import legal_readings
from engine.ruleset import COMPETITION


def test_each_rooms_choice_is_listed_first_on_every_board() -> None:
    key = simulation_key(b"test-divergence-lists")
    boards = list(generate_boards(key, 24))
    comps = compare_records(simulate_match(boards, "heuristic", "random", key))
    seen = 0
    for comp in comps:
        div = comp.divergence
        if div is None:
            continue
        alt = alternatives(comp, COMPETITION, "zh")
        assert alt is not None
        played = [m for m in div.moves if m is not None]
        assert [a["d"] for a in alt["chosen"]] == [
            describe_play(m.combo, comp.level, "zh") for m in played]
        assert [a["room"] for a in alt["chosen"]] == ["开室", "闭室"][: len(played)]
        # the groups: in the stated order, none repeating a chosen play, all counted
        names = [combo_name_of(t) for t in GROUP_ORDER]
        order = [names.index(g["name"]) for g in alt["groups"]]
        assert order == sorted(order)
        legal = legal_readings(div.hands[div.turn], comp.level, div.to_beat, COMPETITION)
        chosen_plays = sum(1 for m in played if m.combo is not None)
        distinct = len({(m.combo.type, m.combo.rank, m.combo.size)
                        for m in played if m.combo is not None})
        assert sum(g["count"] for g in alt["groups"]) + distinct == len(legal)
        assert chosen_plays >= distinct
        for g in alt["groups"]:
            assert len(g["plays"]) + g["more"] == g["count"] and len(g["plays"]) <= 12
        seen += 1
    assert seen >= 10


def combo_name_of(ctype: object) -> str:
    from engine.cards import parse_cards
    from engine.combo import Combo, ComboType

    sample = {ComboType.SINGLE: "S3", ComboType.PAIR: "S3 C3", ComboType.TRIPS: "S3 C3 D3",
              ComboType.THREE_WITH_TWO: "S3 C3 D3 S4 C4",
              ComboType.THREE_PAIR: "S3 C3 S4 C4 S5 C5", ComboType.TWO_TRIPS: "S3 C3 D3 S4 C4 D4",
              ComboType.STRAIGHT: "S3 C4 D5 S6 C7", ComboType.STRAIGHT_FLUSH: "S3 S4 S5 S6 S7",
              ComboType.BOMB: "S3 C3 D3 H3", ComboType.FOUR_KINGS: "SB SB HR HR"}
    assert isinstance(ctype, ComboType)
    return combo_name(Combo(ctype, 1, parse_cards(sample[ctype])), "zh")


def test_the_movie_carries_the_grouped_list() -> None:
    key = simulation_key(b"test-divergence-movie")
    comps = compare_records(simulate_match(list(generate_boards(key, 4)), "heuristic",
                                           "random", key))
    comp = next(c for c in comps if c.divergence is not None)
    data = movie_data(comp, "en")
    alt = data["divergence"]["alternatives"]
    assert alt["chosen"] and alt["groups"] and "plays" not in alt
