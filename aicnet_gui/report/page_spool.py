"""Keep finished PDF pages out of memory: each page's content stream is compressed and written to
a temporary spool file as soon as the page is done, and read back only while the file is saved.

reportlab's `Canvas` keeps the content of every page as one uncompressed string until `save()`
(and then ASCII85-encodes it on top of the compression); an 8,000-page cabling plan held more
than a gigabyte that way.  `PageSpool.take(canvas)` is called after each `showPage()`: it swaps
the page's text for a `SpooledStream` that knows where its compressed bytes are.  What stays in
memory per page is a small page dictionary.

`save_streaming(canvas, out)` then writes the file object by object to `out` instead of
joining the whole file in memory first (reportlab's `PDFFile` collects every formatted object
and returns them as one string): the xref offsets are counted as the bytes go out.

Compressing is most of the time a big plan's pages take to write (608 MB of label-sheet text
into 64 MB for 4,096 servers), and zlib works without Python's lock: `take` hands each page to
a compressing thread (`PageSpool(threads=N)`) and goes on drawing; the pages are written to the
spool in their order, at most `IN_FLIGHT` of them waiting, and `flush()` (before the file is
saved) waits for the last.  The bytes are those one thread would write.

This uses reportlab's page objects (`canvas._doc.Pages.pages`, `PDFPage.stream/Contents`,
`PDFStream`), stable since reportlab 3; when they are not as expected the page is left alone
(it is then written as before, only kept in memory).
"""

from __future__ import annotations

import tempfile
import threading
import zlib
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from typing import IO, Any

from reportlab.pdfbase import pdfdoc
from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFStream

IN_FLIGHT = 8  # pages handed to the compressing threads and not yet in the spool


class SpooledStream(PDFStream):
    """A page content stream whose Flate-compressed bytes lie in the spool file (`offset` is
    set when `owner` has written them there)."""

    def __init__(self, spool: IO[bytes], offset: int, length: int,
                 owner: PageSpool | None = None) -> None:
        dictionary = PDFDictionary()
        dictionary["Filter"] = PDFArray([PDFName("FlateDecode")])  # already applied: not again
        super().__init__(dictionary, None, None)
        self.spool, self.offset, self.length = spool, offset, length
        self.owner = owner
        self.__Comment__ = "page stream"

    def format(self, document: Any) -> bytes:  # noqa: ANN401 (reportlab's document)
        if self.offset < 0 and self.owner is not None:
            self.owner.flush()  # saved by another way than PdfWriter.finish
        self.spool.seek(self.offset)
        self.content = self.spool.read(self.length)
        try:
            return super().format(document)
        finally:
            self.content = None


class PageSpool:
    """The temporary file that holds the compressed content of the finished pages."""

    def __init__(self, threads: int = 0) -> None:
        self.file: IO[bytes] = tempfile.TemporaryFile(prefix="aicnet-pages-")  # noqa: SIM115 (closed by close())
        self.pages = 0
        self.bytes = 0
        self._compressing: deque[tuple[SpooledStream, Future[bytes]]] = deque()
        self._threads = ThreadPoolExecutor(threads, thread_name_prefix="aicnet-zlib") \
            if threads > 0 else None

    def take(self, canvas: Any) -> bool:  # noqa: ANN401 (reportlab's Canvas)
        """Move the content of the page `showPage()` just finished into the spool."""
        pages = getattr(getattr(getattr(canvas, "_doc", None), "Pages", None), "pages", None)
        if not pages:
            return False
        page = pages[-1]
        stream = getattr(page, "stream", None)
        if not isinstance(stream, str | bytes) or getattr(page, "Contents", None) is not None:
            return False
        raw = stream.encode("utf8") if isinstance(stream, str) else stream
        spooled = SpooledStream(self.file, -1, 0, self)
        page.Contents = spooled
        page.stream = None
        self.pages += 1
        if self._threads is None:
            self._write(spooled, zlib.compress(raw))
        else:
            self._compressing.append((spooled, self._threads.submit(zlib.compress, raw)))
            while len(self._compressing) > IN_FLIGHT or (self._compressing
                                                          and self._compressing[0][1].done()):
                self._write_next()
        return True

    def _write(self, spooled: SpooledStream, data: bytes) -> None:
        self.file.seek(0, 2)
        spooled.offset, spooled.length = self.file.tell(), len(data)
        self.file.write(data)
        self.bytes += len(data)

    def _write_next(self) -> None:
        spooled, future = self._compressing.popleft()
        self._write(spooled, future.result())

    def flush(self) -> None:
        """Write every page still being compressed (before the file is saved)."""
        while self._compressing:
            self._write_next()

    def held(self, canvas: Any) -> int:  # noqa: ANN401
        """Characters of page content still held in memory (0 when every page is spooled)."""
        pages = canvas._doc.Pages.pages
        return sum(len(p.stream) for p in pages if isinstance(getattr(p, "stream", None), str | bytes))

    def close(self) -> None:
        if self._threads is not None:
            self._threads.shutdown(wait=True, cancel_futures=True)
        self._compressing.clear()
        self.file.close()


class _StreamingFile(pdfdoc.PDFFile):
    """reportlab's output collector, writing each piece to `target` as it is added."""

    target: IO[bytes] | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:  # noqa: ANN401
        super().__init__(*args, **kwargs)  # the header goes into self.strings
        out = _StreamingFile.target
        assert out is not None
        for piece in self.strings:
            out.write(piece)
        self.strings = []
        self.write = out.write

    def format(self, document: Any) -> bytes:  # noqa: ANN401
        return b""  # everything is written already


_SAVING = threading.Lock()


@contextmanager
def _streaming_to(out: IO[bytes]) -> Iterator[None]:
    with _SAVING:  # the collector class is a module global of reportlab's
        original = pdfdoc.PDFFile
        _StreamingFile.target = out
        pdfdoc.PDFFile = _StreamingFile
        try:
            yield
        finally:
            pdfdoc.PDFFile = original
            _StreamingFile.target = None


def _collector_as_expected() -> bool:
    """Is reportlab's output collector the one `_StreamingFile` extends (a list of strings
    appended to by `write`)?  Checked before every save, so a reportlab that changed it gets
    its own, non-streaming save instead of a broken file."""
    try:
        probe = pdfdoc.PDFFile()
    except Exception:  # noqa: BLE001 - any failure means "not as expected"
        return False
    strings = getattr(probe, "strings", None)
    return isinstance(strings, list) and getattr(probe, "write", None) == strings.append


def save_streaming(canvas: Any, out: IO[bytes]) -> None:  # noqa: ANN401 (reportlab's Canvas)
    """Write the canvas's document to `out` piece by piece (what `Canvas.save()` does, without
    holding the whole file in memory)."""
    if not _collector_as_expected():
        out.write(canvas.getpdfdata())  # another reportlab: its own save, in memory
        return
    if len(canvas._code):
        canvas.showPage()
    with _streaming_to(out):
        rest = canvas._doc.GetPDFData(canvas)
    if rest:
        out.write(rest.encode("latin1") if isinstance(rest, str) else rest)
