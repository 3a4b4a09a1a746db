"""The canvas badges of the live validation, kept up to date by the findings that changed.

A device's badge is its worst severity and the number of error and warning findings naming it;
a cable is marked when an error (or else a warning) names it.  `BadgeTally` counts them per
object and is told only the findings gone and the new ones of each report, so showing a report
costs what changed, not the number of findings.  Info findings make no badge.
"""

from __future__ import annotations

from collections.abc import Container, Iterable

from ..analysis import Finding, Severity


class BadgeTally:
    """Per device and per cable: the number of error and warning findings naming it."""

    def __init__(self) -> None:
        self._devices: dict[str, list[int]] = {}  # id -> [errors, warnings]
        self._links: dict[str, list[int]] = {}
        #: what the canvas shows: device id -> (worst severity, count); cables with errors,
        #: cables with warnings only
        self.devices: dict[str, tuple[str, int]] = {}
        self.link_errors: set[str] = set()
        self.link_warnings: set[str] = set()

    def reset(self, findings: Iterable[Finding], devices: Container[str], links: Container[str]) -> None:
        """Count `findings` from scratch."""
        self._devices.clear()
        self._links.clear()
        self.devices, self.link_errors, self.link_warnings = {}, set(), set()
        self.update((), findings, devices, links)

    def update(self, removed: Iterable[Finding], added: Iterable[Finding],
               devices: Container[str], links: Container[str]) -> bool:
        """Take the findings gone and the new ones into account; True when a badge or a cable
        mark changed."""
        touched_devices: set[str] = set()
        touched_links: set[str] = set()
        for step, findings in ((-1, removed), (1, added)):
            for finding in findings:
                if finding.severity == Severity.INFO:
                    continue
                slot = 0 if finding.severity == Severity.ERROR else 1
                for object_id in finding.objects:
                    if step < 0:
                        table = (self._devices if object_id in self._devices else
                                 self._links if object_id in self._links else None)
                    else:
                        table = (self._devices if object_id in devices else
                                 self._links if object_id in links else None)
                    if table is None:
                        continue
                    counts = table.setdefault(object_id, [0, 0])
                    counts[slot] += step
                    (touched_devices if table is self._devices else touched_links).add(object_id)
        changed = False
        for device_id in touched_devices:
            errors, warnings = self._devices[device_id]
            badge = (("error" if errors else "warning"), errors + warnings) if errors + warnings > 0 else None
            if badge is None:
                del self._devices[device_id]
            if self.devices.get(device_id) != badge:
                changed = True
                if badge is None:
                    del self.devices[device_id]
                else:
                    self.devices[device_id] = badge
        for link_id in touched_links:
            errors, warnings = self._links[link_id]
            if errors + warnings <= 0:
                del self._links[link_id]
            was = (link_id in self.link_errors, link_id in self.link_warnings)
            now = (errors > 0, errors <= 0 < warnings)
            if was != now:
                changed = True
                (self.link_errors.add if now[0] else self.link_errors.discard)(link_id)
                (self.link_warnings.add if now[1] else self.link_warnings.discard)(link_id)
        return changed
