"""Accounts, credits and sessions under abuse: a credit is paid once by the database
whatever the workers do; a login cannot be locked out by strangers; sessions end."""

from __future__ import annotations

import asyncio

import sqlalchemy as sa

from twmahjong.server.store.db import create_engine, migrate
from twmahjong.server.store.repository import SqlRepository
from twmahjong.server.store.schema import ledger


def run(coro):
    return asyncio.run(coro)


def test_a_grant_asked_by_two_workers_at_once_is_paid_once(db_url):
    """Two repositories on one database are two workers: each has its own write lock,
    so only the database can say the day's bonus was paid already."""
    async def go():
        one, two = create_engine(db_url), create_engine(db_url)
        await migrate(one)
        a, b = SqlRepository(one), SqlRepository(two)
        ids = [(await a.create_account(f"player{i}", None, is_guest=False,
                                       starting_coins=10_000))["id"] for i in range(10)]
        paid = await asyncio.gather(*(repo.grant(i, 500, "daily", "2026-12-06")
                                      for i in ids for repo in (a, b)))
        # asked again later, by either: nothing more
        again = [await b.grant(i, 500, "daily", "2026-12-06") for i in ids]
        balances = [int((await a.account(i))["coins"]) for i in ids]
        sums = [await a.ledger_sum(i) for i in ids]
        await one.dispose()
        await two.dispose()
        return paid, again, balances, sums
    paid, again, balances, sums = run(go())
    assert sum(paid) == 10 and not any(again)
    assert balances == sums == [10_500] * 10


def test_a_grant_blocked_by_an_earlier_reason_pays_nothing_and_writes_nothing(db_url):
    async def go():
        engine = create_engine(db_url)
        await migrate(engine)
        repo = SqlRepository(engine)
        acc = await repo.create_account("player1", None, is_guest=False, starting_coins=100)
        blocked = await repo.grant(acc["id"], 500, "daily", "d1", unless=("welcome",), since=0)
        paid = await repo.grant(acc["id"], 500, "daily", "d1")
        rows = await repo.ledger_rows(acc["id"])
        await engine.dispose()
        return blocked, paid, rows
    blocked, paid, rows = run(go())
    assert (blocked, paid) == (False, True)
    assert [(r["reason"], r["amount"], r["grant_key"]) for r in rows] == [
        ("welcome", 100, "welcome:"), ("daily", 500, "daily:d1")]


