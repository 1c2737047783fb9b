"""牌譜分析: the AI reviews a game, one decision of one seat at a time.

For every decision the person made (a discard, a claim, a 聽, a win taken or
passed) the review gives the reference bot's choice and the **expected-points
loss** of the move played: how many points, at the record's own stakes (the
settlement's ``net``), the move played is expected to give away against the best
of the compared moves. Each expectation is estimated from the seat's knowledge
alone: ``worlds`` times the tiles the seat cannot see are dealt again
(``engine.rollout.determinize``) and, in each such world, every compared move is
played and the hand played out by fast bots. Every move meets the same worlds
(common random numbers), so the *difference* between two moves is much more
precise than either expectation; the spread is the standard error of that
difference over the worlds.

The worlds are *developed* by default (``deal_developed``): each opponent's hand is
dealt as far along as the seat's reading of the table says (ready with the
reader's chance, on waits drawn by its chances; else about as far from ready as
hands are at that many discards), where a uniform deal (``deal="uniform"``) hands
them random, slow hands that make pushing look cheap. Judged against the true
world (the real hands, the wall's order drawn again) at 2,782 decisions of L5
self-play, developed worlds' estimates came out closer: mean squared error lower
by 1,211 ± 263 points² (RMSE 63.5 against 73.1 points), the bias against a safer
tile −7 points where uniform worlds had −19 (``bench/review_worlds.py``,
docs/analysis.md).

    >>> from twmahjong.profiles import load_profile
    >>> from twmahjong.selfplay import play_match, make_bots
    >>> m = play_match(load_profile("standard"), seed=3, rounds=1, max_hands=1,
    ...                bots=make_bots(["efficiency"] * 4, 3))
    >>> r = analyze_record(m.record(), seat=0, bot="efficiency", worlds=2)
    >>> r.hands[0].decisions[0].loss >= 0
    True

What a sampled world assumes beyond ``determinize``: a seat that declared 聽 (報聽,
天聽, 地聽) does not wait on a tile it could have won on since and did not (a
tile it drew and threw, or another seat's discard it let go) — the assumption
``determinize`` already makes that nobody passes a win. Worlds that break it are
dealt again (a few tries). Only public events (discards, declarations) are read.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from .bots import Bot, make_bot
from .bots.defence import danger_table
from .bots.efficiency import discard_table
from .bots.reader import TableRead, read_table
from .bots.view import View
from .coach import coach
from .engine import actions as A
from .engine.actions import Action, legal_json
from .engine.match import Match, Record
from .engine.observe import LazyObservation
from .engine.record import ReplayError, replay
from .engine.rollout import clone, complete_hand, determinize
from .engine.table import HandState
from .engine.winning import waits as winning_waits
from .errors import UserError
from .tiles import counts34, format_tiles, parse_tile, tile_str

__all__ = ["ANALYSIS_FORMAT", "DEALS", "DEFAULT_BOT", "DEFAULT_DEAL", "DEFAULT_WORLDS",
           "ROLLOUT_BOT", "AnalysisError", "DecisionPoint", "DecisionReview", "HandReview",
           "Plan", "Review", "analyze_record", "deal_developed", "decision_points",
           "developed_hand", "nonready_target", "person_seat", "plan_record", "play_worlds",
           "review_points"]

ANALYSIS_FORMAT = "twmahjong-analysis"
DEFAULT_BOT = "L6"              # the reference AI each move is shown beside: the top level
ROLLOUT_BOT = "efficiency"      # plays the other seats in the playouts (fast, deterministic)
SEAT_PLAYOUT_BOT = "efficiency"  # plays on for the reviewed seat after the compared move
DEFAULT_WORLDS = 48             # sampled worlds per decision
MAX_OPTIONS = 5                 # moves compared at one decision
SIGNIFICANT = 2.0               # a mistake's loss is at least this many spreads
REFINE = 3                      # a possible mistake meets this many times the worlds again
_REDEAL_TRIES = 20              # worlds dealt again when a declared seat's waits break a fact
READY_HANDS = 8                 # ready hands drawn for a ready opponent; the reader keeps one
DEALS = ("developed", "uniform")  # how a world deals the hidden tiles (see sample_world)
DEFAULT_DEAL = "developed"
PHASES = ("turn", "claim")      # the decisions a world can be sampled at

Progress = Callable[[int, int], None]   # (done, total) decisions


class AnalysisError(UserError):
    """Input the analysis cannot work on: not a record, no such seat, no such bot."""


@dataclass(frozen=True)
class DecisionPoint:
    """A moment ``seat`` decided: a copy of the hand as it stood, and the move made.

    ``step`` is where a viewer shows the move (the replay viewer's frame); ``event``
    the index the move's event has in the record."""
    state: HandState
    seat: int
    played: Action
    event: int
    step: int | None = None


@dataclass
class DecisionReview:
    """One decision, reviewed: the move played, the AI's, the compared moves'
    expected points, and the loss of the move played (points, ± ``spread``)."""
    n: int                      # 1-based within the hand
    hand_no: int
    event: int
    step: int | None
    turn: int                   # 巡: the seat's own discards so far + 1
    phase: str
    hand: str                   # the seat's concealed tiles, the drawn one apart
    drawn: str | None
    played: Action
    bot: Action
    options: list[tuple[Action, float]]      # (move, expected points), best first
    loss: float
    spread: float
    mistake: bool
    worlds: int                 # worlds the move played met (more for a possible mistake)
    why: dict[str, str] | None = None   # the coach's line on the AI's move (zh, en)

    @property
    def agrees(self) -> bool:
        return self.played == self.bot

    @property
    def given_away(self) -> float:
        """What following the AI would have saved: the loss of a move that is not the
        AI's. A move the AI makes gives nothing away, however the rollouts rank it (the
        AI's choice is the reference; the rollouts' best is a weaker bots' estimate,
        and at the AI's own move mostly noise: 7 ± 27, 10 ± 13 points)."""
        return 0.0 if self.agrees else self.loss

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n, "event": self.event, "step": self.step, "turn": self.turn,
                "phase": self.phase, "hand": self.hand, "drawn": self.drawn,
                "played": self.played.to_json(), "bot": self.bot.to_json(),
                "agrees": self.agrees,
                "options": [{"action": a.to_json(), "expected": round(v, 2)}
                            for a, v in self.options],
                "loss": round(self.loss, 2), "spread": round(self.spread, 2),
                "worlds": self.worlds, "mistake": self.mistake, "why": self.why}


