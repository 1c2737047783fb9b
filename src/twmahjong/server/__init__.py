"""The game server: one-click matchmaking (一鍵匹配), games between people (真人對局),
and unfinished games a player can resume at any time (可隨時繼續未完成的牌局).

``app.create_app`` builds the ASGI app; ``core.Server`` owns settings, storage,
the lobby and the tables; each table is an actor (``table.Table``) over the
engine (``engine_game.EngineGame``). docs/protocol.md is the wire contract.
"""
