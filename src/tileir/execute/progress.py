"""Progress of long launches on a terminal, and clean interruption.

A launch that runs longer than :data:`DELAY` seconds shows one self-overwriting line on
standard error: tile blocks done of the total, the rate and the estimated time left, e.g.
``tileir: matmul  1536/4096 tile blocks  37%  310 blocks/s  0:08 left``.  Nothing is written
when the stream is not a terminal (``isatty()``), or when the caller asks for quiet
(``progress=False``; ``tileir run --quiet``).  The line is erased when the launch ends.

Ctrl-C (``KeyboardInterrupt``) during a launch raises :class:`LaunchInterrupted`, a
``KeyboardInterrupt`` whose message says how far the launch got; the launch's memory is
released as after any error, and the kernel can be launched again.
"""

from __future__ import annotations

import sys
import time
from typing import Optional, TextIO, Union

__all__ = ["Progress", "LaunchInterrupted", "DELAY", "progress_stream"]

#: Seconds a launch runs before its progress line appears.
DELAY = 1.0
#: Seconds between two updates of the line.
INTERVAL = 0.25


class LaunchInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a launch; ``str()`` is a one-line message, ``done``/``total`` count
    tile blocks (the arrays hold whatever the finished blocks stored)."""

    def __init__(self, kernel: str, done: int, total: int) -> None:
        self.kernel, self.done, self.total = kernel, done, total
        super().__init__(f"launch of '{kernel}' interrupted after {done} of {total} tile "
                         f"block{'s' if total != 1 else ''}")

    def __str__(self) -> str:
        return self.args[0]


def progress_stream(progress: Union[bool, None, TextIO]) -> Optional[TextIO]:
    """The terminal stream a launch's ``progress=`` option asks for, or None: ``False`` is
    quiet; ``None``/``True`` mean standard error; a stream object is used as given; in every
    case only when the stream is a terminal."""
    if progress is False:
        return None
    stream = sys.stderr if progress is None or progress is True else progress
    try:
        return stream if stream is not None and stream.isatty() else None
    except (AttributeError, ValueError):      # closed or not a file
        return None


def _clock(seconds: float) -> str:
    s = int(seconds + 0.5)
    if s >= 3600:
        return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"
    return f"{s // 60}:{s % 60:02d}"


class Progress:
    """Counts finished tile blocks of one launch and draws the progress line."""

    __slots__ = ("kernel", "total", "done", "stream", "start", "next_draw", "width")

    def __init__(self, kernel: str, total: int, stream: Optional[TextIO]) -> None:
        self.kernel = kernel
        self.total = total
        self.done = 0
        self.stream = stream
        self.start = time.monotonic()
        self.next_draw = self.start + DELAY
        self.width = 0

    def advance(self, blocks: int) -> None:
        """``blocks`` more tile blocks have finished."""
        self.done += blocks
        if self.stream is not None:
            now = time.monotonic()
            if now >= self.next_draw:
                self.next_draw = now + INTERVAL
                self._draw(now)

    def _draw(self, now: float) -> None:
        elapsed = max(now - self.start, 1e-9)
        rate = self.done / elapsed
        left = f"{_clock((self.total - self.done) / rate)} left" if rate > 0 else "--:-- left"
        pct = 100 * self.done // max(self.total, 1)
        line = (f"tileir: {self.kernel}  {self.done}/{self.total} tile blocks  {pct}%  "
                f"{rate:,.0f} blocks/s  {left}")
        pad = " " * max(0, self.width - len(line))
        self.stream.write("\r" + line + pad)
        self.stream.flush()
        self.width = len(line)

    def close(self) -> None:
        """Erase the line (if one was drawn)."""
        if self.stream is not None and self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0

    def interrupted(self) -> LaunchInterrupted:
        return LaunchInterrupted(self.kernel, self.done, self.total)
