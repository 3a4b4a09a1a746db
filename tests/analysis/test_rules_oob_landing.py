"""OOB-NOT-MGMT on a DGX H100 whose BMC port (1GbE RJ45, `oob` cage group) lands on the
management switch (NVIDIA SN2201, catalogs/devices/management-switches.yaml), a fabric leaf or
another server."""

from __future__ import annotations

import pytest
from conftest import SN5600

from aicnet_gui.analysis import analyze
from tests.doc_edits import update_device

DGX = "nvidia-dgx-h100"
SN2201 = "nvidia-sn2201"
CAT6A = "generic-cat6a-patch-cord"


@pytest.fixture
def oob(build):
    build.rack("r1")
    build.dev("mgmt-1", SN2201, rack="r1", ru=42, role="mgmt")
    build.dev("leaf-1", SN5600, rack="r1", ru=40)
    build.dev("dgx-1", DGX, rack="r1", ru=1)
    build.dev("dgx-2", DGX, rack="r1", ru=12)
    return build


def landing(doc):
    return {f.objects: f for f in analyze(doc).findings if f.code == "OOB-NOT-MGMT"}


def test_a_bmc_on_the_management_switch_is_clean(oob):
    oob.link("m1", "dgx-1", "bmc", "mgmt-1", "swp1", cable=CAT6A)
    report = analyze(oob.doc)
    assert landing(oob.doc) == {}
    # the SN2201's RJ45 port takes the BMC's RJ45 cord; a Cat6A cord is rated for 10G and
    # carries the 1000BASE-T link (BASE-T ports negotiate), so no speed finding either
    codes = {f.code for f in report.findings if "m1" in f.objects}
    assert not codes & {"FORM-FACTOR", "TECH-MISMATCH", "OOB-NOT-MGMT", "OOB-UNMANAGED",
                        "SPEED-MISMATCH"}, codes


def test_a_bmc_on_a_fabric_leaf_or_on_a_server_is_an_error(oob):
    oob.link("m1", "dgx-1", "bmc", "leaf-1", "swp1s0")
    oob.link("m2", "dgx-1", "eth10g1", "dgx-2", "bmc", cable=CAT6A)
    found = landing(oob.doc)
    assert set(found) == {("m1", "dgx-1", "leaf-1"), ("m2", "dgx-2", "dgx-1")}
    leaf = found[("m1", "dgx-1", "leaf-1")]
    assert leaf.severity == "error"
    assert "dgx-1:bmc is a BMC / out-of-band port but lands on leaf-1:swp1s0, a fabric switch" \
        in leaf.message
    assert "a server" in found[("m2", "dgx-2", "dgx-1")].message


def test_the_management_switch_role_is_what_counts(oob):
    oob.link("m1", "dgx-1", "bmc", "mgmt-1", "swp1", cable=CAT6A)
    update_device(oob.doc, "mgmt-1", role="leaf")
    assert set(landing(oob.doc)) == {("m1", "dgx-1", "mgmt-1")}
