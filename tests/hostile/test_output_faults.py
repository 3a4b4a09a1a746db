"""Filesystem faults on every output of `aicnet export`: a symlink planted at the output's name,
a full disk, a read-only folder, two writers at once.  Each ends in one message naming the
output (exit 2) or in a whole file, never a traceback, a half-written target or a temp file.

The full disk is a small tmpfs filled to the last block where this test may mount one (root),
and everywhere RLIMIT_FSIZE in the child (writes past the limit fail with EFBIG); the read-only
folder is a tmpfs remounted read-only (root ignores permission bits), else a folder without
write permission.  A planted link belongs to another user (root makes it with lchown).
"""

from __future__ import annotations

import contextlib
import errno
import multiprocessing
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from bounded import run_bounded, start_bounded

ROOT = Path(__file__).resolve().parents[2]
SMALL = ROOT / "examples" / "small-hgx.fabric"
OTHER = ROOT / "examples" / "superpod-1su.fabric"
NOBODY = 65534

#: output kind -> (export arguments, with {out} for the output folder; the file(s) it writes)
OUTPUTS = {
    "pdf": (["--pdf", "{out}/plan.pdf", "--labels", "none", "--no-progress"], ["plan.pdf"]),
    "csv": (["--csv", "{out}/schedule.csv"], ["schedule.csv"]),
    "labels-csv": (["--labels-csv", "{out}/labels.csv"], ["labels.csv"]),
    "p2p": (["--p2p", "{out}/p2p.csv"], ["p2p.csv"]),
    "cvt": (["--cvt", "{out}/cvt.xlsx"], ["cvt.xlsx"]),
    "drawio": (["--drawio", "{out}/plan.drawio"], ["plan.drawio"]),
    "slurm": (["--slurm", "{out}/slurm"], ["slurm/topology.conf", "slurm/topology.yaml"]),
    "netbox": (["--netbox", "{out}/nb"], ["nb/devices.csv", "nb/cables.csv"]),
}
KINDS = sorted(OUTPUTS)


def _args(kind: str, out: Path) -> list[str]:
    return [a.replace("{out}", str(out)) for a in OUTPUTS[kind][0]]


def _files(kind: str, out: Path) -> list[Path]:
    return [out / name for name in OUTPUTS[kind][1]]


def _temps(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.name.endswith(".tmp")]


def _old_outputs(kind: str, out: Path) -> dict[Path, bytes]:
    """The previous version of each output, which a failed export must leave as it is."""
    old = {}
    for path in _files(kind, out):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"the previous " + path.name.encode())
        old[path] = path.read_bytes()
    return old


def _clean_failure(code: int, err: str, kind: str, out: Path, reason: str) -> None:
    assert code == 2, err
    assert "Traceback" not in err and "internal error" not in err, err
    assert "aicnet: error: cannot write " in err and reason in err, err
    assert _temps(out) == []


def _may_mount() -> bool:
    return os.geteuid() == 0 and subprocess.run(["mount", "--version"],
                                                capture_output=True).returncode == 0


@contextlib.contextmanager
def _tmpfs(folder: Path, size: str = "2m") -> Iterator[Path]:
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs",
                              str(folder)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def _fill(folder: Path) -> None:
    """Write to `folder` until its file system has no block left."""
    with open(folder / "filler", "wb", buffering=0) as filler:
        for size in (65536, 1):  # then the last partial block, byte by byte
            try:
                while True:
                    filler.write(b"\0" * size)
            except OSError as exc:
                assert exc.errno == errno.ENOSPC


@pytest.mark.parametrize("kind", KINDS)
def test_a_full_disk_is_one_message_and_the_old_outputs_stay(tmp_path, kind):
    if not _may_mount():
        pytest.skip("mounting a small tmpfs needs root")
    with _tmpfs(tmp_path / "disk") as out:
        old = _old_outputs(kind, out)
        _fill(out)
        code, _, err = run_bounded(["export", str(SMALL), *_args(kind, out)])
        _clean_failure(code, err, kind, out, "No space left on device")
        assert {p: p.read_bytes() for p in old} == old


@pytest.mark.parametrize("kind", KINDS)
def test_a_file_size_limit_is_one_message_and_the_old_outputs_stay(tmp_path, kind):
    out = tmp_path / "out"
    old = _old_outputs(kind, out)
    code, _, err = run_bounded(["export", str(SMALL), *_args(kind, out)], fsize=256)
    _clean_failure(code, err, kind, out, "File too large")
    if kind != "netbox":  # a NetBox import is several files, each whole (the first may fail)
        assert {p: p.read_bytes() for p in old} == old


