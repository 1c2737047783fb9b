"""The terminal client (終端機版): ``twmj play`` — one person against three bots.

``PlaySession`` drives the engine and the bots; ``PlayApp`` (Textual) draws the
person's observation and turns keys and clicks into actions.
"""

from .session import PlaySession

__all__ = ["PlayApp", "PlaySession"]


def __getattr__(name):
    if name == "PlayApp":          # Textual loads only when a screen is wanted
        from .app import PlayApp
        return PlayApp
    raise AttributeError(name)
