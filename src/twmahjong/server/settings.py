"""Server settings: one object, filled from defaults, then env ``TWMJ_*``, then CLI.

Every tunable a deployment or a test may want to change lives here — starting
coins (新人禮包), the bot-fill wait, turn timers (base + bank, as online mahjong
does), rate limits, frame size — so nothing else reads the environment.

    >>> Settings.from_env({"TWMJ_STARTING_COINS": "500"}).starting_coins
    500
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ..errors import UserError

__all__ = ["STAKE_LEVELS", "TABLE_SPEEDS", "Settings", "SettingsError"]

# Stake levels multiply the profile's own stakes (底/台): "low" plays the profile as
# written. A level is part of the quick-match queue key, so players meet only
# players who risk the same.
STAKE_LEVELS: dict[str, int] = {"low": 1, "mid": 5, "high": 20}

# Table speeds (快 / 標準 / 慢), chosen when a table is made: they multiply the turn
# clock (``turn_base`` + ``turn_bank``). Standard is 10 s a decision and a 20 s bank,
# near what the common Taiwanese mahjong apps give.
TABLE_SPEEDS: dict[str, float] = {"fast": 0.5, "standard": 1.0, "slow": 2.0}


class SettingsError(UserError):
    """A setting that cannot be used, named so the operator can fix it."""


class Settings(BaseModel):
    """Why each default: a local `make run` must work with no configuration."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    host: str = "127.0.0.1"
    port: int = Field(8000, ge=0, le=65535)
    data_dir: Path = Path("data")
    database_url: str | None = None      # None: SQLite file in data_dir
    redis_url: str | None = None         # None: one process; else the cluster's Redis
    redis_prefix: str = Field("twmj", min_length=1, max_length=64)  # keys of one deployment
    cluster_lease: float = Field(10.0, ge=0.5)  # s a silent process keeps its tables
    # s a starting server waits for a database that does not answer (restarting, failing
    # over: a worker restarted meanwhile comes up once it is back) before it gives up
    database_wait: float = Field(60.0, ge=0)
    secret_key: str | None = None        # None: generated once, kept in data_dir
    default_profile: str = "standard"

    starting_coins: int = Field(10_000, ge=0)       # 新人禮包
    # 每日登入獎勵: paid once a day (Taiwan's day, UTC+8) from the day after the 新人禮包; 0: none
    daily_bonus: int = Field(500, ge=0)
    session_ttl: float = Field(7 * 24 * 3600, gt=0)  # seconds a login stays valid
    ticket_ttl: float = Field(6 * 3600, gt=0)       # seat ticket = reconnect token

    bot_fill_wait: float = Field(8.0, ge=0)   # quick match: seconds before bots fill
    turn_base: float = Field(10.0, gt=0)      # per decision, at the standard speed
    turn_bank: float = Field(20.0, ge=0)      # per player per hand, spent after base
    bot_delay: float = Field(0.4, ge=0)       # bots "think" so humans can follow
    autoplay_bot: str = "L4"                  # plays for an absent player (托管): defends, no search delay
    # between hands the result stays up until every person pressed 下一局, at most this long
    hand_pause: float = Field(20.0, ge=0)
    disconnect_grace: float = Field(3.0, ge=0)  # a dropped link's seconds to come back
    # every discard, 加槓 and 天聽 window stays open this long for everyone, whoever
    # can claim: the window's length tells nobody that someone holds a pair or a wait
    claim_window: float = Field(0.8, ge=0)
    pause_after: float = Field(60.0, ge=0)    # no person connected this long: the table waits
    # paused this long with nobody back: the table ends (abandoned; the hand in play void)
    abandon_after: float = Field(600.0, ge=0)

    # table talk (server/social/talk.py): phrases/emotes per account a second, and the burst
    talk_rate: float = Field(1 / 3, gt=0)
    talk_burst: int = Field(3, ge=1)
    bot_talk: float = Field(0.3, ge=0, le=1)   # chance a bot speaks at one of its moments
    bot_talk_gap: float = Field(8.0, ge=0)     # s between two bot lines at one table
    # 觀戰 (server/social/watch.py): watchers see the table this many discards late (一巡 = 4)
    watch_delay: int = Field(4, ge=1, le=64)
    watch_per_account: int = Field(2, ge=1)    # connections of one account watching one table
    watchers_per_table: int = Field(100, ge=1)  # watching connections at one table, all told
    invite_ttl: float = Field(120.0, gt=0)     # s an invitation to a room stays open
    # friends and invitations (docs/security.md): what one account may send
    friend_rate: float = Field(1 / 30, gt=0)     # friend requests/s per account
    friend_burst: int = Field(10, ge=1)
    friend_notice_cooldown: float = Field(3600.0, ge=0)  # s before a re-sent request notifies
    social_name_rate: float = Field(0.5, gt=0)   # names looked up/s per account (friends API)
    social_name_burst: int = Field(30, ge=1)
    invite_rate: float = Field(1 / 6, gt=0)      # invitations/s per sender
    invite_burst: int = Field(10, ge=1)
    invite_pair_rate: float = Field(1 / 60, gt=0)  # invitations/s per (sender, friend)
    invite_pair_burst: int = Field(3, ge=1)
    max_invites: int = Field(10_000, ge=16)      # invitations one process keeps (oldest dropped)
    invites_per_account: int = Field(20, ge=1)   # pending invitations one account holds

    # 牌譜分析 in the replay viewer (server/play/analysis.py): sampled worlds per decision
    analysis_worlds: int = Field(32, ge=1, le=4096)
    analysis_per_account: int = Field(1, ge=1)     # reviews one account has unfinished
    analysis_rate: float = Field(1 / 30, gt=0)     # reviews set going per account a second
    analysis_burst: int = Field(6, ge=1)
    # replays and records made (not kept ones) per address a second, and the burst
    replay_rate: float = Field(1.0, gt=0)
    replay_burst: int = Field(20, ge=1)

    # voice at the table (開黑, server/social/voice.py): the STUN/TURN servers handed to
    # seated players — a JSON list of {urls, username, credential}, or URLs separated by
    # commas — and, for TURN REST credentials (coturn's use-auth-secret), the shared
    # secret and how long a credential lasts
    ice_servers: str = ""
    turn_secret: str | None = Field(None, min_length=16)
    turn_ttl: float = Field(6 * 3600, gt=0)
    voice_rate: float = Field(1.0, gt=0)       # voice messages/s per account
    voice_burst: int = Field(12, ge=1)

    # recorded calls (語音包, server/net/voices.py): <voice_dir>/<cmn|nan>/<call>.<mp3|ogg|wav>
    voice_dir: Path | None = None
    # test-only features (stacked walls, server/play/stacked.py): refused unless this is on
    test_mode: bool = False

    max_frame_bytes: int = Field(4096, ge=256)
    conn_rate: float = Field(10.0, gt=0)      # messages/s per connection (sustained)
    conn_burst: int = Field(30, ge=1)
    account_rate: float = Field(20.0, gt=0)   # messages/s per account over all links
    account_burst: int = Field(60, ge=1)
    hint_rate: float = Field(1.0, gt=0)       # 教練 hints/s per connection (server/play/coaching.py)
    hint_burst: int = Field(5, ge=1)
    auth_rate: float = Field(1.0, gt=0)       # login/register attempts/s per client
    auth_burst: int = Field(10, ge=1)

    # -- hardening (docs/security-http.md): what one client or account may ask
    max_body_bytes: int = Field(64 * 1024, ge=1024)   # HTTP request body, counted as it streams
    request_timeout: float = Field(20.0, gt=0)  # s an HTTP request has to arrive whole
    max_json_depth: int = Field(16, ge=2)             # nesting of one WebSocket frame
    forwarded_allow_ips: str = ""    # proxies whose X-Forwarded-For is believed ("" none)
    # failed logins (docs/security-http.md §6): per (network, name) and per network they
    # refuse; per name (from anywhere) they only refuse networks that have failed lately,
    # so a stranger's guesses never lock the owner out of their own account
    login_name_rate: float = Field(0.05, gt=0)  # failed logins/s per account name
    login_name_burst: int = Field(5, ge=1)
    login_pair_rate: float = Field(0.05, gt=0)  # failed logins/s per (network, name)
    login_pair_burst: int = Field(5, ge=1)
    login_fail_rate: float = Field(0.1, gt=0)   # failed logins/s per network, any name
    login_fail_burst: int = Field(20, ge=1)
    login_fail_memory: float = Field(900.0, gt=0)  # s a network's failed login is remembered
    # new accounts (guests and registrations, each paid its 新人禮包): per network — an
    # IPv4 address, an IPv6 /64 — per IPv4 /24, and for the whole server
    signup_rate: float = Field(1 / 60, gt=0)
    signup_burst: int = Field(5, ge=1)
    signup_net_rate: float = Field(1 / 15, gt=0)   # per IPv4 /24
    signup_net_burst: int = Field(20, ge=1)
    signup_global_rate: float = Field(1.0, gt=0)   # per second, all clients together
    signup_global_burst: int = Field(60, ge=1)
    # argon2 work: at most hash_slots at once (0: one per core), hash_queue more waiting;
    # past that a login or registration is told 503 busy instead of waiting for ever
    hash_slots: int = Field(0, ge=0)
    hash_queue: int = Field(8, ge=0)
    max_active_tables: int = Field(3, ge=1)     # unfinished tables + rooms one account sits at
    create_rate: float = Field(0.2, gt=0)       # tables/rooms/queue entries made per account
    create_burst: int = Field(5, ge=1)
    room_idle_ttl: float = Field(15 * 60, gt=0)  # s a private room may wait unstarted
    room_miss_rate: float = Field(0.1, gt=0)    # room codes not found, per client and account
    room_miss_burst: int = Field(10, ge=1)
    limiter_keys: int = Field(50_000, ge=16)    # buckets one limit keeps (oldest dropped)

    # -- running it (docs/operations.md)
    # WebSockets one process holds; the next is told "server_full" and closed (1013),
    # instead of the silent stall of running out of file descriptors (ulimit -n)
    max_connections: int = Field(10_000, ge=1)
    # s a process holds its count for GET /api/v1/online (the lobby's 「N 人在線」)
    online_ttl: float = Field(5.0, ge=0)
    # -- one address's sockets (docs/security.md): an address (an IPv6 /64) may hold this
    # many WebSockets; a new socket says hello within hello_timeout s; a socket that sends
    # nothing, not even a ping, for idle_timeout s is closed (the clients ping every 30 s)
    max_connections_per_address: int = Field(64, ge=1)
    hello_timeout: float = Field(10.0, gt=0)
    idle_timeout: float = Field(300.0, gt=0)
    pre_hello_frames: int = Field(8, ge=1)     # frames before a hello (the hello included)
    flood_burst: int = Field(100, ge=1)        # frames refused for rate before a socket is closed
    # messages a connection may have unsent; past that it is dropped (its seat goes
    # on 托管, its ticket brings it back) so that a slow reader never slows its table
    send_queue: int = Field(256, ge=8)
    # per-message deflate: ~700-byte updates on a LAN/loopback cost more CPU to
    # compress than they save; a deployment behind slow links may turn it on
    ws_compression: bool = False
    # how a client reaches this worker itself, in a cluster (docs/deploy.md): a path on
    # the balancer ("/ws?w=1", deploy/onebox.sh's) or a ws:// URL. Told in ``welcome``
    # (where the socket is) and in a table's snapshot (where the table is played): a
    # client whose table is played elsewhere opens its seat there and closes the first
    # socket, so the table's updates stop going through the other worker. Empty: none.
    route: str = Field("", max_length=200, pattern=r"^(|/\S*|wss?://\S+)$")
    log_format: Literal["text", "json"] = "text"   # json: one object a line, for collectors
    log_level: Literal["debug", "info", "warning", "error"] = "warning"
    # who may read /metrics, /readyz and /api/v1/health (docs/operations.md): loopback
    # always; these networks (comma-separated CIDRs); anyone with this bearer token
    ops_networks: str = ""
    ops_token: str | None = Field(None, min_length=16)
    # bearer token for /admin/v1 (``twmj admin close``); None: that API answers 404
    admin_token: str | None = Field(None, min_length=16)

    @field_validator("ice_servers")
    @classmethod
    def _ice(cls, v: str) -> str:
        from .social.voice import parse_ice_servers
        parse_ice_servers(v)                                # ValueError names it
        return v

    @field_validator("ops_networks")
    @classmethod
    def _networks(cls, v: str) -> str:
        import ipaddress
        for n in v.split(","):
            if n.strip():
                ipaddress.ip_network(n.strip(), strict=False)   # ValueError names it
        return v

    @property
    def effective_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{(self.data_dir / 'twmj.sqlite3').resolve()}"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Defaults < env ``TWMJ_<FIELD>`` < explicit overrides (CLI options)."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for name in cls.model_fields:
            key = f"TWMJ_{name.upper()}"
            if key in env and env[key] != "":
                values[name] = env[key]
        values.update({k: v for k, v in overrides.items() if v is not None})
        try:
            return cls(**values)
        except ValidationError as e:
            err = e.errors()[0]
            where = ".".join(str(p) for p in err["loc"])
            raise SettingsError(f"setting {where}: {err['msg']}") from None

    def resolved_secret(self) -> str:
        """The signing key for sessions and tickets.

        Kept in the data folder so tickets survive a restart — a restarted server
        must still accept the reconnect tokens it handed out (可隨時繼續未完成的牌局)."""
        if self.secret_key:
            return self.secret_key
        path = self.data_dir / "secret.key"
        if path.exists():
            return path.read_text().strip()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        key = secrets.token_urlsafe(48)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(key)
        return key
