"""The server's small parts, each against what the issue and the rules ask."""

import hashlib
import json

import pytest

from twmahjong.errors import UserError
from twmahjong.server.net import protocol as P
from twmahjong.server.people.auth import AuthError, Tokens
from twmahjong.server.people.ranking import elo_update
from twmahjong.server.play.game import commitment, safe_default
from twmahjong.server.play.timers import TokenBucket, TurnClock
from twmahjong.server.settings import Settings, SettingsError


# -- settings --------------------------------------------------------------------------------
def test_settings_env_then_overrides():
    env = {"TWMJ_STARTING_COINS": "500", "TWMJ_TURN_BASE": "3", "TWMJ_PORT": "9000"}
    s = Settings.from_env(env, port=8100)
    assert (s.starting_coins, s.turn_base, s.port) == (500, 3.0, 8100)


def test_settings_bad_value_is_a_user_error():
    with pytest.raises(SettingsError, match="starting_coins"):
        Settings.from_env({"TWMJ_STARTING_COINS": "lots"})


def test_default_database_is_sqlite_in_data_folder(tmp_path):
    s = Settings(data_dir=tmp_path)
    assert s.effective_database_url == f"sqlite+aiosqlite:///{tmp_path / 'twmj.sqlite3'}"


def test_secret_is_kept_across_restarts(tmp_path):
    a = Settings(data_dir=tmp_path).resolved_secret()
    b = Settings(data_dir=tmp_path).resolved_secret()
    assert a == b and len(a) >= 40


# -- protocol validation ------------------------------------------------------------------------
@pytest.mark.parametrize("raw, code", [
    ("{not json", "bad_json"),
    ("[1, 2]", "bad_message"),
    ('{"v": 1}', "bad_message"),
    ('{"v": 2, "type": "ping"}', "bad_version"),
    ('{"type": "dance"}', "unknown_type"),
    ('{"type": "ping", "extra": 1}', "bad_message"),
    ('{"type": "action", "action": {"type": "steal", "tile": "5m"}}', "bad_message"),
    ('{"type": "quick_match", "stake": "infinite"}', "bad_message"),
    ("x" * 5000, "too_large"),
])
def test_bad_frames_are_named(raw, code):
    with pytest.raises(P.ProtocolError) as e:
        P.parse_client(raw, 4096)
    assert e.value.code == code
    assert isinstance(e.value, UserError)


def test_good_frames_parse():
    m = P.parse_client('{"v":1,"type":"action","action":{"type":"chi","tile":"3m","tiles":"45m"}}',
                       4096)
    assert isinstance(m, P.ActionMsg) and m.action.tiles == "45m"
    assert isinstance(P.parse_client('{"type":"ping"}', 4096), P.Ping)


def test_outgoing_messages_carry_version():
    assert json.loads(P.out(P.Pong())) == {"v": 1, "type": "pong"}


# -- tokens -----------------------------------------------------------------------------------
def test_session_and_ticket_tokens_are_not_interchangeable():
    t = Tokens("k", session_ttl=60, ticket_ttl=60)
    session = t.session(7)
    ticket = t.ticket("g_x", 2, 7)
    assert t.account_of(session) == 7
    assert t.read_ticket(ticket).seat == 2
    with pytest.raises(AuthError):
        t.read_ticket(session)
    with pytest.raises(AuthError):
        t.account_of(ticket)


def test_tokens_expire_and_resist_tampering():
    t = Tokens("k", session_ttl=-1, ticket_ttl=-1)     # already past its age
    with pytest.raises(AuthError, match="expired"):
        t.account_of(t.session(1))
    good = Tokens("k", session_ttl=60, ticket_ttl=60)
    other = Tokens("other-key", session_ttl=60, ticket_ttl=60)
    with pytest.raises(AuthError, match="invalid"):
        good.account_of(other.session(1))


# -- fairness commitment ------------------------------------------------------------------------
def test_commitment_is_sha256_of_the_seed_text():
    assert commitment(42) == hashlib.sha256(b"twmj-wall-v1:42").hexdigest()
    assert commitment(42) != commitment(43)


# -- timers, flood control, the timeout move ---------------------------------------------------------
def test_turn_clock_spends_bank_only_past_base():
    c = TurnClock(base=5, bank_size=20)
    c.start(100.0)
    assert c.deadline() == 125.0
    c.stop(103.0)                 # inside the base: bank untouched
    assert c.bank == 20
    c.start(200.0)
    c.stop(212.0)                 # 7 s past the base
    assert c.bank == 13
    c.start(300.0)
    assert c.deadline() == 318.0
    c.new_hand()
    assert c.bank == 20


def test_token_bucket_allows_burst_then_rate():
    b = TokenBucket(rate=2, burst=3, now=0.0)
    assert [b.take(0.0) for _ in range(4)] == [True, True, True, False]
    assert b.take(0.5) is True and b.take(0.5) is False


def test_safe_default_passes_claims_and_throws_the_drawn_tile():
    claim = [{"type": "pon", "tile": "5m"}, {"type": "win", "tile": "5m"}, {"type": "pass"}]
    assert safe_default(claim) == {"type": "pass"}
    turn = [{"type": "discard", "tile": "1m"}, {"type": "discard", "tile": "9p"},
            {"type": "win"}]
    assert safe_default(turn, drawn="1m") == {"type": "discard", "tile": "1m"}


# -- ranked ------------------------------------------------------------------------------------
def test_elo_first_gains_last_loses_and_sum_is_kept():
    new = elo_update([1500, 1500, 1500, 1500], [1, 2, 3, 4])
    assert new[0] > new[1] > 1500 > new[2] > new[3]
    assert sum(new) == pytest.approx(6000)


def test_elo_beating_a_stronger_field_is_worth_more():
    weak_field = elo_update([1500, 1400, 1400, 1400], [1, 2, 3, 4])[0] - 1500
    strong_field = elo_update([1500, 1700, 1700, 1700], [1, 2, 3, 4])[0] - 1500
    assert strong_field > weak_field > 0
