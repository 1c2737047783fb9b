"""games.epoch: the fencing token of a game's owner (cluster).

Every process that takes a game on (starts it, adopts it, resumes it) bumps the
epoch; every stored write of the game checks it in its own transaction, so a
process that lost the game without knowing it cannot write a move any more.

Revision ID: 0004
Revises: 0003 (0003_bans)
"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("epoch", sa.Integer, nullable=False,
                                     server_default="0"))


def downgrade() -> None:
    op.drop_column("games", "epoch")
