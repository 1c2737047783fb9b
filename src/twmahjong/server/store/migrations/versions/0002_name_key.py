"""Account names are unique on a normalised form (NFKC + casefold), shown as typed.

Older rows get their key here. Two older names that fold to one key (both were
allowed before) keep working: the lowest id takes the plain key, every later one
``key#id``, and logging in with the exact spelling still finds each of them.

Revision ID: 0002
Revises: 0001
"""
import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def _key(name: str) -> str:
    # frozen copy of schema.name_key as of this migration: a migration must not change
    # because the application's code did
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def upgrade() -> None:
    op.add_column("accounts", sa.Column("name_key", sa.String(64), nullable=True))
    accounts = sa.table("accounts", sa.column("id", sa.Integer), sa.column("name", sa.String),
                        sa.column("name_key", sa.String))
    conn = op.get_bind()
    taken: set[str] = set()
    rows = conn.execute(sa.select(accounts.c.id, accounts.c.name).order_by(accounts.c.id))
    for account_id, name in rows.fetchall():
        key = _key(name)
        if key in taken:
            key = f"{key}#{account_id}"
        taken.add(key)
        conn.execute(accounts.update().where(accounts.c.id == account_id).values(name_key=key))
    op.create_index("ix_accounts_name_key", "accounts", ["name_key"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_accounts_name_key", table_name="accounts")
    op.drop_column("accounts", "name_key")
