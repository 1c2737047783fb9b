"""Voice packs (語音包): recorded calls a server operator puts in a folder, which the
browser plays before it tries the browser's own speech (which rarely has 台語).

The folder (setting ``voice_dir``, env ``TWMJ_VOICE_DIR``) holds one folder per
voice and one file per call::

    voices/
      cmn/            普通話 (Mandarin)
        chi.mp3  pon.mp3  kong.mp3  win.mp3  self_draw.mp3  declare.mp3  flower_win.mp3
        phrase_hello.mp3  phrase_hurry.mp3  …   (one a 快捷語: server/social/talk.py)
      nan/            台語 (Taiwanese Hokkien)
        pon.ogg  win.ogg  …

A voice folder may hold ``CREDITS.txt``: whose voice it is (its first line, shown by
``GET /api/v1/voices``; ``twmj admin voice-pack`` writes one for a player's voice).
A file is ``<call>.<mp3|ogg|wav>``, at most 512 KiB, and must really be that kind of
audio (its first bytes are checked). A pack may leave calls out: the client falls
back to the other voice's clip, then to speech. The folder is checked when the
server starts; each file it cannot use is named in one log line saying why, and
left out.

    >>> scan(None)
    ({}, [])
"""

from __future__ import annotations

import logging
from pathlib import Path

from ..social.talk import PHRASES

__all__ = ["CALLS", "CLIPS", "CREDITS_FILE", "credits", "PHRASE_CALLS", "FORMATS", "MAX_BYTES", "VOICES", "clip_path", "scan"]

log = logging.getLogger("twmahjong.server.net.voices")

VOICES = {"cmn": "普通話 (Mandarin)", "nan": "台語 (Taiwanese Hokkien)"}
CALLS = ("chi", "pon", "kong", "win", "self_draw", "declare", "flower_win")
# 快捷語 (server/social/talk.py): one clip a phrase, ``phrase_<id>`` (phrase_hurry.mp3, …)
PHRASE_CALLS = tuple(f"phrase_{p}" for p in PHRASES)
CLIPS = CALLS + PHRASE_CALLS
FORMATS = {"mp3": "audio/mpeg", "ogg": "audio/ogg", "wav": "audio/wav"}
MAX_BYTES = 512 * 1024
CREDITS_FILE = "CREDITS.txt"


def _is_audio(ext: str, head: bytes) -> bool:
    if ext == "mp3":
        return head[:3] == b"ID3" or (len(head) > 1 and head[0] == 0xFF and head[1] & 0xE0 == 0xE0)
    if ext == "ogg":
        return head[:4] == b"OggS"
    return head[:4] == b"RIFF" and head[8:12] == b"WAVE"


def scan(folder: Path | None) -> tuple[dict[str, dict[str, str]], list[str]]:
    """The usable clips ``{voice: {call: file name}}`` and a line for each problem."""
    if folder is None:
        return {}, []
    folder = Path(folder)
    if not folder.is_dir():
        return {}, [f"voice folder {folder} does not exist; no recorded calls"]
    packs: dict[str, dict[str, str]] = {}
    problems: list[str] = []
    for entry in sorted(folder.iterdir()):
        if not entry.is_dir() or entry.name not in VOICES:
            problems.append(f"{entry}: not a voice folder (use {', '.join(VOICES)})")
            continue
        for f in sorted(entry.iterdir()):
            if f.name == CREDITS_FILE:
                continue
            call, _, ext = f.name.partition(".")
            why = None
            if not f.is_file() or call not in CLIPS or ext not in FORMATS:
                why = (f"not a call clip: name it <call>.<{'|'.join(FORMATS)}> with a call of "
                       f"{', '.join(CALLS)}, or phrase_<id> of a 快捷語")
            elif f.stat().st_size > MAX_BYTES:
                why = f"{f.stat().st_size} bytes, over the {MAX_BYTES}-byte limit"
            elif call in packs.get(entry.name, {}):
                why = f"a second clip for {call!r} (keep one)"
            else:
                with f.open("rb") as fh:
                    if not _is_audio(ext, fh.read(16)):
                        why = f"not a .{ext} audio file (its first bytes say otherwise)"
            if why:
                problems.append(f"{f}: {why}; left out")
            else:
                packs.setdefault(entry.name, {})[call] = f.name
    return packs, problems


def clip_path(folder: Path, packs: dict, voice: str, call: str) -> tuple[Path, str] | None:
    """The file of one clip and its media type, only if the start-up scan accepted it."""
    name = packs.get(voice, {}).get(call)
    if name is None:
        return None
    return Path(folder) / voice / name, FORMATS[name.rpartition(".")[2]]


def credits(folder: Path | None) -> dict[str, str]:
    """Whose voice each pack is, ``{voice: name}``, from its ``CREDITS.txt`` (first line)."""
    out: dict[str, str] = {}
    for voice in VOICES if folder is not None else ():
        f = Path(folder) / voice / CREDITS_FILE
        try:
            line = f.read_text(encoding="utf-8").strip().splitlines()
        except (OSError, UnicodeDecodeError):
            continue
        if line and line[0].strip():
            out[voice] = line[0].strip()[:100]
    return out
