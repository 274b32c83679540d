"""``guandan table-sim URL TOKEN…``: bot deals played into a running hall through the
device protocol (docs/CAPTURE.md), as an electronic table would: for each recorder's
token, every board of its table and room not yet ended is started, played by four
heuristic bots (``duplicate.capture.sim``) and sent action by action, numbered; some
actions are sent twice (a lost answer) to exercise the protocol; a board begun already
resumes after its last acknowledged number. Tables run at once, one thread each."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import click

from duplicate.commands.common import check_policy, cli_lang, say
from engine.cards import parse_cards, to_tokens
from engine.seat import Seat

#: Seconds an answer may take.
TIMEOUT = 30.0


class SimError(Exception):
    """The hall refused or did not answer: the message is its ``message`` (or why not)."""


@dataclass
class TableRun:
    """What one token's table did: boards ended, actions sent, resends, answer times."""

    label: str = ""
    boards: int = 0
    actions: int = 0
    resends: int = 0
    times: list[float] = field(default_factory=list)
    results: list[str] = field(default_factory=list)
    error: str | None = None


class Device:
    """The device side of the protocol over HTTP (stdlib only)."""

    def __init__(self, base: str, token: str, lang: str) -> None:
        self.root = f"{base.rstrip('/')}/api/capture/{quote(token, safe='')}"
        self.lang = lang

    def call(self, path: str, body: Any = None, run: TableRun | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode("utf-8")
        req = urllib.request.Request(
            self.root + path, data=data, method="GET" if body is None and not
            path.endswith("/start") else "POST",
            headers={"Content-Type": "application/json", "Accept-Language": self.lang},
        )
        started = time.perf_counter()
        try:
            with urllib.request.urlopen(req, timeout=TIMEOUT) as answer:
                out = json.loads(answer.read().decode("utf-8"))
        except urllib.error.HTTPError as exc:
            try:
                said = json.loads(exc.read().decode("utf-8")).get("message")
            except (ValueError, AttributeError):
                said = None
            raise SimError(said or f"HTTP {exc.code}") from None
        except (urllib.error.URLError, OSError, ValueError) as exc:
            raise SimError(str(getattr(exc, "reason", exc))) from None
        if run is not None:
            run.times.append(time.perf_counter() - started)
        return out


def initial_hands(state: dict[str, Any]) -> dict[str, list[str]]:
    """The hands at the board's start: the hands now and the cards each seat played."""
    cards = {s.name: parse_cards(state["hands"][s.name]) for s in Seat}
    for a in state["actions"]:
        cards[a["seat"]] += parse_cards(a["cards"])
    return {s: to_tokens(c) for s, c in cards.items()}


def play_board(dev: Device, board: int, run: TableRun, resend_every: int, seed: str,
               policy: str) -> None:
    """Start ``board`` (or find it begun) and send the bots' actions from the next number."""
    # lazy: start-up speed (the capture package brings the database layer with it)
    from duplicate.capture.sim import actions_for_state

    state = dev.call(f"/boards/{board}/start", {}, run)
    if state["state"] == "ended":
        return
    plan = actions_for_state(
        initial_hands(state), state["level"], state["leader"],
        seed=f"{seed}/{state['room']}/{board}", policy=policy)
    done = state["actions"]
    for a, b in zip(done, plan, strict=False):
        if (a["seat"], tuple(a["cards"])) != (b.seat, b.cards):
            raise SimError(say("capture.sim.diverged", board=board, seq=a["seq"]))
    for seq in range(len(done) + 1, len(plan) + 1):
        a = plan[seq - 1]
        body = {"seq": seq, "seat": a.seat, "cards": list(a.cards), "type": a.type,
                "rank": a.rank}
        ack = dev.call(f"/boards/{board}/actions", body, run)
        run.actions += 1
        if resend_every and seq % resend_every == 0:
            again = dev.call(f"/boards/{board}/actions", body, run)
            if again.get("stored") is not False or again.get("ack") != seq:
                raise SimError(say("capture.sim.resend", board=board, seq=seq))
            run.resends += 1
        if ack.get("over"):
            break
    final = dev.call(f"/boards/{board}", None, run)
    run.boards += 1
    run.results.append(f"{board}: {final.get('result')}")


def run_table(base: str, token: str, lang: str, resend_every: int, seed: str, policy: str,
              run: TableRun) -> None:
    """Every board of the token's table and room, in order; an error stops the table."""
    dev = Device(base, token, lang)
    try:
        table = dev.call("", None, run)
        run.label = say("capture.sim.table", table=table["table"],
                        room=say(f"hall.room.{table['room']}"))
        for line in table["boards"]:
            if line["state"] != "ended":
                play_board(dev, int(line["board"]), run, resend_every, seed, policy)
    except SimError as exc:
        run.error = str(exc)


@click.command("table-sim")
@click.argument("url")
@click.argument("tokens", nargs=-1, required=True)
@click.option("--resend-every", type=click.IntRange(min=0), default=5, show_default=True,
              help="Send every Nth action twice, as a device whose answer was lost (0: "
              "never).")
@click.option("--seed", default="table-sim", show_default=True,
              help="The bots' seed (the same seed plays the same deals).")
@click.option("--policy", default="heuristic", metavar="POLICY", callback=check_policy,
              show_default=True, help="The bots' policy (mixed or random: the rooms play "
              "differently).")
def table_sim_command(url: str, tokens: tuple[str, ...], resend_every: int, seed: str,
                      policy: str) -> None:
    """Play bot deals into a running hall through the device protocol, as electronic
    tables would (docs/CAPTURE.md): one recorder's TOKEN for each table and room.

    \b
    Example: guandan table-sim http://127.0.0.1:8000 TOKEN1 TOKEN2
    """
    lang = cli_lang()
    runs = [TableRun() for _ in tokens]
    threads = [threading.Thread(target=run_table,
                                args=(url, t, lang, resend_every, seed, policy, r))
               for t, r in zip(tokens, runs, strict=True)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    failed = False
    for run in runs:
        times = sorted(run.times)
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))] * 1000 if times else 0.0
        click.echo(say("capture.sim.done", table=run.label or "?", boards=run.boards,
                       actions=run.actions, resends=run.resends, p99=f"{p99:.0f}"))
        for line in run.results:
            click.echo(f"  {line}")
        if run.error is not None:
            failed = True
            click.echo(say("capture.sim.failed", table=run.label or "?", reason=run.error),
                       err=True)
    if failed:
        raise SystemExit(1)
