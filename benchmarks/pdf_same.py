"""Are two plan PDFs the same pages?  For the 4,096-server plan written before and after a change
(issue 38: the label QR codes in worker processes must change no page).

1. the bytes, with the creation and modification dates and the document id masked (what
   reportlab stamps per run): equal bytes are equal pages;
2. with pypdf: the page count, the outline (titles and the page each points at), the link
   annotations of every page, and the text of every `--every`-th page (pypdf reads ~20 pages a
   second; all 8,154 pages take minutes: `--every 1` for all).

    .venv/bin/python benchmarks/pdf_same.py BEFORE.pdf AFTER.pdf [--every 50]
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from pypdf import PdfReader

_STAMPS = re.compile(rb"/(CreationDate|ModDate) \(D:[^)]*\)|/ID\s*\[[^\]]*\]")


def _masked(path: Path) -> bytes:
    return _STAMPS.sub(b"", path.read_bytes())


def _outline(reader: PdfReader, items: list | None = None) -> list[tuple[str, int]]:
    found: list[tuple[str, int]] = []
    for item in reader.outline if items is None else items:
        if isinstance(item, list):
            found += _outline(reader, item)
        else:
            found.append((item.title, reader.get_destination_page_number(item)))
    return found


def _links(page) -> list[object]:  # noqa: ANN001
    annotations = page.get("/Annots") or []
    return [dict(a.get_object()) for a in annotations]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--every", type=int, default=50, help="compare the text of every N-th page")
    args = parser.parse_args()
    same_bytes = _masked(args.before) == _masked(args.after)
    print(f"bytes (dates and id masked): {'the same' if same_bytes else 'DIFFERENT'}")
    one, two = PdfReader(args.before), PdfReader(args.after)
    problems = []
    if len(one.pages) != len(two.pages):
        problems.append(f"pages {len(one.pages)} against {len(two.pages)}")
    if _outline(one) != _outline(two):
        problems.append("the outline differs")
    for number, (a, b) in enumerate(zip(one.pages, two.pages, strict=False)):
        if _links(a) != _links(b):
            problems.append(f"page {number + 1}: the links differ")
        if number % args.every == 0 and a.extract_text() != b.extract_text():
            problems.append(f"page {number + 1}: the text differs")
    print(f"pypdf: {len(one.pages)} pages, {len(_outline(one))} outline entries; "
          + ("the same" if not problems else "; ".join(problems[:10])))
    sys.exit(0 if same_bytes and not problems else 1)


if __name__ == "__main__":
    main()
