"""The search player (duplicate.search) and its determinisation (duplicate.determinise)."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli import main as cli_main
from duplicate.analysis.estimate import Budget, evaluate
from duplicate.analysis.solver import BudgetExceeded, Solver, step
from duplicate.analysis.state import Position, from_deal
from duplicate.arena.agent import Public, _view, run_agent
from duplicate.arena.duplicate_match import MatchResult, play_duplicate_match
from duplicate.arena.server import ArenaServer
from duplicate.bots import BotError, RandomPlayer, View, XorShift64
from duplicate.dealing import generate_boards
from duplicate.determinise import sample_hands, unseen_cards, world_position
from duplicate.gdn import dumps
from duplicate.policies import make_player
from duplicate.search import SearchBudget, SearchPlayer, candidates
from duplicate.simulate import play_deal, simulate_boards, simulation_key
from engine.bulk import SplitMix64, shuffled_hands
from engine.cards import FULL_PACK, KIND_BIT, is_subset, iter_kinds, size
from engine.deal import Deal
from engine.moves import legal_readings
from engine.ruleset import COMPETITION
from engine.seat import Seat

KEY = simulation_key(b"search-tests")


def _view_of(deal: Deal, known: tuple[int, int, int, int] | None = None) -> View:
    """The seat to act's view, as duplicate.simulate.play_deal builds it."""
    seat = deal.turn
    assert seat is not None
    tb = deal.to_beat
    c = deal.card_counts
    return View(seat, deal.hand(seat), deal.level, tb,
                deal.last_player if tb is not None else None, (c[0], c[1], c[2], c[3]),
                deal.rules, deal.played, tuple(deal.finish_order), known)


def _random_point(seed: int, actions: int) -> Deal:
    """A random deal (random hands, level, leader) played by random bots for up to
    ``actions`` actions."""
    rng = SplitMix64(seed)
    hands = shuffled_hands(rng)
    deal = Deal(hands, seed % 13, Seat(seed % 4))
    bots = [RandomPlayer(f"{seed}-{s}") for s in range(4)]
    for _ in range(actions):
        if deal.turn is None:
            break
        combo = bots[deal.turn].act(_view_of(deal))
        if combo is None:
            deal.pass_()
        else:
            deal.play(combo)
    if deal.turn is None:  # over: take back the last action
        deal.undo()
    return deal


def _some_cards(cards: int, rng: XorShift64) -> int:
    """A random part of ``cards``."""
    out = 0
    for k in iter_kinds(cards):
        if rng.below(3) == 0:
            out += KIND_BIT[k]
    return out


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), actions=st.integers(0, 200), with_known=st.booleans())
def test_every_sampled_deal_agrees_with_the_view(seed: int, actions: int, with_known: bool) -> None:
    deal = _random_point(seed, actions)
    seat = deal.turn
    assert seat is not None
    rng = XorShift64(seed)
    known = None
    if with_known:  # say a tribute / return card is publicly known in each other hand
        known = tuple(0 if s == seat else _some_cards(deal.hand(s), rng) for s in Seat)
    view = _view_of(deal, known)  # type: ignore[arg-type]
    truth = from_deal(deal)
    # the true deal is one of the worlds: same position once the hidden hands are put in
    assert world_position(view, truth.hands) == truth
    assert unseen_cards(view) + view.hand + deal.played + sum(
        k for s, k in enumerate(known or (0, 0, 0, 0)) if s != seat) == FULL_PACK
    for _ in range(1000):
        hands = sample_hands(view, rng)
        assert hands[seat] == deal.hand(seat)
        assert sum(hands) + deal.played == FULL_PACK
        for s in Seat:
            assert size(hands[s]) == deal.card_counts[s]
            if known is not None:
                assert is_subset(known[s], hands[s])


def test_sampling_is_uniform_enough() -> None:
    """A card hidden once among three seats of equal counts lands at each about a third of
    the time."""
    deal = _random_point(7, 0)
    view = _view_of(deal)
    unseen = unseen_cards(view)
    card = next(k for k in iter_kinds(unseen) if unseen >> (3 * k) & 7 == 1)
    rng = XorShift64(1)
    hits = [0, 0, 0, 0]
    for _ in range(3000):
        hands = sample_hands(view, rng)
        for s in Seat:
            hits[s] += hands[s] >> (3 * card) & 7
    assert hits[view.seat] == 0 or hits[view.seat] == 3000  # its own copy never moves
    others = [hits[s] for s in Seat if s != view.seat]
    assert sum(others) == 3000
    assert all(850 < h < 1150 for h in others), hits


