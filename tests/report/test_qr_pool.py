"""QR codes of many labels at once and in worker processes (issue 38): the same symbols as
reportlab's own encoder, the same pages as one process writes."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader
from reportlab import rl_config
from reportlab.graphics.barcode import qrencoder

from aicnet_gui.report import ExportOptions, export_pdf, qr_pool
from aicnet_gui.report.qr import encode_many, qr_path_ops, qr_rects
from aicnet_gui.report.qr_pool import LabelQr

ROOT = Path(__file__).resolve().parents[2]


def _payloads(count: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789:-/|.;+ é"
    return ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 150)))
            for _ in range(count)]


def test_many_codes_at_once_are_reportlabs_symbols():
    """Every version a label's payload reaches, numeric, alphanumeric and byte modes."""
    payloads = [*_payloads(150), "12345", "HELLO WORLD", "C000001|1A.A01-32:p1|1A.A05-39:2-2"]
    for payload, symbol in zip(payloads, encode_many(payloads), strict=True):
        code = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
        code.addData(payload)
        code.make()
        assert symbol.tolist() == code.modules, payload


def test_runs_of_many_codes_are_the_path_of_each():
    payloads = _payloads(40, seed=3)
    for (modules, rects), symbol in zip(qr_rects(payloads, quiet=1), encode_many(payloads),
                                        strict=True):
        ops = qr_path_ops(symbol.tolist(), 5, 6, 50, quiet=1)
        assert modules == len(symbol) and f"cm {rects} f Q" in ops


@pytest.fixture
def small_runs(monkeypatch):
    """Workers for a run of a few dozen codes, in chunks of 7."""
    monkeypatch.setattr(qr_pool, "PARALLEL_MIN", 10)
    monkeypatch.setattr(qr_pool, "CHUNK", 7)


def test_workers_hand_out_the_codes_in_order(small_runs):
    payloads = _payloads(60, seed=11)
    with LabelQr(payloads, workers=2) as codes:
        assert codes.parallel
        got = [code for count in (5, 1, 13, 30, 20) for code in codes.take(count)]
    assert got == qr_rects(payloads)


def test_a_dead_worker_leaves_its_codes_to_this_process(small_runs):
    payloads = _payloads(60, seed=5)
    with LabelQr(payloads, workers=2) as codes:
        first = codes.take(3)
        for worker in codes._workers:
            worker.process.kill()
        rest = codes.take(100)
    assert first + rest == qr_rects(payloads)


def test_an_error_in_a_worker_is_the_error_of_one_process(small_runs):
    payloads = ["x" * 4000] + _payloads(20)  # too long for any QR version
    with pytest.raises(ValueError), LabelQr(payloads, workers=2) as codes:
        codes.take(5)


def test_the_plan_pdf_with_workers_is_the_one_process_pdf(small, tmp_path, monkeypatch):
    """Byte for byte, and so the same pages: text, order, page numbers, outline."""
    monkeypatch.setattr(rl_config, "invariant", 1)
    options = ExportOptions(sections=("cover", "schedule", "labels"))
    alone, parallel = tmp_path / "alone.pdf", tmp_path / "parallel.pdf"
    monkeypatch.setattr(qr_pool, "PARALLEL_MIN", 10**9)
    export_pdf(small, alone, options)
    monkeypatch.setattr(qr_pool, "PARALLEL_MIN", 10)
    monkeypatch.setattr(qr_pool, "CHUNK", 16)
    started: list[qr_pool._Worker] = []
    worker = qr_pool._Worker

    def counted() -> qr_pool._Worker:
        started.append(worker())
        return started[-1]

    monkeypatch.setattr(qr_pool, "_Worker", counted)
    export_pdf(small, parallel, options)
    assert parallel.read_bytes() == alone.read_bytes()
    one, two = PdfReader(alone), PdfReader(parallel)
    assert len(one.pages) == len(two.pages) > 3
    assert [p.extract_text() for p in one.pages] == [p.extract_text() for p in two.pages]
    assert _titles(one.outline) == _titles(two.outline) and "Cable schedule" in _titles(one.outline)
    assert started and all(w.process.returncode == 0 for w in started)  # the workers made the codes


def _titles(outline: list) -> list[str]:
    return [t for item in outline
            for t in (_titles(item) if isinstance(item, list) else [item.title])]


def test_a_script_without_a_main_guard_exports_once(tmp_path):
    """Workers are `python -m aicnet_gui.report.qr_worker`, never a re-run of the caller; they
    print nothing (a module run twice would make Python warn on stderr)."""
    script = tmp_path / "export.py"
    script.write_text(
        "from aicnet_gui.catalog.loader import builtin_catalog\n"
        "from aicnet_gui.fileio import load_fabric\n"
        "from aicnet_gui.report import ExportOptions, export_pdf, qr_pool\n"
        "qr_pool.PARALLEL_MIN = 10\n"
        f"doc = load_fabric({str(ROOT / 'examples' / 'small-hgx.fabric')!r}, builtin_catalog())\n"
        f"export_pdf(doc, {str(tmp_path / 'out.pdf')!r}, ExportOptions(sections=('labels',)))\n"
        "print('exported')\n", encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          cwd=tmp_path, check=True)
    assert done.stdout.split() == ["exported"] and not done.stderr
