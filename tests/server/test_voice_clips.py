"""真人語音 on the server: a player's recorded calls kept in the database, checked from
their bytes, limited, reported, removed by the operator, made into a voice pack, and
served by every worker of a cluster (SQLite and PostgreSQL alike)."""

from __future__ import annotations

import functools
import io
import json
import re
from pathlib import Path

import pytest
from test_redis_cluster import cluster  # noqa: F401  (the fixture)

from twmahjong.cli import main as twmj
from twmahjong.server.net.limits import Limiter
from twmahjong.server.net.voices import credits, scan
from twmahjong.server.social.clips import MAX_BYTES
from twmahjong.web import STATIC_DIR

REASONS = ("clip_too_big", "clip_too_long", "clip_not_audio", "clip_quota", "guest_clips",
           "no_such_call", "clip_empty", "no_clip", "no_game", "not_seated")


@functools.lru_cache(maxsize=None)
def tone(seconds: float, fmt: str = "webm") -> bytes:
    """``seconds`` of a quiet 440 Hz tone as Opus in WebM (what Chromium records) or Ogg."""
    import math
    import struct

    import av
    rate, step = 48000, 960
    out = io.BytesIO()
    with av.open(out, "w", format=fmt) as box:
        stream = box.add_stream("libopus", rate=rate)
        stream.layout = "mono"
        n = int(seconds * rate)
        for start in range(0, n, step):
            k = min(step, n - start)
            frame = av.AudioFrame(format="s16", layout="mono", samples=k)
            frame.planes[0].update(struct.pack(f"<{k}h", *(
                int(6000 * math.sin(2 * math.pi * 440 * (start + i) / rate)) for i in range(k))))
            frame.sample_rate, frame.pts = rate, start
            for packet in stream.encode(frame):
                box.mux(packet)
        for packet in stream.encode(None):
            box.mux(packet)
    return out.getvalue()


PNG = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00"
       b"\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N"
       b"\x00\x00\x00\x00IEND\xaeB`\x82")


def admin(capsys, *args) -> tuple[int, str, str]:
    capsys.readouterr()
    try:
        twmj(["admin", *args])
        code = 0
    except SystemExit as e:
        code = e.code or 0
    got = capsys.readouterr()
    return code, got.out, got.err


def put(live, token, voice, call, data, **kw):
    return live.http("PUT", f"/api/v1/me/clips/{voice}/{call}", token, content=data,
                     headers={"Content-Type": kw.pop("media", "audio/webm")}, **kw)


def refused(r, status: int, reason: str) -> str:
    assert r.status_code == status, r.text
    err = r.json()["error"]
    assert err["reason"] == reason, err
    return err["message"]


def test_the_web_client_says_every_refusal_in_both_languages():
    src = (STATIC_DIR / "js" / "myvoice.js").read_text(encoding="utf-8")
    said = dict(re.findall(r'"err\.reason\.(\w+)": (\[.*?\]),', src))
    for reason in REASONS:
        zh, en = json.loads(said[reason])
        assert zh and en and zh != en, reason


