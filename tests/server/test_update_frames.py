"""Every seat is sent exactly the frames it was sent before the updates were built
four seats at once (``Seating._send_updates`` with ``observations`` and the clocks
shared).

A real table (the engine, L1 bots, people who think 0.1-14 s and sometimes run out
of time, so 托管 and presence news come too) is played on virtual time, twice with
the same seeds: once with the table's ``_send_updates``, once with the reference
below (the per-seat path it replaced, kept here verbatim). Each seat's frames,
decoded, must be equal one for one — a seat given another seat's hand, drawn tile
or 暗槓, another seat's own clock, or a field missing or extra fails it. The
engine's ``observations`` is also held to ``observation`` seat by seat (equal and
in the same key order) at every moment of random hands.
"""

from __future__ import annotations

import asyncio
import heapq
import json
import random

import orjson
import pytest

from bench.virtual_time import VirtualAsyncio, VirtualLoop
from twmahjong.bots import make_bot
from twmahjong.engine.actions import legal_json
from twmahjong.engine.observe import LazyObservation, observation, observations
from twmahjong.engine.table import HandState
from twmahjong.profiles import load_profile
from twmahjong.selfplay import make_bots
from twmahjong.server.net import protocol as P
from twmahjong.server.play import seats as seats_mod
from twmahjong.server.play import table as table_mod
from twmahjong.server.play.engine_game import EngineGame
from twmahjong.server.play.seats import Seating
from twmahjong.server.play.table import SeatState, Table, TableServices
from twmahjong.server.play.timers import TurnClock
from twmahjong.server.settings import Settings


def _reference_send_updates(self) -> None:
    """The per-seat path: one observation, one deep compare and one list of clocks
    per seat (the table's code before the shared build)."""
    now = self.sv.clock()
    key_of = getattr(self.game, "view_key", None)
    key = key_of() if key_of is not None else None
    for i, s in enumerate(self.seats):
        if not s.conns or self.game.hand_no == 0:
            continue
        view = None if key is None else (key, self.pending.get(i))
        if view is not None and view == s.last_view:
            continue
        s.last_view = view
        obs = self.game.observation(i)
        events = self.game.events_for(i, s.ev_sent)
        if obs == s.last_obs and not events:
            continue
        s.last_obs = obs
        s.ev_sent += len(events)
        timer = s.clock.view(now) if self._deciding(i) else None
        turn = s.decision_turn if s.decision_turn is not None else self.turn
        text = P.message("update", turn=turn, events=events, observation=obs, timer=timer,
                         clocks=self.clocks(i, now))
        for c in s.conns:
            c.push(text)
    for i in [i for i in self.presence_held if seats_mod.is_turn(self.pending.get(i) or [])]:
        self._presence_due(i)
    self.social.desk.moved()


class _Repo:
    def queue_actions(self, game_id, rows, epoch=None):
        return 0

    async def stored(self, ticket):
        return None

    def rejected(self, game_id):
        return None


class _Person:
    """A connected seat: keeps every frame; a person (not a bot's seat) answers an
    offered decision after a seeded think, with an L1 bot's choice."""

    def __init__(self, seat, loop, table_ref, rng, person):
        self.seat, self.loop, self.table_ref, self.rng = seat, loop, table_ref, rng
        self.person = person
        self.frames: list = []
        self.bot = make_bot("L1", rng.getrandbits(32))

    def push(self, text):
        msg = json.loads(text)
        self.frames.append(msg)
        obs = msg.get("observation")
        if not self.person or not obs or "legal" not in obs:
            return
        action = self.bot.act(obs)
        if hasattr(action, "to_json"):
            action = action.to_json()
        m = P.ActionMsg.model_validate({"type": "action", "action": action,
                                        "turn": msg.get("turn")})
        table = self.table_ref[0]
        self.loop.call_later(self.rng.choice([0.1, 0.5, 2.0, 6.0, 14.0]),
                             table.inbox.put_nowait, ("action", self.seat, m, self))