def test_the_grant_key_migration_keeps_a_database_paid_twice_before_it(tmp_path):
    """A database of the old schema where one day's bonus was paid twice migrates: the
    first row keeps the key, the duplicate none, and a new claim that day pays nothing."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'old.sqlite3'}"

    async def go():
        from alembic import command

        from twmahjong.server.store import db
        engine = create_engine(url)
        async with engine.begin() as conn:
            await conn.run_sync(lambda c: command.upgrade(db._alembic_config(c), "0005"))
            await conn.execute(sa.text(
                "INSERT INTO accounts (id, name, name_key, is_guest, coins, rating, "
                "ranked_games, challenge_tier, created_at) "
                "VALUES (1, 'aud', 'aud', 0, 11000, 1500, 0, 0, 0)"))
            day = 1_764_979_200.0 + 3600        # 2025-12-06 09:00 in Taiwan
            for amount, reason, at in ((10_000, "welcome", 0.0), (500, "daily", day),
                                       (500, "daily", day + 1)):
                await conn.execute(sa.text(
                    "INSERT INTO ledger (account_id, amount, reason, created_at) "
                    "VALUES (1, :a, :r, :t)"), {"a": amount, "r": reason, "t": at})
        await migrate(engine)
        repo = SqlRepository(engine)
        again = await repo.grant(1, 500, "daily", "2025-12-06")
        async with engine.connect() as conn:
            keys = [r.grant_key for r in await conn.execute(
                sa.select(ledger.c.grant_key).order_by(ledger.c.id))]
        await engine.dispose()
        return again, keys
    again, keys = run(go())
    assert again is False
    assert keys == ["welcome:", "daily:2025-12-06", None]


# -- logins: a stranger cannot lock the owner out ------------------------------------------------
# the default sizes, but buckets that do not refill while a busy machine runs the test
SLOW_REFILL = {"login_pair_rate": 1e-6, "login_name_rate": 1e-6, "login_fail_rate": 1e-6}

def _login(live, name, password, address):
    return live.http("POST", "/api/v1/sessions", json={"name": name, "password": password},
                     headers={"X-Forwarded-For": address}).status_code


def test_a_strangers_guesses_never_lock_the_owner_out_of_their_account(make_live):
    """Five wrong guesses from one address (then more, as the attack kept on): that
    address is refused, and so are its further guesses; the owner's right password
    from their own address still logs in, and only a wrong one from there counts."""
    live = make_live(forwarded_allow_ips="127.0.0.1", **SLOW_REFILL)
    live.register("Alice1", "owner-secret")
    attacker = [_login(live, "alice1", "guess-pw", "198.51.100.9") for _ in range(8)]
    assert attacker == [401] * 5 + [429] * 3
    assert _login(live, "Alice1", "owner-secret", "203.0.113.5") == 200
    # the attacker's next guess, and another address that guessed before: still refused
    assert _login(live, "Alice1", "guess-pw", "198.51.100.9") == 429
    assert _login(live, "Alice1", "guess-pw", "203.0.113.77") == 401   # never failed: checked
    assert _login(live, "Alice1", "guess-pw", "203.0.113.77") == 429   # now it has
    assert _login(live, "Alice1", "owner-secret", "203.0.113.5") == 200
    print(f"\n8 guesses from one address -> {attacker.count(401)} checked; the owner's "
          f"right password from their own address -> 200")


def test_one_ipv6_network_is_one_guesser_whatever_address_it_takes(make_live):
    live = make_live(forwarded_allow_ips="127.0.0.1", **SLOW_REFILL)
    live.register("Alice1", "owner-secret")
    codes = [_login(live, "Alice1", "guess-pw", f"2001:db8:7:7::{i:x}") for i in range(1, 9)]
    assert codes == [401] * 5 + [429] * 3
    assert _login(live, "Alice1", "owner-secret", "2001:db8:8:8::1") == 200


# -- new accounts: per network, per /24, for the server -----------------------------------------
def _guest(live, address):
    return live.http("POST", "/api/v1/guests", headers={"X-Forwarded-For": address}).status_code


def test_guests_are_limited_per_address_per_ipv6_64_and_per_ipv4_24(make_live):
    live = make_live(forwarded_allow_ips="127.0.0.1", auth_burst=1000, signup_rate=0.001,
                     signup_burst=3, signup_net_rate=0.001, signup_net_burst=5,
                     signup_global_burst=1000)
    one = [_guest(live, "198.51.100.9") for _ in range(5)]
    v6 = [_guest(live, f"2001:db8:5:5::{i:x}") for i in range(1, 6)]      # one /64
    other64 = _guest(live, "2001:db8:5:6::1")
    net24 = [_guest(live, f"203.0.113.{i}") for i in range(1, 9)]          # one /24
    other24 = _guest(live, "203.0.114.1")
    assert one == [201] * 3 + [429] * 2
    assert v6 == [201] * 3 + [429] * 2 and other64 == 201
    assert net24 == [201] * 5 + [429] * 3 and other24 == 201
    print(f"\n5 guests from one IPv4 -> {one.count(201)}; 5 from one IPv6 /64 -> "
          f"{v6.count(201)}; 8 from one IPv4 /24 -> {net24.count(201)}")


def test_new_accounts_are_limited_for_the_whole_server_and_a_refusal_spends_nothing(make_live):
    live = make_live(forwarded_allow_ips="127.0.0.1", auth_burst=1000, signup_global_rate=0.001,
                     signup_global_burst=4, signup_burst=1000, signup_net_burst=1000)
    codes = [_guest(live, f"10.{i}.0.1") for i in range(6)]
    r = live.http("POST", "/api/v1/accounts", json={"name": "newcomer", "password": "secret-pw"},
                  headers={"X-Forwarded-For": "10.99.0.1"})
    assert codes == [201] * 4 + [429] * 2 and r.status_code == 429
    assert len(live.server.limits.signup) == 4     # the refused ones counted nowhere


# -- argon2: bounded work -------------------------------------------------------------------------
class _GatedHasher:
    """An argon2 hasher whose checks wait for a gate (threading.Event): work in flight."""

    def __init__(self, real):
        import threading
        self.real, self.gate, self.started = real, threading.Event(), 0

    def hash(self, password):
        return self.real.hash(password)

    def verify(self, digest, password):
        self.started += 1
        self.gate.wait(600)
        return self.real.verify(digest, password)


def test_password_checks_are_bounded_and_past_the_queue_refused_at_once(db_url):
    """One slot and one waiting place: two logins in flight, the third is told 503 busy
    at once instead of queueing behind them (an unknown name costs a check too)."""
    from twmahjong.server.people.auth import Accounts, AuthError, Busy

    async def go():
        engine = create_engine(db_url)
        await migrate(engine)
        accounts = Accounts(SqlRepository(engine), starting_coins=0, hash_slots=1, hash_queue=1)
        await accounts.register("known1", "secret-pw")
        await accounts._dummy_hash()
        gated = accounts._hasher = _GatedHasher(accounts._hasher)
        first = asyncio.create_task(accounts.login("known1", "wrong-pw"))
        second = asyncio.create_task(accounts.login("nobody", "wrong-pw"))
        while gated.started < 1 or accounts._hashing < 2:    # one checks, one waits
            await asyncio.sleep(0.01)
        try:
            await accounts.login("known1", "secret-pw")
            third = "checked"
        except Busy as e:
            third = str(e)
        running = gated.started
        gated.gate.set()
        outcomes = []
        for t in (first, second):
            try:
                await t
            except AuthError as e:
                outcomes.append(e.reason)
        after = (await accounts.login("known1", "secret-pw"))["name"]
        await engine.dispose()
        return third, running, outcomes, after
    third, running, outcomes, after = run(go())
    assert "busy" in third and running == 1
    assert outcomes == ["wrong_password"] * 2 and after == "known1"


# -- sessions end: logout, password change, an operator's reset ----------------------------------
def _ws_hello(live, token) -> dict:
    """What the WebSocket answers a hello with this token (welcome, or the error)."""
    from server_helpers import Client

    async def go():
        c = await Client.open(live)
        await c.send({"type": "hello", "token": token})
        m = await c.recv()
        await c.close()
        return m
    return run(go())


def _login_token(live, name, password) -> str:
    r = live.http("POST", "/api/v1/sessions", json={"name": name, "password": password})
    assert r.status_code == 200, r.text
    return r.json()["token"]


def test_a_logout_ends_that_session_on_every_worker_and_only_that_one(make_live):
    one = make_live()
    two = make_live()                    # a second worker on the same database
    one.register("Alice1", "owner-secret")
    a, b = _login_token(one, "Alice1", "owner-secret"), _login_token(two, "Alice1", "owner-secret")
    assert two.http("GET", "/api/v1/me", a).status_code == 200      # cached as standing
    r = one.http("DELETE", "/api/v1/sessions/current", a)
    assert r.status_code == 200 and r.json() == {"logged_out": True}
    for live in (one, two):
        refused = live.http("GET", "/api/v1/me", a)
        assert refused.status_code == 401
        assert refused.json()["error"]["reason"] == "session_revoked"
        assert live.http("GET", "/api/v1/me", b).status_code == 200
    hello = _ws_hello(two, a)
    assert (hello["type"], hello["code"]) == ("error", "auth")
    assert _ws_hello(two, b)["type"] == "welcome"
    assert one.http("DELETE", "/api/v1/sessions/current", a).status_code == 401


def test_a_password_change_ends_every_other_session(make_live):
    live = make_live()
    live.register("Alice1", "owner-secret")
    a, b = _login_token(live, "Alice1", "owner-secret"), _login_token(live, "Alice1", "owner-secret")
    wrong = live.http("POST", "/api/v1/me/password", a, json={"old": "nope-nope", "new": "x" * 8})
    assert (wrong.status_code, wrong.json()["error"]["reason"]) == (403, "wrong_password")
    assert live.http("GET", "/api/v1/me", b).status_code == 200      # nothing changed
    r = live.http("POST", "/api/v1/me/password", a,
                  json={"old": "owner-secret", "new": "new-secret"})
    assert r.status_code == 200
    fresh = r.json()["token"]
    assert [live.http("GET", "/api/v1/me", t).status_code for t in (a, b, fresh)] == [401, 401, 200]
    assert _ws_hello(live, b)["type"] == "error" and _ws_hello(live, fresh)["type"] == "welcome"
    assert _login(live, "Alice1", "owner-secret", "127.0.0.1") == 401
    _login_token(live, "Alice1", "new-secret")
    guest = live.guest()
    r = live.http("POST", "/api/v1/me/password", guest, json={"old": "", "new": "new-secret"})
    assert (r.status_code, r.json()["error"]["reason"]) == (403, "guest")


def test_an_operator_reset_ends_every_session_and_sets_a_new_password(make_live, db_url, capsys):
    from twmahjong.cli import main as twmj
    live = make_live()
    live.register("Alice1", "owner-secret")
    token = _login_token(live, "Alice1", "owner-secret")
    capsys.readouterr()
    try:
        twmj(["admin", "reset-password", "alice1", "--database", db_url])
        code = 0
    except SystemExit as e:
        code = e.code or 0
    out = capsys.readouterr().out.strip()
    assert code == 0 and out.startswith("reset the password of Alice1 and ended every session")
    new = out.rsplit(": ", 1)[1]
    assert live.http("GET", "/api/v1/me", token).status_code == 401
    assert _ws_hello(live, token)["type"] == "error"
    assert _login(live, "Alice1", "owner-secret", "127.0.0.1") == 401
    assert live.http("GET", "/api/v1/me", _login_token(live, "Alice1", new)).status_code == 200


# -- friends and invitations: bounded, and no name oracle -----------------------------------------
def _befriend(live, a, b, name_a, name_b):
    assert live.http("POST", "/api/v1/friends", a, json={"name": name_b}).status_code == 200
    assert live.http("POST", f"/api/v1/friends/{name_a}/accept", b).status_code == 200


def test_friend_requests_are_limited_and_a_resent_request_does_not_notify_again(make_live):
    """The attack: add and withdraw in a loop (1,440 notices in 10 s to one player), and
    requests to 200 players in 0.8 s."""
    from server_helpers import Client
    live = make_live(friend_rate=0.001, friend_burst=5)
    ta, tb, tc = live.register("Asker1"), live.register("Target1"), live.register("Marker1")
    others = [live.register(f"Other{i}") for i in range(3)]  # noqa: F841  (names exist)

    async def go():
        b = await Client.open(live, tb, "B")
        codes = []
        for _ in range(4):                      # ask, withdraw, ask again ...
            codes.append(live.http("POST", "/api/v1/friends", ta,
                                   json={"name": "Target1"}).status_code)
            live.http("DELETE", "/api/v1/friends/Target1", ta)
        spread = [live.http("POST", "/api/v1/friends", ta, json={"name": f"Other{i}"}).status_code
                  for i in range(3)]
        # a marker from someone else: every notice sent before it has arrived by then
        live.http("POST", "/api/v1/friends", tc, json={"name": "Target1"})
        seen = []
        while True:
            m = await b.expect("notice")
            if m["data"].get("from") == "Marker1":
                break
            seen.append(m["data"]["from"])
        await b.close()
        return codes, spread, seen
    codes, spread, seen = run(go())
    assert codes == [200] * 4 and spread == [200, 429, 429]
    assert seen == ["Asker1"]                   # asked 4 times, told once
    print(f"\n4 requests to one player -> {len(seen)} notice; 7 requests -> 5 sent")


def test_an_invitation_or_unblock_says_the_same_for_a_stranger_and_for_no_one(make_live):
    live = make_live(social_name_rate=0.001, social_name_burst=6)
    ta = live.register("Host1")
    live.register("Stranger1")
    room = live.http("POST", "/api/v1/rooms", ta, json={}).json()
    real = live.http("POST", f"/api/v1/rooms/{room['code']}/invite", ta, json={"name": "Stranger1"})
    none = live.http("POST", f"/api/v1/rooms/{room['code']}/invite", ta, json={"name": "Nobody99"})
    assert (real.status_code, real.json()) == (none.status_code, none.json())
    assert real.json()["error"]["reason"] == "not_friends"
    real = live.http("DELETE", "/api/v1/blocks/Stranger1", ta)
    none = live.http("DELETE", "/api/v1/blocks/Nobody99", ta)
    assert (real.status_code, real.json()) == (none.status_code, none.json())
    # and names are looked up at a bounded rate (6 here): the 7th is refused
    codes = [live.http("DELETE", f"/api/v1/blocks/Name{i}", ta).status_code for i in range(4)]
    assert codes == [404, 404, 429, 429]


def test_invitations_are_limited_per_sender_and_per_friend(make_live):
    live = make_live(invite_pair_rate=0.001, invite_pair_burst=2, invite_rate=0.001,
                     invite_burst=3)
    ta, tb, tc = live.register("Host1"), live.register("Friend1"), live.register("Friend2")
    _befriend(live, ta, tb, "Host1", "Friend1")
    _befriend(live, ta, tc, "Host1", "Friend2")
    room = live.http("POST", "/api/v1/rooms", ta, json={}).json()

    def invite(name):
        return live.http("POST", f"/api/v1/rooms/{room['code']}/invite", ta,
                         json={"name": name}).status_code
    assert [invite("Friend1") for _ in range(3)] == [201, 201, 429]
    assert [invite("Friend2") for _ in range(2)] == [201, 429]      # the sender's 3 spent


def test_the_invitation_store_is_bounded():
    from twmahjong.server.social.friends import Invitations

    async def go():
        inv = Invitations(60.0, max_invites=16, per_account=3)
        sender = {"id": 1, "name": "Host1"}
        for i in range(40):
            await inv.create(sender, 100 + i, "ABCDEF")
        for _ in range(10):
            last = await inv.create(sender, 7, "ABCDEF")
        return len(inv._local), await inv.for_account(7), last
    size, mine, last = run(go())
    assert size <= 16 and len(mine) == 3 and mine[-1]["id"] == last["id"]


# -- look-alike names -----------------------------------------------------------------------------
def test_a_name_that_only_looks_like_a_taken_one_is_refused(make_live):
    """TR39's skeleton: a capital I or a digit 1 for the l of a taken name (a Cyrillic
    а or a full-width letter is refused by the name's format already). ``Al1ce1`` (1
    for i) and ``阿眀`` (beside ``阿明``) are not TR39 confusables: they stay allowed."""
    live = make_live()
    live.register("Alice1")
    live.register("阿明")
    codes = {n: live.http("POST", "/api/v1/accounts", json={"name": n, "password": "secret-pw"})
             for n in ("AIice1", "A1ice1", "Аlice1", "ＡＩｉｃｅ１", "Al1ce1", "阿眀")}
    refused = {n for n, r in codes.items() if r.status_code == 409}
    assert refused == {"AIice1", "A1ice1"}
    assert all(codes[n].json()["error"]["reason"] == "name_taken" for n in refused)
    assert codes["Аlice1"].status_code == codes["ＡＩｉｃｅ１"].status_code == 400
    assert codes["Al1ce1"].status_code == codes["阿眀"].status_code == 201


def test_the_skeleton_migration_keeps_older_look_alikes_working(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'old.sqlite3'}"

    async def go():
        from alembic import command

        from twmahjong.server.people.auth import Accounts, AuthError
        from twmahjong.server.store import db
        engine = create_engine(url)
        from argon2 import PasswordHasher
        hasher = PasswordHasher()
        async with engine.begin() as conn:
            await conn.run_sync(lambda c: command.upgrade(db._alembic_config(c), "0007"))
            # made before skeletons existed (0007): the two look alike
            for i, (name, pw) in enumerate((("Alice1", "secret-pw"), ("AIice1", "other-pw"))):
                await conn.execute(sa.text(
                    "INSERT INTO accounts (id, name, name_key, password_hash, is_guest, coins, "
                    "rating, ranked_games, challenge_tier, created_at) "
                    "VALUES (:i, :n, :k, :h, false, 0, 1500, 0, 0, 0)"),
                    {"i": i + 1, "n": name, "k": name.lower(), "h": hasher.hash(pw)})
        await migrate(engine)
        accounts = Accounts(SqlRepository(engine), starting_coins=0)
        logged = [(await accounts.login(n, p))["name"]
                  for n, p in (("Alice1", "secret-pw"), ("AIice1", "other-pw"))]
        try:
            await accounts.register("A1ice1", "third-pw")
            third = "made"
        except AuthError as e:
            third = e.reason
        async with engine.connect() as conn:
            skeletons = [r.name_skeleton for r in await conn.execute(sa.text(
                "SELECT name_skeleton FROM accounts ORDER BY id"))]
        await engine.dispose()
        return logged, third, skeletons
    logged, third, skeletons = run(go())
    assert logged == ["Alice1", "AIice1"] and third == "name_taken"
    assert skeletons == ["alicel", None]
