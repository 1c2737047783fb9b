"""CLI command modules. Each module has ``register(app)``; add new ones to MODULES."""

from __future__ import annotations

import importlib

MODULES: list[str] = ["settle", "profiles", "score", "waits", "selfplay", "replay", "demo", "serve", "arena", "bots", "play", "verify", "admin", "analyze"]


def register_all(app, only: list[str] | None = None) -> None:
    """Register every command module, or ``only`` those (a module is named as its
    command)."""
    for name in MODULES if only is None else only:
        importlib.import_module(f"{__name__}.{name}").register(app)