@dataclass
class HandReview:
    hand_no: int
    dealer: int
    decisions: list[DecisionReview] = field(default_factory=list)

    def costliest(self, k: int = 3) -> list[DecisionReview]:
        """The ``k`` decisions that gave away the most (``given_away``: moves not the
        AI's, with a loss above zero). A move the AI would have made is not among
        them: "#7 5z (AI 5z) −36" told a player their agreement was costly."""
        ranked = sorted((d for d in self.decisions if d.given_away > 0),
                        key=lambda d: (-d.given_away, d.n))
        return ranked[:k]

    @property
    def given_away(self) -> float:
        """Points the hand's moves gave away (``DecisionReview.given_away`` summed)."""
        return sum(d.given_away for d in self.decisions)

    @property
    def mistakes(self) -> int:
        return sum(d.mistake for d in self.decisions)

    def to_json(self) -> dict[str, Any]:
        return {"hand_no": self.hand_no, "dealer": self.dealer,
                "total_loss": round(self.given_away, 2),
                "mistakes": self.mistakes,
                "costliest": [d.n for d in self.costliest()],
                "decisions": [d.to_json() for d in self.decisions]}


@dataclass
class Review:
    seat: int
    bot: str
    worlds: int
    seed: int
    threshold: float
    stakes: dict[str, int]
    hands: list[HandReview]
    deal: str = DEFAULT_DEAL

    @property
    def given_away(self) -> float:
        """Points the seat's moves gave away over every hand reviewed."""
        return sum(h.given_away for h in self.hands)

    @property
    def mistakes(self) -> int:
        return sum(h.mistakes for h in self.hands)

    def to_json(self) -> dict[str, Any]:
        return {"format": ANALYSIS_FORMAT, "version": 1, "seat": self.seat, "bot": self.bot,
                "rollout_bot": ROLLOUT_BOT, "worlds": self.worlds, "deal": self.deal,
                "seed": self.seed,
                "points": "settlement points at the record's stakes", "stakes": self.stakes,
                "threshold": self.threshold,
                "total_loss": round(self.given_away, 2),
                "mistakes": self.mistakes,
                "hands": [h.to_json() for h in self.hands]}


# -- which decisions ---------------------------------------------------------------------------

def is_decision(h: HandState, seat: int) -> bool:
    """``seat`` has a real choice now, at a moment a world can be sampled."""
    acts = h.pending().get(seat)
    if not acts or len(acts) < 2 or h.phase not in PHASES:
        return False
    return h.phase != "claim" or len(h.claim_ctx or ()) == 2


