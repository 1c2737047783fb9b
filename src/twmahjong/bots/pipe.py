"""External bots over a pipe (外部電腦): JSON lines in, one action per request out.

The host starts the bot's command once and keeps it for the whole run. Every
line the host writes is one JSON object (formats.md, "Bots speaking over a
pipe"):

* ``{"type": "hello", "protocol": "twmj-pipe/1", "seat": 2}`` — once, first;
* ``{"type": "request", "id": 7, "observation": {...}}`` — a decision: the seat's
  observation exactly as docs/architecture.md fixes it, with its ``legal`` list;
* ``{"type": "end", "result": {...}}`` — a hand is over (no answer expected).

The bot answers each request with one line holding one action from ``legal``,
e.g. ``{"type": "discard", "tile": "5m"}``; it may echo ``"id"``. An answer that
comes later than ``timeout`` seconds, is not JSON, or is not among the legal
actions is replaced by the default move (pass a claim, else throw the drawn
tile) and the game goes on; a late answer is dropped when it finally arrives.
"""

from __future__ import annotations

import json
import queue
import shlex
import subprocess
import threading
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from ..errors import UserError
from .policy import default_action

if TYPE_CHECKING:
    from ..engine.actions import Action, ActionJSON
    from ..engine.observe import Observation

__all__ = ["PROTOCOL", "PipeBot", "PipeError"]

PROTOCOL = "twmj-pipe/1"


class PipeError(UserError):
    """The external bot's command cannot be started."""


def _norm(a: object) -> Action | None:
    """An action as a comparable value, so '54m' and '45m' are the same chi."""
    from ..engine.actions import Action, IllegalAction
    if isinstance(a, dict):
        a = {k: v for k, v in a.items() if k != "id"}   # the pipe's answer number, not the action's
    try:
        return Action.from_json(a)
    except IllegalAction:
        return None


class PipeBot:
    """A bot living in another process; it sees only what the seat sees."""

    def __init__(self, command: str | list[str], *, timeout: float = 2.0, seat: int | None = None,
                 name: str | None = None):
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.command:
            raise PipeError("pipe: needs a command, e.g. pipe:python examples/pipe_bot.py")
        self.timeout = timeout
        self.seat = seat
        self.name = name or "pipe:" + " ".join(self.command)
        self.faults = {"timeout": 0, "garbage": 0, "illegal": 0, "dead": 0}
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._next_id = 0
        self._owed = 0          # answers still due for requests that timed out

    # ---- process ----------------------------------------------------------------------

    def _start(self) -> subprocess.Popen[str]:
        try:
            proc = self._proc = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, text=True, bufsize=1, encoding="utf-8")
        except OSError as e:
            raise PipeError(f"cannot start external bot {' '.join(self.command)!r}: {e}") from None
        threading.Thread(target=self._read, args=(proc.stdout,), daemon=True).start()
        self._send({"type": "hello", "protocol": PROTOCOL, "seat": self.seat})
        return proc

    def _read(self, stream: Iterable[str]) -> None:
        for line in stream:
            self._lines.put(line)
        self._lines.put(None)

    def _send(self, obj: Mapping[str, object]) -> bool:
        stdin = self._proc.stdin if self._proc is not None else None
        if stdin is None:
            return False                    # no process (or no pipe to it): as if dead
        try:
            stdin.write(json.dumps(obj, ensure_ascii=False) + "\n")
            stdin.flush()
            return True
        except (OSError, ValueError):
            return False

    def close(self) -> None:
        if self._proc is None:
            return
        try:
            if self._proc.stdin is not None:
                self._proc.stdin.close()
        except OSError:
            pass
        try:
            self._proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        self._proc = None

    def __del__(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            self._proc.kill()           # never leave a bot process behind

    # ---- the Bot protocol -------------------------------------------------------------

    def end_hand(self, result: Mapping[str, object] | None = None) -> None:
        if self._proc is not None:
            self._send({"type": "end", "result": result or {}})

    def act(self, observation: Observation) -> ActionJSON:
        proc = self._proc if self._proc is not None else self._start()
        legal = observation.get("legal") or []
        self._next_id += 1
        rid = self._next_id
        if proc.poll() is not None or not self._send(
                {"type": "request", "id": rid, "observation": observation}):
            self.faults["dead"] += 1
            return default_action(observation)
        answer = self._await(rid)
        if answer is None:
            return default_action(observation)
        wanted = _norm(answer)
        for a in legal:
            if wanted is not None and _norm(a) == wanted:
                return a.copy()
        self.faults["illegal"] += 1
        return default_action(observation)

    def _await(self, rid: int) -> dict[str, object] | None:
        import time
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self.faults["timeout"] += 1
                self._owed += 1
                return None
            try:
                line = self._lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                self.faults["dead"] += 1
                self._lines.put(None)
                return None
            try:
                obj = json.loads(line)
            except ValueError:
                self.faults["garbage"] += 1
                return None
            if not isinstance(obj, dict):
                self.faults["garbage"] += 1
                return None
            if "id" in obj:
                if obj["id"] != rid:
                    continue                 # a late answer to an earlier request
                self._owed = 0
            elif self._owed:
                self._owed -= 1              # un-numbered late answer: drop it
                continue
            return obj
