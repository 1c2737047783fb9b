"""Alembic environment: the server hands us an open connection (see ``db.migrate``)."""

from alembic import context

from twmahjong.server.store.schema import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()
