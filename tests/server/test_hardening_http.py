"""Hardening, the HTTP side: body limit, login throttling, trusted proxies, room-code
guessing, case-variant names. Each test prints the figure it shows (``-s``)."""

import asyncio
import socket
from types import SimpleNamespace

import pytest
import sqlalchemy as sa
from alembic import command

from twmahjong.server.app import create_app, uvicorn_config
from twmahjong.server.people.auth import Accounts, AuthError
from twmahjong.server.settings import Settings
from twmahjong.server.store.db import _alembic_config, create_engine, migrate
from twmahjong.server.store.repository import NameTaken, SqlRepository


def run(coro):
    return asyncio.run(coro)


def raw_http(live, head: str, body_parts: list[bytes] = ()) -> tuple[int, bytes]:
    """One request written by hand on a socket (the body exactly as given), and the
    status and body of the answer; the server may close before reading it all."""
    with socket.create_connection(("127.0.0.1", live.port), timeout=30) as s:
        try:
            s.sendall(head.encode() + b"\r\n")
            for part in body_parts:
                s.sendall(part)
            # no shutdown(SHUT_WR): a browser never half-closes, and uvicorn takes an
            # end of input before its answer as the client leaving
        except (BrokenPipeError, ConnectionResetError):
            pass                       # refused early: the answer is still there to read
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    if not data:
        return 0, b""                  # closed without an answer
    status = int(data.split(b" ", 2)[1])
    return status, data.split(b"\r\n\r\n", 1)[1]


def _count_logins(live) -> list:
    """Every call of the login handler's account check, from now on."""
    calls = []
    accounts = live.server.accounts
    real = accounts.login

    async def spy(name, password):
        calls.append(name)
        return await real(name, password)
    accounts.login = spy
    return calls


# -- 5. body limit -----------------------------------------------------------------------------
def test_a_body_over_the_limit_is_refused_with_413_before_anything_reads_it(live):
    calls = _count_logins(live)
    declared, body = raw_http(live, "POST /api/v1/sessions HTTP/1.1\r\nHost: x\r\n"
                                    "Content-Type: application/json\r\n"
                                    "Content-Length: 200000000\r\n")
    chunk = b"x" * 1024
    parts = [b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(600)] + [b"0\r\n\r\n"]
    chunked, body2 = raw_http(live, "POST /api/v1/sessions HTTP/1.1\r\nHost: x\r\n"
                                    "Content-Type: application/json\r\n"
                                    "Transfer-Encoding: chunked\r\n", parts)
    assert (declared, chunked) == (413, 413)
    assert b'"too_large"' in body and b'"too_large"' in body2
    # the handler never ran: no login was checked, no client was even counted
    assert calls == [] and len(live.server.limits.auth_client) == 0
    ok = live.http("POST", "/api/v1/sessions", json={"name": "nobody", "password": "x" * 8})
    assert ok.status_code == 401 and calls == ["nobody"]
    print("\n200 MB declared -> 413 (0 body bytes read); 600 KiB chunked -> 413; "
          f"login handler ran {len(calls) - 1} times for them")


# -- 6. login throttling ------------------------------------------------------------------------
def _logins(live, names, forwarded):
    return [live.http("POST", "/api/v1/sessions", json={"name": n, "password": "wrong-pw"},
                      headers={"X-Forwarded-For": f}).status_code
            for n, f in zip(names, forwarded, strict=True)]


def test_a_forged_forwarded_for_does_not_escape_the_per_client_limit(make_live):
    live = make_live(auth_rate=0.001, auth_burst=5)
    codes = _logins(live, [f"user{i}" for i in range(30)], [f"10.0.0.{i}" for i in range(30)])
    assert codes == [401] * 5 + [429] * 25
    print(f"\n30 attempts with varied X-Forwarded-For -> {codes.count(401)} allowed, "
          f"{codes.count(429)} answered 429")


def test_forwarded_for_is_believed_from_a_configured_proxy_only(make_live):
    live = make_live(auth_rate=0.001, auth_burst=5, forwarded_allow_ips="127.0.0.1")
    codes = _logins(live, [f"user{i}" for i in range(30)], [f"10.0.0.{i}" for i in range(30)])
    assert codes == [401] * 30          # behind the named proxy, each address is a client
    default = uvicorn_config(None, Settings())
    proxied = uvicorn_config(None, Settings(forwarded_allow_ips="10.1.2.3"))
    assert (default.proxy_headers, proxied.proxy_headers) == (False, True)
    assert proxied.forwarded_allow_ips == "10.1.2.3"


