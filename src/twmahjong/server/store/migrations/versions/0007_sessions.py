"""Sessions can be ended: a session generation per account, and ended sessions' ids.

Revision ID: 0007
Revises: 0006
"""
import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("accounts", sa.Column("session_gen", sa.Integer, nullable=False,
                                        server_default="0"))
    op.add_column("accounts", sa.Column("revoked_n", sa.Integer, nullable=False,
                                        server_default="0"))
    op.create_table(
        "revoked_sessions",
        sa.Column("sid", sa.String(32), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_revoked_sessions_account_id", "revoked_sessions", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_revoked_sessions_account_id", table_name="revoked_sessions")
    op.drop_table("revoked_sessions")
    op.drop_column("accounts", "revoked_n")
    op.drop_column("accounts", "session_gen")
