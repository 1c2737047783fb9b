"""Challenge mode (挑戰賽) and which bots fill which seats.

The sixteen bot personalities stand in five tiers (``bots.personalities``); a
challenge table is the player against three personalities of one tier, and
finishing first beats the tier and unlocks the next. Bots that fill quick-match
seats play at the level that matches the stake.
"""

from __future__ import annotations

import secrets

from ...errors import UserError

__all__ = ["TIERS", "ChallengeLocked", "fill_bots", "next_tier", "tier_bots", "tiers"]

TIERS = 5
# Quick-match fill: a tier of personalities per stake level (higher stakes, stronger bots).
_FILL_TIER = {"low": 2, "mid": 3, "high": 4}


class ChallengeLocked(UserError):
    """A tier the player has not unlocked yet."""


def tiers() -> list[dict]:
    from ...bots.personalities import by_tier
    return [{"tier": t, "bots": [{"id": p.id, "zh": p.zh, "en": p.en,
                                  "description": p.description,
                                  "description_zh": p.description_zh} for p in by_tier(t)]}
            for t in range(1, TIERS + 1)]


def next_tier(beaten: int) -> int | None:
    """The tier to play after beating ``beaten`` tiers (None: all five beaten)."""
    return beaten + 1 if beaten < TIERS else None


def _playable(ids: list[str]) -> list[str]:
    """The personalities ``bots.make_bot`` can build (registered by the bots module)."""
    from ...bots import bot_names
    known = set(bot_names())
    return [i for i in ids if i in known]


def tier_bots(tier: int, rng: secrets.SystemRandom | None = None) -> list[str]:
    """Three personalities of ``tier`` to sit against the challenger."""
    from ...bots.personalities import by_tier
    if not 1 <= tier <= TIERS:
        raise ChallengeLocked(f"there is no challenge tier {tier}")
    ids = _playable([p.id for p in by_tier(tier)])
    if not ids:
        raise ChallengeLocked("the challenge bots of this tier are not available on this "
                              "server yet")
    rng = rng or secrets.SystemRandom()
    rng.shuffle(ids)
    return ids[:3] if len(ids) >= 3 else (ids * 3)[:3]


def fill_bots(stake: str, n: int, rng: secrets.SystemRandom | None = None) -> list[str]:
    """The bots for ``n`` empty seats of a table at this stake level: personalities of
    the stake's tier, each a different one while the tier has enough. Drawn one seat at
    a time, a tier of three sat the same personality twice at 7 tables in 9 (three
    'Hermit' badges at one table 1 in 9)."""
    from ...bots.personalities import by_tier
    choices = _playable([p.id for p in by_tier(_FILL_TIER.get(stake, 2))])
    if not choices:
        return ["random"] * n
    rng = rng or secrets.SystemRandom()
    out: list[str] = []
    while len(out) < n:
        out += rng.sample(choices, len(choices))
    return out[:n]
