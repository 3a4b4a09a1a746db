"""The small-graph components and max-flow (plain Python) give scipy's answers, and a small
design validates without importing scipy (issue 38: its import was most of the run)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components, maximum_flow

from aicnet_gui.analysis import graph_kernels

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def plain(monkeypatch):
    """graph_kernels solving everything itself, though scipy is loaded in this process."""
    monkeypatch.setattr(graph_kernels, "_scipy", lambda arcs: False)


@pytest.mark.parametrize("seed", range(40))
def test_components_are_scipys(plain, seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 60))
    edges = int(rng.integers(0, 2 * n))
    a, b = rng.integers(0, n, edges), rng.integers(0, n, edges)
    count, labels = graph_kernels.components(n, a, b)
    graph = coo_matrix((np.ones(edges, dtype=np.int8), (a, b)), shape=(n, n))
    expected_count, expected = connected_components(graph, directed=False)
    assert count == expected_count and labels.tolist() == expected.tolist()


@pytest.mark.parametrize("seed", range(60))
def test_max_flow_is_scipys(plain, seed):
    """Random graphs with parallel arcs, arcs of no capacity and loops, as fabrics have
    parallel cables; some with the sink out of reach."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 40))
    arcs = int(rng.integers(0, 6 * n))
    src, dst = rng.integers(0, n, arcs), rng.integers(0, n, arcs)
    cap = rng.integers(0, 900, arcs)
    source, sink = 0, n - 1
    value = graph_kernels.max_flow(n, src, dst, cap, source, sink)
    graph = coo_matrix((cap.astype(np.int32), (src, dst)), shape=(n, n)).tocsr()
    graph.sum_duplicates()
    graph.setdiag(0)
    graph.eliminate_zeros()
    assert value == maximum_flow(graph, source, sink).flow_value


def test_a_fat_tree_bisection_is_its_capacity(plain):
    """Two leaves of four servers under two spines, 400G everywhere: the half of the servers
    on one leaf sends 4 x 400G, all of it through the spines."""
    leaves, spines, servers = [0, 1], [2, 3], list(range(4, 12))
    src, dst, cap = [], [], []
    for s in servers:
        leaf = leaves[(s - 4) // 4]
        src += [s, leaf]
        dst += [leaf, s]
        cap += [400, 400]
    for leaf in leaves:
        for spine in spines:
            src += [leaf, spine]
            dst += [spine, leaf]
            cap += [400, 400]
    source, sink = 12, 13
    src += [source] * 4 + servers[4:]
    dst += servers[:4] + [sink] * 4
    cap += [400] * 8
    assert graph_kernels.max_flow(14, np.array(src), np.array(dst), np.array(cap), source,
                                  sink) == 800  # the leaf's two uplinks


def test_a_small_design_validates_without_scipy():
    probe = ("import sys, contextlib, io\n"
             "from aicnet_gui.cli import main\n"
             "with contextlib.redirect_stdout(io.StringIO()):\n"
             f"    code = main(['validate', {str(ROOT / 'examples' / 'superpod-1su.fabric')!r}])\n"
             "print(code, 'scipy' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["0", "False"]
