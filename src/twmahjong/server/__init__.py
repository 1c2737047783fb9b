"""The game server: one-click matchmaking (一鍵匹配), games between people (真人對局),
and unfinished games a player can resume at any time (可隨時繼續未完成的牌局).

``app.create_app`` builds the ASGI app; ``core.Server`` owns settings, storage,
the lobby and the tables; each table is an actor (``play.table.Table``) over the
engine (``play.engine_game.EngineGame``). docs/protocol.md is the wire contract.

The rooms, each with its own docstring: ``play`` (tables and what happens at one),
``people`` (accounts, ranking), ``net`` (HTTP, WebSocket, protocol, limits),
``store`` (database, schema, migrations, repository), ``cluster`` (the seams in
their local and Redis forms, table ownership) and ``social`` (talk, friends,
invitations, 觀戰).
"""