def decision_points(rec: Record, seat: int, hands: Iterable[int] | None = None
                    ) -> tuple[Match, list[DecisionPoint]]:
    """Replay ``rec``; the finished match and a copy of the hand at each of ``seat``'s
    decisions (in the hands numbered ``hands`` only, when given: a copy at every
    decision of a long game is most of the replay's time)."""
    out: list[DecisionPoint] = []
    keep = None if hands is None else set(hands)

    def watch(h: HandState, choices: dict[int, Action]) -> None:
        if (keep is None or h.hand_no in keep) and is_decision(h, seat):
            out.append(DecisionPoint(clone(h), seat, choices.get(seat, A.PASS), len(h.events)))

    m = replay(rec, watch=watch)
    return m, out


def person_seat(doc: dict[str, Any]) -> int | None:
    """The seat a person played: a record's optional ``person`` (the player, as
    ``seating`` numbers them, that ``twmj play`` writes), or a server game document's
    ``players`` (bots are named ``bot:…``); None when the document does not tell, or
    more than one did."""
    person, seating = doc.get("person"), doc.get("seating")
    if isinstance(person, int) and isinstance(seating, list) and person in seating:
        return seating.index(person)
    players = doc.get("players")
    if not isinstance(players, list) or len(players) != 4:
        return None
    people = [s for s, p in enumerate(players) if isinstance(p, str) and not p.startswith("bot:")]
    return people[0] if len(people) == 1 else None


# -- sampling worlds ---------------------------------------------------------------------------

def _hand_events(h: HandState) -> list[dict[str, Any]]:
    return h.events[h.events_start:]


def passed_waits(h: HandState, seat: int) -> dict[int, set[int]]:
    """Per declared opponent: the kinds it could have won on since it declared and did
    not (its own drawn-and-thrown tiles, the others' discards). Read from the public
    events (declare, discard) alone."""
    out: dict[int, set[int]] = {}
    declaring: int | None = None        # 報聽's own discard follows its declare event
    for ev in _hand_events(h):
        t = ev.get("type")
        if t == "declare" and ev.get("seat") != seat:
            out[int(ev["seat"])] = set()
            declaring = int(ev["seat"]) if "tile" in ev else None
        elif t == "discard":
            k = parse_tile(ev["tile"])
            for d, kinds in out.items():
                if d != declaring:
                    kinds.add(k)
            declaring = None
    return out


