"""An outside program at an arena seat (`exec:<command line>`, CONTRACT section 12).

The program is started once for its seat and kept for the games that follow. For each move it
is sent one JSON object on a line (the seat's view, the seat, the legal orders where the game
lists them) and answers with one line, the order as a player would mail it. Nothing it writes
is trusted: a line longer than `LONGEST_LINE`, a silence longer than the time allowed, an early
exit or bytes that are not UTF-8 end its game as a loss (`ProgramFailed`), and a program that
fell silent is stopped and started afresh for the next game.
"""
from __future__ import annotations

import json
import os
import selectors
import shlex
import subprocess
import time

from pbem.errors import BadValue, PbemError

__all__ = ["LONGEST_LINE", "Program", "ProgramFailed", "command_line"]

# An order is a line of a few dozen characters; a program that writes more is not answering.
LONGEST_LINE = 64 * 1024
# How long a program is given to stop once its stdin is closed, before it is killed.
GRACE = 2.0


class ProgramFailed(PbemError):
    """A program's answer that cannot be an order: what went wrong, in a line."""


def command_line(text: str) -> list[str]:
    """The words of `exec:<command line>` (shell quoting, no shell)."""
    try:
        words = shlex.split(text)
    except ValueError as e:
        raise BadValue(f"exec:{text}: {e}") from None
    if not words:
        raise BadValue("exec: names no program (exec:python3 contrib/bots/first_legal.py)")
    return words


class Program:
    """One program, started when first asked, answering one line per question."""

    def __init__(self, words: list[str], timeout: float):
        self.words = words
        self.timeout = timeout
        self.process: subprocess.Popen | None = None
        self._pending = b""

    def ask(self, question: dict) -> str:
        """The program's line for `question` (sent as one line of JSON)."""
        process = self._started()
        assert process.stdin is not None
        try:
            process.stdin.write(json.dumps(question, ensure_ascii=False).encode("utf-8") + b"\n")
            process.stdin.flush()
        except (BrokenPipeError, OSError):
            self.stop()
            raise ProgramFailed("the program stopped reading its questions") from None
        return self._line()

    def _started(self) -> subprocess.Popen:
        if self.process is None or self.process.poll() is not None:
            self._pending = b""
            try:
                self.process = subprocess.Popen(self.words, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            except OSError as e:
                raise ProgramFailed(f"cannot start {self.words[0]}: {e.strerror or e}") from None
        return self.process

    def _line(self) -> str:
        process = self.process
        assert process is not None and process.stdout is not None
        deadline = time.monotonic() + self.timeout
        with selectors.DefaultSelector() as waiting:
            waiting.register(process.stdout, selectors.EVENT_READ)
            while b"\n" not in self._pending:
                left = deadline - time.monotonic()
                if left <= 0 or not waiting.select(left):
                    self.stop(at_once=True)
                    raise ProgramFailed(f"no answer within {self.timeout:g} s (the program was stopped)")
                chunk = os.read(process.stdout.fileno(), 65536)
                if not chunk:
                    self.stop()
                    raise ProgramFailed("the program ended without an answer")
                self._pending += chunk
                if len(self._pending) > LONGEST_LINE and b"\n" not in self._pending[:LONGEST_LINE + 1]:
                    self.stop()
                    raise ProgramFailed(f"an answer longer than {LONGEST_LINE} bytes")
        line, _, self._pending = self._pending.partition(b"\n")
        try:
            return line.decode("utf-8").strip()
        except UnicodeDecodeError:
            raise ProgramFailed("an answer that is not UTF-8 text") from None

    def stop(self, at_once: bool = False) -> None:
        """End the program: its stdin closed, then killed if it lingers (at once: one that has
        fallen silent is not waited for)."""
        process, self.process = self.process, None
        if process is None:
            return
        if at_once:
            process.kill()
        try:
            if process.stdin is not None:
                process.stdin.close()
        except OSError:
            pass
        try:
            process.wait(GRACE)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()
