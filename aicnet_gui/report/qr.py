"""QR codes for cable labels: encode once with reportlab's `qrencoder`, draw as one path.

reportlab's `QRCode.make()` builds the whole symbol eight times to score the eight masks and
recomputes the Reed-Solomon generator polynomial for every code; that is its 8-10 ms per code.
`encode()` computes the codewords with cached generators, builds the symbol once with mask 0,
undoes the mask on the data modules and scores all eight masks with numpy, using exactly
reportlab's scoring rules, so it gives the same symbol as `make()` (the tests check this).
`qr_path_ops()` turns the module matrix into PDF operators: one rectangle per run of dark
modules in a row, all filled by one `f`, in integer module coordinates scaled by one `cm`.
"""

from __future__ import annotations

from itertools import zip_longest

import numpy as np
from reportlab.graphics.barcode import qrencoder

_LEVELS = {
    "L": qrencoder.QRErrorCorrectLevel.L,
    "M": qrencoder.QRErrorCorrectLevel.M,
    "Q": qrencoder.QRErrorCorrectLevel.Q,
    "H": qrencoder.QRErrorCorrectLevel.H,
}
_RULE3 = np.array([1, 0, 1, 1, 1, 0, 1, 0, 0, 0, 0], dtype=bool)
_MASK_CACHE: dict[int, np.ndarray] = {}


