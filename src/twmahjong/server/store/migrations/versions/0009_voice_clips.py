"""voice clips: 真人語音 — a player's own recordings of the calls, and their reports.

Revision ID: 0009
Revises: 0008 (0008_name_skeleton)
"""
import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "voice_clips",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("voice", sa.String(8), nullable=False),
        sa.Column("call", sa.String(40), nullable=False),
        sa.Column("media", sa.String(32), nullable=False),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("duration_ms", sa.Integer, nullable=False),
        sa.Column("data", sa.LargeBinary, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_voice_clips_call", "voice_clips", ["account_id", "voice", "call"],
                    unique=True)
    op.create_table(
        "clip_reports",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("clip_id", sa.Integer, nullable=False),
        sa.Column("owner_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("voice", sa.String(8), nullable=False),
        sa.Column("call", sa.String(40), nullable=False),
        sa.Column("reporter_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("reason", sa.String(200), nullable=False),
        sa.Column("game_id", sa.String(40), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_clip_reports_owner_id", "clip_reports", ["owner_id"])
    op.create_index("ix_clip_reports_once", "clip_reports", ["clip_id", "reporter_id"],
                    unique=True)


def downgrade() -> None:
    op.drop_index("ix_clip_reports_once", "clip_reports")
    op.drop_index("ix_clip_reports_owner_id", "clip_reports")
    op.drop_table("clip_reports")
    op.drop_index("ix_voice_clips_call", "voice_clips")
    op.drop_table("voice_clips")