def developed_hand(free: list[int], size: int, target: int, rng: random.Random,
                   weigh: Callable[[list[int]], float] | None = None) -> list[int] | None:
    """``size`` (3m+1) tiles from ``free`` about ``target`` from ready: a complete hand
    less one tile (ready), then 1.5 × ``target`` tiles swapped for random free ones
    (a swap moves a hand about two thirds of a step). A ready hand is drawn out of
    ``READY_HANDS`` with chances in proportion to ``weigh(its waits)`` (the reader's
    chance of those tiles being the seat's winning tiles). None when the free tiles
    cannot make one."""
    if target == 0 and weigh is not None:
        hands, weights = [], []
        for _ in range(READY_HANDS):
            hand = developed_hand(free, size, 0, rng)
            if hand is None:
                break
            hands.append(hand)
            weights.append(weigh(winning_waits(counts34(hand))))
        if not hands:
            return None
        if sum(weights) <= 0:
            return hands[0]
        return rng.choices(hands, weights)[0]
    hand = complete_hand(free, (size - 1) // 3, rng, tries=50)
    if hand is None:
        return None
    hand.pop(rng.randrange(len(hand)))
    f = list(free)
    for k in hand:
        f[k] -= 1
    for _ in range(math.ceil(1.5 * target)):
        rest = [k for k in range(34) for _ in range(f[k])]
        if not rest:
            break
        i = rng.randrange(len(hand))
        f[hand[i]] += 1
        hand[i] = rng.choice(rest)
        f[hand[i]] -= 1
    return hand


def nonready_target(discards: int) -> int:
    """Shanten of an opponent's hand not read as ready, by its discards so far (in
    L5's self-play about 2.9 at the second discard, 1.8 at the fifth, 1.3 at the
    eighth among the hands not ready: `bench/worlds.py hands`)."""
    return max(1, round(3.2 - 0.25 * discards))


def deal_developed(h: HandState, seat: int, rng: random.Random, ready: dict[int, float],
                   wins: Callable[[int, int], float] | None = None) -> HandState:
    """A world from ``seat``'s view whose opponents hold hands as far along as the
    table shows: each undeclared one ready with the reader's chance (``ready``),
    on waits drawn by the reader's chances (``wins(opponent, kind)``), otherwise
    about as far from ready as such hands are at its number of discards.
    Uniform worlds deal random hands, two shanten slower than the truth by the
    eighth discard (`bench/worlds.py hands`), which makes every hand a race the seat
    wins. The hidden tiles are the seat's unseen pool, dealt by ``determinize``;
    only which opponent holds what, and so what stands in the wall, differ."""

    def deal(s: int, free: list[int], size: int) -> list[int] | None:
        st = h.seats[s]
        if size % 3 != 1:
            return None
        ready_now = st.declared is not None or rng.random() < ready.get(s, 0.0)
        target = 0 if ready_now else nonready_target(len(st.discards))
        weigh = None if wins is None else (
            lambda ws: sum(wins(s, k) for k in ws) / len(ws) if ws else 0.0)
        return developed_hand(free, size, target, rng, weigh)
    return determinize(h, seat, rng, deal)


def sample_world(h: HandState, seat: int, rng: random.Random,
                 facts: dict[int, set[int]], read: TableRead | None = None) -> HandState:
    """A world from ``seat``'s view whose declared seats wait on none of ``facts``
    (after ``_REDEAL_TRIES`` worlds that all break one, the last is taken): dealt
    uniformly, or, given the seat's ``read`` of the table, developed
    (``deal_developed``)."""
    if read is None:
        def deal() -> HandState:
            return determinize(h, seat, rng)
    else:
        ready = {s: read.ready(s) for s in range(4) if s != seat}

        def deal() -> HandState:
            return deal_developed(h, seat, rng, ready, read.wins)
    w = deal()
    for _ in range(_REDEAL_TRIES):
        if all(not (w.seats[d].waits & kinds) for d, kinds in facts.items()):
            break
        w = deal()
    return w


def _play_out(w: HandState, policies: Sequence[Bot]) -> None:
    while not w.over:
        for s, acts in w.pending().items():
            w.act(s, policies[s].act(cast(Any, LazyObservation(w, s, actions=acts))))


def _points(w: HandState, seat: int) -> float:
    res = w.result
    assert res is not None
    net = res.get("net")
    return float(net[seat]) if net else 0.0


# -- the options at one decision ---------------------------------------------------------------

def _as_action(a: Action | A.ActionJSON | dict[str, Any], legal: Sequence[Action]) -> Action:
    act = a if isinstance(a, Action) else Action.from_json(a)
    for x in legal:
        if x == act:
            return x
    return legal[0]


def options_at(h: HandState, seat: int, played: Action, bot_choice: Action) -> list[Action]:
    """The moves compared: the one played, the AI's, and (for discards) the two most
    efficient tiles and the safest; at a claim, also passing and winning."""
    legal = h.pending()[seat]
    opts: list[Action] = [played, bot_choice]
    opts += [a for a in legal if a.type == "win"]
    if h.phase == "claim":
        opts.append(A.PASS)
    else:
        kinds = sorted({a.tile for a in legal if a.type == "discard" and a.tile is not None})
        if len(kinds) > 1:
            v = View.from_observation(cast(Any, LazyObservation(h, seat, actions=legal)))
            table = discard_table(v.counts, v.unseen, kinds)
            fast = sorted(table, key=lambda d: (d.shanten, -d.useful, d.kind))
            rank = {d.kind: i for i, d in enumerate(fast)}
            danger = danger_table(v, kinds)
            safe = min(kinds, key=lambda k: (danger[k][1], rank[k]))
            opts += [A.discard(d.kind) for d in fast[:2]] + [A.discard(safe)]
    seen: list[Action] = []
    for o in opts:
        if o in legal and o not in seen:
            seen.append(o)
    return seen[:MAX_OPTIONS]


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs)


def _stderr(xs: Sequence[float]) -> float:
    n = len(xs)
    if n < 2:
        return 0.0
    m = _mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n)


def _decision_rng(seed: int, p: DecisionPoint) -> random.Random:
    return random.Random(f"twmj-analysis/{seed}/{p.state.hand_no}/{p.event}")


def _reference_bot(name: str, seed: int) -> Bot:
    bot = make_bot(name, seed)
    if hasattr(bot, "exact"):
        bot.exact = True            # decide by the seed alone, never by the machine's load
    return bot


