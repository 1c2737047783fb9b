"""Net: the doors into the server and the language spoken through them.

The HTTP API (``http_api``) and the operator's (``admin_api``), the WebSocket game
channel (``ws``) and its messages (``protocol``, version 1), how much each client may
ask (``limits``), and the voice packs served to the browser (``voices``).
"""
