"""Redis for the cluster tests: the URL from ``TWMJ_TEST_REDIS`` (CI starts a
redis-server and sets it), a key prefix of each test's own, and a clean-up."""

from __future__ import annotations

import asyncio
import os
import secrets

import pytest

REDIS = os.environ.get("TWMJ_TEST_REDIS")


def need_redis() -> str:
    if not REDIS:
        pytest.skip("TWMJ_TEST_REDIS not set: the Redis seams and the two-process tests need "
                    "a redis-server (CI starts one; e.g. TWMJ_TEST_REDIS=redis://127.0.0.1:6379/15)")
    return REDIS


def fresh_prefix() -> str:
    """Keys of one test only, so xdist workers never see each other's queues."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    return f"twmjtest-{worker}-{secrets.token_hex(4)}"


def purge(url: str, prefix: str) -> None:
    import redis.asyncio as redis

    async def go() -> None:
        r = redis.from_url(url)
        try:
            keys = [k async for k in r.scan_iter(match=f"{prefix}:*", count=500)]
            if keys:
                await r.delete(*keys)
        finally:
            await r.aclose()
    asyncio.run(go())