def _playout_bots(seat: int, seed: int) -> list[Bot]:
    """Who plays the worlds out: the reviewed seat by ``SEAT_PLAYOUT_BOT``, the others by
    ``ROLLOUT_BOT`` (deterministic bots: a world's outcome depends on the move alone)."""
    other = _reference_bot(ROLLOUT_BOT, seed)
    return [_reference_bot(SEAT_PLAYOUT_BOT, seed) if s == seat else other for s in range(4)]


def _play(h: HandState, seat: int, opts: Sequence[Action], worlds: int, rng: random.Random,
          facts: dict[int, set[int]], playout: Sequence[Bot],
          read: TableRead | None = None) -> list[list[float]]:
    """Per option, the seat's points in each of ``worlds`` sampled worlds (the same
    worlds for every option)."""
    return play_worlds((sample_world(h, seat, rng, facts, read) for _ in range(worlds)), seat,
                       opts, playout)


def play_worlds(worlds: Iterable[HandState], seat: int, opts: Sequence[Action],
                playout: Sequence[Bot]) -> list[list[float]]:
    """Per option, the seat's points in each world, the option made there and the hand
    played to its end by ``playout``."""
    pts: list[list[float]] = [[] for _ in opts]
    for w in worlds:
        for i, o in enumerate(opts):
            c = clone(w)
            c.act(seat, o)
            _play_out(c, playout)
            pts[i].append(_points(c, seat))
    return pts


def review_point(p: DecisionPoint, bot: Bot, playout: Sequence[Bot], *, worlds: int, seed: int,
                 threshold: float, n: int, deal: str = DEFAULT_DEAL) -> DecisionReview:
    """Review one decision; see the module's docstring for what is estimated."""
    h, seat = p.state, p.seat
    legal = h.pending()[seat]
    choice = _as_action(bot.act(cast(Any, LazyObservation(h, seat, actions=legal))), legal)
    opts = options_at(h, seat, p.played, choice)
    rng = _decision_rng(seed, p)
    facts = passed_waits(h, seat)
    read = None if deal == "uniform" else read_table(
        View.from_observation(cast(Any, LazyObservation(h, seat, actions=legal))))
    pts = _play(h, seat, opts, worlds, rng, facts, playout, read)
    means = [_mean(x) for x in pts]
    best = max(range(len(opts)), key=lambda i: (means[i], -i))
    if best != 0 and p.played != choice and means[best] - means[0] >= threshold / 2:
        # a possible mistake: the move played, the best and the AI's meet REFINE times
        # as many worlds again, so that a mark rests on more than a lucky sample
        keep = sorted({0, best, opts.index(choice)})
        more = _play(h, seat, [opts[i] for i in keep], REFINE * worlds, rng, facts, playout,
                     read)
        for j, i in enumerate(keep):
            pts[i] += more[j]
            means[i] = _mean(pts[i])
        best = max(keep, key=lambda i: (means[i], -i))
    loss = means[best] - means[0]
    spread = _stderr([b - a for a, b in zip(pts[0], pts[best])])
    mistake = p.played != choice and loss >= threshold and loss > SIGNIFICANT * spread
    st = h.seats[seat]
    counts = list(st.counts)
    drawn = h.drawn if h.phase == "turn" and h.turn_seat == seat else None
    if drawn is not None:
        counts[drawn] -= 1
    ranked = sorted(zip(opts, means), key=lambda om: -om[1])
    why = coach(LazyObservation(h, seat, legal_json(legal)), choice=choice.to_json()).say
    return DecisionReview(
        n=n, hand_no=h.hand_no, event=p.event, step=p.step, turn=len(st.discards) + 1,
        phase=h.phase, hand=format_tiles([k for k in range(34) for _ in range(counts[k])]),
        drawn=None if drawn is None else tile_str(drawn), played=p.played, bot=choice,
        options=ranked, loss=max(0.0, loss), spread=spread, mistake=mistake, worlds=len(pts[0]),
        why=why.to_json())


