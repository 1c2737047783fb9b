"""The terminal client (終端機版): ``twmj play`` — against three bots, or online.

``PlaySession`` drives the engine and the bots on this machine; ``OnlineSession``
(``online.py``) is a seat at a server's table through ``twmahjong.client``. Either
feeds ``PlayApp`` (Textual; ``table.py`` draws the person's observation and turns
keys and clicks into actions) or ``plain.py`` (one plain line per change). The
screen reads only the person's own observation, whichever session it has.
"""

from .session import PlaySession

__all__ = ["PlayApp", "PlaySession"]


def __getattr__(name):
    if name == "PlayApp":          # Textual loads only when a screen is wanted
        from .app import PlayApp
        return PlayApp
    raise AttributeError(name)
