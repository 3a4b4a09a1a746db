"""Fibre polarity of a whole channel: does each transmitter reach a receiver at the far end?

A patched channel is optic | cord at end a | panel | trunk | panel | cord at end b | optic.
Each segment maps fibre positions (TIA-568.3-D, "polarity"):

- MPO array cords and trunks: Type A keeps position i at i (key up to key down), Type B
  reverses the row (i -> n + 1 - i, key up to key up), Type C swaps each pair (1 <-> 2,
  3 <-> 4 ..., key up to key down).
- Duplex cords: A-to-B crosses the pair (transmit to receive), A-to-A keeps it.
- A duplex optic on an MPO trunk goes through a cassette (MPO to duplex LC ports) at each
  end; a cassette puts MPO positions 2k-1, 2k on LC port k (positions A, B), so through the
  cassettes a Type A trunk keeps each pair, a Type B trunk (2k-1 -> 14-2k) and a Type C trunk
  (2k-1 -> 2k) cross it.  Which LC port of the far cassette a port lands on (Type B reverses
  the port order) is a labelling matter, not checked here.

The connectivity methods of TIA-568.3-D name the standard combinations:

| method | duplex signals                                   | parallel signals                      |
|---|---|---|
| A | Type A trunk, A-to-B cord at one end, A-to-A at the other | Type A trunk, Type B array cord at one end, Type A at the other |
| B | Type B trunk, A-to-B cords at both ends          | Type B trunk, Type B array cords at both ends |
| C | Type C trunk, A-to-B cords at both ends          | Type C trunk; no cords here restore lane order |

(A parallel Method C channel lands each transmit lane on a receiver of its neighbour lane: the
check reports it as crossed lanes, see below.)

A duplex channel works when it crosses the pair an odd number of times.  A parallel optic
(IEEE 802.3 MDI of 100GBASE-SR4, 400GBASE-DR4/SR4.2 on an MPO-12: transmit lanes 0-3 on
positions 1-4, receive lanes 3..0 on positions 9-12; 8-lane PMDs on an MPO-16: transmit on
1-8, receive on 9-16) needs the end-to-end map of a single Type B cord: transmit lane j lands
on receive lane j.  A map that lands each transmitter on a receiver of another lane still
brings one port up (the PCS deskews and reorders lanes), but a broken-out port's legs end on
the wrong far ports.
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

Segment = Literal["A", "B", "C", "A-to-A", "A-to-B"]
ARRAY = ("A", "B", "C")
DUPLEX = ("A-to-A", "A-to-B")
Method = Literal["A", "B", "C"]
Kind = Literal["duplex", "parallel"]

#: (cord at a, trunk, cord at b) of each TIA-568.3-D connectivity method
METHOD_PARTS: dict[tuple[Kind, str], tuple[Segment, Segment, Segment]] = {
    ("duplex", "A"): ("A-to-B", "A", "A-to-A"),
    ("duplex", "B"): ("A-to-B", "B", "A-to-B"),
    ("duplex", "C"): ("A-to-B", "C", "A-to-B"),
    ("parallel", "A"): ("B", "A", "A"),
    ("parallel", "B"): ("B", "B", "B"),
}
#: MPO fibre count -> transmit positions 1..k (receive n-k+1..n), IEEE 802.3 MDI layouts
PARALLEL_TX = {8: 4, 12: 4, 16: 8}
_MPO = re.compile(r"MPO-(\d+)", re.IGNORECASE)


def optic_kind(connector: str) -> tuple[Kind, int] | None:
    """("duplex", 2) for a duplex LC optic, ("parallel", fibres) for an MPO-8/12/16 one, None
    for a connector this model does not cover (MPO-24, MMC, CS ...)."""
    text = connector.upper()
    if "LC" in text and "MPO" not in text:
        return "duplex", 2
    match = _MPO.search(text)
    if match and int(match.group(1)) in PARALLEL_TX:
        return "parallel", int(match.group(1))
    return None


def catalog_segment(polarity: str | None, kind: Kind) -> Segment | None:
    """A catalog cord's polarity text as a segment for an optic of `kind` (None: unknown)."""
    text = (polarity or "").strip().lower()
    if text in ("type b", "crossover", "a-to-b"):
        return "A-to-B" if kind == "duplex" else "B"
    if text in ("type a", "straight", "straight-through", "a-to-a"):
        return "A-to-A" if kind == "duplex" else "A"
    if text == "type c" and kind == "parallel":
        return "C"
    return None