def test_twmj_serve_believes_no_proxy_unless_told(monkeypatch, tmp_path):
    from twmahjong.commands import serve
    configs = []
    monkeypatch.setattr(serve, "_Server", lambda config, settings: SimpleNamespace(
        run=lambda: configs.append(config)))
    monkeypatch.setattr(serve, "_check_port", lambda host, port: None)
    monkeypatch.delenv("TWMJ_FORWARDED_ALLOW_IPS", raising=False)
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "*")       # uvicorn's own knob: not ours
    serve.serve_command(data_dir=tmp_path)
    monkeypatch.setenv("TWMJ_FORWARDED_ALLOW_IPS", "10.9.8.7")
    serve.serve_command(data_dir=tmp_path)
    assert [(c.proxy_headers, c.forwarded_allow_ips) for c in configs] == [
        (False, ""), (True, "10.9.8.7")]


def test_one_account_is_limited_however_many_addresses_guess_at_it(make_live):
    """Past the name's failures, each guessing address gets one guess (it has not
    failed before) and no more: 30 addresses guessing twice are checked 30 times, not
    60 — while an address that never failed still logs in (tests/server/
    test_accounts_abuse.py: the owner is never locked out)."""
    live = make_live(forwarded_allow_ips="127.0.0.1", login_name_rate=0.001, login_name_burst=5)
    live.register("Victim")
    spellings = ["Victim", "victim", "VICTIM"] * 20
    addresses = [f"10.0.1.{i}" for i in range(30)] * 2
    codes = _logins(live, spellings, addresses)
    assert codes == [401] * 30 + [429] * 30
    other = live.http("POST", "/api/v1/sessions", json={"name": "someone", "password": "x" * 8})
    assert other.status_code == 401            # other names are not locked with it
    print(f"\n60 guesses at one account from 30 addresses -> {codes.count(401)} checked, "
          f"{codes.count(429)} answered 429")


class _SpyHasher:
    def __init__(self, real):
        self.real, self.verified = real, []

    def hash(self, password):
        return self.real.hash(password)

    def verify(self, digest, password):
        self.verified.append(digest)
        return self.real.verify(digest, password)


def test_an_unknown_name_costs_a_password_check_like_a_wrong_password(db_url):
    async def go():
        engine = create_engine(db_url)
        await migrate(engine)
        repo = SqlRepository(engine)
        accounts = Accounts(repo, starting_coins=0)
        await accounts.register("known1", "secret-pw")
        spy = accounts._hasher = _SpyHasher(accounts._hasher)
        guest = await accounts.guest()
        errors = []
        for name in ("known1", "nobody", guest["name"]):
            try:
                await accounts.login(name, "wrong-pw")
            except AuthError as e:
                errors.append(str(e))
        await engine.dispose()
        return errors, spy.verified
    errors, verified = run(go())
    assert errors == ["wrong name or password"] * 3       # one answer for all three
    assert len(verified) == 3 and all(d.startswith("$argon2") for d in verified)
    print("\nwrong password, unknown name, guest name -> 3 argon2 verifications, one message")


# -- 9. room codes ------------------------------------------------------------------------------
def _guesses(live, token, n, forwarded=None):
    codes = []
    for i in range(n):
        headers = {"X-Forwarded-For": forwarded[i]} if forwarded else {}
        r = live.http("GET", f"/api/v1/rooms/ZZZ{i:03d}", token, headers=headers)
        codes.append(r.json()["error"]["code"])
    return codes


def test_room_codes_cannot_be_guessed_quickly(make_live):
    live = make_live(room_miss_rate=0.001, room_miss_burst=10)
    host, guesser, friend = live.register("host9"), live.register("guesser9"), live.guest()
    code = live.http("POST", "/api/v1/rooms", host, json={}).json()["code"]
    codes = _guesses(live, guesser, 100)
    assert codes == ["not_found"] * 10 + ["rate_limited"] * 90
    # the real code is refused too while the client is over: the answer tells nothing
    real = live.http("POST", f"/api/v1/rooms/{code}/join", guesser)
    assert (real.status_code, real.json()["error"]["code"]) == (429, "rate_limited")
    # another account from the same address is the same client
    assert live.http("GET", f"/api/v1/rooms/{code}", friend).status_code == 429
    print(f"\n100 guessed codes from one client -> {codes.count('not_found')} looked up, "
          f"{codes.count('rate_limited')} answered 429 (and then the real code too)")


