"""The browser client (網頁版): static ES modules, CSS and SVG tile art.

Nothing here is built or downloaded at run time; the server serves this folder
as it is, with ``index.html`` at ``/``.

    >>> (STATIC_DIR / "index.html").is_file()
    True
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["STATIC_DIR"]

STATIC_DIR = Path(__file__).resolve().parent
