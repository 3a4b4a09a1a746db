"""Traffic in the window: the Workloads dock's traffic section, the canvas's traffic colours,
the legend, and the runs behind them.

`TrafficPanel` is a part of the main window (as `LivePanels`, `ChangeTools` are).  It owns the
`TrafficRunner` (traffic_runner.py: the model in a worker thread, after edits, stale results
dropped) and connects it to what shows its result:

- the traffic section of the Workloads dock (panels/traffic_section.py): the workload selected
  there is the one computed, with the ECMP draws chosen there; Run, Cancel and the progress;
  the mode picked there is the one drawn; a hottest link clicked is selected and centred;
- the Topology canvas in the "traffic" colour mode (View › Colour Cables › By traffic load,
  View › Traffic Load, the toolbar's Colour box, the section's check box): the loads go to its
  traffic layer (canvas/traffic_layer.py), the legend says what is drawn;
- the Floor's cable runs (of the selected devices) in the same colours, while the Topology is
  coloured by load (the runs are the Floor scene's own overlay, not a mirror layer: they take
  their colour through `FloorScene.run_colour`);
- Failure Mode: while the canvas greys out a what-if's failures, the model runs with those
  cables down.

The model runs only while its result is looked at: the Workloads dock on screen, or the canvas
coloured by load.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, QSignalBlocker

from ..editing.traffic_run import TrafficRun
from ..editing.units import counted
from ..model.edits import ChangeSet
from . import colouring, load_ramp
from .canvas.legend import LegendSpec
from .panels.forms import on_screen
from .panels.traffic_section import TrafficSection
from .traffic_runner import TrafficRunner

MODE_SHORT = {"ecmp": "ECMP", "adaptive": "adaptive routing", "spray": "packet spraying"}


class TrafficPanel(QObject):
    """The traffic runner and everything that shows its result (see the module docstring)."""

    def __init__(self, window: Any, runner: TrafficRunner | None = None) -> None:
        """`window`: the MainWindow (annotated loosely: no import cycle); its live panels,
        Workloads dock, Topology scene and change tools exist already."""
        super().__init__(window)
        self.window = window
        self.runner = runner or TrafficRunner(window.document, self,
                                              layout=window.topology.links.row_ids)
        self.dock = window.workloads
        self.section: TrafficSection = self.dock.traffic
        self.layer = window.topology.traffic
        self._previous_mode = "cable"
        live = window.live
        live.legend_specs["traffic"] = self.legend_spec
        section, runner = self.section, self.runner
        section.run_requested.connect(runner.run_now)
        section.cancel_requested.connect(runner.cancel)
        section.seeds_changed.connect(lambda _n: self._want())
        section.picture_changed.connect(self._draw)
        section.canvas_toggled.connect(self.set_shown)
        section.link_activated.connect(lambda link_id: window.show_objects([link_id]))
        runner.result_ready.connect(self._on_result)
        runner.progress.connect(section.show_progress)
        runner.busy.connect(self._on_busy)
        runner.status.connect(self._on_status)
        runner.failed.connect(self._on_failed)
        self.dock.workload_shown.connect(lambda _id: self._want())
        self.dock.visibilityChanged.connect(lambda _visible: self._update_active())
        live.colour_mode_changed.connect(self._on_colour_mode)
        window.document.changed.connect(self._on_changed)
        window.document.reset.connect(self._on_reset)
        window.change_tools.failure_changed.connect(runner.set_failed_links)
        self._want()
        self._update_active()

    # ---------------------------------------------------------------- what is wanted
    @property
    def shown_on_canvas(self) -> bool:
        return self.window.live.colour_mode == "traffic"

    def _want(self) -> None:
        """The dock's workload or draws: computed (or shown at once, when kept)."""
        workload_id, seeds = self.dock.current_id(), self.section.seeds.value()
        self.runner.want(workload_id, seeds)
        run = self.section.run
        if run is not None and (run.workload_id != workload_id or run.seeds != seeds
                                or run.failed_links != self.runner.failed_links):
            self._show(None)  # another workload's numbers must not stand for this one's

    def _update_active(self) -> None:
        self.runner.set_active(on_screen(self.dock) or self.shown_on_canvas)

    def set_shown(self, on: bool) -> None:
        """Colour the canvas by load (the traffic colour mode), or back to the mode before."""
        if on != self.shown_on_canvas:
            self.window.set_colour_mode("traffic" if on else self._previous_mode)

    def _on_colour_mode(self, mode: str) -> None:
        if mode != "traffic":
            self._previous_mode = mode
            self.layer.clear()
        floor = self.window.floor
        floor.run_colour = self._run_colour if mode == "traffic" else None
        floor.update_routes()
        self.section.set_on_canvas(mode == "traffic")
        action = getattr(self.window, "actions_by_name", {}).get("traffic-layer")
        if action is not None:
            with QSignalBlocker(action):
                action.setChecked(mode == "traffic")
        self._update_active()
        if mode == "traffic":
            self.window.legend.reveal()  # the colours mean nothing without it
            self._draw()

    # ---------------------------------------------------------------- the runner
    def _on_busy(self, busy: bool) -> None:
        self.section.set_busy(busy)
        self._refresh_legend()  # "computing…" while no result is shown yet

    def _on_status(self, text: str) -> None:
        if not text and self.runner.current():
            run = self.runner.result
            text = (f"computed in {run.seconds:.1f} s for the design as it is"
                    if run is not None else "")
        self.section.set_status(text)
        self._refresh_legend()

    def _on_failed(self, message: str) -> None:
        self.section.set_status(message)
        self.window.show_message(message, 1)

    def _on_result(self, run: TrafficRun) -> None:
        self._show(run)

    def _show(self, run: TrafficRun | None) -> None:
        self.section.show_run(run)
        self._draw()

    def _on_changed(self, changes: ChangeSet) -> None:
        if self.section.run is not None and changes:
            self.section.set_stale(True)
        if self.shown_on_canvas and changes.links:
            self._refresh_legend()  # the edited cables are drawn as pending

    def _on_reset(self) -> None:
        self.section.forget_mode()
        self.section.show_run(None)
        self._want()

    # ---------------------------------------------------------------- the canvas
    def _draw(self) -> None:
        """Hand the picture the section shows to the canvas (in the traffic colour mode)."""
        if not self.shown_on_canvas:
            return
        picture = self.section.picture()
        if picture is None or self.section.run is None \
                or self.section.run.workload_id != self.dock.current_id():
            self.layer.clear()
        else:
            column = picture.loads.column
            self.layer.set_picture(picture.loads.ids, picture.loads.loads,
                                   [hot.link_id for hot in picture.hottest[:picture.ranked]],
                                   picture.marked_pace(),
                                   (self.section.run.layout, column) if column is not None else None)
        self.window.floor.update_routes()  # the selection's runs, in the new colours
        self._refresh_legend()

    def _run_colour(self, link_id: str) -> str | None:
        """A Floor run's colour: its cable's load as the Topology draws it."""
        if not self.layer.has_result:
            return None
        return load_ramp.colour_of(self.window.topology.links.load_of(link_id))

    def _refresh_legend(self) -> None:
        if self.shown_on_canvas:
            self.window.live.refresh_legend()

    def legend_spec(self) -> LegendSpec:
        """The legend in the traffic mode: which mode (and draw) it shows."""
        run = self.section.run
        if self.dock.current_id() is None:
            title = "Traffic load · no workload"
        elif run is None:
            title = "Traffic load · computing…" if self.runner.running() else "Traffic load"
        else:
            shown = self.section.shown()
            title = f"Traffic load · {MODE_SHORT[shown.mode]}"
            if shown.draw is not None:
                title += (f", median of {counted(shown.result.seeds, 'draw')}"
                          if self.section.one_draw() else f", mean of {shown.result.seeds} draws")
        return colouring.traffic_spec(title, self.window.topology.links.pending_loads())


__all__ = ["TrafficPanel"]