def test_a_view_that_contradicts_itself_is_refused() -> None:
    deal = _random_point(3, 10)
    view = _view_of(deal)
    bad = dataclasses.replace(view, counts=(27, 27, 27, 27))
    with pytest.raises(BotError):
        sample_hands(bad, XorShift64(0))
    with pytest.raises(BotError):
        unseen_cards(dataclasses.replace(view, played=FULL_PACK))


class Spy:
    """Records every view a player is given, and what it answered."""

    def __init__(self, inner: SearchPlayer) -> None:
        self.inner = inner
        self.name = inner.name
        self.views: list[View] = []

    def act(self, view: View) -> object:
        self.views.append(view)
        return self.inner.act(view)


def test_search_plays_legal_moves_from_its_view_only() -> None:
    board = next(iter(generate_boards(KEY, 1)))
    spies = [Spy(SearchPlayer(f"s{s}", SearchBudget(playouts=12, candidates=8))) for s in Seat]
    record = play_deal(board, spies)  # type: ignore[arg-type]  # raises on an illegal play
    assert record.finish is not None
    for spy in spies:
        assert spy.views
        for v in spy.views:
            assert v.known is None  # nothing hidden is handed over
            assert set(f.name for f in dataclasses.fields(v)) == {
                "seat", "hand", "level", "to_beat", "to_beat_by", "counts", "rules", "played",
                "finish", "known"}
            assert size(v.hand) == v.counts[v.seat]
    assert sum(s.inner.decisions for s in spies) > 0


def test_same_seed_same_play_and_records() -> None:
    boards = list(generate_boards(KEY, 1))
    runs = []
    for _ in range(2):
        runs.append(dumps([r for o in simulate_boards(KEY, 1, "search:16", "heuristic")
                           for r in (o.open, o.closed)]))
    assert runs[0] == runs[1]
    deal = _random_point(11, 30)
    view = _view_of(deal)
    plays = {repr(SearchPlayer("same", SearchBudget(playouts=40)).act(view)) for _ in range(3)}
    assert len(plays) == 1
    assert boards


def test_a_small_duplicate_match_against_the_heuristic() -> None:
    start = time.process_time()
    outcomes = list(simulate_boards(KEY, 2, "search:24", "heuristic"))
    assert len(outcomes) == 2
    for o in outcomes:
        assert o.open.finish is not None and o.closed.finish is not None
        assert o.swing == o.open_ns - o.closed_ns
        assert o.open.tags["North"].startswith("X-search")
    assert time.process_time() - start < 30


def test_exact_choice_with_every_hand_seen_is_optimal() -> None:
    """Small hands, every hand known: the search's play keeps the position's exact value."""
    solver = Solver(5, COMPETITION)
    player = SearchPlayer("exact", SearchBudget(exact_cards=5))
    for seed in range(6):
        rng = SplitMix64(seed)
        full = shuffled_hands(rng)
        hands = tuple(_first(full[s], 3 + (seed + s) % 3) for s in range(4))
        pos = Position(hands, 0, None, -1, 0, -1, 0)  # type: ignore[arg-type]
        value = solver.value(pos)
        view = View(Seat.N, hands[0], 5, None, None, tuple(size(h) for h in hands),  # type: ignore[arg-type]
                    known=hands)  # type: ignore[arg-type]
        child = step(pos, player.act(view))
        got = child if isinstance(child, int) else solver.value(child)
        assert got == value