def test_room_code_guesses_are_counted_per_account_across_addresses(make_live):
    live = make_live(room_miss_rate=0.001, room_miss_burst=10, forwarded_allow_ips="127.0.0.1")
    guesser = live.register("guesser8")
    codes = _guesses(live, guesser, 40, [f"10.0.2.{i}" for i in range(40)])
    assert codes == ["not_found"] * 10 + ["rate_limited"] * 30
    print(f"\n40 guesses by one account from 40 addresses -> {codes.count('not_found')} "
          f"looked up, {codes.count('rate_limited')} answered 429")


# -- 10. names --------------------------------------------------------------------------------
def test_names_are_unique_on_their_folded_form_and_shown_as_typed(live):
    assert live.http("POST", "/api/v1/accounts",
                     json={"name": "Audrey", "password": "secret-pw"}).status_code == 201
    again = [live.http("POST", "/api/v1/accounts", json={"name": n, "password": "secret-pw"})
             for n in ("audrey", "AUDREY", "aUdReY")]
    assert [(r.status_code, r.json()["error"]["code"]) for r in again] == [(409, "conflict")] * 3
    r = live.http("POST", "/api/v1/sessions", json={"name": "AUDREY", "password": "secret-pw"})
    assert r.status_code == 200 and r.json()["account"]["name"] == "Audrey"
    print("\n'Audrey' registered; 'audrey', 'AUDREY', 'aUdReY' -> 3 x 409; login as 'AUDREY' "
          "-> the account shown as 'Audrey'")


def test_the_migration_gives_older_rows_their_key_and_keeps_old_twins_usable(db_url):
    async def go():
        engine = create_engine(db_url)
        async with engine.begin() as conn:
            await conn.run_sync(lambda c: command.upgrade(_alembic_config(c), "0001"))
            for name in ("Aud", "aud", "Bob"):     # the old schema let twins in
                await conn.execute(sa.text(
                    "INSERT INTO accounts (name, is_guest, coins, rating, ranked_games, "
                    "challenge_tier, created_at) VALUES (:n, false, 0, 1500, 0, 0, 0)"),
                    {"n": name})
        await migrate(engine)
        repo = SqlRepository(engine)
        async with engine.connect() as conn:
            keys = (await conn.execute(sa.text(
                "SELECT name, name_key FROM accounts ORDER BY id"))).all()
        found = [(await repo.account_by_name(n))["name"] for n in ("aud", "Aud", "BOB")]
        try:
            await repo.create_account("AUD", None, is_guest=False, starting_coins=0)
            taken = False
        except NameTaken:
            taken = True
        await engine.dispose()
        return [tuple(k) for k in keys], found, taken
    keys, found, taken = run(go())
    assert keys == [("Aud", "aud"), ("aud", "aud#2"), ("Bob", "bob")]
    assert found == ["aud", "Aud", "Bob"] and taken


@pytest.mark.parametrize("name", ["Ａｕｄ", "guEST1"])
def test_names_that_fold_into_forbidden_forms_are_refused(name):
    with pytest.raises(AuthError):
        Accounts.check_name(name)


def test_the_app_is_served_behind_its_body_limit():
    app = create_app(Settings(secret_key="k", max_body_bytes=2048))
    assert any(m.kwargs.get("max_bytes") == 2048 for m in app.user_middleware)


def test_the_client_files_are_revalidated_every_time_so_an_upgrade_takes_at_once(live):
    """Without a Cache-Control a browser guesses how long a file stays fresh from its
    Last-Modified, and after an upgrade runs day-old modules beside new ones. Every
    client file says no-cache, and asking again with its ETag costs a 304, no body."""
    import httpx

    with httpx.Client(base_url=f"http://127.0.0.1:{live.port}") as client:
        for path in ("/", "/js/app.js", "/js/friends.js", "/css/table.css", "/sw.js"):
            first = client.get(path)
            assert first.status_code == 200, path
            assert first.headers["cache-control"] == "no-cache", path
            again = client.get(path, headers={"If-None-Match": first.headers["etag"]})
            assert again.status_code == 304 and again.content == b"", path
