"""The QR codes of a run of labels, made ahead of the label pages, in worker processes when
there are many.

A cabling plan of 4,096 servers prints 196,608 labels; encoding their QR codes was most of the
export's two minutes on one core.  `LabelQr(payloads)` hands the label sheets the codes in
label order (`take(count)`, a page at a time).  From `PARALLEL_MIN` codes on it keeps chunks
of `CHUNK` codes being encoded by one worker process per core, at most `AHEAD` chunks per
worker ahead of the page being drawn (finished chunks wait in memory: a bounded window, not the
whole plan).  Below that, each page's codes are encoded here as the page is drawn.  Either way
a code is `qr.qr_rects` of its payload, so the pages are the same byte for byte.

A worker is `python -m aicnet_gui.report.qr_worker`: a fresh interpreter (never a fork of the
editor's threads) that reads chunks of payloads on stdin and writes their codes on stdout,
`marshal`led (strings and numbers between two processes of the same interpreter) behind a
length.  Unlike `multiprocessing`'s spawn it never re-runs the caller's main script, so a
script without an `if __name__ == "__main__"` guard does not export three times.  Whatever
goes wrong with a worker (it cannot start, dies, or a code fails there), the chunk is encoded
here instead, so an error is the one the export would raise without workers.
"""

from __future__ import annotations

import contextlib
import marshal
import queue
import struct
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Sequence
from typing import BinaryIO

from ..spawned import cores_for_this_process, python_command
from .qr import qr_rects

PARALLEL_MIN = 4_000  # fewer codes are quicker here than starting the workers (~0.3 s)
CHUNK = 2_048  # codes per request: ~5 MB of result, ~0.25 s of work
AHEAD = 2  # requests per worker being encoded or waiting
_LENGTH = struct.Struct("<Q")
WORKER_MODULE = "aicnet_gui.report.qr_worker"  # no module of the package imports it
Codes = list[tuple[int, str]]


def worker_count() -> int:
    """Worker processes for a big run: every core this process may use."""
    return cores_for_this_process()


def _send(stream: BinaryIO, value: object) -> None:
    data = marshal.dumps(value)
    stream.write(_LENGTH.pack(len(data)))
    stream.write(data)
    stream.flush()


def _read_exactly(stream: BinaryIO, size: int) -> bytes | None:
    data = stream.read(size)
    return data if data is not None and len(data) == size else None


def _receive(stream: BinaryIO) -> object | None:
    """The next value, or None at the end of the stream."""
    head = _read_exactly(stream, _LENGTH.size)
    if head is None:
        return None
    body = _read_exactly(stream, _LENGTH.unpack(head)[0])
    return None if body is None else marshal.loads(body)


class _Worker:
    """One encoder process and the thread that hands it requests one at a time, in order."""

    def __init__(self) -> None:
        command, env = python_command(WORKER_MODULE)
        self.process = subprocess.Popen(  # noqa: S603 - our own module, this interpreter
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        self.requests: queue.SimpleQueue[tuple[str, list[str]] | None] = queue.SimpleQueue()
        self.results: queue.SimpleQueue[Codes | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._serve, name="aicnet-qr", daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        broken = False
        while (request := self.requests.get()) is not None:
            answer = None
            if not broken:
                try:
                    _send(self.process.stdin, request)
                    answer = _receive(self.process.stdout)
                except (OSError, ValueError, EOFError):
                    answer = None
                broken = not isinstance(answer, list)
            self.results.put(answer if isinstance(answer, list) else None)
        for stream in (self.process.stdin, self.process.stdout):
            with contextlib.suppress(OSError):
                stream.close()

    def stop(self, kill: bool) -> None:
        if kill:
            self.process.kill()
        self.requests.put(None)
        self.thread.join()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class LabelQr:
    """The QR codes (`qr.qr_rects`: modules per side, dark runs) of `payloads`, in order."""

    def __init__(self, payloads: Sequence[str], level: str = "M",
                 workers: int | None = None) -> None:
        self.payloads = payloads
        self.level = level
        self._ready: deque[tuple[int, str]] = deque()
        self._done = 0  # payloads whose codes are handed out or in _ready
        self._sent = 0  # payloads[_done:_sent] are with the workers, in CHUNKs
        self._chunks: deque[tuple[_Worker, int, int]] = deque()  # (worker, start, end) in order
        self._workers: list[_Worker] = []
        count = worker_count() if workers is None else workers
        if len(payloads) >= PARALLEL_MIN and count > 1 and not getattr(sys, "frozen", False):
            try:
                for _ in range(count):
                    self._workers.append(_Worker())
            except OSError:  # no worker process here: every code is made in this one
                self._stop(kill=True)

    @property
    def parallel(self) -> bool:
        return bool(self._workers)

    def take(self, count: int) -> Codes:
        """The next `count` codes (fewer at the end of the payloads)."""
        self._request()
        while len(self._ready) < count and self._chunks:
            self._collect()
        missing = min(count - len(self._ready), len(self.payloads) - self._done)
        if missing > 0:  # a small run: this page's codes here
            self._ready.extend(qr_rects(self.payloads[self._done:self._done + missing],
                                        self.level))
            self._done += missing
            self._sent = max(self._sent, self._done)
        taken = [self._ready.popleft() for _ in range(min(count, len(self._ready)))]
        self._request()
        return taken

    def _request(self) -> None:
        """Keep every worker's `AHEAD` requests in hand."""
        if not self._workers:
            return
        while (len(self._chunks) < AHEAD * len(self._workers)
               and self._sent < len(self.payloads)):
            worker = self._workers[(self._sent // CHUNK) % len(self._workers)]
            end = min(self._sent + CHUNK, len(self.payloads))
            worker.requests.put((self.level, list(self.payloads[self._sent:end])))
            self._chunks.append((worker, self._sent, end))
            self._sent = end

    def _collect(self) -> None:
        worker, start, end = self._chunks.popleft()
        codes = worker.results.get()
        if codes is None or len(codes) != end - start:  # the worker failed: made here
            codes = qr_rects(self.payloads[start:end], self.level)
        self._ready.extend(codes)
        self._done = end

    def _stop(self, kill: bool) -> None:
        workers, self._workers = self._workers, []
        for worker in workers:
            worker.stop(kill)
        self._chunks.clear()
        self._sent = self._done

    def close(self) -> None:
        """Stop the workers: at once when codes are still owed (the export was cancelled)."""
        self._stop(kill=bool(self._chunks))

    def __enter__(self) -> LabelQr:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def serve_requests(source: BinaryIO, sink: BinaryIO) -> None:
    """The worker's loop: (level, payloads) in, their codes out, until the input ends."""
    while (request := _receive(source)) is not None:
        level, payloads = request  # type: ignore[misc]
        try:
            _send(sink, qr_rects(payloads, level))
        except Exception:  # noqa: BLE001 - the parent encodes this chunk and raises it there
            _send(sink, None)
