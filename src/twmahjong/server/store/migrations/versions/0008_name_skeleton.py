"""Look-alike names: a TR39 confusables skeleton per account, unique.

Older rows get theirs here. Of two older names that look alike (both were allowed
before), the lowest id keeps the skeleton and the later ones none: all of them go on
working, and a new name that looks like any of them is refused (it meets the first's
skeleton). The skeleton comes from the ``disarm`` library as installed when this runs.

Revision ID: 0008
Revises: 0007
"""
import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    from disarm import skeleton_key
    op.add_column("accounts", sa.Column("name_skeleton", sa.String(64), nullable=True))
    accounts = sa.table("accounts", sa.column("id", sa.Integer), sa.column("name", sa.String),
                        sa.column("name_skeleton", sa.String))
    conn = op.get_bind()
    taken: set[str] = set()
    rows = conn.execute(sa.select(accounts.c.id, accounts.c.name).order_by(accounts.c.id))
    for account_id, name in rows.fetchall():
        skeleton = str(skeleton_key(unicodedata.normalize("NFKC", name),
                                    digit_policy="tr39"))[:64]
        if skeleton in taken:
            continue
        taken.add(skeleton)
        conn.execute(accounts.update().where(accounts.c.id == account_id)
                     .values(name_skeleton=skeleton))
    op.create_index("ix_accounts_name_skeleton", "accounts", ["name_skeleton"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_accounts_name_skeleton", table_name="accounts")
    op.drop_column("accounts", "name_skeleton")
