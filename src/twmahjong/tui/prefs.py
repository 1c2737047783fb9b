"""A player's settings for ``twmj play`` (設定), kept between runs, and the saved match.

Two files in the user's config directory (``twmahjong.client.config_dir``):
``play.json`` — 聽牌提示 on/off, the table speed and the 教練 (off, on o, always) — and ``saved-match.json``,
the unfinished offline match that ``twmj play --resume`` (or the next ``twmj
play``) takes up again. A missing or damaged file is simply the defaults.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from ..client.config import config_dir

__all__ = ["Prefs", "clear_saved", "load_saved", "saved_path"]


@dataclass
class Prefs:
    hints: bool = True          # 聽牌提示
    speed: int = 1              # index into table.SPEEDS: 0 instant, 1 normal, 2 slow
    coach: str = "ask"          # 教練: "off", "ask" (press o), "always" (tui/coach.py)
    path: Path | None = None

    @classmethod
    def load(cls, path: Path | None = None) -> Prefs:
        path = path or config_dir() / "play.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            p = cls(hints=bool(data.get("hints", True)), speed=int(data.get("speed", 1)),
                    coach=str(data.get("coach", "ask")), path=path)
        except (OSError, ValueError, TypeError, AttributeError):
            p = cls(path=path)
        p.speed = min(2, max(0, p.speed))
        if p.coach not in ("off", "ask", "always"):
            p.coach = "ask"
        return p

    def save(self) -> None:
        if self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            data = {k: v for k, v in asdict(self).items() if k != "path"}
            self.path.write_text(json.dumps(data), encoding="utf-8")
        except OSError:
            pass                 # a read-only home keeps the setting for this run only


def saved_path() -> Path:
    return config_dir() / "saved-match.json"


def load_saved() -> dict | None:
    """The saved unfinished match, or None (none, or unreadable)."""
    try:
        data = json.loads(saved_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("format") == "twmahjong-play-save" else None


def clear_saved() -> None:
    try:
        saved_path().unlink()
    except OSError:
        pass
