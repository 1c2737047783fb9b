"""Set up table positions the way the rules describe them: each seat's tiles, the
order of the draws, the order of the replacements — then act with short words.

    h = table(hands=["123m...", ...], draws="5m 7p", back="3s")
    do(h, 0, "discard 9m")
"""

from __future__ import annotations

import dataclasses

from twmahjong.engine import HandState, TableRules, Wall
from twmahjong.engine import actions as A
from twmahjong.engine.actions import Action
from twmahjong.profiles import load_profile
from twmahjong.tiles import parse_tile, parse_tiles


def front_order(hands: list[str], dealer: int, draws: str = "") -> list[int]:
    """The live end of the wall that deals ``hands`` (dealer's has 17) then yields ``draws``."""
    hs = [parse_tiles(x) for x in hands]
    for s, h in enumerate(hs):
        want = 17 if s == dealer else 16
        assert len(h) == want, f"seat {s} needs {want} tiles, got {len(h)}"
    order = []
    for r in range(4):
        for i in range(4):
            s = (dealer + i) % 4
            order.extend(hs[s][4 * r:4 * r + 4])
    order.append(hs[dealer][16])
    if isinstance(draws, str):
        order.extend(parse_tiles(draws))
    else:
        for d in draws:                       # a list: tile text or None for any tile
            order.extend([None] if d is None else parse_tiles(d))
    return order


def nth_draw(n: int, tile: str, **more: str) -> list:
    """Draws where the n-th (1-based) is ``tile``; ``more`` as d62="5m" sets others."""
    picks = {n: tile, **{int(k[1:]): v for k, v in more.items()}}
    return [picks.get(i) for i in range(1, max(picks) + 1)]


def play_until(h: HandState, stop) -> None:
    """Like run_out, but stop as soon as ``stop(h)`` is true (checked before each decision)."""
    while not h.over and not stop(h):
        pend = h.pending()
        if h.phase == "turn":
            s = h.turn_seat
            opts = [a for a in pend[s] if a.type == "discard"]
            h.act(s, next((a for a in opts if a.tile == h.drawn), opts[0]))
        elif h.phase == "last_tile":
            h.act(h.turn_seat, A.DRAW)           # play through: 海底 is drawn
        else:
            pass_all(h)


def stacked_wall(hands, dealer=0, draws="", back="") -> Wall:
    return Wall.stacked(front_order(hands, dealer, draws), parse_tiles(back))


def table(hands, *, dealer=0, draws="", back="", profile="standard", pass_declare=True,
          open_windows=False, **rule_overrides) -> HandState:
    """A hand dealt from a stacked wall; rule overrides pin one table rule."""
    prof = load_profile(profile)
    rules = dataclasses.replace(TableRules.from_profile(prof), **rule_overrides)
    h = HandState(prof, dealer=dealer, wall=stacked_wall(hands, dealer, draws, back), rules=rules,
                  open_windows=open_windows)
    if pass_declare and h.phase == "declare":
        for s in list(h.pending()):
            h.act(s, A.PASS)
    return h


def action(text: str) -> Action:
    """'discard 5m', 'pon 5m', 'chi 3m 45m', 'kong 5m', 'added_kong 5m', 'win', 'pass'."""
    parts = text.split()
    t = parts[0]
    if t == "chi":
        return A.chi(parse_tile(parts[1]), *sorted(parse_tiles(parts[2])))
    tile = parse_tile(parts[1]) if len(parts) > 1 else None
    if t == "win":
        return Action("win", tile)
    return Action(t, tile)


def legal(h: HandState, seat: int) -> list[Action]:
    return list(h.pending().get(seat, []))


def legal_types(h: HandState, seat: int) -> set[str]:
    return {a.type for a in legal(h, seat)}


def win_action(h: HandState, seat: int) -> Action:
    return next(a for a in legal(h, seat) if a.type == "win")


def do(h: HandState, seat: int, text: str, *, others_pass: bool = True) -> None:
    """Act for ``seat``; with ``others_pass`` every other pending seat passes (claim windows)."""
    a = action(text)
    if a.type == "win" and a.tile is None:
        a = win_action(h, seat)
    h.act(seat, a)
    if others_pass and h.phase == "claim":      # only the window this discard opened
        for s, acts in list(h.pending().items()):
            h.act(s, A.PASS)


def pass_all(h: HandState) -> None:
    for s, acts in list(h.pending().items()):
        h.act(s, A.PASS)


