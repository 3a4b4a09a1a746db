"""The study's worker processes never load Qt, whatever started the editor.

A study's workers (forkserver or spawn) import the launching process's main module again.  A
script that imports PySide6 at its top level and starts a study itself gets Qt loaded into
every worker (the second case, which shows what the check sees); the editor's way, the study
in its own process (gui/compare/study_host.py), keeps every process of the study free of Qt.
Read from /proc: Linux only."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="reads /proc")

SCRIPT = textwrap.dedent('''
    import json, os, sys
    import PySide6.QtCore  # the main module pulls Qt in, as a GUI script does

    from aicnet_gui.catalog.loader import builtin_catalog
    from aicnet_gui.model.fabric import Requirement
    from aicnet_gui.study import Study, StudyProgress, run_study
    from aicnet_gui.gui.compare.study_host import StudyProcess

    def children(pid):
        out = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    stat = open(f"/proc/{entry}/stat").read()
                except OSError:
                    continue
                if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(entry))
        return out

    def tree(pid):
        found = []
        for child in children(pid):
            found += [child, *tree(child)]
        return found

    def has_qt(pid):
        try:
            return "Qt6Core" in open(f"/proc/{pid}/maps").read()
        except OSError:
            return None

    def seen(pids):
        states = [has_qt(p) for p in pids]
        return {"processes": sum(s is not None for s in states), "with_qt": sum(bool(s) for s in states)}

    if __name__ == "__main__":
        mode, out = sys.argv[1], sys.argv[2]
        study = Study.prepare(Requirement(servers=16, leaves=[
            "nvidia-qm9700", "nvidia-sn5600", "nvidia-sn5610", "arista-7060x6-64pe"]),
            builtin_catalog())
        report = {}
        if mode == "host":
            process = StudyProcess.start(study, out, 2)
            for message in process.messages():
                if isinstance(message, StudyProgress) and message.done and not report:
                    report = seen([process.pid, *tree(process.pid)])
                    process.cancel()
        else:
            def progress(p):
                if p.done and not report:
                    report.update(seen(tree(os.getpid())))

            run_study(study, out, workers=2, progress=progress, cancelled=lambda: bool(report))
        print(json.dumps(report))
''')


def _run(tmp_path: Path, mode: str) -> dict:
    script = tmp_path / "gui_script.py"
    script.write_text(SCRIPT)
    done = subprocess.run([sys.executable, str(script), mode, str(tmp_path / mode)],
                          capture_output=True, text=True, timeout=300, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_study_process_and_its_workers_load_no_qt(tmp_path):
    seen = _run(tmp_path, "host")
    assert seen["processes"] >= 3  # the study's process, its forkserver, its workers
    assert seen["with_qt"] == 0


def test_a_pool_started_from_a_qt_script_loads_qt_into_its_workers(tmp_path):
    """What the study's own process avoids (and that the check above can see Qt)."""
    seen = _run(tmp_path, "direct")
    assert seen["with_qt"] >= 1