def test_a_clip_is_kept_played_refused_reported_and_removed(make_live, db_url, capsys):
    live = make_live()
    aud, bea = live.register("阿德"), live.register("Bea")
    guest = live.guest()
    good = tone(1.0)
    # a guest has no voice to keep
    refused(put(live, guest, "nan", "pon", good), 403, "guest_clips")

    r = put(live, aud, "nan", "pon", good, media="text/plain")      # the type is the bytes'
    assert r.status_code == 200, r.text
    clip = r.json()["clip"]
    assert clip["media"] == "audio/webm" and 950 <= clip["duration_ms"] <= 1100
    mine = live.http("GET", "/api/v1/me/clips", aud).json()
    assert [(c["voice"], c["call"]) for c in mine["clips"]] == [("nan", "pon")]
    assert mine["limits"]["seconds"] == 2.5 and "phrase_hello" in mine["phrases"]
    assert mine["used"] == {"clips": 1, "bytes": len(good)}

    # another player fetches it: the bytes as recorded, cacheable for good
    got = live.http("GET", clip["url"], bea)
    assert got.status_code == 200 and got.content == good
    assert got.headers["content-type"] == "audio/webm"
    assert "immutable" in got.headers["cache-control"]
    again = live.http("GET", clip["url"], bea, headers={"If-None-Match": got.headers["etag"]})
    assert again.status_code == 304
    assert live.http("GET", clip["url"]).status_code == 401         # with a session, as the API

    # each refusal says why, and changes nothing
    big = b"\x1a\x45\xdf\xa3" + bytes(MAX_BYTES)
    assert "at most 48 KiB" in refused(put(live, aud, "nan", "chi", big), 413, "clip_too_big")
    assert "3.0 s" in refused(put(live, aud, "nan", "chi", tone(3.0)), 422, "clip_too_long")
    refused(put(live, aud, "nan", "pon", PNG), 422, "clip_not_audio")  # a PNG named audio/webm
    refused(put(live, aud, "nan", "pon", b"\x1a\x45\xdf\xa3" + bytes(200)), 422, "clip_not_audio")
    refused(put(live, aud, "nan", "shout", good), 404, "no_such_call")
    refused(put(live, aud, "xx", "pon", good), 404, "no_such_call")
    # the quota: two clips for this test; a redone call replaces its clip
    live.server.clips.quota_clips = 2
    assert put(live, aud, "cmn", "win", tone(0.5, "ogg")).status_code == 200
    message = refused(put(live, aud, "cmn", "chi", good), 409, "clip_quota")
    assert "quota of 2 clips" in message
    redo = put(live, aud, "nan", "pon", tone(0.8))
    assert redo.status_code == 200, redo.text
    new_id = redo.json()["clip"]["id"]
    assert new_id != clip["id"]
    assert live.http("GET", clip["url"], bea).status_code == 404   # the old take is gone
    after = live.http("GET", "/api/v1/me/clips", aud).json()
    assert sorted((c["voice"], c["call"]) for c in after["clips"]) == [("cmn", "win"),
                                                                      ("nan", "pon")]

    # a table's seats with clips; a room whose host turned voices off has none
    room = live.http("POST", "/api/v1/rooms", aud, json={"bots": "L1"}).json()
    assert room["room"]["voices"] is True
    assert live.http("POST", f"/api/v1/rooms/{room['code']}/join", bea).status_code == 200
    assert live.http("POST", f"/api/v1/rooms/{room['code']}/start", aud).status_code == 200
    refused(live.http("GET", f"/api/v1/games/{room['game_id']}/voices", guest), 403,
            "not_seated")                                         # not a player of it
    v = live.http("GET", f"/api/v1/games/{room['game_id']}/voices", bea).json()
    assert v["on"] is True and [s["seat"] for s in v["seats"]] == [0]
    assert v["seats"][0]["clips"]["nan"]["pon"] == new_id
    assert v["seats"][0]["version"] == max(new_id, v["seats"][0]["clips"]["cmn"]["win"])
    quiet = live.http("POST", "/api/v1/rooms", aud, json={"bots": "L1", "voices": False}).json()
    assert quiet["room"]["voices"] is False
    live.http("POST", f"/api/v1/rooms/{quiet['code']}/join", bea)
    live.http("POST", f"/api/v1/rooms/{quiet['code']}/start", aud)
    assert live.http("GET", f"/api/v1/games/{quiet['game_id']}/voices", bea).json() == {
        "game_id": quiet["game_id"], "on": False, "seats": []}
    assert live.http("GET", "/api/v1/games/g_nothing/voices", bea).status_code == 404
    db = ["--database", db_url]
    assert admin(capsys, "ban", "阿德", *db)[0] == 0             # a banned voice is not offered
    assert live.http("GET", f"/api/v1/games/{room['game_id']}/voices", bea).json()["seats"] == []
    assert admin(capsys, "unban", "阿德", *db)[0] == 0

    # a listener reports it; the operator sees the report and removes the clip
    rep = live.http("POST", f"/api/v1/clips/{new_id}/report", bea,
                    json={"reason": "shouting", "game_id": room["game_id"]})
    assert rep.status_code == 201 and rep.json()["new"] is True
    assert live.http("POST", f"/api/v1/clips/{new_id}/report", bea, json={}).json()["new"] is False
    code, out, _ = admin(capsys, "voice-reports", "--json", *db)
    assert code == 0
    [report] = json.loads(out)
    assert (report["clip"], report["owner"], report["reporter"], report["reason"],
            report["stored"]) == (new_id, "阿德", "Bea", "shouting", True)
    code, out, _ = admin(capsys, "voice-remove", "--clip", str(new_id), *db)
    assert code == 0 and out.strip() == f"removed clip {new_id} (nan pon) of 阿德"
    assert live.http("GET", f"/api/v1/clips/{new_id}", bea).status_code == 404
    code, out, _ = admin(capsys, "voice-reports", "--json", *db)
    assert json.loads(out)[0]["stored"] is False
    code, _, err = admin(capsys, "voice-remove", "--clip", str(new_id), *db)
    assert code == 2 and err.strip() == f"twmj: error: no clip {new_id}"
    code, out, _ = admin(capsys, "voice-remove", "阿德", "--voice", "cmn", *db)
    assert code == 0 and out.strip() == "removed 1 clip of 阿德"
    assert live.http("GET", "/api/v1/me/clips", aud).json()["clips"] == []
    # and the player deletes their own
    refused(live.http("DELETE", "/api/v1/me/clips/nan/pon", aud), 404, "no_clip")
    assert put(live, aud, "nan", "pon", good).status_code == 200
    assert live.http("DELETE", "/api/v1/me/clips/nan/pon", aud).json()["used"] == {
        "clips": 0, "bytes": 0}
    # uploads are rate-limited per account
    live.server.clip_limit = Limiter(0.001, 1)
    assert put(live, aud, "nan", "pon", good).status_code == 200
    r = put(live, aud, "nan", "pon", good)
    assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"