@pytest.mark.parametrize("kind", KINDS)
def test_a_read_only_folder_is_one_message(tmp_path, kind):
    if _may_mount():
        context = _tmpfs(tmp_path / "ro")
    else:
        context = contextlib.nullcontext(tmp_path / "ro")
        (tmp_path / "ro").mkdir()
    with context as out:
        old = _old_outputs(kind, out)
        if _may_mount():
            subprocess.run(["mount", "-o", "remount,ro", str(out)], check=True)
            reason = "Read-only file system"
        else:
            for folder in {p.parent for p in old}:
                folder.chmod(0o555)
            reason = "Permission denied"
        code, _, err = run_bounded(["export", str(SMALL), *_args(kind, out)])
        _clean_failure(code, err, kind, out, reason)
        assert {p: p.read_bytes() for p in old} == old


def test_a_read_only_state_folder_does_not_stop_an_export(tmp_path, monkeypatch):
    """The note each write leaves in the state folder (for a later start to clean up after a
    kill) only helps: an export goes on without it."""
    state = tmp_path / "state"
    state.mkdir()
    state.chmod(0o555)
    if os.geteuid() == 0:  # root writes anyway: a file where the folder should be
        state.chmod(0o755)
        state.rmdir()
        state.write_text("not a folder")
    out = tmp_path / "out"
    out.mkdir()
    code, _, err = run_bounded(["export", str(SMALL), "--csv", str(out / "s.csv")],
                               env={"XDG_STATE_HOME": str(state)})
    assert code == 0, err
    assert (out / "s.csv").is_file() and _temps(tmp_path) == []


def _plant_links(kind: str, out: Path, victim: Path, owner: int | None) -> list[Path]:
    links = []
    for path in _files(kind, out):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.symlink_to(victim)
        if owner is not None:
            os.lchown(path, owner, owner)
        links.append(path)
    return links


@pytest.mark.parametrize("kind", KINDS)
def test_a_symlink_another_user_planted_at_an_output_is_replaced_not_followed(tmp_path, kind):
    if os.geteuid() != 0:
        pytest.skip("a link owned by another user can only be made by root")
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    out = tmp_path / "shared"
    out.mkdir()
    links = _plant_links(kind, out, victim, NOBODY)
    dangling = tmp_path / "created-by-the-link"
    code, _, err = run_bounded(["export", str(SMALL), *_args(kind, out)])
    assert code == 0, err
    assert victim.read_text() == "keep me" and not dangling.exists()
    for link in links:
        assert link.is_file() and not link.is_symlink()
    assert _temps(tmp_path) == []


def test_a_dangling_symlink_of_another_user_creates_nothing_where_it_points(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("a link owned by another user can only be made by root")
    out = tmp_path / "shared"
    out.mkdir()
    aim = tmp_path / "elsewhere" / "created.csv"
    aim.parent.mkdir()
    (out / "schedule.csv").symlink_to(aim)
    os.lchown(out / "schedule.csv", NOBODY, NOBODY)
    code, _, err = run_bounded(["export", str(SMALL), "--csv", str(out / "schedule.csv")])
    assert code == 0, err
    assert not aim.exists() and (out / "schedule.csv").is_file()


def test_the_users_own_symlink_is_written_through(tmp_path):
    real = tmp_path / "exports" / "schedule.csv"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "schedule.csv"
    link.symlink_to(real)
    code, _, err = run_bounded(["export", str(SMALL), "--csv", str(link)])
    assert code == 0, err
    assert link.is_symlink() and real.read_text().startswith("\ufeffCable,")


def _expected(design: Path, folder: Path) -> bytes:
    path = folder / f"{design.stem}.csv"
    code, _, err = run_bounded(["export", str(design), "--csv", str(path)])
    assert code == 0, err
    return path.read_bytes()


def test_two_exports_to_the_same_file_at_once_leave_one_whole_file(tmp_path):
    expected = {_expected(SMALL, tmp_path), _expected(OTHER, tmp_path)}
    out = tmp_path / "out"
    out.mkdir()
    target = out / "schedule.csv"
    for _ in range(4):
        running = [start_bounded(["export", str(design), "--csv", str(target)])
                   for design in (SMALL, OTHER, SMALL, OTHER)]
        for child in running:
            code, _, err = child.wait()
            assert code == 0, err
        assert target.read_bytes() in expected
        assert _temps(out) == []


def _writer(target: str, number: int, rounds: int) -> None:
    from aicnet_gui.fileio.atomic import write_atomic

    body = (b"%04d" % number) * 25_000
    for _ in range(rounds):
        write_atomic(target, body, keep_backup=False)


def test_many_writers_at_once_never_lose_a_write_nor_leave_a_temp(tmp_path):
    """Each write removes the temp files no live writer holds: with eight writers at once it
    must never take another's file in the moment before that one locked it."""
    target = tmp_path / "target.bin"
    context = multiprocessing.get_context("fork")
    writers = [context.Process(target=_writer, args=(str(target), n, 25)) for n in range(8)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(120)
    assert [w.exitcode for w in writers] == [0] * 8
    data = target.read_bytes()
    assert len(data) == 100_000 and data == data[:4] * 25_000
    assert _temps(tmp_path) == []