def test_exact_choice_when_following_keeps_the_value_and_passes_when_passing_is_best(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Following a play, small hands, every hand known: the search's play keeps the exact
    value; where the pass is the only best play it passes, from the exact values, without
    falling back to playouts (the pass, ``None``, once read as "no exact answer")."""
    solver = Solver(5, COMPETITION)
    passes = followed = 0

    def no_playouts(*_: Any) -> Any:
        raise AssertionError("an exact decision went to playouts")

    monkeypatch.setattr(SearchPlayer, "_halving", no_playouts)
    for seed in range(400):
        if passes >= 4 and followed >= 4:
            break
        rng = SplitMix64(900 + seed)
        full = shuffled_hands(rng)
        hands = list(_first(full[s], 3 + (seed + s) % 3) for s in range(4))
        leader = Seat(seed % 4)
        lead = min(legal_readings(hands[leader], 5, None, COMPETITION),
                   key=lambda c: (c.is_bomb_class, c.power(5)))
        start = Position(tuple(hands), int(leader), None, -1, 0, -1, 0)  # type: ignore[arg-type]
        pos = step(start, lead)
        if isinstance(pos, int) or pos.to_beat is None:
            continue
        seat = Seat(pos.turn)
        sign = 1 if seat % 2 == 0 else -1
        h = pos.hands
        view = View(seat, h[seat], 5, pos.to_beat, leader, tuple(size(x) for x in h),  # type: ignore[arg-type]
                    COMPETITION, known=h)  # type: ignore[arg-type]
        options: list[Any] = [*legal_readings(h[seat], 5, pos.to_beat, COMPETITION), None]
        if len(options) == 1:
            continue  # nothing to decide
        worth = {o: sign * (c if isinstance(c := step(pos, o), int) else solver.value(c))
                 for o in options}
        top = max(worth.values())
        play = SearchPlayer("follow", SearchBudget(exact_cards=8)).act(view)
        assert worth[play] == top, seed
        if [o for o, w in worth.items() if w == top] == [None]:
            assert play is None
            passes += 1
        else:
            followed += 1
    assert passes >= 4 and followed >= 4


def test_every_hand_seen_a_candidate_beyond_the_nodes_is_asked_if_it_does_better(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every hand known: the best candidate made unsettleable for ``value`` is still found
    by the null-window questions (``Solver.test``) against the others' exact values; and
    with nothing settled at all, the decision goes to one playout a candidate."""
    real_value = Solver.value
    checked = 0
    for seed in range(60):
        if checked == 4:
            break
        rng = SplitMix64(200 + seed)
        full = shuffled_hands(rng)
        hands = tuple(_first(full[s], 5 + (seed + s) % 3) for s in range(4))
        pos = Position(hands, seed % 4, None, -1, 0, -1, 0)  # type: ignore[arg-type]
        seat = Seat(seed % 4)
        sign = 1 if seat % 2 == 0 else -1
        view = View(seat, hands[seat], 5, None, None, tuple(size(h) for h in hands),  # type: ignore[arg-type]
                    known=hands)  # type: ignore[arg-type]
        big = Solver(5, COMPETITION)
        cands = candidates(view, 24)
        worth = [sign * big.value(c) if not isinstance(c := step(pos, x), int) else sign * c
                 for x in cands]
        top = max(worth)
        if worth[0] == top:
            continue  # the first tried (the heuristic's choice) must not be the best
        hidden = [step(pos, x) for x, w in zip(cands, worth, strict=True) if w == top]

        def value(self: Solver, p: Position, hidden: Any = hidden) -> int:
            if p in hidden:  # every best candidate beyond the nodes for a value
                raise BudgetExceeded("made unsettleable")
            return real_value(self, p)

        monkeypatch.setattr(Solver, "value", value)
        play = SearchPlayer("asked", SearchBudget(exact_cards=8)).act(view)
        monkeypatch.setattr(Solver, "value", real_value)
        assert worth[cands.index(play)] == top, seed
        checked += 1
    assert checked >= 3
    player = SearchPlayer("none", SearchBudget(exact_cards=8, nodes=1))
    assert player.act(view) in legal_readings(hands[seat], 5, None, COMPETITION)
    assert player.playouts == len(cands)  # one playout a candidate


def _first(cards: int, n: int) -> int:
    out = 0
    for k in list(iter_kinds(cards))[:n]:
        out += KIND_BIT[k]
    return out


def test_policy_names_and_budgets() -> None:
    assert isinstance(make_player("search:64", 1), SearchPlayer)
    assert make_player("search", 1).budget.playouts == SearchBudget().playouts  # type: ignore[attr-defined]
    for bad in ("search:0", "search:x", "heuristic:5", "searcher", "search:16,exact=28",
                "search:16,nodes=0", "search:16,foo=1", "search:16,16", "search:16,exact=8,exact=7",
                "search:16,exact=x"):
        with pytest.raises(BotError):
            make_player(bad)
    budget = make_player("search:16,exact=8,nodes=100000", 1).budget  # type: ignore[attr-defined]
    assert (budget.playouts, budget.exact_cards, budget.nodes) == (16, 8, 100_000)
    budget = make_player("search:nodes=5000,worlds=2,candidates=9", 1).budget  # type: ignore[attr-defined]
    assert (budget.playouts, budget.nodes, budget.exact_worlds, budget.candidates) == (
        SearchBudget().playouts, 5000, 2, 9)
    with pytest.raises(BotError) as caught:
        make_player("search:16,exact=99")
    assert "exact must be 0 to 27" in str(caught.value)
    assert caught.value.text("zh") == "搜索预算“16,exact=99”无效：exact 应在 0 到 27 之间"
    with pytest.raises(BotError) as caught:
        make_player("searcher")
    assert caught.value.text("zh").startswith("未知的机器人策略“searcher”：应为 random / heuristic")


def test_cli_names_the_search_policy() -> None:
    runner = CliRunner()
    res = runner.invoke(cli_main, ["simulate", "--seed", "5e", "--boards", "1", "--x", "search:8",
                                   "--json"])
    assert res.exit_code == 0, res.output
    bad = runner.invoke(cli_main, ["simulate", "--seed", "5e", "--boards", "1", "--x", "search:x"])
    assert bad.exit_code == 1 and "search budget" in bad.output
    bad = runner.invoke(cli_main, ["agent", "--url", "ws://127.0.0.1:1/x", "--policy", "nope"])
    assert bad.exit_code == 2 and "unknown bot policy" in bad.output


def test_estimates_with_search_playouts() -> None:
    deal = _random_point(21, 150)
    pos = from_deal(deal)
    solver = Solver(deal.level, deal.rules)
    est = evaluate(pos, solver, Budget(nodes=1, playouts=3, policy="search:8"), exact=False)
    assert not est.exact and est.samples == 3 and -3 <= est.value <= 3
    # no random plays: every playout would be the same, so one is made, and it is the value
    # a playout without noise gives
    quiet = Budget(nodes=1, playouts=3, policy="search:8,exact=6,nodes=5000", noise=0)
    one = evaluate(pos, solver, quiet, exact=False)
    assert one.samples == 1 and one.stderr == 0
    assert evaluate(pos, solver, quiet, exact=False) == one
    assert quiet.to_dict()["noise"] == 0 and "noise" not in Budget().to_dict()
    for bad in (-0.1, 1.5):
        with pytest.raises(ValueError, match="random plays"):
            Budget(noise=bad)
    assert Budget(policy="search:8").to_dict()["policy"] == "search:8"
    assert "policy" not in Budget().to_dict()
    with pytest.raises(BotError):
        Budget(policy="nope")


def test_agent_tracks_what_the_notices_make_public() -> None:
    pub = Public()
    pub.notice({"type": "notify", "stage": "beginning"})
    pub.notice({"type": "notify", "stage": "tribute", "result": [[3, 0, "HR"]]})
    pub.notice({"type": "notify", "stage": "back", "result": [[0, 3, "C2"]]})
    pub.notice({"type": "notify", "stage": "play", "curPos": 0,
                "curAction": ["Single", "2", ["S2"]]})
    pub.notice({"type": "notify", "stage": "play", "curPos": 1,
                "curAction": ["PASS", "PASS", "PASS"]})
    assert size(pub.played) == 1 and pub.left[0] == 26
    assert size(pub.known[0]) == 1 and size(pub.known[3]) == 1
    msg = {"curRank": "2", "handCards": ["D3"] * 1,
           "publicInfo": [{"rest": 26}, {"rest": 27}, {"rest": 27}, {"rest": 27}],
           "greaterPos": -1, "greaterAction": [None, None, None]}
    view = _view(msg, 2, pub)
    assert view.known is not None and view.finish == ()
    assert view.played is None  # 1 + 26 + 27 + 27 + 1 cards do not make the packs: not trusted


def test_search_agent_plays_a_duplicate_match_in_the_arena(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Two `guandan agent --policy search:8` clients against two heuristic ones, over the
    protocol: the search reads the notices and samples from the cards really played."""
    seen: list[View] = []
    act = SearchPlayer.act

    def spy(self: SearchPlayer, view: View) -> object:
        seen.append(view)
        return act(self, view)

    monkeypatch.setattr(SearchPlayer, "act", spy)
    bs = list(generate_boards(simulation_key(b"\x0a"), 1))

    async def run() -> MatchResult:
        async with ArenaServer(port=0) as srv:
            tasks = []
            for i in range(4):
                policy = "search:8" if i % 2 == 0 else "heuristic"
                tasks.append(asyncio.ensure_future(run_agent(f"{srv.url}client{i + 1}", policy, str(i))))
                if i < 3:
                    await srv.wait_for_clients(i + 1, 60)
            table = await srv.next_table(60)
            try:
                result = await play_duplicate_match(table, bs, ("search", "heuristic"),
                                                    out_dir=tmp_path)
            finally:
                await table.close()
            stats = await asyncio.gather(*tasks)
        assert all(s.fallbacks == 0 for s in stats)
        return result

    result = asyncio.run(asyncio.wait_for(run(), 120))
    assert not result.faults and result.deals == 2
    assert seen and all(v.played is not None for v in seen)
    # the cards played that the agent tracked are those the deal's counts leave out
    assert all(size(v.played or 0) + sum(v.counts) == 108 for v in seen)


def test_event_play_bots_with_the_search(migrated_engine: Any) -> None:
    """`event play-bots --x search:8`: a round of two teams, one board, played and imported."""
    from duplicate import events
    from duplicate.dealing import parse_seed_file, seed_file_bytes

    events.create_event(migrated_engine, "Cup", seed="ab", boards_per_round=1)
    for i in (1, 2):
        events.add_team(migrated_engine, "Cup", f"T{i}", [f"P{i}{j}" for j in range(1, 5)])
    rnd = events.pair_round(migrated_engine, "Cup")
    events.assign_boards(migrated_engine, "Cup", rnd.number,
                         seed=parse_seed_file(seed_file_bytes(bytes(range(32)))))
    with pytest.raises(events.EventError, match="search budget"):
        events.play_bots(migrated_engine, "Cup", rnd.number, "search:0", "heuristic")
    summary = events.play_bots(migrated_engine, "Cup", rnd.number, "search:8", "heuristic")
    assert summary.records == 2


def test_analyse_with_search_playouts(tmp_path: Path) -> None:
    """`guandan analyse --playout-policy search:4`: estimates made by the search's playouts
    (the last two tricks, one node so that the solver gives way to them)."""
    import json

    runner = CliRunner()
    gdn = tmp_path / "m.gdn"
    res = runner.invoke(cli_main, ["simulate", "--seed", "5e", "--boards", "1", "-o", str(gdn)])
    assert res.exit_code == 0, res.output
    args = ["analyse", str(gdn), "--board", "1", "--room", "Open", "--from", "last:2",
            "--nodes", "1", "--playouts", "2", "--no-par", "--json"]
    res = runner.invoke(cli_main, [*args, "--playout-policy", "search:4"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    text = json.dumps(doc)
    assert '"estimate"' in text and '"policy": "search:4"' in text
    # mixed is a policy of the one list now (duplicate.policies.POLICIES); an unknown name is not
    bad = runner.invoke(cli_main, [*args, "--playout-policy", "clever"])
    assert bad.exit_code == 2 and "unknown bot policy" in bad.output
    bad = runner.invoke(cli_main, ["--lang", "zh", *args, "--playout-policy", "search:4,exact=99"])
    assert bad.exit_code == 2 and "搜索预算“4,exact=99”无效：exact 应在 0 到 27 之间" in bad.output
    res = runner.invoke(cli_main, [*args, "--playout-policy", "search:4,exact=6,nodes=2000",
                                   "--playout-noise", "0"])
    assert res.exit_code == 0, res.output
    assert '"policy": "search:4,exact=6,nodes=2000"' in res.output and '"noise": 0.0' in res.output
    assert '"samples": 1,' in res.output and '"samples": 2' not in res.output


def test_a_view_no_deal_agrees_with_gets_the_heuristics_play() -> None:
    deal = _random_point(5, 40)
    view = dataclasses.replace(_view_of(deal), counts=(27, 27, 27, 27))
    player = SearchPlayer("bad", SearchBudget(playouts=8))
    combo = player.act(view)
    assert player.fallbacks == 1
    assert combo == candidates(view, 1)[0]


def test_a_tournament_with_the_search_as_a_baseline(tmp_path: Path) -> None:
    """A tournament file naming `guandan agent --policy search:8` beside the heuristic: the
    round robin plays and rates both (the clients run in this process, as the commands
    would run them)."""
    import shlex

    from duplicate.arena.tournament import AgentSpec, read_agents, run_tournament

    spec = tmp_path / "agents.txt"
    spec.write_text("heuristic: guandan agent --url {url} --policy heuristic\n"
                    "search8: guandan agent --url {url} --policy search:8 --seed 1\n")
    agents = read_agents(spec)

    async def launch(agent: AgentSpec, url: str) -> Any:
        argv = shlex.split(agent.command)
        return await run_agent(url, argv[argv.index("--policy") + 1], "1")

    bs = list(generate_boards(simulation_key(b"\x0b"), 1))
    result = asyncio.run(asyncio.wait_for(
        run_tournament(agents, bs, launch=launch, out_dir=tmp_path), 120))
    assert len(result.matches) == 1 and result.matches[0].deals == 2
    assert {r.name for r in result.ratings} == {"heuristic", "search8"}
