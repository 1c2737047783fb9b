"""Turn timers (base + bank) and rate limits — the two clocks a table and a
connection keep. Both take the time as an argument so tests drive them without
sleeping.

Timer: each decision gets ``base`` seconds free; thinking past it spends the
player's ``bank`` for the rest of the hand (the online-mahjong 5 s + 20 s preset).
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["TokenBucket", "TurnClock"]


@dataclass
class TurnClock:
    base: float
    bank_size: float
    bank: float = field(init=False)
    started: float | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.bank = self.bank_size

    def new_hand(self) -> None:
        self.bank = self.bank_size
        self.started = None

    def start(self, now: float) -> None:
        self.started = now

    @property
    def running(self) -> bool:
        return self.started is not None

    def deadline(self) -> float:
        assert self.started is not None
        return self.started + self.base + self.bank

    def stop(self, now: float) -> None:
        """The player decided: charge the bank for the time spent past ``base``."""
        if self.started is None:
            return
        over = max(0.0, now - self.started - self.base)
        self.bank = max(0.0, self.bank - over)
        self.started = None

    def view(self, now: float) -> dict:
        """What the player's client counts down from (seconds left right now)."""
        if self.started is None:
            return {"base": self.base, "bank": round(self.bank, 2)}
        spent = now - self.started
        base_left = max(0.0, self.base - spent)
        bank_left = self.bank if base_left > 0 else max(0.0, self.bank - (spent - self.base))
        return {"base": round(base_left, 2), "bank": round(bank_left, 2)}


class TokenBucket:
    """``rate`` messages per second with bursts up to ``burst`` (flood control)."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: int, now: float):
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = now

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False