def _play(seed: int, hands: int, reference: bool, monkeypatch, tmp_path) -> list[list]:
    """Each seat's frames over ``hands`` hands: seats 0 and 2 people, 1 a bot, 3 a
    person on 托管 (a bot plays it, its clock is shown)."""
    monkeypatch.setattr(Seating, "_send_updates",
                        _reference_send_updates if reference else ORIGINAL)
    loop = VirtualLoop()
    shim = VirtualAsyncio(loop)
    monkeypatch.setattr(table_mod, "asyncio", shim)
    monkeypatch.setattr(seats_mod, "asyncio", shim)
    settings = Settings(data_dir=tmp_path, secret_key="s", claim_window=0.8, bot_delay=0.4,
                        bot_talk=0.0, disconnect_grace=1000.0)
    kinds = [None, "L1", None, None]
    seats = [SeatState(account_id=None if b else i + 1, name=f"p{i}", bot=b,
                       clock=TurnClock(5, 4)) for i, b in enumerate(kinds)]
    seats[3].auto = True
    rng = random.Random(seed)
    ref: list = [None]
    people = [_Person(i, loop, ref, random.Random(seed * 10 + i), kinds[i] is None and i != 3)
              for i in range(4)]
    for s, p in zip(seats, people):
        s.conns.append(p)
    meta = {"mode": "casual", "profile": "standard", "stake": "low", "rounds": 4,
            "options": {"seed": seed}}
    game = EngineGame(meta)
    services = TableServices(repo=_Repo(), settings=settings, tokens=None,
                             make_bot=make_bot, on_finished=None, rng=rng,
                             clock=lambda: loop.now)
    table = Table(f"g_{seed}", meta, seats, game, services)
    ref[0] = table

    async def drain():
        while not table.inbox.empty():
            await table._handle(table.inbox.get_nowait())

    async def play():
        for _ in range(hands):
            if game.match_over():
                break
            await table._deal()
            while not game.hand_over():
                deadlines = [s.clock.deadline() for i, s in enumerate(table.seats)
                             if i in table.pending and table._human_plays(s)
                             and s.clock.running]
                due = min(deadlines) if deadlines else None
                if due is not None and (not loop.timers or due < loop.timers[0][0]):
                    loop.now = max(loop.now, due)
                    await table._handle(("expire",))
                else:
                    when, _, fn, args = heapq.heappop(loop.timers)
                    loop.now = max(loop.now, when)
                    fn(*args)
                await drain()
            game.finish_hand()
            table.hand_open = False
            loop.timers.clear()
            for s in table.seats:        # the next hand's people decide again
                s.auto = s is table.seats[3]
        return [p.frames for p in people]

    table.hand_open = False
    return asyncio.run(play())


ORIGINAL = Seating._send_updates


@pytest.mark.parametrize("seed", [3, 41])
def test_each_seat_gets_the_frames_of_the_per_seat_path(seed, monkeypatch, tmp_path):
    new = _play(seed, 2, False, monkeypatch, tmp_path)
    old = _play(seed, 2, True, monkeypatch, tmp_path)
    updates = 0
    for seat, (a, b) in enumerate(zip(new, old)):
        assert len(a) == len(b), f"seat {seat}: {len(a)} frames, the per-seat path {len(b)}"
        for n, (x, y) in enumerate(zip(a, b)):
            assert x == y, f"seat {seat}, frame {n} differs"
            updates += x["type"] == "update"
    assert updates > 200                 # the hands were played and sent
    kinds = {f["type"] for frames in new for f in frames}
    assert {"update", "presence"} <= kinds   # people ran out of time: 托管 news too


def test_observations_equal_observation_of_each_seat():
    profile = load_profile("standard")
    checked = hidden = 0
    for n in range(40):
        bots = make_bots(["random"] * 4, 500 + n)
        h = HandState(profile, dealer=n % 4, seed=500 + n)
        while True:
            four = observations(h)
            for seat in range(4):
                want = observation(h, seat)
                assert four[seat] == want
                assert list(four[seat]) == list(want)         # the same key order
                assert orjson.dumps(four[seat]) == orjson.dumps(want)
                checked += 1
            hidden += any(m["tiles"] is None for o in four for ms in o["melds"] for m in ms)
            if h.over:
                break
            for s, acts in h.pending().items():
                h.act(s, bots[s].act(LazyObservation(h, s, legal_json(acts))))
                if h.over:
                    break
    assert checked > 4000
    assert hidden > 0                    # some 暗槓 lay face down to another seat
