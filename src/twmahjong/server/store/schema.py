"""The tables, as SQLAlchemy Core metadata (the migrations create the same).

Coins are a ledger: every movement (新人禮包, a hand's settlement, the platform
fee) is one row, and ``accounts.coins`` is a cache kept equal to the ledger sum in
the same transaction. Every credit that is not a game's (the 新人禮包, the daily
bonus, an operator's grant) carries a grant key, unique per account: the database,
not a lock in one process, makes it paid once. Games store seed + ordered actions, so a game can be replayed
and an unfinished one resumed after a restart.
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa

metadata = sa.MetaData()


def name_key(name: str) -> str:
    """The form account names are unique on: NFKC, case-folded, NFKC again (Unicode's
    NFKC_Casefold shape), so "Aud" and "aud" — or a full-width twin — are one name.
    The name itself is kept and shown as typed.

        >>> name_key("Aud") == name_key("aUD")
        True
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def name_skeleton(name: str) -> str:
    """The form no two new names may share: the Unicode TR39 confusables skeleton
    (``disarm.skeleton_key`` with TR39's digits, ``1 ≡ l``, ``0 ≡ O``: NFKC, the
    confusables table, case folded), so a name that only looks like a taken one —
    ``AIice1`` (capital I) or ``A1ice1`` beside ``Alice1`` — is refused. The TR39 table is about letters
    that look alike in a font; it does not pair CJK characters that differ by a
    stroke (``阿眀`` and ``阿明`` keep two skeletons).

        >>> name_skeleton("AIice1") == name_skeleton("Alice1")
        True
    """
    from disarm import skeleton_key
    return str(skeleton_key(unicodedata.normalize("NFKC", name), digit_policy="tr39"))[:64]


accounts = sa.Table(
    "accounts", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(32), nullable=False, unique=True),
    # name_key(name), unique: migration 0002 filled it for older rows
    sa.Column("name_key", sa.String(64), nullable=True),
    # name_skeleton(name), unique: migration 0008 filled it for older rows (of older
    # look-alikes only the first keeps it — both go on working, no new one is made)
    sa.Column("name_skeleton", sa.String(64), nullable=True),
    sa.Column("password_hash", sa.String(200), nullable=True),   # None: guest / house
    sa.Column("is_guest", sa.Boolean, nullable=False, default=False),
    sa.Column("coins", sa.BigInteger, nullable=False, default=0),
    sa.Column("rating", sa.Float, nullable=False, default=1500.0),
    sa.Column("ranked_games", sa.Integer, nullable=False, default=0),
    sa.Column("challenge_tier", sa.Integer, nullable=False, default=0),  # tiers beaten
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("banned_at", sa.Float, nullable=True),       # None: not banned (migration 0003)
    sa.Column("ban_reason", sa.String(200), nullable=True),
    # sessions (migration 0007): a token carries the generation it was issued in; a
    # password change or an operator's reset bumps it, ending every session at once.
    # revoked_n counts the account's ended sessions (``revoked_sessions``): a token is
    # checked against that list only when it is not 0, and a cached list only while
    # the count is the same
    sa.Column("session_gen", sa.Integer, nullable=False, server_default="0"),
    sa.Column("revoked_n", sa.Integer, nullable=False, server_default="0"),
    sa.Index("ix_accounts_name_key", "name_key", unique=True),
    sa.Index("ix_accounts_name_skeleton", "name_skeleton", unique=True),
)

# one row per ended session (a logout): its token's id, kept until the token expires
revoked_sessions = sa.Table(
    "revoked_sessions", metadata,
    sa.Column("sid", sa.String(32), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False,
              index=True),
    sa.Column("expires_at", sa.Float, nullable=False),
)

ledger = sa.Table(
    "ledger", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False,
              index=True),
    sa.Column("amount", sa.BigInteger, nullable=False),
    sa.Column("reason", sa.String(32), nullable=False),
    sa.Column("game_id", sa.String(40), nullable=True),
    sa.Column("hand_no", sa.Integer, nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
    # a credit's idempotency key (``reason:key``, e.g. ``daily:2026-12-06``): unique per
    # account, so a grant asked for twice — two workers, a retry — is paid once
    # (migration 0006); None for settlements and fees
    sa.Column("grant_key", sa.String(80), nullable=True),
    sa.Index("ix_ledger_grant", "account_id", "grant_key", unique=True),
)

games = sa.Table(
    "games", metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("mode", sa.String(16), nullable=False),
    sa.Column("profile", sa.String(64), nullable=False),
    sa.Column("stake", sa.String(16), nullable=False),
    sa.Column("rounds", sa.Integer, nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),  # active|finished
    sa.Column("seats", sa.JSON, nullable=False),      # [{account_id, name, bot}]
    sa.Column("options", sa.JSON, nullable=False),    # seeds, bot seeds, challenge tier
    sa.Column("result", sa.JSON, nullable=True),      # final scores, hands summary
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("finished_at", sa.Float, nullable=True),
    # the fencing token of the game's owner: bumped by each process that takes the
    # game on; a write carrying an older epoch is refused (see repository.Fenced)
    sa.Column("epoch", sa.Integer, nullable=False, server_default="0"),
)

game_players = sa.Table(
    "game_players", metadata,
    sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False,
              index=True),
)

# One row per decision, appended as the game goes; (hand_no, seq) orders them.
game_actions = sa.Table(
    "game_actions", metadata,
    sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("hand_no", sa.Integer, nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),  # "hand" (seed) | "action"
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("data", sa.JSON, nullable=False),
)

# Friends (好友), one row per direction: (me, other, state). "friend" on both sides;
# a request is "sent" on the asker's side and "received" on the other's; "blocked"
# is one-sided (the blocked player is not told, and their phrases never arrive).
friends = sa.Table(
    "friends", metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("other_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("state", sa.String(16), nullable=False),   # friend | sent | received | blocked
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Index("ix_friends_other", "other_id"),
)

# 真人語音: a registered player's own recordings of the calls and 快捷語 (migration
# 0009), one per (account, voice, call); re-recording replaces the row, so a clip id
# names one recording for good (its URL is cached for ever). The bytes are kept here,
# not on a worker's disk, so every worker of a cluster serves every clip.
voice_clips = sa.Table(
    "voice_clips", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("voice", sa.String(8), nullable=False),       # nan (台語) | cmn (普通話)
    sa.Column("call", sa.String(40), nullable=False),       # pon, self_draw, phrase_hello, …
    sa.Column("media", sa.String(32), nullable=False),      # audio/webm | audio/ogg | audio/mp4
    sa.Column("size", sa.Integer, nullable=False),
    sa.Column("duration_ms", sa.Integer, nullable=False),
    sa.Column("data", sa.LargeBinary, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Index("ix_voice_clips_call", "account_id", "voice", "call", unique=True),
)

# a listener's report of a clip, for the operators (``twmj admin voice-reports``); one
# per reporter and clip. It outlives the clip (no foreign key to it): the operator
# sees what was reported and what was done.
clip_reports = sa.Table(
    "clip_reports", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("clip_id", sa.Integer, nullable=False),
    sa.Column("owner_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False,
              index=True),
    sa.Column("voice", sa.String(8), nullable=False),
    sa.Column("call", sa.String(40), nullable=False),
    sa.Column("reporter_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("reason", sa.String(200), nullable=False),
    sa.Column("game_id", sa.String(40), nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Index("ix_clip_reports_once", "clip_id", "reporter_id", unique=True),
)
