"""One list of bot policies: ``guandan simulate --x mixed`` was refused
though ``mixed`` is the default of ``event play-bots``. The names both accept are
``duplicate.policies.POLICIES``, defined once; ``mixed`` is a policy of the library like the
others, its side's players sharing one error rate."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main
from duplicate.gdn import load
from duplicate.replay import replay


def test_simulate_and_play_bots_accept_one_list() -> None:
    from duplicate.events import BOT_POLICIES
    from duplicate.policies import POLICIES, make_player

    assert set(BOT_POLICIES) == set(POLICIES) == {"random", "heuristic", "search", "mixed"}
    assert BOT_POLICIES[0] == "mixed"  # play-bots' default first
    for name in POLICIES:
        assert make_player(name, 1).name.startswith(name)


@pytest.mark.parametrize("policy", ["mixed", "random", "heuristic", "search:4"])
def test_simulate_takes_every_policy_play_bots_takes(tmp_path: Path, policy: str) -> None:
    out = tmp_path / "sim.gdn"
    result = CliRunner().invoke(main, ["simulate", "--seed", "1f", "--boards", "1", "--x",
                                       policy, "--y", "heuristic", "-o", str(out), "--json"])
    assert result.exit_code == 0, result.output
    with out.open(encoding="utf-8") as f:
        records = list(load(f))
    assert len(records) == 2 and all(replay(r).ok for r in records)
    name = policy.partition(":")[0]
    assert records[0].tags["North"] == f"X-{name}-1"


def test_two_mixed_sides_differ_and_play_the_same_each_time() -> None:
    def run() -> dict[str, object]:
        result = CliRunner().invoke(main, ["simulate", "--seed", "1f", "--boards", "4", "--x",
                                           "mixed", "--y", "mixed", "--json"])
        assert result.exit_code == 0, result.output
        doc: dict[str, object] = json.loads(result.output)
        return doc

    first = run()
    assert first == run()  # seeded: byte for byte the same
    assert first["x_total_swing"] != 0  # one side errs more than the other


def test_a_mixed_side_shares_its_error_rate() -> None:
    from duplicate.bots import MixedPlayer
    from duplicate.policies import make_player
    from duplicate.simulate import _policy

    factory = _policy("mixed", b"\x01" * 32, "X")
    a, b = factory(b"a"), factory(b"b")
    assert isinstance(a, MixedPlayer) and isinstance(b, MixedPlayer)
    assert a._per_mille == b._per_mille  # noqa: SLF001  (one rate for the side)
    assert _policy("mixed", b"\x01" * 32, "Y")(b"a")._per_mille != a._per_mille  # type: ignore[attr-defined]  # noqa: SLF001
    player = make_player("mixed", b"s", error_rate=0.25)
    assert isinstance(player, MixedPlayer) and player._per_mille == 250  # noqa: SLF001


def test_play_bots_draws_a_teams_rate_as_before() -> None:
    """The event's mixed bots are the library's: a team's error rate is unchanged, so an
    event plays as it did."""
    from duplicate.bots import MAX_ERROR_RATE, MixedPlayer
    from duplicate.events import MixedPlayer as EventMixed
    from duplicate.events import team_error_rate

    assert EventMixed is MixedPlayer
    for seed, team in (("ab12", "Tigers"), ("ff", "East Lake")):
        digest = hashlib.sha256(f"guandan-event/skill|{seed}|{team}".encode()).digest()
        old = round(MAX_ERROR_RATE * int.from_bytes(digest[:4], "big") / 0xFFFFFFFF, 3)
        assert team_error_rate(seed, team) == old


def test_one_refusal_names_the_one_list() -> None:
    sim = CliRunner().invoke(main, ["simulate", "--seed", "1f", "--boards", "1", "--x",
                                    "clever"])
    assert sim.exit_code == 1
    assert "expected one of random / heuristic / search / mixed" in sim.output
    agent = CliRunner().invoke(main, ["agent", "--url", "ws://127.0.0.1:1/game/x", "--policy",
                                      "clever"])
    assert agent.exit_code == 2
    assert "expected one of random / heuristic / search / mixed" in agent.output
