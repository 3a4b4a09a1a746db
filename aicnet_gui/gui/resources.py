"""Icons of the editor: SVG files in `resources/icons`, found from a checkout or a wheel."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QIcon, QImage, QPainter, QPixmap
from PySide6.QtSvg import QSvgRenderer

from ..paths import data_dir


def icons_dir() -> Path:
    return data_dir("resources") / "icons"


def icon_path(name: str) -> Path:
    return icons_dir() / f"{name}.svg"


@cache
def icon(name: str) -> QIcon:
    """The icon `name` (file `resources/icons/<name>.svg`); an empty icon if it is missing."""
    path = icon_path(name)
    return QIcon(str(path)) if path.is_file() else QIcon()


@cache
def _renderer(name: str) -> QSvgRenderer | None:
    path = icon_path(name)
    if not path.is_file():
        return None
    renderer = QSvgRenderer(str(path))
    return renderer if renderer.isValid() else None


@cache
def pixmap(name: str, size: int, ratio: float = 1.0) -> QPixmap:
    """The icon rendered once at `size` logical pixels for a device pixel ratio."""
    side = max(1, round(size * ratio))
    image = QImage(QSize(side, side), QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    renderer = _renderer(name)
    if renderer is not None:
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter, QRectF(0, 0, side, side))
        painter.end()
    result = QPixmap.fromImage(image)
    result.setDevicePixelRatio(ratio)
    return result


def app_icon() -> QIcon:
    path = data_dir("resources") / "aicnet.svg"
    return QIcon(str(path)) if path.is_file() else QIcon()
