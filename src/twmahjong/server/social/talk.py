"""Table talk (快捷語 and 表情): the catalogue, the limits, and what bots say.

Public tables carry no free text: a player sends a phrase or an emote by its id
from the catalogues below, and every listener reads and hears it in their own
language and voice (the text here; the voice clip ``phrase_<id>`` of the voice
pack, server/net/voices.py, else the browser's speech of the 台語 or 普通話 line).

    >>> PHRASES["hurry"].zh
    '快一點啦，等到花都謝了'
    >>> sorted(BOT_LINES) == sorted(PERSONALITY_IDS)
    True

Safety lives on the server: ``TalkGate`` allows each account one line per
``talk_rate`` seconds with a short burst (``talk_too_fast`` otherwise) — one
limit across the cluster, however many workers the account talks through —, watchers
cannot speak, and a line from a player the listener has blocked is never sent to
the listener (``Connection.push`` drops it). Muting is the listener's own choice
in the browser (one seat, or everyone, bots included).

Bots speak sparingly and in character: each of the sixteen personalities has its
own lines for its own win, for dealing in, and for a long wait on a person's turn
(only a turn: a wait in a claim window would tell that someone may claim).
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
from dataclasses import dataclass
from typing import Any

from ..net import protocol as P
from ..net.limits import Limiter

log = logging.getLogger("twmahjong.server.talk")

__all__ = ["BOT_LINES", "EMOTES", "MOMENTS", "PHRASES", "PLAIN_LINES", "BotTalk", "Emote",
           "Phrase", "TalkGate", "catalogue", "talk_message"]


@dataclass(frozen=True)
class Phrase:
    """One 快捷語: what is shown (zh-TW, English) and what is spoken (台語, 普通話)."""
    id: str
    kind: str          # polite | teasing | celebratory
    zh: str
    en: str
    nan: str           # the 台語 line, in Han characters (a Hokkien voice reads it)
    cmn: str           # the 普通話 line


@dataclass(frozen=True)
class Emote:
    """One 表情: a short animated reaction at the sender's seat."""
    id: str
    glyph: str
    zh: str
    en: str


_P = Phrase
PHRASES: dict[str, Phrase] = {p.id: p for p in (
    _P("hello", "polite", "大家好，請多指教", "Hi all, go easy on me",
       "逐家好，請多指教", "大家好，請多指教"),
    _P("good_luck", "polite", "祝大家好運", "Good luck, everyone",
       "祝逐家好運", "祝大家好運"),
    _P("thanks", "polite", "謝啦，感恩", "Thanks, much obliged",
       "多謝啦，感恩喔", "謝啦，感恩"),
    _P("sorry", "polite", "歹勢歹勢", "Sorry, sorry",
       "歹勢歹勢", "不好意思啦"),
    _P("slow_down", "polite", "慢慢來，不要緊", "Take your time",
       "慢慢仔來，無要緊", "慢慢來，不要緊"),
    _P("gg", "polite", "好牌局，謝謝大家", "Good game, thanks all",
       "好牌局，多謝逐家", "好牌局，謝謝大家"),
    _P("bye", "polite", "先走了，下次見", "Gotta go, see you",
       "我先來走，後擺見", "先走了，下次見"),
    _P("hurry", "teasing", "快一點啦，等到花都謝了", "Hurry up, the flowers are wilting",
       "較緊咧啦，等甲花攏謝去矣", "快一點啦，等到花都謝了"),
    _P("pass_it", "teasing", "給我一張好牌嘛", "Throw me a good one",
       "予我一張好牌啦", "給我一張好牌嘛"),
    _P("careful", "teasing", "小心喔，我要聽了", "Careful, I'm nearly ready",
       "細膩喔，我欲聽矣", "小心喔，我要聽了"),
    _P("no_way", "teasing", "不會吧！又是你", "No way — you again!",
       "敢有影！閣是你", "不會吧！又是你"),
    _P("bad_hand", "teasing", "這手牌，爛到想笑", "This hand is hopeless",
       "這手牌，穤甲欲笑", "這手牌，爛到想笑"),
    _P("close_one", "teasing", "差一張！就差一張！", "One tile away!",
       "差一張！干焦差一張！", "差一張！就差一張！"),
    _P("tea", "teasing", "先喝口茶，穩住", "A sip of tea; steady now",
       "先啉一喙茶，穩穩仔來", "先喝口茶，穩住"),
    _P("nice_tile", "celebratory", "這張打得好！", "Nice discard!",
       "這張拍了好！", "這張打得好！"),
    _P("congrats", "celebratory", "恭喜恭喜，胡得漂亮", "Congrats, a beautiful win",
       "恭喜恭喜，胡了真媠", "恭喜恭喜，胡得漂亮"),
    _P("lucky", "celebratory", "手氣也太旺了吧", "Your luck is on fire",
       "手氣哪會遮旺", "手氣也太旺了吧"),
    _P("dealer", "celebratory", "連莊連莊，誰擋得住", "Dealer again — who can stop it?",
       "連莊連莊，啥人擋會牢", "連莊連莊，誰擋得住"),
    _P("well_played", "celebratory", "高手高手，佩服", "Well played, respect",
       "高手高手，佩服", "高手高手，佩服"),
    _P("again", "celebratory", "再來一將！", "One more game!",
       "閣來一將！", "再來一將！"),
)}

