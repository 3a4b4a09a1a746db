"""Findings are listed by (severity, code, objects, message): the one-string sort key a finding
carries must order exactly as that tuple, whatever characters the names hold."""

from __future__ import annotations

import pickle
import random
from dataclasses import replace

import pytest

from aicnet_gui.analysis.findings import (
    ERROR,
    INFO,
    WARNING,
    Finding,
    Fix,
    sort_findings,
    written_later,
)

TEXTS = ["", "a", "b", "B", "\x00", "\x01", "\x02", "ab", "a\x00", "a\x01b", "\x01\x01", "é", "→"]


def test_sort_key_orders_as_the_tuple_for_any_text():
    rng = random.Random(7)
    findings = [
        Finding(rng.choice(TEXTS), rng.choice([ERROR, WARNING, INFO]), rng.choice(TEXTS),
                tuple(rng.choice(TEXTS) for _ in range(rng.randint(0, 3))))
        for _ in range(5000)
    ]
    by_tuple = sorted(findings, key=lambda f: (f.severity.rank, f.code, f.objects, f.message))
    by_key = sorted(findings, key=Finding.sort_key)
    assert [f.sort_key() for f in by_tuple] == [f.sort_key() for f in by_key]
    distinct = {(f.severity, f.code, f.objects, f.message) for f in findings}
    assert len({f.sort_key() for f in findings}) == len(distinct)


def test_the_key_follows_a_replaced_finding_and_is_not_part_of_equality():
    first = Finding("CABLE-UNSET", WARNING, "x", ("c1",))
    worse = replace(first, severity=ERROR, fix=Fix("do it"))
    assert worse.sort_key() < first.sort_key()
    assert replace(first, fix=Fix("other")).sort_key() == first.sort_key()
    assert first == Finding("CABLE-UNSET", WARNING, "x", ("c1",)) and "_head" not in repr(first) and "_key" not in repr(first)


def test_sorting_by_heads_then_messages_is_sorting_by_the_whole_key():
    """`sort_findings` never makes the whole key, yet gives its order: here many findings share
    a code and objects (a run of equal heads) and differ by their messages only."""
    rng = random.Random(11)
    findings = [
        Finding(rng.choice(TEXTS[:4]), rng.choice([ERROR, WARNING]), rng.choice(TEXTS),
                tuple(rng.choice(TEXTS[:3]) for _ in range(rng.randint(0, 2))))
        for _ in range(3000)
    ]
    by_key = sorted(findings, key=Finding.sort_key)
    sort_findings(findings)
    assert [f.sort_key() for f in findings] == [f.sort_key() for f in by_key]
    assert any(a.head_key() == b.head_key() and a.message != b.message
               for a, b in zip(findings, findings[1:], strict=False))


def _unset(objects=("c1", "gpu-1", "leaf-1")):
    return written_later("CABLE-UNSET", WARNING, "{}: {} no cable".format, ("gpu-1:p1", "leaf-1:p1"),
                         objects, Fix("choose a cable"))


def test_a_finding_written_later_is_the_finding_of_its_message():
    later = _unset()
    now = Finding("CABLE-UNSET", WARNING, "gpu-1:p1: leaf-1:p1 no cable", ("c1", "gpu-1", "leaf-1"),
                  Fix("choose a cable"))
    assert _unset() == now and now == _unset()  # compared before and after writing
    assert later.message == now.message and later == now and hash(later) == hash(now)
    assert later.sort_key() == now.sort_key() and repr(now)[len("Finding"):] in repr(later)
    assert later.to_json() == now.to_json()
    assert _unset(("c2",)) != now


def test_a_finding_written_later_is_written_as_json_without_keeping_its_message():
    """`validate --json` of 2.4M such findings: each message written for its JSON and let go."""
    now = Finding("CABLE-UNSET", WARNING, "gpu-1:p1: leaf-1:p1 no cable", ("c1", "gpu-1", "leaf-1"),
                  Fix("choose a cable"))
    later = _unset()
    assert later.to_json() == now.to_json()
    with pytest.raises(AttributeError):  # the slot is still empty
        Finding.__dict__["message"].__get__(later)
    assert later.message == now.message and later.to_json() == now.to_json()


def test_a_finding_written_later_pickles_and_replaces_as_a_finding():
    later = _unset()
    copied = pickle.loads(pickle.dumps(later))
    assert type(copied) is Finding and copied == later
    fixed = replace(_unset(), fix=Fix("other"))
    assert fixed.message == later.message and fixed.fix == Fix("other")
    assert fixed.sort_key() == later.sort_key()
