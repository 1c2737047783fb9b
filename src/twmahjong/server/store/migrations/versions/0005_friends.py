"""friends: 好友 — requests, friendships and blocks, one row per direction.

Revision ID: 0005
Revises: 0004 (0004_owner_epoch)
"""
import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "friends",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("other_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_friends_other", "friends", ["other_id"])


def downgrade() -> None:
    op.drop_index("ix_friends_other", "friends")
    op.drop_table("friends")
