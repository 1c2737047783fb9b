"""Rollouts for search: copy a hand, resample what one seat cannot see, play it out.

A searching player asks "what happens if I throw this?" many times over. It may not
look at the other hands or the wall, so each answer is played in a *world*: the
hand as the seat sees it, with every tile it cannot see — the other seats'
concealed tiles and the wall still standing — dealt again at random among those
places (determinization). ``determinize`` builds such a world from the seat's
knowledge alone: two hands that look the same to the seat give the same worlds for
the same random stream, whatever the true hidden tiles are.

    >>> import random
    >>> from twmahjong.profiles import load_profile
    >>> from twmahjong.bots import make_bot
    >>> h = HandState(load_profile("standard"), seed=4)
    >>> seat = next(iter(h.pending()))
    >>> bots = [make_bot("efficiency", i) for i in range(4)]
    >>> results = rollout(h, bots, n=3, seat=seat, rng=random.Random(1))
    >>> len(results), h.over            # the hand itself is untouched
    (3, False)

What a world cannot know is set to what a seat would assume: nobody else has passed
a win (過水 is not announced), and a seat that declared 聽 holds a ready hand built
from the unseen tiles. The engine never imports the bots: ``rollout`` takes any
objects with ``act(observation) -> action``.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol, cast

from . import actions as A
from .legal import claim_options
from .observe import LazyObservation
from .table import HandState
from .wall import Wall

if TYPE_CHECKING:
    from .observe import Observation
    from .results import HandResult

__all__ = ["HandDealer", "Policy", "clone", "complete_hand", "determinize", "rollout",
           "unseen_pool"]

_FLOWER0 = 34           # kinds 34.. are the eight flowers
_READY_TRIES = 200      # attempts at a ready hand for a declared seat before giving up


class Policy(Protocol):
    def act(self, observation: Observation) -> A.ActionJSON | A.Action: ...


def clone(h: HandState) -> HandState:
    """An independent copy of ``h``: playing it on never changes ``h``.

    Built as a shallow copy with every mutable part copied, so a field added to
    ``HandState`` later is carried along; seats and the wall are copied whole. Of the
    events only the hand's own are copied: a hand a match deals shares the match's
    list, and copying every earlier hand's events made each clone cost as much as the
    game so far (a review of a 1,459-hand record spent 291 s cloning)."""
    c = copy.copy(h)
    for name, value in vars(h).items():
        if name == "events":
            c.events, c.events_start = h.events[h.events_start:], 0
        elif isinstance(value, (list, dict, set)):
            setattr(c, name, copy.copy(value))
    c.seats = [st.copy() for st in h.seats]
    w = h.wall
    cw = Wall.__new__(Wall)
    for name in Wall.__slots__:
        setattr(cw, name, getattr(w, name))
    cw.order, cw.kinds = list(w.order), list(w.kinds)
    c.wall = cw
    return c


def _wall_positions(w: Wall) -> list[int]:
    """Indices of the tiles still standing (neither drawn from the front nor the 槓尾)."""
    taken_back = {Wall._back_index(i) for i in range(w.back_taken)}
    return [i for i in range(w.front, 144) if i not in taken_back]


def unseen_pool(h: HandState, seat: int) -> list[int]:
    """Every tile ``seat`` cannot see, as kinds: the others' concealed tiles (a
    face-down 暗槓 stays where it is: its count is public) and the standing wall."""
    pool = [k for k in (h.wall.kinds[i] for i in _wall_positions(h.wall))]
    for s, st in enumerate(h.seats):
        if s != seat:
            for k, n in enumerate(st.counts):
                pool.extend([k] * n)
    return pool


def complete_hand(counts_free: list[int], sets: int, rng: random.Random,
                  tries: int = _READY_TRIES) -> list[int] | None:
    """``sets`` sets and a pair from ``counts_free``, drawn at random (runs three
    times in four where both can be made): the first of ``tries`` attempts that
    finds them all, or None."""
    for _ in range(tries):
        free = list(counts_free)
        tiles: list[int] = []
        pairs = [k for k in range(34) if free[k] >= 2]
        if not pairs:
            return None
        p = rng.choice(pairs)
        free[p] -= 2
        tiles += [p, p]
        for _ in range(sets):
            runs = [k for k in range(27) if k % 9 <= 6 and free[k] and free[k + 1] and free[k + 2]]
            pungs = [k for k in range(34) if free[k] >= 3]
            if not runs and not pungs:
                break
            if runs and (not pungs or rng.random() < 0.75):
                k = rng.choice(runs)
                for j in (k, k + 1, k + 2):
                    free[j] -= 1
                tiles += [k, k + 1, k + 2]
            else:
                k = rng.choice(pungs)
                free[k] -= 3
                tiles += [k, k, k]
        else:
            return tiles
    return None


def _ready_hand(counts_free: list[int], size: int, rng: random.Random) -> list[int] | None:
    """``size`` (3m+1) tiles from ``counts_free`` that wait on something: m sets and a
    pair drawn at random, less one tile. None when the free tiles cannot make one."""
    tiles = complete_hand(counts_free, (size - 1) // 3, rng)
    if tiles is not None:
        tiles.pop(rng.randrange(len(tiles)))
    return tiles


HandDealer = Callable[[int, list[int], int], list[int] | None]


def determinize(h: HandState, seat: int, rng: random.Random,
                deal: HandDealer | None = None) -> HandState:
    """A copy of ``h`` in which every tile ``seat`` cannot see is dealt again.

    The other seats keep their concealed counts, melds, rivers, flowers and
    declarations; the wall keeps its length and where the dead end is. Sampling
    reads only what ``seat`` knows, so it cannot leak the true hidden tiles. Only a
    hand waiting on ``seat`` (its turn, or a claim window it is in) can be
    resampled: anywhere else a hidden decision of another seat is already under way.

    ``deal(other, free, size)``, if given, chooses each other seat's ``size``
    concealed tiles out of the free counts (declared seats first) — a world model
    that knows more than the unseen multiset, such as a reader's — or returns None
    for the uniform deal; the wall gets what is left. It must read only what the
    seat can see, as this function does.
    """
    if h.over:
        raise ValueError("the hand is over: nothing is hidden any more")
    if seat not in h.pending() or h.phase not in ("turn", "claim") or \
            (h.phase == "claim" and len(h.claim_ctx or ()) != 2):
        raise ValueError("a world is sampled when the seat decides at its turn or in a claim window")
    d = clone(h)
    lilgu = d.rules.lilgu
    # sorted: the pool's multiset is what the seat knows; its order would tell where
    # the hidden tiles truly are, and the same random stream must not see that
    pool = sorted(unseen_pool(h, seat))
    flowers = [k for k in pool if k >= _FLOWER0]
    free = [0] * 34
    for k in pool:
        if k < _FLOWER0:
            free[k] += 1
    others = [s for s in range(4) if s != seat]
    # declared seats first: a ready hand is the one constraint a world must meet
    others.sort(key=lambda s: h.seats[s].declared is None)
    hands: dict[int, list[int]] = {}
    for s in others:
        size = sum(h.seats[s].counts)
        hand = None if deal is None else deal(s, free, size)
        if hand is not None:
            _check_dealt(s, hand, free, size)
        if hand is None and h.seats[s].declared is not None and size % 3 == 1:
            hand = _ready_hand(free, size, rng)
        if hand is None:
            avail = [k for k in range(34) for _ in range(free[k])]
            rng.shuffle(avail)
            hand = avail[:size]
        for k in hand:
            free[k] -= 1
        hands[s] = hand
    rest = [k for k in range(34) for _ in range(free[k])] + flowers
    rng.shuffle(rest)
    for s, hand in hands.items():
        st = d.seats[s]
        counts = [0] * 34
        for k in hand:
            counts[k] += 1
        st.counts = counts
        if size_is_waiting(counts):
            st.waits = st.wait_kinds(lilgu)
        st.passed_win = False               # unknown to the seat: assume nobody passed a win
        st.passed_win_kinds = set()
        st.passed_pon = set()
    for i, k in zip(_wall_positions(d.wall), rest):
        d.wall.kinds[i] = k
        d.wall.order[i] = _REPRESENTATIVE[k]   # a sampled world has no physical ids of its own
    if d.phase == "claim":
        _reopen_claims(d, seat)
    return d


def _check_dealt(s: int, hand: list[int], free: list[int], size: int) -> None:
    """A world model's hand must be ``size`` tiles out of the free ones: anything else
    would leave a world with tiles counted twice or missing."""
    if len(hand) != size or any(not 0 <= k < 34 for k in hand) or \
            any(hand.count(k) > free[k] for k in set(hand)):
        raise ValueError(f"deal() gave seat {s} {len(hand)} tiles {sorted(hand)}: "
                         f"it must give {size} of the free tiles")


def size_is_waiting(counts: list[int]) -> bool:
    """A 3k+1 hand (between its turns) has waits to keep; a 3k+2 hand is mid-turn."""
    return sum(counts) % 3 == 1


def _reopen_claims(d: HandState, seat: int) -> None:
    """Who may claim the tile under way, in the new world: ``seat``'s options and
    choice stand; the others' are found again from their new hands."""
    discarder, k = cast(tuple[int, int], d.claim_ctx)      # a discard's window: (discarder, kind)
    pend = {seat: d._pending[seat]}
    for s in range(4):
        if s in (seat, discarder):
            continue
        opts = claim_options(d, s, discarder, k)
        if opts:
            pend[s] = opts
        elif d.open_windows:
            pend[s] = [A.PASS]
    d._pending = pend
    d._choices = {s: a for s, a in d._choices.items() if s == seat}