def review_points(points: Iterable[DecisionPoint], *, bot: str = DEFAULT_BOT,
                  worlds: int = DEFAULT_WORLDS, seed: int = 0, threshold: float,
                  hands: Iterable[tuple[int, int]] = (), deal: str = DEFAULT_DEAL,
                  progress: Progress | None = None) -> list[HandReview]:
    """Review decision points (in game order), hand by hand; ``hands`` (hand_no,
    dealer) are listed even when the seat had no decision in them. ``deal`` is how
    the worlds are dealt (``DEALS``; see ``sample_world``)."""
    _check_deal(deal)
    pts = list(points)
    by_no = {no: HandReview(no, dealer) for no, dealer in hands}
    for p in pts:
        by_no.setdefault(p.state.hand_no, HandReview(p.state.hand_no, p.state.dealer))
    playout = _playout_bots(pts[0].seat if pts else 0, seed)
    refs: dict[int, Bot] = {}
    for i, p in enumerate(pts):
        no = p.state.hand_no
        if no not in refs:
            refs = {no: _reference_bot(bot, no)}     # one a hand; its seed is not the sampling's
        hr = by_no[no]
        hr.decisions.append(review_point(p, refs[no], playout, worlds=worlds, seed=seed,
                                         threshold=threshold, n=len(hr.decisions) + 1,
                                         deal=deal))
        if progress is not None:
            progress(i + 1, len(pts))
    return [by_no[no] for no in sorted(by_no)]


def _check_deal(deal: str) -> None:
    if deal not in DEALS:
        raise AnalysisError(f"--deal must be {' or '.join(DEALS)}, not {deal!r}")


@dataclass
class Plan:
    """A record checked and replayed: the seat, its decisions, the hands, the stakes."""
    seat: int
    points: list[DecisionPoint]
    hands: list[tuple[int, int]]            # (hand_no, dealer)
    stakes: dict[str, int]


def plan_record(rec: Record, *, seat: int | None = None, bot: str = DEFAULT_BOT,
                worlds: int = DEFAULT_WORLDS, hands: Sequence[int] | None = None,
                deal: str = DEFAULT_DEAL) -> Plan:
    """Check the request and replay the record (quick); ``analyze_record`` does the rest."""
    doc = rec
    if isinstance(rec, dict) and isinstance(rec.get("record"), dict):
        rec = rec["record"]
    if not isinstance(rec, dict) or "events" not in rec:
        raise AnalysisError("not a game record (formats.md) nor a game from the server")
    if seat is None:
        seat = person_seat(doc)
        if seat is None:
            raise AnalysisError("the record does not say which seat a person played; "
                                "choose one with --seat 0-3")
    if seat not in range(4):
        raise AnalysisError(f"seat must be 0, 1, 2 or 3, not {seat}")
    if worlds < 1:
        raise AnalysisError("--worlds must be at least 1")
    _check_deal(deal)
    _reference_bot(bot, 0)          # an unknown name fails here, before any work
    try:
        m, points = decision_points(rec, seat, hands)
    except ReplayError as e:
        raise AnalysisError(f"the record does not replay: {e}") from None
    dealt = [(int(e["hand_no"]), int(e["dealer"])) for e in m.events if e.get("type") == "deal"]
    if hands is not None:
        keep = set(hands)
        missing = sorted(keep - {no for no, _ in dealt})
        if missing:
            raise AnalysisError(f"the game has no hand {missing[0] + 1} (it has {len(dealt)})")
        dealt = [d for d in dealt if d[0] in keep]
    st = m.profile.stakes
    return Plan(seat, points, dealt, {"base": st.base, "per_tai": st.per_tai})


def analyze_record(rec: Record, *, seat: int | None = None, bot: str = DEFAULT_BOT,
                   worlds: int = DEFAULT_WORLDS, seed: int = 0, threshold: float | None = None,
                   hands: Sequence[int] | None = None, plan: Plan | None = None,
                   deal: str = DEFAULT_DEAL, progress: Progress | None = None) -> Review:
    """Review ``seat``'s decisions in a game record (formats.md), or in a server game
    document (``GET /api/v1/games/<id>``: its ``record``; the person's seat by default).

    ``threshold`` (points) is the loss from which a move is marked a mistake; by
    default one 台's worth at the record's stakes. ``hands`` keeps only those hands
    (0-based ``hand_no``); ``plan`` is ``plan_record``'s answer, if already made."""
    if plan is None:
        plan = plan_record(rec, seat=seat, bot=bot, worlds=worlds, hands=hands, deal=deal)
    limit = float(plan.stakes["per_tai"]) if threshold is None else threshold
    reviews = review_points(plan.points, bot=bot, worlds=worlds, seed=seed, threshold=limit,
                            hands=plan.hands, deal=deal, progress=progress)
    return Review(seat=plan.seat, bot=bot, worlds=worlds, seed=seed, threshold=limit,
                  stakes=plan.stakes, hands=reviews, deal=deal)