def _masks(n: int) -> np.ndarray:
    """The eight mask patterns of an n x n symbol, shape (8, n, n), [row, col]."""
    cached = _MASK_CACHE.get(n)
    if cached is None:
        i, j = np.indices((n, n))
        cached = np.stack([
            (i + j) % 2 == 0,
            i % 2 == 0,
            j % 3 == 0,
            (i + j) % 3 == 0,
            (i // 2 + j // 3) % 2 == 0,
            (i * j) % 2 + (i * j) % 3 == 0,
            ((i * j) % 2 + (i * j) % 3) % 2 == 0,
            ((i * j) % 3 + (i + j) % 2) % 2 == 0,
        ])
        _MASK_CACHE[n] = cached
    return cached


def _rule1(m: np.ndarray) -> np.ndarray:
    """Runs of 5+ equal modules down each column score run length - 2 (reportlab's rule 1).

    `m` has shape (masks, n, n); the result is one score per mask.
    """
    k, n, cols = m.shape
    change = np.ones((k, n, cols), dtype=np.int64)
    change[:, 1:] = m[:, 1:] != m[:, :-1]
    run_ids = np.cumsum(change, axis=1)  # 1..n within each column
    offsets = (np.arange(k)[:, None, None] * cols + np.arange(cols)[None, None, :]) * (n + 1)
    lengths = np.bincount((run_ids + offsets).ravel(), minlength=k * cols * (n + 1))
    lengths = lengths.reshape(k, cols * (n + 1))
    return np.where(lengths >= 5, lengths - 2, 0).sum(axis=1)


def _rule2(m: np.ndarray) -> np.ndarray:
    a = m[:, 1:, 1:]
    same = (a == m[:, :-1, 1:]) & (a == m[:, 1:, :-1]) & (a == m[:, :-1, :-1])
    return 3 * same.sum(axis=(1, 2))


def _rule3(m: np.ndarray) -> np.ndarray:
    """Finder-like 1011101 0000 patterns along rows (reportlab scores rows only), 40 each."""
    n = m.shape[2]
    width = len(_RULE3)
    starts = n - width  # reportlab's loop stops before the last start position
    if starts <= 0:
        return np.zeros(m.shape[0], dtype=np.int64)
    windows = np.lib.stride_tricks.sliding_window_view(m, width, axis=2)[:, :, :starts]
    return 40 * np.all(windows == _RULE3, axis=3).sum(axis=(1, 2))


def _rule4(m: np.ndarray) -> np.ndarray:
    cells = m.shape[1] * m.shape[2]
    dark = m.sum(axis=(1, 2)).astype(np.int64)
    return 10 * (np.abs(100 * dark // cells - 50) // 5)


def _lost_points(m: np.ndarray) -> np.ndarray:
    """reportlab's `QRUtil.getLostPoint` for each of the stacked symbols in `m`."""
    return _rule1(m) + _rule1(m.transpose(0, 2, 1)) + _rule2(m) + _rule3(m) + _rule4(m)


_EXP = qrencoder.EXP_TABLE
_LOG = qrencoder.LOG_TABLE
_ECC_TABLES: dict[int, list[int]] = {}
_TEMPLATES: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}


class _Bits:
    """`QRBitBuffer`'s interface (what the QR data classes call) on one Python int."""

    __slots__ = ("value", "length")

    def __init__(self) -> None:
        self.value = 0
        self.length = 0

    def put(self, num: int, length: int) -> None:
        self.value = (self.value << length) | (num & ((1 << length) - 1))
        self.length += length

    def putBit(self, bit: bool) -> None:  # noqa: N802 - reportlab's name
        self.put(1 if bit else 0, 1)

    def getLengthInBits(self) -> int:  # noqa: N802 - reportlab's name
        return self.length

    def to_bytes(self) -> list[int]:
        return list((self.value << (-self.length % 8)).to_bytes((self.length + 7) // 8, "big"))


def _ecc_table(ec_count: int) -> list[int]:
    """For each byte c: c times reportlab's generator (without its leading 1) as one int."""
    table = _ECC_TABLES.get(ec_count)
    if table is None:
        generator = qrencoder.QRUtil.getErrorCorrectPolynomial(ec_count).num
        if generator[0] != 1 or len(generator) != ec_count + 1:
            raise ValueError(f"unexpected QR generator polynomial for {ec_count} ECC bytes")
        table = [0]
        for c in range(1, 256):
            products = bytes(_EXP[(_LOG[g] + _LOG[c]) % 255] if g else 0 for g in generator[1:])
            table.append(int.from_bytes(products, "big"))
        _ECC_TABLES[ec_count] = table
    return table


def _ecc(data: list[int], ec_count: int) -> list[int]:
    """Reed-Solomon ECC bytes of one block (shift-register division by the generator)."""
    table = _ecc_table(ec_count)
    top = 8 * (ec_count - 1)
    mask = (1 << (8 * ec_count)) - 1
    rem = 0
    for byte in data:
        coef = byte ^ (rem >> top)
        rem = (rem << 8) & mask
        if coef:
            rem ^= table[coef]
    return list(rem.to_bytes(ec_count, "big"))


def _codewords(version: int, level: int, data_list: list) -> list[int]:
    """The same bytes as `QRCode.createData`: data, terminator, padding, interleaved ECC."""
    blocks = qrencoder.QRRSBlock.getRSBlocks(version, level)
    bits = _Bits()
    for data in data_list:
        data.write(bits, version)
    total = sum(block.dataCount for block in blocks) * 8
    if bits.length > total:
        raise ValueError(f"QR payload too long ({bits.length} > {total} bits)")
    if bits.length + 4 <= total:
        bits.put(0, 4)
    buffer = bits.to_bytes()
    pads = (qrencoder.QRCode.PAD0, qrencoder.QRCode.PAD1)
    buffer += [pads[i % 2] for i in range(total // 8 - len(buffer))]
    offset = 0
    dcdata, ecdata = [], []
    for block in blocks:
        dc = buffer[offset:offset + block.dataCount]
        offset += block.dataCount
        dcdata.append(dc)
        ecdata.append(_ecc(dc, block.totalCount - block.dataCount))
    return [d for group in (zip_longest(*dcdata), zip_longest(*ecdata)) for column in group
            for d in column if d is not None]


class _Code(qrencoder.QRCode):
    """reportlab's QR encoder, fast: the function patterns and data positions of a version are
    built once; each code only places its bits and scores the eight masks with numpy."""

    def _template(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        cached = _TEMPLATES.get(self.version)
        if cached is None:
            n = self.version * 4 + 17
            probe = qrencoder.QRCode(self.version, self.errorCorrectLevel)
            probe.addData("0")
            probe.makeImpl(True, 0)  # function patterns; type info blank in test mode
            positions = probe.dataPosIterator()
            rows = np.array([row for _, row in positions], dtype=np.intp)
            cols = np.array([col for col, _ in positions], dtype=np.intp)
            data = np.zeros((n, n), dtype=bool)
            data[rows, cols] = True
            base = np.array(probe.modules, dtype=bool) & ~data
            cached = _TEMPLATES[self.version] = (base, data, rows, cols)
        return cached

    def make(self) -> None:
        if self.version is None:
            self.version = self.calculate_version()
        codewords = _codewords(self.version, self.errorCorrectLevel, self.dataList)
        base, data, rows, cols = self._template()
        bits = np.unpackbits(np.array(codewords, dtype=np.uint8)).astype(bool)
        unmasked = base.copy()
        count = min(len(bits), len(rows))
        unmasked[rows[:count], cols[:count]] = bits[:count]
        masks = _masks(base.shape[0])
        best = int(np.argmin(_lost_points(unmasked[None, :, :] ^ (masks & data[None, :, :]))))
        self.dataCache = codewords
        self.moduleCount = base.shape[0]
        self.modules = (unmasked ^ (masks[best] & data)).tolist()
        self.setupTypeInfo(False, best)
        if self.version >= 7:
            self.setupTypeNumber(False)


def encode(payload: str, level: str = "M") -> list[list[bool]]:
    """The module matrix [row][col] of the QR symbol for `payload` (True = dark)."""
    code = _Code(None, _LEVELS[level])
    code.addData(payload)
    code.make()
    return code.modules


def qr_path_ops(modules: list[list[bool]], x: float, y: float, size: float,
                quiet: int = 0) -> str:
    """PDF operators filling the QR's dark modules inside the square (x, y, size): one
    rectangle per run of dark modules in a row, integer module coordinates, one `f`."""
    grid = np.asarray(modules, dtype=np.int8)
    n = grid.shape[0]
    scale = size / (n + 2 * quiet)
    padded = np.zeros((n, n + 2), dtype=np.int8)
    padded[:, 1:-1] = grid
    edges = np.diff(padded, axis=1)
    start_rows, start_cols = np.nonzero(edges == 1)
    _, end_cols = np.nonzero(edges == -1)
    tops = (n - 1 - start_rows + quiet).tolist()
    lefts = (start_cols + quiet).tolist()
    widths = (end_cols - start_cols).tolist()
    rects = " ".join(f"{c} {t} {w} 1 re" for c, t, w in zip(lefts, tops, widths, strict=True))
    return f"q 0 g {scale:.4f} 0 0 {scale:.4f} {x:.2f} {y:.2f} cm {rects} f Q"