def _array_map(segment: str, n: int) -> list[int]:
    """Position i (0-based) -> position at the other end of an array segment of `n` fibres."""
    if segment == "B":
        return [n - 1 - i for i in range(n)]
    if segment == "C":
        return [i ^ 1 for i in range(n)]
    return list(range(n))


def _duplex_crosses(segment: str) -> int:
    """1 when the segment crosses a duplex pair (A-to-B cord; Type B or C trunk through
    cassettes), else 0."""
    return 1 if segment in ("A-to-B", "B", "C") else 0


class Verdict(NamedTuple):
    """The outcome for one channel: `problem` (None: it works) and `lanes_crossed` (parallel:
    every transmitter reaches a receiver, but not of its own lane)."""

    problem: str | None
    lanes_crossed: bool = False


def segment_problem(kind: Kind, parts: tuple[Segment, Segment, Segment]) -> str | None:
    """Why a segment does not belong in a channel of `kind` optics, or None."""
    names = ("the cord at end a", "the trunk", "the cord at end b")
    for name, part in zip(names, parts, strict=True):
        if kind == "parallel" and part not in ARRAY:
            return f"{name} is a duplex {part} cord; parallel MPO optics take Type A/B/C array parts"
        if kind == "duplex" and part in ARRAY and name != "the trunk":
            return f"{name} is a Type {part} array cord; duplex LC optics take A-to-B / A-to-A cords"
    return None


def judge(kind: Kind, fibres: int, parts: tuple[Segment, Segment, Segment]) -> Verdict:
    """Does the channel (cord at a, trunk, cord at b) join each transmitter to a receiver?"""
    problem = segment_problem(kind, parts)
    if problem:
        return Verdict(problem)
    if kind == "duplex":
        crossings = sum(_duplex_crosses(p) for p in parts)
        if crossings % 2:
            return Verdict(None)
        return Verdict(f"the channel crosses the pair {crossings} time(s): transmit lands on "
                       "transmit (a duplex channel needs an odd number of crossings)")
    tx = PARALLEL_TX[fibres]
    position = list(range(fibres))
    for part in parts:
        step = _array_map(part, fibres)
        position = [step[p] for p in position]
    landed = [position[j] for j in range(tx)]  # where transmit lane j arrives (0-based)
    receive = set(range(fibres - tx, fibres))
    wrong = [j for j, p in enumerate(landed) if p not in receive]
    if wrong:
        j = wrong[0]
        return Verdict(f"transmit lane {j} (position {j + 1}) lands on position "
                       f"{landed[j] + 1} of the far MPO-{fibres}, "
                       f"{'a transmitter' if landed[j] < tx else 'an unused fibre'}")
    crossed = any(p != fibres - 1 - j for j, p in enumerate(landed))
    return Verdict(None, crossed)


def method_of(kind: Kind, parts: tuple[Segment, Segment, Segment]) -> str | None:
    """The TIA-568.3-D method these parts are (either way round), or None."""
    for (k, method), standard in METHOD_PARTS.items():
        if k == kind and parts in (standard, standard[::-1]):
            return method
    return None


class Suggestion(NamedTuple):
    """A one-part change that makes a channel work: in words, and as the `LinkPatch` field
    (`cord_a`, `trunk`, `cord_b`) with its new value."""

    text: str
    field: str
    value: Segment


def suggest(kind: Kind, fibres: int, parts: tuple[Segment, Segment, Segment]) -> Suggestion | None:
    """One part to change that makes the channel work with lanes in order, or None: a change
    that gives a standard method first, a patch cord before the trunk."""
    names = ("the cord at end a", "the trunk", "the cord at end b")
    fields = ("cord_a", "trunk", "cord_b")
    choices = {"parallel": ARRAY, "duplex": DUPLEX}[kind]
    working: list[tuple[Suggestion, str | None]] = []
    for index in (2, 0, 1):
        options = (ARRAY if parts[1] in ARRAY else DUPLEX) if index == 1 else choices
        for option in options:
            if option == parts[index]:
                continue
            trial = list(parts)
            trial[index] = option
            changed = (trial[0], trial[1], trial[2])
            verdict = judge(kind, fibres, changed)
            if verdict.problem is None and not verdict.lanes_crossed:
                label = f"Type {option}" if option in ARRAY else option
                working.append((Suggestion(f"make {names[index]} {label}", fields[index], option),
                                method_of(kind, changed)))
    if not working:
        return None
    found, method = next((w for w in working if w[1] is not None), working[0])
    if method:
        return found._replace(text=f"{found.text} (TIA-568.3-D Method {method})")
    return found
