"""真人語音: what a player's own recording must be before the server keeps it.

A player records their calls (碰 吃 槓 胡 自摸 聽 花胡) and may add the 快捷語 — the
same phrases the bots say in character (talk.py's ``BOT_LINES``) — in 台語 or 普通話,
with the browser's MediaRecorder. The server keeps a clip only if:

- it is at most ``MAX_BYTES``;
- its first bytes are a container a browser records and plays: WebM/Matroska
  (``1A 45 DF A3``), Ogg (``OggS``) or MP4 (``ftyp`` at byte 4) — whatever name or
  Content-Type it came with;
- the container opens (PyAV, FFmpeg's demuxers) with exactly one stream, an audio
  stream of Opus, Vorbis or AAC, and no other;
- it lasts at most ``MAX_SECONDS``: the longer of the packets' time stamps and the
  samples the stream really decodes to (a browser's WebM carries no duration in its
  header, and a header could lie).

``check`` raises ``ClipError`` with a ``reason`` a client translates
(``clip_too_big``, ``clip_not_audio``, ``clip_too_long``, ``clip_empty``).

    >>> check(b"\\x89PNG\\r\\n\\x1a\\n" + bytes(64))
    Traceback (most recent call last):
    ...
    twmahjong.server.social.clips.ClipError: this is not a recording the game can play (WebM, Ogg or MP4 audio)
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from ...errors import UserError
from ..net.voices import CALLS, CLIPS, PHRASE_CALLS, VOICES

__all__ = ["CALLS", "CLIPS", "MAX_BYTES", "MAX_SECONDS", "PHRASE_CALLS", "VOICES", "Checked",
           "ClipError", "check", "sniff"]

MAX_SECONDS = 2.5
MAX_BYTES = 48 * 1024   # 2.5 s of Opus at the recorder's 64 kbit/s is ~21 KiB; under max_body_bytes
CODECS = {"opus", "vorbis", "aac"}
# the container, from its first bytes: (media type, FFmpeg demuxer)
_CONTAINERS = {"webm": ("audio/webm", "matroska"), "ogg": ("audio/ogg", "ogg"),
               "mp4": ("audio/mp4", "mp4")}


class ClipError(UserError):
    """A recording the server will not keep; ``reason`` says why (for the client)."""

    def __init__(self, message: str, reason: str):
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True)
class Checked:
    media: str          # audio/webm | audio/ogg | audio/mp4
    duration_ms: int
    codec: str


def sniff(head: bytes) -> str | None:
    """The container ``head`` (a file's first bytes) starts, by its magic number.

        >>> sniff(b"OggS\\x00\\x02"), sniff(b"\\x1aE\\xdf\\xa3"), sniff(b"GIF89a")
        ('ogg', 'webm', None)
    """
    if head[:4] == b"\x1a\x45\xdf\xa3":
        return "webm"
    if head[:4] == b"OggS":
        return "ogg"
    if head[4:8] == b"ftyp":
        return "mp4"
    return None


def _not_audio() -> ClipError:
    return ClipError("this is not a recording the game can play (WebM, Ogg or MP4 audio)",
                     "clip_not_audio")


def check(data: bytes) -> Checked:
    """The clip's media type and length, or ``ClipError`` saying why it is refused.
    Decoding takes a few milliseconds of CPU: the API runs it in a thread."""
    if len(data) > MAX_BYTES:
        raise ClipError(f"a clip is at most {MAX_BYTES // 1024} KiB; this one is "
                        f"{len(data) // 1024} KiB", "clip_too_big")
    kind = sniff(data[:16])
    if kind is None:
        raise _not_audio()
    media, demuxer = _CONTAINERS[kind]
    import av                   # FFmpeg's demuxers and decoders: loaded at the first upload
    try:
        with av.open(io.BytesIO(data), format=demuxer, mode="r") as box:
            streams = list(box.streams)
            if len(streams) != 1 or streams[0].type != "audio":
                raise _not_audio()
            stream = streams[0]
            codec = stream.codec_context.name
            if codec not in CODECS:
                raise _not_audio()
            first: float | None = None
            end = 0.0
            samples = 0
            rate = 0
            for packet in box.demux(stream):
                if packet.pts is not None and packet.time_base is not None:
                    start = float(packet.pts * packet.time_base)
                    first = start if first is None else min(first, start)
                    end = max(end, float((packet.pts + (packet.duration or 0))
                                         * packet.time_base))
                for frame in packet.decode():
                    samples += frame.samples
                    rate = frame.sample_rate or rate
    except ClipError:
        raise
    except (av.FFmpegError, ValueError, OSError, EOFError, IndexError):
        raise _not_audio() from None
    if not samples or not rate:
        raise ClipError("the recording is empty: record the call again", "clip_empty")
    seconds = max(end - (first or 0.0), samples / rate)
    if seconds > MAX_SECONDS + 0.05:        # a frame's rounding (Opus frames are 20 ms)
        raise ClipError(f"a clip lasts at most {MAX_SECONDS:g} s; this one lasts "
                        f"{seconds:.1f} s", "clip_too_long")
    return Checked(media, round(seconds * 1000), codec)
