"""QR symbols (same as reportlab's encoder, drawn as one path) and label-grid parsing."""

from __future__ import annotations

import pytest
from reportlab.graphics.barcode import qrencoder

from aicnet_gui.report.label_layout import AVERY_5160, AVERY_L7651, label_rects, parse_custom_stock
from aicnet_gui.report.qr import encode, qr_path_ops

PAYLOADS = [
    "C000001|1A.A01-40:3|1A.A02-20:p1;1A.A02-21:p1",
    "C012345|+1A.A05.U42:swp3s1|+1A.B02.U10:p1",
    "x",
    "C999999|" + "1A.AB12-48:swp64s3/" * 6,
]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_encode_picks_the_same_symbol_as_reportlab(payload):
    code = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
    code.addData(payload)
    code.make()
    assert encode(payload) == code.modules


def test_qr_path_is_one_fill_of_row_runs():
    modules = [[True, True, False, True], [False, False, False, False],
               [True, False, True, True], [True, True, True, True]]
    ops = qr_path_ops(modules, 10, 20, 40)
    assert ops.count(" re") == 5  # runs: 2+1, 0, 1+1, 1
    assert ops.count(" f ") == 1 and ops.startswith("q 0 g 10.0000 0 0 10.0000 10.00 20.00 cm")
    assert "0 3 2 1 re" in ops  # top row, first run: two modules wide


def test_avery_grids_fill_their_pages_symmetrically():
    for stock in (AVERY_5160, AVERY_L7651):
        stock.check()
        last = label_rects(stock, stock.per_page)[-1]
        right = stock.page_w - (last.x + last.w)
        assert right == pytest.approx(stock.left, abs=0.01)
        assert last.y == pytest.approx(stock.top, abs=0.01)  # bottom margin = top margin
    assert AVERY_5160.per_page == 30 and AVERY_L7651.per_page == 65


def test_start_offset_moves_to_the_next_sheet():
    placed = label_rects(AVERY_5160, 3, start=29)
    assert [(p.page, p.slot) for p in placed] == [(0, 29), (1, 0), (1, 1)]
    with pytest.raises(ValueError, match="0..29"):
        label_rects(AVERY_5160, 1, start=30)


def test_custom_grid_units_and_errors():
    inches = parse_custom_stock("cols=3,rows=10,w=2.625,h=1,left=0.1875,top=0.5,px=2.75,py=1,"
                                "page=letter,unit=in")
    assert (inches.label_w, inches.pitch_x, inches.left) == (189.0, 198.0, 13.5)
    with pytest.raises(ValueError, match="overlap"):
        parse_custom_stock("cols=2,rows=1,w=50,h=20,left=5,top=5,px=40")
    with pytest.raises(ValueError, match="'wide=3' is not one of"):
        parse_custom_stock("cols=2,wide=3")
    with pytest.raises(ValueError, match="rows='x' is not a whole number"):
        parse_custom_stock("cols=2,rows=x,w=50,h=20,left=5,top=5")
