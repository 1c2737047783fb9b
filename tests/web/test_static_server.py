"""The tests' static file server: a connection that hangs holds no other request.

Chromium opens spare connections ahead of time and may never send on them; a
single-threaded server would serve nothing else until such a connection ended, and
every page of every later test would wait for it."""

from __future__ import annotations

import socket
import urllib.request
from urllib.parse import urlsplit


def test_a_connection_that_never_sends_does_not_hold_the_next_request(static_url):
    where = urlsplit(static_url)
    with socket.create_connection((where.hostname, where.port)) as silent, \
            socket.create_connection((where.hostname, where.port)) as half:
        half.sendall(b"GET /index.html HTTP/1.1\r\nHost: x\r\n")       # headers never finished
        with urllib.request.urlopen(f"{static_url}/index.html", timeout=10) as r:
            assert r.status == 200
            assert b"<html" in r.read().lower()
        assert silent.fileno() >= 0 and half.fileno() >= 0             # both still open
