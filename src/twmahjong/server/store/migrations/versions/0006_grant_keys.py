"""Credits are paid once by the database: a grant key on the ledger, unique per account.

Older rows get their key here: each account's 新人禮包 (``welcome:``) and each daily
bonus (``daily:`` + its Taiwanese date). Rows paid twice before this migration (two
workers paying one day's bonus) stay as they were, the later ones without a key, so
the unique index can be made; the balance they paid is not taken back here.

Revision ID: 0006
Revises: 0005
"""
import time

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

_TAIWAN = 8 * 3600      # frozen copy of http_api.TAIWAN_UTC_OFFSET as of this migration


def _key(reason: str, created_at: float) -> str:
    if reason == "welcome":
        return "welcome:"
    return "daily:" + time.strftime("%Y-%m-%d", time.gmtime(created_at + _TAIWAN))


def upgrade() -> None:
    op.add_column("ledger", sa.Column("grant_key", sa.String(80), nullable=True))
    ledger = sa.table("ledger", sa.column("id", sa.Integer), sa.column("account_id", sa.Integer),
                      sa.column("reason", sa.String), sa.column("created_at", sa.Float),
                      sa.column("grant_key", sa.String))
    conn = op.get_bind()
    seen: set[tuple[int, str]] = set()
    rows = conn.execute(sa.select(ledger.c.id, ledger.c.account_id, ledger.c.reason,
                                  ledger.c.created_at)
                        .where(ledger.c.reason.in_(("welcome", "daily")))
                        .order_by(ledger.c.id)).fetchall()
    for row_id, account_id, reason, created_at in rows:
        key = _key(reason, created_at)
        if (account_id, key) in seen:
            continue                # a duplicate of old: left without a key
        seen.add((account_id, key))
        conn.execute(ledger.update().where(ledger.c.id == row_id).values(grant_key=key))
    op.create_index("ix_ledger_grant", "ledger", ["account_id", "grant_key"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_ledger_grant", table_name="ledger")
    op.drop_column("ledger", "grant_key")
