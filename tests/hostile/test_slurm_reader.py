"""The port of Slurm's topology.conf parser (helpers/slurm_conf.py) reads what libslurm reads,
on the lines that matter to an export: comments, escapes, continuations, quotes, whitespace of
every kind inside a value, unknown keys, include lines.  Skipped where libslurm or a C compiler
is missing (Debian: libslurm-dev)."""

from __future__ import annotations

import pytest
from slurm_conf import libslurm_reader, switches_read_by_port, switches_read_by_slurm

LINES = [
    b"SwitchName=s0 Nodes=dev[0-5]\n# a comment\n\nSwitchName=s1 Switches=s0 # trailing\n",
    b"SwitchName=a\\#b Nodes=x\n",  # an escaped # is a character
    b"SwitchName=q\\\nSwitchName=r Nodes=y\n",  # a trailing backslash joins the next line
    b"SwitchName=a b Nodes=x\n",  # a space ends the value: `b` is left over
    b'SwitchName="a b" Nodes=x\n',  # a quoted value holds a space
    b"SwitchName=a\rNodes=evil[1-9]\n",  # a carriage return separates pairs
    b"SwitchName=x\x0bNodes=a\n", b"SwitchName=x\x0cNodes=a\n",  # so do VT and FF
    b"SwitchName=x Nodes=a,b Foo=1\n",  # an unknown key
    b"SwitchName=a=b Nodes=c=d\n", b"  SwitchName = x   Nodes =  y  \n",
    b"SwitchName=x Nodes=y \\\\\nSwitchName=z Nodes=w\n",  # an even run: no continuation
    b"include /etc/passwd\n", b"SwitchName=x Nodes=gpu-[001-003,005],leaf-01\n",
    "SwitchName=leaf-Łódź-01 Nodes=dgx-a\n".encode(),
]


@pytest.fixture(scope="module")
def libslurm(tmp_path_factory):  # noqa: ANN001, ANN201
    binary = libslurm_reader(tmp_path_factory.mktemp("slurm"))
    if binary is None:
        pytest.skip("libslurm and its header (Debian: libslurm-dev) or a C compiler missing")
    return binary


@pytest.mark.parametrize("text", LINES, ids=range(len(LINES)))
def test_the_port_reads_what_libslurm_reads(libslurm, tmp_path, text):
    path = tmp_path / "topology.conf"
    path.write_bytes(text)
    assert switches_read_by_port(path) == switches_read_by_slurm(libslurm, path)
