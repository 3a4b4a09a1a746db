"""Saving a design never loses it: through a symlink, after a killed save, and killed mid-save.

A save writes a temp file beside the design and moves it over the design; a kill at any moment
leaves the old file or the new one, and the temp files a killed save leaves behind are removed by
the next save or open of that design (never one that a live save still writes).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

from aicnet_gui.fileio import atomic, dumps_fabric, load_fabric, save_fabric
from aicnet_gui.fileio.atomic import atomic_output, remove_stale_temps, write_atomic
from tests.doc_edits import update_link
from tests.held_lock import HOLD_AT_LOCK


def _temps(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_saving_through_a_symlink_writes_its_target_and_keeps_the_link(small, tmp_path):
    real = tmp_path / "designs" / "pod.fabric"
    real.parent.mkdir()
    save_fabric(small, real)
    old = real.read_bytes()
    link = tmp_path / "pod-link.fabric"
    link.symlink_to(real)
    update_link(small, "l1", length_m=30.0)
    save_fabric(small, link)
    assert link.is_symlink() and link.resolve() == real
    assert real.read_bytes() == dumps_fabric(small) != old
    backup = real.with_name("pod.fabric.bak")
    assert backup.is_file() and not backup.is_symlink()
    assert backup.read_bytes() == old
    assert not (tmp_path / "pod-link.fabric.bak").exists()


def test_a_backup_is_data_even_when_the_old_bak_was_a_symlink(small, tmp_path):
    target = tmp_path / "pod.fabric"
    save_fabric(small, target)
    old = target.read_bytes()
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("not a design")
    (tmp_path / "pod.fabric.bak").symlink_to(elsewhere)
    update_link(small, "l1", length_m=31.0)
    save_fabric(small, target)
    backup = tmp_path / "pod.fabric.bak"
    assert not backup.is_symlink() and backup.read_bytes() == old
    assert elsewhere.read_text() == "not a design"


def _leftovers(target: Path, count: int) -> list[Path]:
    made = []
    for _ in range(count):
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        os.write(fd, b"half a save")
        os.close(fd)
        made.append(Path(name))
    return made


def test_temp_files_of_a_killed_save_are_removed_by_the_next_save(small, tmp_path):
    target = tmp_path / "pod.fabric"
    _leftovers(target, 3)
    other = _leftovers(tmp_path / "other.fabric", 1)  # another design's: not ours to remove
    save_fabric(small, target)
    assert _temps(tmp_path) == [other[0].name]


def test_temp_files_of_a_killed_save_are_removed_when_the_design_is_opened(small, catalog,
                                                                             tmp_path):
    target = tmp_path / "pod.fabric"
    save_fabric(small, target)
    _leftovers(target, 2)
    load_fabric(target, catalog)
    assert _temps(tmp_path) == []


def test_the_temp_file_of_a_save_still_running_is_left_alone(tmp_path):
    target = tmp_path / "pod.fabric"
    with atomic_output(target) as handle:  # a save in progress holds its temp file
        handle.write(b"{}")
        (live,) = _temps(tmp_path)
        assert remove_stale_temps(target) == 0
        assert _temps(tmp_path) == [live]
    assert _temps(tmp_path) == []
    assert target.read_bytes() == b"{}"


_SAVER = textwrap.dedent("""
    import importlib.util, sys
    # atomic.py alone (it imports nothing of aicnet): a child that starts in milliseconds
    spec = importlib.util.spec_from_file_location("atomic", sys.argv[3])
    atomic = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(atomic)
    write_atomic = atomic.write_atomic
    target, size = sys.argv[1], int(sys.argv[2])
    print("ready", flush=True)
    version = 0
    while True:  # save new versions until killed
        version += 1
        body = (b"%08d" % version) * (size // 8)
        write_atomic(target, [body[i:i + 65536] for i in range(0, len(body), 65536)])
""")


def test_a_save_killed_at_random_moments_leaves_the_old_or_the_new_file(tmp_path):
    """30 kills of a child that saves new versions in a loop, each at a random moment after
    it started saving: the file is always one whole version, and the next save leaves no temp
    file behind."""
    target = tmp_path / "pod.fabric"
    size = 4 * 1024 * 1024
    target.write_bytes(b"%08d" % 0 * (size // 8))
    rng = random.Random(1414)
    versions, leftovers = set(), 0
    for _ in range(30):
        child = subprocess.Popen([sys.executable, "-c", _SAVER, str(target), str(size),
                                  atomic.__file__], stdout=subprocess.PIPE)
        assert child.stdout is not None and child.stdout.readline() == b"ready\n"
        try:
            child.wait(timeout=rng.uniform(0.0, 0.2))
        except subprocess.TimeoutExpired:
            child.send_signal(signal.SIGKILL)
            child.wait()
        child.stdout.close()
        data = target.read_bytes()
        # whole: one version throughout, full length (never a mix, never cut short)
        assert len(data) == size
        assert data == data[:8] * (size // 8)
        versions.add(data[:8])
        leftovers += len(_temps(tmp_path))
    assert len(versions) > 1  # the kills landed after saves that completed
    assert leftovers > 0  # and some in the middle of a save
    write_atomic(target, b"final")
    assert target.read_bytes() == b"final"
    assert _temps(tmp_path) == []  # what the kills left was removed by this save


def test_a_broken_recovery_note_is_ignored_not_a_crash_at_start_up(small, tmp_path):
    from aicnet_gui.fileio.recovery import RecoveryStore

    store = RecoveryStore(tmp_path / "recovery")
    written = store.write(small, tmp_path / "pod.fabric", "s1", 1000.0)
    note = written.with_suffix(".json")
    for text in (b'{"saved_at": "yesterday"}', b"[1, 2]", b'{"pid": 1e400}', b"\xff"):
        note.write_bytes(text)
        assert store.pending() == []
    note.write_bytes(b'{"original": null, "saved_at": 5, "pid": null, "more": 1}')
    assert [r.saved_at for r in store.pending()] == [5.0]


_KILLED_AT_THE_LOCK = textwrap.dedent("""
    import importlib.util, sys
    spec = importlib.util.spec_from_file_location("atomic", sys.argv[2])
    atomic = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(atomic)
""") + HOLD_AT_LOCK + """
atomic.write_atomic(sys.argv[1], b"new")
"""


def test_a_write_killed_as_its_temp_file_is_made_is_cleaned_by_the_next_start(tmp_path):
    """SIGKILL cannot be held off: a writer killed the moment its temp file exists, before a
    single byte is written, has already noted that file, so the next start removes it (the
    note was once written after the file, and a kill in between left a temp nobody removed)."""
    target = tmp_path / "pod.fabric"
    target.write_bytes(b"old")
    child = subprocess.Popen([sys.executable, "-c", _KILLED_AT_THE_LOCK, str(target),
                              atomic.__file__], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdout is not None and child.stdout.readline() == b"locked\n"
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=60)
    assert len(_temps(tmp_path)) == 1
    assert atomic.remove_killed_writes() == 1  # what a start of aicnet does first
    assert _temps(tmp_path) == [] and target.read_bytes() == b"old"
    assert not list((atomic._journal()).iterdir())  # and the note went with it
