"""Where a player's login lives between runs: the user's config directory.

One JSON file (``client.json`` under platformdirs' config dir for "twmahjong",
or ``$TWMJ_CONFIG_DIR``) maps each server address to its session ``token``, the
account name, and the ``ticket`` of the last seat taken — which is how
回到牌桌 finds an unfinished game after the terminal was closed. The file is
written owner-only (0600): a token is a password for seven days.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

__all__ = ["Credentials", "config_dir"]


def config_dir() -> Path:
    env = os.environ.get("TWMJ_CONFIG_DIR")
    if env:
        return Path(env)
    from platformdirs import user_config_dir
    return Path(user_config_dir("twmahjong"))


class Credentials:
    """The saved ``token``/``name``/``ticket`` of one server (``None`` when unknown)."""

    def __init__(self, server: str, path: Path | None = None):
        self.server = server
        self.path = path or config_dir() / "client.json"

    def _all(self) -> dict:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            return data if isinstance(data, dict) else {}
        except (OSError, ValueError):
            return {}                      # a missing or damaged file is "not logged in"

    def get(self, key: str) -> str | None:
        entry = self._all().get(self.server)
        return entry.get(key) if isinstance(entry, dict) else None

    def set(self, **values) -> None:
        data = self._all()
        entry = data.get(self.server) if isinstance(data.get(self.server), dict) else {}
        for k, v in values.items():
            if v is None:
                entry.pop(k, None)
            else:
                entry[k] = v
        data[self.server] = entry
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
        os.chmod(tmp, 0o600)
        tmp.replace(self.path)

    @property
    def token(self) -> str | None:
        return self.get("token")

    @property
    def ticket(self) -> str | None:
        return self.get("ticket")
