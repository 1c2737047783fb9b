"""CLI command modules. Each module has ``register(app)``; add new ones to MODULES."""

from __future__ import annotations

import importlib

MODULES: list[str] = ["settle", "profiles", "score", "waits", "selfplay", "replay", "demo", "serve", "arena", "bots", "play", "verify", "admin", "analyze"]


def register_all(app) -> None:
    for name in MODULES:
        importlib.import_module(f"{__name__}.{name}").register(app)
