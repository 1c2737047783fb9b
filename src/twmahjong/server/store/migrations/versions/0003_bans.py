"""An operator can ban an account (``twmj admin ban``): when, and why.

Revision ID: 0003
Revises: 0002
"""
import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("accounts", sa.Column("banned_at", sa.Float, nullable=True))
    op.add_column("accounts", sa.Column("ban_reason", sa.String(200), nullable=True))


def downgrade() -> None:
    op.drop_column("accounts", "ban_reason")
    op.drop_column("accounts", "banned_at")
