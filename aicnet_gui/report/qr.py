"""QR codes for cable labels: encode once with reportlab's `qrencoder`, draw as one path.

reportlab's `QRCode.make()` builds the whole symbol eight times to score the eight masks and
recomputes the Reed-Solomon generator polynomial for every code; that is its 8-10 ms per code.
`encode()` computes the codewords with cached generators, builds the symbol once with mask 0,
undoes the mask on the data modules and scores all eight masks with numpy, using exactly
reportlab's scoring rules, so it gives the same symbol as `make()` (the tests check this).
`qr_path_ops()` turns the module matrix into PDF operators: one rectangle per run of dark
modules in a row, all filled by one `f`, in integer module coordinates scaled by one `cm`.

A label sheet has tens of thousands of codes: `qr_rects(payloads)` encodes many at once.  Only
the codewords are made code by code; placing the bits, scoring the eight masks of every code,
writing the format information and finding the runs of dark modules are each one numpy pass
over a stack of codes of one version (numpy's cost per call, not per module, was most of the
0.5 ms a code took), and a run's `re` operator is looked up, not formatted.  `encode()` is
`qr_rects`' matrix of one code, so the test against reportlab's `make()` holds both.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
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

    `m` has shape (masks, n, n); the result is one score per mask.  A run of length L >= 5
    holds L - 4 uniform windows of five modules, one of them at the run's start, so its
    L - 2 is the count of uniform windows plus 2 for each uniform window that starts a run.
    """
    same = m[:, 1:, :] == m[:, :-1, :]  # row i equals row i + 1
    uniform = same[:, :-3] & same[:, 1:-2] & same[:, 2:-1] & same[:, 3:]  # rows i..i+4 equal
    starting = uniform[:, 0].sum(axis=1) + (uniform[:, 1:] & ~same[:, :-4]).sum(axis=(1, 2))
    return uniform.sum(axis=(1, 2)) + 2 * starting


def _rule2(m: np.ndarray) -> np.ndarray:
    a = m[:, 1:, 1:]
    same = (a == m[:, :-1, 1:]) & (a == m[:, 1:, :-1]) & (a == m[:, :-1, :-1])
    return 3 * same.sum(axis=(1, 2))


def _rule3(m: np.ndarray) -> np.ndarray:
    """Finder-like 1011101 0000 patterns along rows (reportlab scores rows only: its column
    pass compares tuples with a list), 40 each; the pattern cannot overlap itself, so
    reportlab's skip past a match changes no count."""
    n = m.shape[2]
    width = len(_RULE3)
    starts = n - width  # reportlab's loop stops before the last start position
    if starts <= 0:
        return np.zeros(m.shape[0], dtype=np.int64)
    found = np.ones((m.shape[0], m.shape[1], starts), dtype=bool)
    for offset, dark in enumerate(_RULE3.tolist()):
        window = m[:, :, offset:offset + starts]
        found &= window if dark else ~window
    return 40 * found.sum(axis=(1, 2))


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
_TEMPLATES: dict[tuple[int, int], _Version] = {}


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


@dataclass(frozen=True, slots=True)
class _Version:
    """What every symbol of one version and level shares: the function patterns (format and
    version information blank, as reportlab scores the masks), where the data bits go in
    order, and per mask the format (and version) information modules `make()` writes."""

    base: np.ndarray  # (n, n) function patterns, data positions False
    data: np.ndarray  # (n, n) True where data bits go
    rows: np.ndarray  # data positions in placement order
    cols: np.ndarray
    info_rows: np.ndarray  # the modules setupTypeInfo / setupTypeNumber write
    info_cols: np.ndarray
    info: np.ndarray  # (8, len(info_rows)) their values per mask


