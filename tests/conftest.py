"""Every test run checks the tables' liveness invariant (server/play/liveness.py):
a test during which any table of this process had to be mended fails, with the
mend's log line in its captured output. A test that makes a breach on purpose
takes the ``liveness_mends`` fixture, which expects them instead.

Servers started in another process (``twmj serve`` in a subprocess) count their
mends in their own /metrics (``twmj_liveness_mends_total``) and log them as
``liveness mend at table ...``; this hook cannot see those. ``bench/chaos.py``
counts the line in its workers' logs (any mend fails the run) and ``bench/load.py``
reports the metric."""

from __future__ import annotations

import sys

import pytest


def _mends() -> int:
    mod = sys.modules.get("twmahjong.server.play.liveness")
    return mod.MENDS[0] if mod is not None else 0


class _Expected:
    def __init__(self) -> None:
        self.start = _mends()

    @property
    def count(self) -> int:
        return _mends() - self.start


@pytest.fixture
def liveness_mends():
    """For a test that breaks a table on purpose: ``.count`` mends since it began."""
    return _Expected()


@pytest.fixture(autouse=True)
def _no_liveness_mends(request):
    before = _mends()
    yield
    if "liveness_mends" in request.fixturenames:
        return
    mended = _mends() - before
    if mended:
        pytest.fail(f"{mended} table(s) had a pending decision nothing would answer and "
                    "were mended (see the 'liveness mend' log line)", pytrace=False)