def rollout(h: HandState, policies: Sequence[Policy] | Callable[[int], Policy], *, n: int = 1,
            seat: int | None = None, rng: random.Random | None = None,
            first: A.ActionJSON | A.Action | None = None) -> list[HandResult]:
    """Play ``n`` copies of ``h`` to the end; each hand's ``result`` in order.

    ``policies[s]`` (or ``policies(s)``) decides for seat ``s``. With ``seat``, each
    copy is a fresh world sampled from that seat's view (``determinize``); without,
    the true hand is copied (a perfect-information playout). ``first``, if given, is
    ``seat``'s move at the start of every copy — how a search compares its options."""
    rng = rng or random.Random(0)
    pick = policies if callable(policies) else policies.__getitem__
    out: list[HandResult] = []
    for _ in range(n):
        w = determinize(h, seat, rng) if seat is not None else clone(h)
        if first is not None:
            w.act(seat if seat is not None else next(iter(w.pending())), first)
        while not w.over:
            for s, acts in w.pending().items():
                # the engine's own actions: an in-process policy answers with one of them
                w.act(s, pick(s).act(LazyObservation(w, s, actions=acts)))
        assert w.result is not None
        out.append(w.result)
    return out


def _representatives() -> list[int]:
    from ..tiles import physical_kind
    rep: dict[int, int] = {}
    for t in range(144):
        rep.setdefault(physical_kind(t), t)
    return [rep[k] for k in range(len(rep))]


_REPRESENTATIVE = _representatives()
