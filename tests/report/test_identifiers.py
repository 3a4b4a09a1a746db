"""Cable and port identifiers in the TIA-606 and ISO/IEC 14763-2 profiles (cabling.md §1,
§7.1)."""

from __future__ import annotations

from aicnet_gui.model.fabric import Device, Rack
from aicnet_gui.report.identifiers import (
    Identifiers,
    cable_number,
    port_token,
    rack_coordinate,
    row_letters,
)
from tests.doc_edits import add_device, add_rack, update_settings


def test_row_letters_like_spreadsheet_columns():
    assert [row_letters(n) for n in (1, 2, 26, 27, 28, 52, 53, 702, 703)] == [
        "A", "B", "Z", "AA", "AB", "AZ", "BA", "ZZ", "AAA"]


def test_rack_coordinate_is_row_letters_and_two_digit_position():
    assert rack_coordinate(Rack(id="r", name="x", row=3, position=7)) == "C07"
    assert rack_coordinate(Rack(id="r", name="x", row=28, position=12)) == "AB12"


def test_tia_port_id_uses_site_grid_and_the_lowest_ru(small):
    ids = Identifiers(small, "tia-606")
    # leaf: QM9700 (1U) at RU 40 in R1 (row 1, position 1); the "/" of "1/2" becomes "-"
    assert ids.port_id("leaf", "1/2") == "1A.A01-40:1-2"
    # DGX H100 is 8U in units 2-9: its position is its lowest unit, 2 (NetBox's, as every
    # other place that writes a position: model/rack_units.py)
    assert ids.port_id("dgx-a", "p1") == "1A.A02-02:p1"
    assert ids.cable_id(ids.port_id("dgx-a", "p1"), ids.port_id("leaf", "1/1")) == (
        "1A.A02-02:p1/1A.A01-40:1-1")
    assert ids.problems == []


def test_iso_profile_uses_plus_dot_and_colon(small):
    ids = Identifiers(small, "iso-14763")
    assert ids.port_id("dgx-b", "p2") == "+1A.A02.U12:p2"
    assert ids.profile_name == "ISO/IEC 14763-2"


def test_profile_follows_project_settings_and_site(small):
    update_settings(small, label_profile="iso-14763", site="DC3")
    assert Identifiers(small).port_id("spine", "1/1") == "+DC3.A01.U42:1-1"


def test_unplaced_device_is_named_and_reported(small):
    add_device(small, Device(id="loose", name="gpu-loose", model="nvidia-dgx-h100"))
    ids = Identifiers(small, "tia-606")
    assert ids.port_id("loose", "p1") == "1A.gpu-loose:p1"
    assert any("gpu-loose" in p and "no rack" in p for p in ids.problems)


def test_two_racks_on_one_grid_position_are_reported(small):
    add_rack(small, Rack(id="r3", name="R3", row=1, position=2))
    problems = Identifiers(small, "tia-606").problems
    assert any("R2" in p and "R3" in p and "A02" in p for p in problems)


def test_port_token_and_cable_number():
    assert port_token("swp3s1") == "swp3s1"
    assert port_token("5/1") == "5-1"
    assert cable_number(123) == "C000123"
    assert cable_number(1_234_567) == "C1234567"
