"""One Python client of the server's documented protocol (docs/protocol.md).

Everyone who plays from Python speaks to ``twmj serve`` through this package, so
the protocol is written down once on the client side: the terminal client
online, the load and chaos benches, tests, and a bot author who wants a pipe bot
on a server. Nothing here is private API — only ``/api/v1/…`` over HTTP and the
``/ws`` messages.

- ``Api``: the HTTP endpoints (accounts, guests, rooms, my games), async;
- ``GameLink``: one WebSocket: hello, quick match, join, actions, a reconnect
  with the seat's ticket when the link drops, and in a cluster a move to the
  worker that plays its table (its ``route``);
- ``TableState``: the seat's view, folded from ``snapshot``/``update``/… messages;
- ``Credentials``: the token and the last seat's ticket, kept in the user's
  config directory (platformdirs) per server.

    >>> ws_url("http://127.0.0.1:8000")
    'ws://127.0.0.1:8000/ws'
"""

from .config import Credentials, config_dir
from .http import Api, ApiError, ws_url
from .link import GameLink, LinkError
from .state import TableState

__all__ = ["Api", "ApiError", "Credentials", "GameLink", "LinkError", "TableState",
           "config_dir", "ws_url"]