def snapshot(h: HandState) -> tuple:
    """Everything that makes up the table, for 'nothing changed' checks."""
    seats = []
    for st in h.seats:
        seats.append((tuple(st.counts), tuple((m.type, m.kinds, m.from_seat) for m in st.melds),
                      tuple(st.flowers), tuple(st.discards), tuple(st.claimed), st.declared,
                      st.declare_valid, st.passed_win, frozenset(st.passed_win_kinds),
                      frozenset(st.passed_pon), st.cannot_win, st.last_discard, st.n_discards))
    return (tuple(seats), h.phase, h.turn_seat, h.drawn, h.wall.front, h.wall.back_taken,
            len(h.events), tuple(sorted((s, tuple(a)) for s, a in h.pending().items())),
            tuple(sorted(h._choices.items())), h.forbidden, h.no_kong, h.no_self_win)


def account(h: HandState) -> list[int]:
    """Count every tile kind wherever it is: hands, melds, river (unclaimed), flowers, wall."""
    c = [0] * 42
    for st in h.seats:
        for k in range(34):
            c[k] += st.counts[k]
        for m in st.melds:
            for k in m.kinds:
                c[k] += 1
        for k, taken in zip(st.discards, st.claimed):
            if not taken:
                c[k] += 1
        for f in st.flowers:
            c[f] += 1
    for k in h.wall.remaining_kinds():
        c[k] += 1
    return c


# Four hands with no pair and no two tiles within a run of each other: nothing can be
# claimed from the deal, so scenarios change only the tiles they are about.
QUIET = ["1479m258p369s1234567z", "258m369p147s1234567z", "369m147p258s1234567z",
         "147m258p369s1234567z"]


def quiet(dealer: int = 0, **changes: str) -> list[str]:
    """QUIET dealt with ``dealer`` holding the 17-tile hand; ``s1="..."`` replaces seat 1's."""
    base = QUIET[:]
    if dealer != 0:
        base[0], base[dealer] = base[dealer], base[0]
        base[dealer], base[0] = QUIET[0], QUIET[dealer]
    for key, hand in changes.items():
        base[int(key[1:])] = hand
    return base


def run_out(h: HandState) -> None:
    """Everyone discards what they draw, passes every claim and draws 海底 until the hand ends."""
    while not h.over:
        pend = h.pending()
        if h.phase == "turn":
            s = h.turn_seat
            opts = [a for a in pend[s] if a.type == "discard"]
            pick = next((a for a in opts if a.tile == h.drawn), opts[0])
            h.act(s, pick)
        elif h.phase == "last_tile":
            h.act(h.turn_seat, A.DRAW)           # play through: 海底 is drawn
        else:
            pass_all(h)


_FILL_ORDER = [27, 28, 29, 30, 31, 32, 33, 0, 8, 9, 17, 18, 26, 4, 13, 22, 2, 11, 20, 6, 15, 24]


def fill(fixed: dict[int, str], dealer: int = 0, avoid: str = "") -> list[str]:
    """Four hands: ``fixed[seat]`` tiles plus isolated filler (honors, terminals, 5s) up to
    16 (17 for the dealer), no filler kind twice in a seat and none of ``avoid``."""
    used = [0] * 42
    hands = {s: parse_tiles(fixed.get(s, "")) for s in range(4)}
    for h in hands.values():
        for k in h:
            used[k] += 1
    banned = set(parse_tiles(avoid))
    out = []
    for s in range(4):
        need = (17 if s == dealer else 16) - len(hands[s])
        mine = set(hands[s])
        extra = []
        order = _FILL_ORDER[s * 3:] + _FILL_ORDER[:s * 3] + [k for k in range(34) if k not in _FILL_ORDER]
        for k in order:
            if need == 0:
                break
            if k in banned or k in mine or used[k] >= 4:
                continue
            extra.append(k)
            used[k] += 1
            need -= 1
        assert need == 0, f"cannot fill seat {s}"
        from twmahjong.tiles import format_tiles
        out.append(format_tiles(hands[s], sort=False) + format_tiles(extra, sort=False))
    return out


def claim(h: HandState, seat: int, text: str) -> None:
    """In a claim window: everyone else passes, ``seat`` takes ``text``."""
    for s in list(h.pending()):
        if s != seat:
            h.act(s, A.PASS)
    h.act(seat, action(text) if not text.startswith("win") else win_action(h, seat))


def pass_claims(h: HandState) -> None:
    """Everyone asked about a discard (or a kong, or a flower) passes; a turn is left alone."""
    if h.phase in ("claim", "rob_kong", "rob_flower", "declare"):
        pass_all(h)
