"""Accounts, the coin ledger, games and their ordered actions.

Revision ID: 0001
Revises:
"""
import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(32), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=True),
        sa.Column("is_guest", sa.Boolean, nullable=False),
        sa.Column("coins", sa.BigInteger, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("ranked_games", sa.Integer, nullable=False),
        sa.Column("challenge_tier", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "ledger",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("reason", sa.String(32), nullable=False),
        sa.Column("game_id", sa.String(40), nullable=True),
        sa.Column("hand_no", sa.Integer, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_ledger_account_id", "ledger", ["account_id"])
    op.create_table(
        "games",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("profile", sa.String(64), nullable=False),
        sa.Column("stake", sa.String(16), nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("result", sa.JSON, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=True),
    )
    op.create_index("ix_games_status", "games", ["status"])
    op.create_table(
        "game_players",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
    )
    op.create_index("ix_game_players_account_id", "game_players", ["account_id"])
    op.create_table(
        "game_actions",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("hand_no", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("data", sa.JSON, nullable=False),
    )


def downgrade() -> None:
    for name in ("game_actions", "game_players", "games", "ledger", "accounts"):
        op.drop_table(name)