def test_an_operator_makes_a_voice_pack_that_credits_the_player(make_live, db_url, capsys,
                                                               tmp_path: Path):
    live = make_live()
    aud = live.register("阿德")
    for call in ("pon", "self_draw", "phrase_lucky"):        # phrase_lucky: a bot's line too
        assert put(live, aud, "nan", call, tone(0.6)).status_code == 200
    out = tmp_path / "voices"
    code, said, _ = admin(capsys, "voice-pack", "阿德", str(out), "--database", db_url)
    assert code == 0 and said.strip() == f"wrote 3 nan clips in the voice of 阿德 to {out}"
    packs, problems = scan(out)
    assert problems == [] and sorted(packs["nan"]) == ["phrase_lucky", "pon", "self_draw"]
    assert credits(out) == {"nan": "阿德"}
    code, _, err = admin(capsys, "voice-pack", "阿德", str(out), "--database", db_url)
    assert code == 2 and "give --force" in err
    # a second player's 胡 joins the pack, and both are credited
    bea = live.register("Bea")
    assert put(live, bea, "nan", "win", tone(0.6)).status_code == 200
    assert admin(capsys, "voice-pack", "Bea", str(out), "--database", db_url)[0] == 0
    assert sorted(scan(out)[0]["nan"]) == ["phrase_lucky", "pon", "self_draw", "win"]
    assert credits(out) == {"nan": "阿德、Bea"}


def test_a_clip_uploaded_on_one_worker_plays_from_another(cluster):  # noqa: F811
    p1, p2 = cluster(), cluster()
    aud, bea = p1.register("北邊甲"), p2.register("南邊乙")
    good = tone(1.2)
    clip = put(p1, aud, "cmn", "win", good).json()["clip"]
    got = p2.http("GET", clip["url"], bea)
    assert got.status_code == 200 and got.content == good
    assert [c["id"] for c in p2.http("GET", "/api/v1/me/clips", aud).json()["clips"]] == [clip["id"]]
