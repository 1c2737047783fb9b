"""Store: everything the server keeps, and the one way it is kept.

The database engine, SQLite by default and PostgreSQL by URL (``db``), the tables
(``schema``) and the Alembic ``migrations`` that create them, and the repository
seam every write and read goes through (``repository``).
"""
