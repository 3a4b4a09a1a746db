"""The one contract by which a canvas mirrors the document: `SceneMirror`, and its layers.

Both canvases show the same document and never hold the truth.  Each has one mirror that turns
the document into graphics and keeps them in step: the Topology's `TopologyMirror`
(topology_mirror.py: device items in tier bands, the batched device and link layers) and the
Floor's `FloorMirror` (floor_mirror.py: racks, devices in their RU slots, the far layer).  Every
mirror answers the same questions, in the same order of events:

- **a new document** (`rebuild`): forget the old items, build the new ones from what the mirror
  is built from (`S`: the Topology's `TopologyData`, made in the loader thread; the Floor builds
  from the document), their items now or later (`items_now`);
- **items made later**: a big document is drawn first by batched layers, its items follow in
  slices (`build_slice`), the ones a click or a zoomed-in frame reaches at once
  (`ensure_items_in`), all of them when something needs every item (`ensure_items`);
- **one edit** (`apply_changes`): only the ids the `ChangeSet` names; the returned
  `MirrorUpdate` tells the scene what to lay out again around them;
- **the view zoomed** (`set_view_scale`): far out batched layers draw what the items drew;
- **where things are** (`device_rect`, `link_line`), for what draws over the canvas (the failure
  overlay) without knowing which canvas it is on.

A **canvas layer** (a `MirrorLayer`: the Topology's overview and SU captions; the traffic heat
layer next) is registered once with `add_layer` and is then told each of these events right
after the mirror has followed it: `mirror_reset(source)` after a rebuild,
`mirror_changed(changes)` after an edit, `mirror_scale(scale)` after a zoom.  That is its one
way in; it reads the document and the mirror's geometry, never the scene's internals.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from PySide6.QtCore import QLineF, QRectF
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene

from ...model.document import FabricDocument
from ...model.edits import ChangeSet
from . import lod

S = TypeVar("S")
S_contra = TypeVar("S_contra", contravariant=True)


@dataclass(frozen=True, slots=True)
class MirrorUpdate:
    """What an applied ChangeSet did to the picture, for the scene to follow up."""

    #: devices appeared, disappeared or moved: what is laid out around them (the Topology's
    #: tier bands, the Floor's scene rect and rack names) follows
    moved: bool
    #: cables disappeared (they may have been selected)
    links_gone: bool
    #: the cables' runs shown for a selection may have changed (the Floor's routes)
    routes: bool = False


class MirrorLayer(Protocol[S_contra]):
    """A picture of the document drawn beside a canvas's items, told what the mirror did."""

    def mirror_reset(self, source: S_contra) -> None:
        """A new document was mirrored (`source`: what the mirror was built from)."""

    def mirror_changed(self, changes: ChangeSet) -> None:
        """An edit was mirrored: the items of the ids it names are up to date."""

    def mirror_scale(self, scale: float) -> None:
        """The view's scale is now `scale` (the mirror has switched far / near already)."""


class SceneMirror(ABC, Generic[S]):
    """The document's picture on one canvas (see the module docstring)."""

    def __init__(self, scene: QGraphicsScene, document: Callable[[], FabricDocument]) -> None:
        self.scene = scene
        self._document = document
        #: device id -> item (only the items made so far: see `items_pending`)
        self.items: dict[str, QGraphicsItem] = {}
        #: zoomed far out: batched layers draw what the items draw closer in
        self.far = False
        self.layers: list[MirrorLayer[S]] = []

    @property
    def doc(self) -> FabricDocument:
        return self._document()

    def add_layer(self, layer: MirrorLayer[S]) -> None:
        """Register a canvas layer: it is told every rebuild, edit and zoom from now on (a
        QGraphicsItem not yet in the scene is added to it)."""
        if isinstance(layer, QGraphicsItem) and layer.scene() is None:
            self.scene.addItem(layer)
        self.layers.append(layer)

    # ---------------------------------------------------------------- a new document
    def rebuild(self, source: S, items_now: bool = True) -> None:
        """Mirror a new document: forget every item of the old one, build the new one's from
        `source` (the items now, or later: `build_slice`, `ensure_items`), tell the layers.
        The scene's signals are held while the old items go (a selected item removed must not
        announce a selection of a document that is gone)."""
        blocked = self.scene.blockSignals(True)
        try:
            self.clear()
        finally:
            self.scene.blockSignals(blocked)
        self.build(source, items_now)
        for layer in self.layers:
            layer.mirror_reset(source)

    @abstractmethod
    def clear(self) -> None:
        """Forget every item and mark of the old document."""

    @abstractmethod
    def build(self, source: S, items_now: bool) -> None:
        """Build the picture of the document from `source` (after `clear`)."""

    # ---------------------------------------------------------------- items made later
    @abstractmethod
    def items_pending(self) -> bool:
        """True while items of the document are still to be made."""

    @abstractmethod
    def build_slice(self, budget_ms: float) -> bool:
        """Make pending items for about `budget_ms`, at least one batch (a busy machine still
        makes progress); True when none is left."""

    @abstractmethod
    def ensure_items(self) -> None:
        """Make every pending item now (something needs them all)."""

    @abstractmethod
    def ensure_items_in(self, rect: QRectF) -> int:
        """Make the pending items of what meets scene `rect` (a click, the area in view);
        returns how many."""

    # ---------------------------------------------------------------- one edit
    def apply_changes(self, changes: ChangeSet) -> MirrorUpdate:
        """Follow one applied edit (only the ids it names), then tell the layers (unless the
        mirror does not follow the document now: see `following`)."""
        update = self.mirror_changes(changes)
        if self.following():
            for layer in self.layers:
                layer.mirror_changed(changes)
        return update

    def following(self) -> bool:
        """The picture is up to date with the document (a mirror of a hidden canvas may fall
        behind and be rebuilt when it is next looked at: the layers are told then)."""
        return True

    @abstractmethod
    def mirror_changes(self, changes: ChangeSet) -> MirrorUpdate:
        """Update the items and batched layers of the ids `changes` names."""

    # ---------------------------------------------------------------- zoom
    def set_view_scale(self, scale: float) -> None:
        """The view zoomed: far or near (lod.FAR_SCALE), then the layers."""
        self.set_far(scale < lod.FAR_SCALE)
        self.scale_layers(scale)

    def scale_layers(self, scale: float) -> None:
        """Tell the layers the view's scale (also before the first frame of a new document)."""
        for layer in self.layers:
            layer.mirror_scale(scale)

    @abstractmethod
    def set_far(self, far: bool) -> None:
        """Zoomed far out (batched layers draw) or not (the items draw themselves)."""

    # ---------------------------------------------------------------- where things are
    @abstractmethod
    def device_rect(self, device_id: str) -> QRectF | None:
        """Where the device is drawn, in scene units (None: it is not drawn here)."""

    def link_line(self, link_id: str) -> QLineF | None:
        """The cable drawn as one line (scene units): by default between its two devices'
        centres; a canvas that draws cables port to port says so."""
        link = self.doc.links.get(link_id)
        if link is None:
            return None
        a, b = self.device_rect(link.a.device), self.device_rect(link.b.device)
        return QLineF(a.center(), b.center()) if a is not None and b is not None else None