def _written(write: Callable[[qrencoder.QRCode], None], n: int, version: int,
             level: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rows, cols, values) of the modules `write(code)` sets: run on an all-dark and an
    all-light matrix, a module it sets is equal in both afterwards."""
    results = []
    for fill in (False, True):
        probe = qrencoder.QRCode(version, level)
        probe.moduleCount = n
        probe.modules = [[fill] * n for _ in range(n)]
        write(probe)
        results.append(np.array(probe.modules, dtype=bool))
    rows, cols = np.nonzero(results[0] == results[1])
    return rows, cols, results[0][rows, cols]


def _version(version: int, level: int) -> _Version:
    cached = _TEMPLATES.get((version, level))
    if cached is None:
        n = version * 4 + 17
        probe = qrencoder.QRCode(version, level)
        probe.addData("0")
        probe.makeImpl(True, 0)  # function patterns; type info blank in test mode
        positions = probe.dataPosIterator()
        rows = np.array([row for _, row in positions], dtype=np.intp)
        cols = np.array([col for col, _ in positions], dtype=np.intp)
        data = np.zeros((n, n), dtype=bool)
        data[rows, cols] = True
        base = np.array(probe.modules, dtype=bool) & ~data
        per_mask = []
        for mask in range(8):
            def write(code: qrencoder.QRCode, mask: int = mask) -> None:
                code.setupTypeInfo(False, mask)
                if version >= 7:
                    code.setupTypeNumber(False)
            per_mask.append(_written(write, n, version, level))
        info_rows, info_cols, _values = per_mask[0]
        if any(not (np.array_equal(r, info_rows) and np.array_equal(c, info_cols))
               for r, c, _v in per_mask):
            raise ValueError("QR format information moves with the mask")
        cached = _TEMPLATES[(version, level)] = _Version(
            base, data, rows, cols, info_rows, info_cols, np.stack([v for _r, _c, v in per_mask]))
    return cached


def _symbols(version: int, level: int, codewords: list[list[int]]) -> np.ndarray:
    """The finished symbols (k, n, n) of codes of one version: data placed, the mask with
    the fewest lost points (the first on a tie, as reportlab) applied, format info written."""
    shape = _version(version, level)
    bits = np.unpackbits(np.array(codewords, dtype=np.uint8), axis=1).astype(bool)
    count = min(bits.shape[1], len(shape.rows))
    unmasked = np.repeat(shape.base[None, :, :], len(codewords), axis=0)
    unmasked[:, shape.rows[:count], shape.cols[:count]] = bits[:, :count]
    n = shape.base.shape[0]
    masks_on = _masks(n) & shape.data[None, :, :]
    best = np.empty(len(codewords), dtype=np.intp)
    for start in range(0, len(codewords), _SCORED_AT_ONCE):
        part = unmasked[start:start + _SCORED_AT_ONCE]
        masked = (part[:, None, :, :] ^ masks_on[None, :, :, :]).reshape(-1, n, n)
        best[start:start + len(part)] = np.argmin(_lost_points(masked).reshape(len(part), 8),
                                                  axis=1)
    symbols = unmasked ^ masks_on[best]
    symbols[:, shape.info_rows, shape.info_cols] = shape.info[best]
    return symbols


_SCORED_AT_ONCE = 256  # codes whose eight masks are scored in one pass (~20 MB of work arrays)


def encode_many(payloads: Sequence[str], level: str = "M") -> list[np.ndarray]:
    """The module matrices [row, col] (True = dark) of the QR symbols of `payloads`, in order:
    what reportlab's `make()` builds for each."""
    ecl = _LEVELS[level]
    by_version: dict[int, list[int]] = defaultdict(list)
    words: list[list[int]] = []
    for index, payload in enumerate(payloads):
        code = qrencoder.QRCode(None, ecl)
        code.addData(payload)
        version = code.calculate_version()
        by_version[version].append(index)
        words.append(_codewords(version, ecl, code.dataList))
    out: list[np.ndarray] = [np.zeros((0, 0), dtype=bool)] * len(payloads)
    for version, indices in by_version.items():
        for index, symbol in zip(indices, _symbols(version, ecl, [words[i] for i in indices]),
                                 strict=True):
            out[index] = symbol
    return out


def encode(payload: str, level: str = "M") -> list[list[bool]]:
    """The module matrix [row][col] of the QR symbol for `payload` (True = dark)."""
    return encode_many([payload], level)[0].tolist()


@lru_cache(maxsize=16)
def _rect_table(n: int, quiet: int) -> np.ndarray:
    """`re` operators of every run a row of an n-module symbol can hold, indexed by
    (row * n + first column) * (n + 1) + width."""
    return np.array([f"{c + quiet} {n - 1 - r + quiet} {w} 1 re"
                     for r in range(n) for c in range(n) for w in range(n + 1)], dtype=object)


def _runs(symbols: np.ndarray, quiet: int) -> list[str]:
    """Per symbol of the stack (k, n, n): its dark runs as `re` operators joined by spaces."""
    k, n, _ = symbols.shape
    padded = np.zeros((k, n, n + 2), dtype=np.int8)
    padded[:, :, 1:-1] = symbols
    edges = np.diff(padded, axis=2)
    which, rows, starts = np.nonzero(edges == 1)
    ends = np.nonzero(edges == -1)[2]
    table = _rect_table(n, quiet)[(rows * n + starts) * (n + 1) + (ends - starts)]
    bounds = np.searchsorted(which, np.arange(k + 1)).tolist()
    return [" ".join(table[a:b].tolist()) for a, b in itertools.pairwise(bounds)]


def qr_rects(payloads: Sequence[str], level: str = "M", quiet: int = 0) -> list[tuple[int, str]]:
    """(modules per side, the dark runs as `re` operators in module units) of each payload's
    QR symbol, in order; `place_qr` puts one on a page."""
    symbols = encode_many(payloads, level)
    out: list[tuple[int, str]] = [(0, "")] * len(payloads)
    by_size: dict[int, list[int]] = defaultdict(list)
    for index, symbol in enumerate(symbols):
        by_size[symbol.shape[0]].append(index)
    for n, indices in by_size.items():
        for index, rects in zip(indices, _runs(np.stack([symbols[i] for i in indices]), quiet),
                                strict=True):
            out[index] = (n, rects)
    return out


def place_qr(modules: int, rects: str, x: float, y: float, size: float, quiet: int = 0) -> str:
    """PDF operators filling a symbol's dark runs (`qr_rects`) inside the square (x, y, size):
    its module grid scaled by one `cm`, one `f`."""
    scale = size / (modules + 2 * quiet)
    return f"q 0 g {scale:.4f} 0 0 {scale:.4f} {x:.2f} {y:.2f} cm {rects} f Q"


def qr_path_ops(modules: list[list[bool]], x: float, y: float, size: float,
                quiet: int = 0) -> str:
    """PDF operators filling the QR's dark modules inside the square (x, y, size): one
    rectangle per run of dark modules in a row, integer module coordinates, one `f`."""
    grid = np.asarray(modules, dtype=bool)
    return place_qr(grid.shape[0], _runs(grid[None, :, :], quiet)[0], x, y, size, quiet)