_E = Emote
EMOTES: dict[str, Emote] = {e.id: e for e in (
    _E("thumbs", "👍", "讚", "Nice"),
    _E("laugh", "😂", "大笑", "LOL"),
    _E("cry", "😭", "哭哭", "Sob"),
    _E("angry", "😤", "氣噗噗", "Fuming"),
    _E("shock", "😱", "嚇到", "Shocked"),
    _E("cool", "😎", "穩啦", "Cool"),
    _E("tea", "🍵", "喝茶", "Tea"),
    _E("fire", "🔥", "手氣旺", "On fire"),
)}

# the moments a bot may speak at: its own win, dealing in, a person's long turn
MOMENTS = ("win", "deal_in", "long_wait")

# Each personality's lines at each moment (phrase ids), in character.
BOT_LINES: dict[str, dict[str, tuple[str, ...]]] = {
    "newbie":      {"win": ("lucky", "thanks"), "deal_in": ("sorry", "bad_hand"),
                    "long_wait": ("slow_down",)},
    "pon_uncle":   {"win": ("again", "lucky"), "deal_in": ("no_way",),
                    "long_wait": ("hurry", "tea")},
    "dreamer":     {"win": ("close_one", "thanks"), "deal_in": ("bad_hand",),
                    "long_wait": ("pass_it",)},
    "counter":     {"win": ("well_played",), "deal_in": ("sorry",),
                    "long_wait": ("slow_down",)},
    "chi_fan":     {"win": ("again",), "deal_in": ("no_way", "sorry"),
                    "long_wait": ("pass_it", "hurry")},
    "hermit":      {"win": ("thanks",), "deal_in": ("tea",), "long_wait": ("tea",)},
    "collector":   {"win": ("lucky", "congrats"), "deal_in": ("bad_hand",),
                    "long_wait": ("pass_it",)},
    "dragon_lord": {"win": ("dealer", "again"), "deal_in": ("no_way",),
                    "long_wait": ("hurry",)},
    "gambler":     {"win": ("lucky", "again"), "deal_in": ("close_one", "no_way"),
                    "long_wait": ("hurry", "careful")},
    "purist":      {"win": ("gg", "well_played"), "deal_in": ("well_played",),
                    "long_wait": ("good_luck",)},
    "iron_wall":   {"win": ("tea",), "deal_in": ("no_way",), "long_wait": ("tea",)},
    "shark":       {"win": ("careful", "thanks"), "deal_in": ("well_played",),
                    "long_wait": ("careful",)},
    "speedster":   {"win": ("again",), "deal_in": ("no_way",),
                    "long_wait": ("hurry",)},
    "master":      {"win": ("gg", "thanks"), "deal_in": ("well_played", "congrats"),
                    "long_wait": ("slow_down",)},
    "big_hunter":  {"win": ("lucky", "dealer"), "deal_in": ("bad_hand", "close_one"),
                    "long_wait": ("careful",)},
    "fortress":    {"win": ("tea", "thanks"), "deal_in": ("sorry",),
                    "long_wait": ("tea",)},
}
PERSONALITY_IDS = tuple(BOT_LINES)
# a levelled bot (L1-L5, random, …) has no character: polite lines only
PLAIN_LINES = {"win": ("thanks",), "deal_in": ("congrats",), "long_wait": ("slow_down",)}


