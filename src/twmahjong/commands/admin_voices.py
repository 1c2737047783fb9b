"""`twmj admin voice-*` — players' recorded calls (真人語音): list, reports, remove, pack.

Like the rest of ``twmj admin`` these work on the server's database (``--database``
/ ``--data-dir``), with the server up or down; every worker serves from it, so a
clip removed here is gone from every worker at once.

    twmj admin voice-clips aud
    twmj admin voice-reports
    twmj admin voice-remove --clip 12
    twmj admin voice-remove aud --voice nan --call pon
    twmj admin voice-pack aud ./voices --voice nan

``voice-pack`` writes a player's clips as a voice pack (``TWMJ_VOICE_DIR``,
server/net/voices.py): ``<dir>/<voice>/<call>.ogg`` (Ogg Opus, whatever the browser
recorded) and ``<dir>/<voice>/CREDITS.txt`` naming whose voice it is. With the 快捷語
recorded, the bots' lines (talk.py's ``BOT_LINES`` are 快捷語) are in it too.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Annotated

import typer

from .admin import AdminError, DatabaseOpt, DataDirOpt, JsonOpt, _account, _run, _show, _when, admin

WhoArg = Annotated[str, typer.Argument(help="Account name, or #id.")]


def _store(repo):
    from ..server.store.clips import ClipStore
    return ClipStore(repo.engine)


@admin.command("voice-clips", help="An account's recorded calls (真人語音).")
def voice_clips(who: WhoArg, database: DatabaseOpt = None, data_dir: DataDirOpt = None,
                as_json: JsonOpt = False) -> None:
    async def work(repo):
        acc = await _account(repo, who)
        return acc["name"], await _store(repo).of_account(acc["id"])
    name, rows = _run(database, data_dir, work)
    shown = [{"clip": c["id"], "voice": c["voice"], "call": c["call"], "media": c["media"],
              "bytes": c["size"], "seconds": c["duration_ms"] / 1000,
              "recorded": _when(c["created_at"])} for c in rows]
    _show(shown, ["clip", "voice", "call", "media", "bytes", "seconds", "recorded"],
          f"{len(shown)} clips of {name}", as_json, whole=("clip",))


@admin.command("voice-reports", help="Players' reports of recorded calls, newest first.")
def voice_reports(limit: Annotated[int, typer.Option("--limit", min=1, max=10_000)] = 100,
                  database: DatabaseOpt = None, data_dir: DataDirOpt = None,
                  as_json: JsonOpt = False) -> None:
    async def work(repo):
        return await _store(repo).reports(limit)
    rows = [{"clip": r["clip_id"], "owner": r["owner"], "voice": r["voice"], "call": r["call"],
             "reporter": r["reporter"], "reason": r["reason"], "game": r["game_id"] or "",
             "when": _when(r["created_at"]), "stored": bool(r["stored"])}
            for r in _run(database, data_dir, work)]
    _show(rows, ["clip", "owner", "voice", "call", "reporter", "reason", "game", "when", "stored"],
          f"{len(rows)} reports", as_json, whole=("clip", "owner"))


@admin.command("voice-remove", help="Remove a recorded call (--clip ID), or an account's "
                                    "(all, one voice's, or one call's).")
def voice_remove(who: Annotated[str | None, typer.Argument(help="Account name, or #id.")] = None,
                 clip: Annotated[int | None, typer.Option("--clip", help="A clip id (from "
                                                          "voice-reports).")] = None,
                 voice: Annotated[str | None, typer.Option("--voice", help="nan or cmn.")] = None,
                 call: Annotated[str | None, typer.Option("--call", help="e.g. pon, "
                                                          "phrase_hello.")] = None,
                 database: DatabaseOpt = None, data_dir: DataDirOpt = None) -> None:
    from ..server.net.voices import CLIPS, VOICES
    if (clip is None) == (who is None):
        raise AdminError("give an account or --clip ID (one of the two)")
    if voice is not None and voice not in VOICES:
        raise AdminError(f"--voice {voice!r}: use {' or '.join(VOICES)}")
    if call is not None and call not in CLIPS:
        raise AdminError(f"--call {call!r}: not a call that is recorded (e.g. pon, "
                         "self_draw, phrase_hello)")

    async def work(repo):
        store = _store(repo)
        if clip is not None:
            row = await store.remove_id(clip)
            if row is None:
                raise AdminError(f"no clip {clip}")
            owner = await repo.account(row["account_id"])
            return f"removed clip {clip} ({row['voice']} {row['call']}) of {owner['name']}"
        acc = await _account(repo, who)
        n = await store.remove(acc["id"], voice, call)
        if not n:
            raise AdminError(f"{acc['name']} has no such recording")
        return f"removed {n} clip{'s' if n != 1 else ''} of {acc['name']}"
    typer.echo(_run(database, data_dir, work))


def to_ogg_opus(data: bytes) -> bytes:
    """A recorded clip (WebM, Ogg or MP4; Opus, Vorbis or AAC) as Ogg Opus, mono 48 kHz,
    the form a voice pack keeps (server/net/voices.py accepts .ogg)."""
    import av
    out = io.BytesIO()
    with av.open(io.BytesIO(data)) as src, av.open(out, "w", format="ogg") as dst:
        stream = dst.add_stream("libopus", rate=48000)
        stream.layout = "mono"
        stream.bit_rate = 48000
        resample = av.AudioResampler(format="s16", layout="mono", rate=48000)
        for frame in src.decode(audio=0):
            for f in resample.resample(frame):
                for packet in stream.encode(f):
                    dst.mux(packet)
        for f in resample.resample(None):
            for packet in stream.encode(f):
                dst.mux(packet)
        for packet in stream.encode(None):
            dst.mux(packet)
    return out.getvalue()


@admin.command("voice-pack", help="Write an account's recorded calls as a voice pack "
                                  "(TWMJ_VOICE_DIR) that credits the voice.")
def voice_pack(who: WhoArg,
               out: Annotated[Path, typer.Argument(help="The voice folder (TWMJ_VOICE_DIR).")],
               voice: Annotated[str | None, typer.Option("--voice", help="nan or cmn (default: "
                                                         "each the player recorded).")] = None,
               force: Annotated[bool, typer.Option("--force", help="Replace clips already "
                                                   "in the pack.")] = False,
               database: DatabaseOpt = None, data_dir: DataDirOpt = None) -> None:
    from ..server.net.voices import CREDITS_FILE, FORMATS, VOICES
    if voice is not None and voice not in VOICES:
        raise AdminError(f"--voice {voice!r}: use {' or '.join(VOICES)}")

    async def work(repo):
        acc = await _account(repo, who)
        store = _store(repo)
        rows = [c for c in await store.of_account(acc["id"]) if voice in (None, c["voice"])]
        return acc["name"], [(c, (await store.get(c["id"]) or {}).get("data")) for c in rows]
    name, clips = _run(database, data_dir, work)
    clips = [(c, d) for c, d in clips if d]
    if not clips:
        raise AdminError(f"{name} has no recordings{f' in {voice}' if voice else ''}")
    written: dict[str, int] = {}
    for c, data in clips:
        folder = out / c["voice"]
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise AdminError(f"cannot make {folder}: {e.strerror}") from None
        there = [folder / f"{c['call']}.{ext}" for ext in FORMATS]
        if any(p.exists() for p in there) and not force:
            raise AdminError(f"{folder} already has a {c['call']!r} clip; give --force to "
                             "replace the pack's clips")
        for p in there:
            p.unlink(missing_ok=True)
        (folder / f"{c['call']}.ogg").write_bytes(to_ogg_opus(data))
        written[c["voice"]] = written.get(c["voice"], 0) + 1
    for v in written:          # a pack of several players' clips credits each of them
        credit = out / v / CREDITS_FILE
        before = credit.read_text(encoding="utf-8").strip().splitlines()[:1] \
            if credit.exists() else []
        names = [n for n in (before[0].split("、") if before else []) if n and n != name]
        credit.write_text("、".join([*names, name]) + "\n", encoding="utf-8")
    typer.echo("wrote " + ", ".join(f"{n} {v} clips" for v, n in sorted(written.items()))
               + f" in the voice of {name} to {out}")
