"""教練模式 (the coach): at one decision of one seat, what the top level would do and why.

The coach reads **one seat's observation and nothing else** — the dict of
docs/architecture.md that the engine, a bot pipe or the server's ``update``
gives that seat. It never sees the wall or another hand, and the bot it asks
(L6, ``bots.master``) reads the same observation through ``bots.view.View``:
two tables that look alike to the seat give the same hint, whatever the hidden
tiles are (tests/test_coach.py deals them again and checks). L6 is made fresh
for each hint with a fixed seed and no deadline (``exact``), so its search
breaks ties the same way on a busy server as on an idle one, and the hint is
L6's own move on that observation.

A hint (``Hint``, JSON in docs/protocol.md) says:

* the decision (discard, claim, kong, win, 聽) and L6's choice, one entry of the
  observation's ``legal`` list exactly, with a line in zh-TW and English;
* for each kind in the hand, on the seat's own turn: shanten after throwing it,
  its 進張 (the kinds that bring the hand closer, with how many of each are still
  unseen) and its deal-in risk from the table reader (``bots.reader``): the
  chance that throwing it deals in, as 安全 / 小心 / 危險, with the reasons the
  seat can check on the table, per opponent that looks ready or declared — 現物
  (that seat threw it), that seat (when the tile is risky against it), else 筋 or
  壁 (what keeps it low there);
* at a claim, whether L6 calls and why, in one line;
* the outlook: about how many 台 the hand is worth, and whether L6 has given up
  attack for defence (棄胡).

    >>> obs = {"seat": 0, "hand": "1112345678999m", "drawn": "5p",
    ...        "legal": [{"type": "discard", "tile": "5p"}, {"type": "discard", "tile": "1m"}]}
    >>> coach(obs).choice
    {'type': 'discard', 'tile': '5p'}

Clients (browser, terminal) show the server's answer; ``twmj analyze --coach``
prints the same lines for a recorded game's decisions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .bots.arena import make_seat_bot
from .bots.defence import max_threat
from .bots.efficiency import DiscardInfo, discard_table, shanten
from .bots.master import MASTER
from .bots.reader import TableRead, read_table
from .bots.value import estimate_tai
from .bots.view import View
from .errors import UserError
from .hand import waits as hand_waits
from .tiles import en_name, parse_tile, parse_tiles, tile_str, zh_name

__all__ = ["COACH_BOT", "DECISIONS", "LOOKS_READY", "RISK_DANGER", "RISK_SAFE", "Accept",
           "ClaimAdvice", "Hint", "NoDecision", "Outlook", "Reason", "Said", "TileAdvice",
           "coach", "decision_of", "risk_class"]

COACH_BOT = "L6"            # the level whose move the coach shows: the top one
DECISIONS = ("discard", "claim", "kong", "win", "ready")
# Deal-in chance classes. The reader is calibrated (a tile read at 5% deals in
# about 5% of the times it is thrown); across L5 self-play about 2% of discards
# deal in, so under 2% is an ordinary throw and 6% three times the usual risk.
RISK_SAFE = 0.02            # below: 安全 (safe)
RISK_DANGER = 0.06          # at or above: 危險 (danger); between: 小心 (careful)
LOOKS_READY = 0.4           # an opponent the reader finds at least this likely ready is named
_SELF_DRAW_SHARE = 0.35     # of wins, about this many are self-drawn (自摸) in self-play


class NoDecision(UserError):
    """The observation offers no choice (nothing legal, or a single move)."""


@dataclass(frozen=True)
class Said:
    """One line for the player, in zh-TW and English."""
    zh: str
    en: str

    def to_json(self) -> dict[str, str]:
        return {"zh": self.zh, "en": self.en}


@dataclass(frozen=True)
class Accept:
    """One 進張: a kind that brings the hand closer, and its unseen copies (剩餘張數)."""
    tile: str
    live: int

    def to_json(self) -> dict[str, Any]:
        return {"tile": self.tile, "live": self.live}


@dataclass(frozen=True)
class Reason:
    """Why a tile is as risky as it is, against one opponent (``seat``):
    ``genbutsu`` (現物: that seat threw it), ``suji`` (筋: it threw the tile three
    away), ``kabe`` (壁: every copy of a neighbour is in sight, so no two-sided
    wait holds it), ``ready_seat`` (that seat looks ready and nothing makes the
    tile safe against it) or ``declared`` (it declared 聽, likewise)."""
    code: str
    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "seat": self.seat}


@dataclass(frozen=True)
class TileAdvice:
    """One kind of the hand, thrown now: shanten after, 進張, and its deal-in risk."""
    tile: str
    shanten: int
    accept: tuple[Accept, ...]
    accept_total: int
    risk: str                   # safe / careful / danger
    deal_in: float              # the reader's chance that throwing it deals in
    why: tuple[Reason, ...]

    def to_json(self) -> dict[str, Any]:
        return {"tile": self.tile, "shanten": self.shanten,
                "accept": [a.to_json() for a in self.accept], "accept_total": self.accept_total,
                "risk": self.risk, "deal_in": round(self.deal_in, 3),
                "why": [r.to_json() for r in self.why]}


@dataclass(frozen=True)
class ClaimAdvice:
    """At a claim (吃 碰 槓, or a win on another's discard): call or not, and why."""
    call: bool
    say: Said

    def to_json(self) -> dict[str, Any]:
        return {"call": self.call, "say": self.say.to_json()}


@dataclass(frozen=True)
class Outlook:
    """About how many 台 the hand is worth if it wins, and whether L6 folds (棄胡)."""
    tai: float
    fold: bool
    say: Said

    def to_json(self) -> dict[str, Any]:
        return {"tai": self.tai, "fold": self.fold, "say": self.say.to_json()}


@dataclass(frozen=True)
class Hint:
    """The coach's answer at one decision (docs/protocol.md, ``hint``)."""
    decision: str
    choice: dict[str, Any]
    say: Said
    tiles: tuple[TileAdvice, ...]
    claim: ClaimAdvice | None
    outlook: Outlook

    def to_json(self) -> dict[str, Any]:
        return {"decision": self.decision, "choice": dict(self.choice),
                "say": self.say.to_json(), "tiles": [t.to_json() for t in self.tiles],
                "claim": None if self.claim is None else self.claim.to_json(),
                "outlook": self.outlook.to_json()}


# -- the decision and the choice ------------------------------------------------------------

_CLAIMS = ("chi", "pon", "kong")
_OWN_KONGS = ("concealed_kong", "added_kong")


def decision_of(legal: Sequence[Mapping[str, Any]]) -> str:
    """What is being decided, by the moves offered: a win (胡, 自摸, 搶槓) first, then
    a 聽 declaration (天聽 地聽 報聽), a kong of one's own (暗槓 加槓), a discard, and
    otherwise a claim on another's discard (吃 碰 明槓)."""
    types = {str(a.get("type")) for a in legal}
    if types & {"win", "flower_win"}:
        return "win"
    if "declare" in types:
        return "ready"
    if types & set(_OWN_KONGS):
        return "kong"
    if "discard" in types:
        return "discard"
    return "claim"


def _same(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    if a.get("type") != b.get("type") or a.get("tile") != b.get("tile"):
        return False
    ta, tb = a.get("tiles"), b.get("tiles")
    if not ta or not tb:
        return not ta and not tb
    return sorted(parse_tiles(str(ta))) == sorted(parse_tiles(str(tb)))


def _l6_choice(obs: Mapping[str, Any], legal: list[dict[str, Any]], seed: int
               ) -> tuple[dict[str, Any], Any]:
    """L6's move on this observation, as the entry of ``legal`` it names, and the bot
    (its last reading tells whether it folded)."""
    bot = make_seat_bot(COACH_BOT, seed, exact=True)
    act = bot.act(dict(obs))                         # type: ignore[arg-type]
    js: Mapping[str, Any] = act if isinstance(act, Mapping) else act.to_json()
    for a in legal:
        if _same(a, js):
            return a, bot
    return legal[0], bot                              # never: a bot answers from ``legal``


# -- tiles: speed and risk ------------------------------------------------------------------

def risk_class(deal_in: float) -> str:
    """安全 / 小心 / 危險 of a deal-in chance (``RISK_SAFE``, ``RISK_DANGER``)."""
    if deal_in < RISK_SAFE:
        return "safe"
    return "careful" if deal_in < RISK_DANGER else "danger"


def _suji(v: View, s: int, k: int) -> bool:
    """筋: ``s`` threw the tile three ranks away on a side a two-sided wait on ``k``
    would need (one side is enough: 半筋)."""
    if k >= 27:
        return False
    r, river = k % 9, set(v.discards[s])
    return (r >= 3 and k - 3 in river) or (r <= 5 and k + 3 in river)


def _kabe(v: View, k: int) -> bool:
    """壁: a two-sided wait on ``k`` needs its neighbour on one side or the other
    (k+1 k+2, or k-2 k-1); every copy of each such neighbour is in sight."""
    if k >= 27:
        return False
    r = k % 9
    sides = []
    if r <= 6:
        sides.append(k + 1)
    if r >= 2:
        sides.append(k - 1)
    return bool(sides) and all(v.visible[n] >= 4 for n in sides)


def _threats(v: View, read: TableRead) -> list[int]:
    return [s for s in v.opponents() if v.declared[s] or read.ready(s) >= LOOKS_READY]


def _why(v: View, read: TableRead, k: int, threats: list[int]) -> tuple[Reason, ...]:
    """Per threatening seat, the reason a player can check: 現物 first (a fact); else,
    when the reader still finds the tile risky against that seat (its share of the
    deal-in chance at least ``RISK_SAFE``), that the seat looks ready or declared;
    else what makes it low there, 筋 or 壁, if either does."""
    out = []
    for s in threats:
        if k in v.discards[s]:
            out.append(Reason("genbutsu", s))
        elif read.ready(s) * read.wins(s, k) >= RISK_SAFE:
            out.append(Reason("declared" if v.declared[s] else "ready_seat", s))
        elif _suji(v, s, k):
            out.append(Reason("suji", s))
        elif _kabe(v, k):
            out.append(Reason("kabe", s))
    return tuple(out)


def _tiles(v: View, read: TableRead) -> tuple[tuple[TileAdvice, ...], dict[int, DiscardInfo]]:
    kinds = [k for k in range(34) if v.counts[k]]
    info = {d.kind: d for d in discard_table(v.counts, v.unseen, kinds, slack=None)}
    threats = _threats(v, read)
    out = []
    for k in kinds:
        d = info[k]
        p = read.deal_in(k)
        out.append(TileAdvice(
            tile_str(k), d.shanten,
            tuple(Accept(tile_str(t), v.unseen[t]) for t in d.useful_kinds),
            d.useful, risk_class(p), p, _why(v, read, k, threats)))
    return tuple(out), info


# -- words --------------------------------------------------------------------------------

_ZH_N = "零一二三四五六七八九"
_ZH_RISK = {"safe": "安全", "careful": "小心", "danger": "危險"}
_VERB = {"chi": ("吃", "chow"), "pon": ("碰", "pung"), "kong": ("槓", "kong")}


def _zh_shanten(s: int) -> str:
    return "聽牌" if s <= 0 else f"{_ZH_N[min(s, 9)]}向聽"


def _en_shanten(s: int) -> str:
    return "ready" if s <= 0 else f"{s} from ready"


def _zh(t: str) -> str:
    return zh_name(parse_tile(t))


def _en(t: str) -> str:
    return en_name(parse_tile(t))


def _discard_say(k: int, table: dict[int, DiscardInfo], tiles: dict[int, TileAdvice],
                 folded: bool) -> Said:
    d, a = table[k], tiles[k]
    zh = f"打{zh_name(k)}：打完{_zh_shanten(d.shanten)}，進張 {d.useful} 張，{_ZH_RISK[a.risk]}"
    en = (f"Throw {en_name(k)}: {_en_shanten(d.shanten)} after it, {d.useful} tiles improve "
          f"the hand; {a.risk}")
    fast = min(table.values(), key=lambda x: (x.shanten, -x.useful, x.kind))
    if folded:
        zh += "。先守：打安全的牌"
        en += ". Defence first: a safe tile"
    elif (d.shanten, d.useful) != (fast.shanten, fast.useful):
        if tiles[k].deal_in < tiles[fast.kind].deal_in - 1e-9:
            zh += f"。比{zh_name(fast.kind)}慢一點，但比較安全"
            en += f". A little slower than {en_name(fast.kind)}, but safer"
        else:
            zh += f"。比{zh_name(fast.kind)}少進張，但之後的聽牌比較好"
            en += f". Fewer tiles than {en_name(fast.kind)}, but better waits later"
    return Said(zh + "。", en + ".")


def _after_claim(v: View, a: Mapping[str, Any]) -> tuple[int, list[int], list[int]]:
    """The hand after the claim ``a`` (and, for 吃 碰, its best discard): shanten,
    the counts left, and the waits when ready."""
    t, tile = str(a["type"]), parse_tile(str(a["tile"]))
    c = list(v.counts)
    used = sorted(parse_tiles(str(a["tiles"]))) if t == "chi" and a.get("tiles") else \
        [tile] * (3 if t == "kong" else 2)
    if t == "chi" and not a.get("tiles"):
        used = []
    for k in used:
        c[k] = max(0, c[k] - 1)
    if t == "kong":
        s = shanten(c)
        return s, c, (hand_waits(c) if s == 0 else [])
    tab = discard_table(c, v.unseen, slack=0)
    best = min(tab, key=lambda d: (d.shanten, -d.useful, d.kind))
    c[best.kind] -= 1
    return best.shanten, c, (list(best.useful_kinds) if best.shanten == 0 else [])


def _claim_advice(v: View, legal: list[dict[str, Any]], choice: Mapping[str, Any],
                  folded: bool) -> ClaimAdvice:
    t = str(choice.get("type"))
    if any(a.get("type") == "win" for a in legal):
        tai = estimate_tai(v, self_drawn=False)
        if t == "win":
            return ClaimAdvice(True, Said(f"胡！約 {tai} 台。", f"Win! About {tai} tai."))
        return ClaimAdvice(False, Said("不胡這張，等自摸（過水：這一巡不能再胡別人的牌）。",
                                       "Let this one go and play for the self-draw "
                                       "(passed: no win on a discard until your next turn)."))
    if t in _CLAIMS:
        return ClaimAdvice(True, _claim_words(v, choice, call=True, folded=folded))
    claims = [a for a in legal if a.get("type") in _CLAIMS]
    best = min(claims, key=lambda a: _after_claim(v, a)[0])
    return ClaimAdvice(False, _claim_words(v, best, call=False, folded=folded))


def _claim_words(v: View, a: Mapping[str, Any], *, call: bool, folded: bool) -> Said:
    zv, ev = _VERB[str(a["type"])]
    now = shanten(v.counts)
    after, left, waits = _after_claim(v, a)
    gone_zh = "，但門清沒了（−1 台）" if v.concealed_hand else ""
    gone_en = ", though the concealed hand (門清) is gone (−1 tai)" if v.concealed_hand else ""
    if call:
        step_zh = f"從{_zh_shanten(now)}變{_zh_shanten(after)}" if after < now else \
            f"仍是{_zh_shanten(after)}"
        zh = f"{zv}了{step_zh}{gone_zh}，值得{zv}。"
        en = (f"{ev.capitalize()}: {_en_shanten(now)} becomes {_en_shanten(after)}"
              f"{gone_en}; worth it.") if after < now else \
            f"{ev.capitalize()}: still {_en_shanten(after)}{gone_en}, but worth it."
        return Said(zh, en)
    if folded:
        return Said(f"先守：有人可能聽牌，不{zv}。",
                    f"Defence first: someone may be ready; no {ev}.")
    if after == 0 and len(waits) == 1 and left[waits[0]] == 1:
        return Said(f"{zv}了只剩單吊，不如不{zv}。",
                    f"After the {ev} only a single-tile wait is left; better not.")
    if after >= now:
        return Said(f"{zv}了也沒有更快（仍是{_zh_shanten(now)}），不如不{zv}。",
                    f"The {ev} does not speed the hand up (still {_en_shanten(now)}); "
                    "better not.")
    return Said(f"{zv}了從{_zh_shanten(now)}變{_zh_shanten(after)}{gone_zh}，不如不{zv}。",
                f"{ev.capitalize()}: {_en_shanten(now)} becomes {_en_shanten(after)}"
                f"{gone_en}; better not.")


def _folded(bot: Any, v: View) -> bool:
    """Whether L6 has given up attack for defence (棄胡) here: its own fold decision
    when its corrections weigh one, else L5's rule (far from ready while an
    opponent is surely ready), as it asked it on this move (without the bot: as
    L6's parameters would)."""
    if getattr(bot, "_folds", False):
        return bool(getattr(bot, "_fold_on", False))
    if hasattr(bot, "_folding"):                  # set by this move's own discard scoring
        return bool(bot._folding)
    p = bot.params if bot is not None else MASTER
    return bool(p.defence > 0 and shanten(v.counts) >= p.fold_shanten
                and max_threat(v) >= p.fold_threat)


def _outlook(v: View, folded: bool) -> Outlook:
    tai = round((1 - _SELF_DRAW_SHARE) * estimate_tai(v, self_drawn=False)
                + _SELF_DRAW_SHARE * estimate_tai(v, self_drawn=True), 1)
    if folded:
        say = Said(f"這手約 {tai:g} 台，但有人聽牌、自己還遠：棄胡，打安全牌。",
                   f"About {tai:g} tai, but someone is ready and the hand is far: "
                   "fold and throw safe tiles.")
    else:
        say = Said(f"這手約 {tai:g} 台，繼續進攻。",
                   f"About {tai:g} tai; keep attacking.")
    return Outlook(tai, folded, say)


def _choice_say(decision: str, v: View, choice: Mapping[str, Any],
                table: dict[int, DiscardInfo], tiles: dict[int, TileAdvice],
                claim: ClaimAdvice | None, folded: bool) -> Said:
    t = str(choice.get("type"))
    tile = choice.get("tile")
    if t == "discard" and tile:
        said = _discard_say(parse_tile(str(tile)), table, tiles, folded)
        if decision == "ready":
            return Said("不報聽：" + said.zh, "No declaration: " + said.en)
        if decision == "kong":
            return Said("不槓。" + said.zh, "No kong. " + said.en)
        return said
    if t == "declare":
        if tile:
            k = parse_tile(str(tile))
            d = table.get(k)
            n = d.useful if d else 0
            return Said(f"報聽，打{zh_name(k)}：聽 {n} 張（+1 台，之後不能換牌）。",
                        f"Declare ready throwing {en_name(k)}: {n} winning tiles "
                        "(+1 tai; the hand is locked).")
        return Said("天聽：開局就聽牌，報聽多 8 台。", "Heavenly ready: declare it (8 tai).")
    if t in _OWN_KONGS and tile:
        return Said(f"槓{_zh(str(tile))}：多摸一張，不影響進度。",
                    f"Kong {_en(str(tile))}: one more draw, the hand no slower.")
    if t == "flower_win":
        return Said("花胡：8 台，馬上胡。", "Flower win: 8 tai; take it now.")
    if t == "win":
        if claim is not None:
            return claim.say
        tai = estimate_tai(v, self_drawn=True)
        return Said(f"胡！約 {tai} 台。", f"Win! About {tai} tai.")
    if claim is not None:
        return claim.say
    return Said("過。", "Pass.")


# -- the hint -------------------------------------------------------------------------------

def coach(obs: Mapping[str, Any], *, seed: int = 0,
          choice: Mapping[str, Any] | None = None) -> Hint:
    """The hint at the decision ``obs`` (one seat's observation with its ``legal``
    moves) stands at. ``NoDecision`` when there is nothing to choose. ``seed`` is
    L6's (the same seed, the same observation: the same hint). Given ``choice`` (a
    legal move another reference made: the game review's AI), the hint explains
    that move instead of asking L6."""
    legal = [dict(a) for a in (obs.get("legal") or []) if isinstance(a, Mapping)]
    if len(legal) < 2:
        raise NoDecision("there is no decision to help with now")
    decision = decision_of(legal)
    bot: Any = None
    if choice is None:
        choice, bot = _l6_choice(obs, legal, seed)
    else:
        given = choice
        choice = next((a for a in legal if _same(a, given)), None)
        if choice is None:
            raise NoDecision(f"{dict(given)} is not one of the legal moves")
    v = View.from_observation(obs)
    read = read_table(v)
    folded = _folded(bot, v)
    own_turn = sum(v.counts) % 3 == 2
    tiles: tuple[TileAdvice, ...] = ()
    table: dict[int, DiscardInfo] = {}
    if own_turn:
        tiles, table = _tiles(v, read)
    by_kind = {parse_tile(t.tile): t for t in tiles}
    claim = None
    if not own_turn and any(a.get("type") in _CLAIMS + ("win",) for a in legal):
        claim = _claim_advice(v, legal, choice, folded)
    say = _choice_say(decision, v, choice, table, by_kind, claim, folded)
    return Hint(decision, choice, say, tiles, claim, _outlook(v, folded))

