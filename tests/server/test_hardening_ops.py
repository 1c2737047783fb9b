"""The server's own figures (/metrics, /readyz, /api/v1/health) are private: loopback,
the operator's networks (``ops_networks``) and a bearer ``ops_token`` may read them;
anyone else gets 403. /livez (is the process alive) stays open to any supervisor."""

import pytest

from twmahjong.server.settings import Settings, SettingsError

OPS = ["/metrics", "/readyz", "/api/v1/health"]
TOKEN = "ops-token-for-the-scraper"


def test_the_servers_figures_are_for_its_operator_only(make_live):
    live = make_live(forwarded_allow_ips="127.0.0.1", ops_token=TOKEN,
                     ops_networks="198.51.100.0/24, 2001:db8:5::/48")

    def status(path, address=None, token=None):
        headers = {"X-Forwarded-For": address} if address else {}
        return live.http("GET", path, token=token, headers=headers).status_code

    stranger = {p: status(p, "203.0.113.5") for p in OPS}
    assert stranger == {p: 403 for p in OPS}
    assert live.http("GET", "/metrics", headers={"X-Forwarded-For": "203.0.113.5"}).json() \
        == {"error": {"code": "forbidden", "message": "this page is for the server's operator"}}
    assert {p: status(p, "203.0.113.5", "wrong-token-of-some-length") for p in OPS} == stranger
    assert {p: status(p, "203.0.113.5", TOKEN) for p in OPS} == {p: 200 for p in OPS}
    assert {p: status(p, "198.51.100.7") for p in OPS} == {p: 200 for p in OPS}
    assert {p: status(p, "2001:db8:5:1::9") for p in OPS} == {p: 200 for p in OPS}
    assert {p: status(p) for p in OPS} == {p: 200 for p in OPS}          # loopback
    assert status("/livez", "203.0.113.5") == 200
    assert status("/api/v1/leaderboard", "203.0.113.5") == 200          # the game is public


def test_ops_networks_that_are_not_networks_are_refused_at_start():
    with pytest.raises(SettingsError, match="ops_networks"):
        Settings.from_env({"TWMJ_OPS_NETWORKS": "10.0.0.0/8, the office"})
