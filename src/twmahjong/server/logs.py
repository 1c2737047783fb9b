"""The server's logs: readable lines at a terminal, or one JSON object a line.

``log_format = "json"`` (``twmj serve --log-json``, env ``TWMJ_LOG_FORMAT=json``)
is for a collector (journald, Loki, Elasticsearch): every record is one line with
``ts``, ``level``, ``logger`` and ``msg``, a traceback as one ``exc`` string, and
whatever a call site passes in ``extra`` as its own keys — never several lines
for one event, which a collector would split into several.

    >>> r = logging.LogRecord("twmj", logging.INFO, "", 0, "hi %s", ("x",), None)
    >>> orjson.loads(JsonFormatter().format(r))["msg"]
    'hi x'
"""

from __future__ import annotations

import logging
import sys
import time

import orjson

__all__ = ["JsonFormatter", "configure"]

# LogRecord's own attributes: everything else on a record came from ``extra``
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out = {"ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
               + f".{int(record.msecs):03d}Z",
               "level": record.levelname.lower(), "logger": record.name,
               "msg": record.getMessage()}
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        for k, v in vars(record).items():
            if k not in _STANDARD and not k.startswith("_"):
                out[k] = v
        return orjson.dumps(out, default=str).decode()


def configure(fmt: str = "text", level: str = "warning", stream=None) -> logging.Handler:
    """Send every logger's records (ours and uvicorn's) to ``stream`` in ``fmt``.

    Replaces the root handlers this function installed before, so calling it twice
    (tests, a restarted server in one process) does not print every line twice."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.set_name("twmj")
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(
        "%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    for h in list(root.handlers):
        if h.get_name() == "twmj":
            root.removeHandler(h)
    root.addHandler(handler)
    root.setLevel(level.upper())
    if fmt == "json":
        for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
            lg = logging.getLogger(name)
            lg.handlers.clear()
            lg.propagate = True
    return handler
