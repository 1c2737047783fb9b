"""Choosing the bots for a game against the computer (對戰電腦): a level, a
personality, or adaptive difficulty (自動調整難度) that follows how the player
has been doing, so a game stays close.

A room's ``bots`` names who sits in the three empty chairs: ``L1``-``L5`` (three
bots of that level), a personality id (three of that personality), any other
name ``bots.make_bot`` knows (``random``, ``efficiency``), or ``adaptive``. For
``adaptive`` the server reads the player's recent hands against levelled bots
from its own records — each finished hand's ``settled`` row says who won — and
``bots.adaptive.recommend`` picks the level and the personality to meet next;
the chosen personality sits with the other personalities of its tier.

The level a game was played at is stored in the game's options (``level``,
``opponent``), so the history survives restarts and needs no table of its own.
"""

from __future__ import annotations

from ...errors import UserError

__all__ = ["ADAPTIVE", "LEVELS", "BadOpponent", "catalogue", "check_choice", "choose_bots",
           "history", "level_of", "seats_for"]

ADAPTIVE = "adaptive"
LEVELS = ("L1", "L2", "L3", "L4", "L5")
START_LEVEL = 2          # a new player meets L2 (efficiency, careless claims) first, then adapts
_HISTORY_GAMES = 20      # newest games looked at; recommend() uses at most 32 hands


class BadOpponent(UserError):
    """An opponent name the server does not know."""


def _names() -> list[str]:
    from ...bots import bot_names
    return bot_names()


def check_choice(name: str) -> str:
    """The name itself, or ``BadOpponent`` with the names a player can pick."""
    if name == ADAPTIVE or name in _names():
        return name
    from ...bots.personalities import PERSONALITIES
    raise BadOpponent(f"unknown opponent {name!r}: choose a level ({', '.join(LEVELS)}), "
                      f"a personality ({', '.join(p.id for p in PERSONALITIES)}) or "
                      f"{ADAPTIVE!r}")


def level_of(name: str) -> int | None:
    """The strength a bot name plays at: its level, or its personality's tier."""
    from ...bots.personalities import get_personality
    if name in LEVELS:
        return int(name[1])
    p = get_personality(name)
    return p.tier if p is not None else None


def persona(name: str | None) -> dict | None:
    """A personality bot as the table shows it (name, style line, tier); None otherwise."""
    from ...bots.personalities import get_personality
    p = get_personality(name) if name else None
    if p is None:
        return None
    return {"id": p.id, "zh": p.zh, "en": p.en, "description": p.description,
            "description_zh": p.description_zh, "tier": p.tier}


def catalogue() -> dict:
    """``GET /api/v1/bots``: what the lobby's opponent selector offers."""
    from ...bots.personalities import PERSONALITIES
    known = set(_names())
    return {"levels": [{"id": lv, "level": int(lv[1])} for lv in LEVELS if lv in known],
            "personalities": [{"id": p.id, "zh": p.zh, "en": p.en,
                               "description": p.description,
                               "description_zh": p.description_zh, "tier": p.tier}
                              for p in PERSONALITIES if p.id in known],
            "adaptive": True}


def seats_for(level: int, personality: str) -> list[str]:
    """The three chairs for ``adaptive`` at ``level``: the recommended personality,
    the others of its tier, then plain bots of the level. At the practice table
    (level 0, below L1) the other two chairs play at random: a beginner who never
    defends won 17% of hands against three L1 bots, 22% with one random chair and
    24% with two (400 hands each, bench/adaptive.py's beginner)."""
    from ...bots.adaptive import PRACTICE
    from ...bots.personalities import by_tier
    known = set(_names())
    if level == PRACTICE:
        return [personality, "random", "random"]
    tier = [p.id for p in by_tier(level) if p.id in known and p.id != personality]
    return ([personality] + tier + [f"L{level}"] * 3)[:3]


async def history(repo, account_id: int):
    """The player's hands against levelled bots, oldest first, and the level of
    the newest such game (``START_LEVEL`` for a player who has none)."""
    from ...bots.adaptive import Outcome
    games = [g for g in await repo.games_of(account_id, limit=_HISTORY_GAMES)
             if (g.get("options") or {}).get("level") is not None]    # 0 is the practice table
    outcomes: list[Outcome] = []
    for g in reversed(games):                       # games_of is newest first
        opts = g["options"]
        level, opponent = int(opts["level"]), opts.get("opponent")
        for r in await repo.game_actions(g["id"]):
            if r["kind"] == "settled":
                net = r["data"]["net"]
                outcomes.append(Outcome(won=net[g["seat"]] > 0, level=level, opponent=opponent,
                                        dealt_in=False))
    current = int(games[0]["options"]["level"]) if games else START_LEVEL
    return outcomes, current


async def choose_bots(repo, account_id: int, choice: str) -> tuple[list[str], dict]:
    """The three bot names for a game and the options stored with it."""
    choice = check_choice(choice)
    if choice != ADAPTIVE:
        level = level_of(choice)
        opts = {"bots": choice} | ({"level": level, "opponent": choice} if level else {})
        return [choice] * 3, opts
    from ...bots.adaptive import recommend
    past, current = await history(repo, account_id)
    pick = recommend(past, current)
    seats = seats_for(pick.level, pick.personality)
    return seats, {"bots": ADAPTIVE, "level": pick.level, "opponent": pick.personality,
                   "win_share": round(pick.win_share, 3), "hands": pick.hands}