def catalogue() -> dict[str, Any]:
    """The phrases and emotes (GET /api/v1/talk), each with its voice-clip name."""
    return {"phrases": [{"id": p.id, "kind": p.kind, "zh": p.zh, "en": p.en, "nan": p.nan,
                         "cmn": p.cmn, "clip": f"phrase_{p.id}"} for p in PHRASES.values()],
            "emotes": [{"id": e.id, "glyph": e.glyph, "zh": e.zh, "en": e.en}
                       for e in EMOTES.values()]}


def talk_message(seat: int, *, phrase: str | None = None, emote: str | None = None,
                 bot: bool = False) -> str:
    """The ``talk`` message every seat receives."""
    return P.message("talk", seat=seat, phrase=phrase, emote=emote, bot=bot)


# A token bucket per account in Redis, on Redis's clock (workers' clocks differ):
# refill by the time since the last line, spend one token if there is one.
_TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local b = redis.call('HMGET', KEYS[1], 'tokens', 'stamp')
local tokens = tonumber(b[1]) or burst
local stamp = tonumber(b[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - stamp) * rate)
local ok = 0
if tokens >= 1 then tokens = tokens - 1; ok = 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'stamp', tostring(now))
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return ok
"""


class TalkGate:
    """The server's limit on table talk: per account, ``rate`` lines a second with
    bursts of ``burst`` (by default one per 3 s, three at once).

    With a cluster link the bucket lives in Redis, so an account connected to two
    workers (two tabs, a phone and a desktop) talks at the limit once, not once per
    worker. While Redis is away each worker falls back to its own bucket: talk
    goes on, limited per worker, rather than stopping."""

    def __init__(self, rate: float, burst: int, max_keys: int = 50_000, link: Any = None):
        self.rate, self.burst = rate, burst
        self.limit = Limiter(rate, burst, max_keys=max_keys)
        self.link = link
        self._script: Any = None
        # a full bucket refills in burst / rate s: keep it that long, and a second more
        self._ttl_ms = math.ceil(burst / rate * 1000) + 1000

    async def allow(self, account_id: int) -> bool:
        if self.link is None or self.link.r is None:
            return self.limit.take(account_id)
        try:
            if self._script is None:
                self._script = self.link.r.register_script(_TAKE)
            ok = await asyncio.wait_for(
                self._script(keys=[self.link.key("talk", str(account_id))],
                             args=[self.rate, self.burst, self._ttl_ms]), 1.0)
            return bool(ok)
        except Exception as e:          # Redis away: this worker's own bucket meanwhile
            log.info("talk limit from Redis failed (%s); using this worker's", e)
            return self.limit.take(account_id)


class BotTalk:
    """When a table's bots speak: at most one line a moment, with chance ``chance``
    and never within ``gap`` seconds of the table's last bot line."""

    def __init__(self, chance: float, gap: float, rng: random.Random, clock):
        self.chance, self.gap, self.rng, self.clock = chance, gap, rng, clock
        self.last = -1e9

    def line(self, bot_name: str, moment: str) -> str | None:
        """The phrase id a bot says now, or None (most moments pass in silence)."""
        if self.chance <= 0 or self.clock() - self.last < self.gap:
            return None
        if self.rng.random() >= self.chance:
            return None
        lines = BOT_LINES.get(bot_name, PLAIN_LINES).get(moment) or ()
        if not lines:
            return None
        self.last = self.clock()
        return self.rng.choice(lines)

