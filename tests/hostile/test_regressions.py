"""Each hostile input that once ended in "internal error", a hang or gigabytes of memory, as
its minimal file: now one message naming the file and the place (exit 2), or for a user
catalog, the bad entry skipped and reported while the rest loads."""

from __future__ import annotations

import json

import pytest
from minimal import CABLE, FABRIC, SWITCH, catalog_text, fabric_bytes, put

from aicnet_gui.fileio import fabric_file, pieces
from aicnet_gui.model import limits
from tests.doc_edits import add_link

CAGE = ("catalog", "devices", 0, "cages", 0)

FABRIC_CASES = {
    # a cage count is expanded into a set of cage numbers: 10^8 took 4.7 GB, 10^12 hung
    "cage count 10^8": (CAGE + ("count",), 10**8, "less than or equal to 1024"),
    "cage count 10^12": (CAGE + ("count",), 10**12, "less than or equal to 1024"),
    "cages past 1024": (CAGE + ("first",), 1022, "cages 1022-1025: no device has a cage "
                        "numbered above 1024"),
    # a rail sizes a numpy array: 10^8 was killed by the kernel, negative failed in numpy
    "rail 10^8": (("links", 0, "rail"), 10**8, "less than or equal to 128"),
    "rail -1": (("links", 0, "rail"), -1, "greater than or equal to 0"),
    # integers past 64 bits overflowed inside the analysis
    "lane_gbps 2^70": (CAGE + ("lane_gbps",), 2**70, "exceeded maximum size"),
    "lane_gbps 2^62": (CAGE + ("lane_gbps",), 2**62, "less than or equal to 400"),
    "cable legs 2^70": (("catalog", "cables", 0, "legs"), 2**70, "exceeded maximum size"),
    "cable legs 2^62": (("catalog", "cables", 0, "legs"), 2**62, "less than or equal to 16"),
    # a breakout of 0 legs divided by zero
    "breakout 0x0G": (CAGE + ("breakouts",), ["2x400G", "0x0G"], "1 to 16 legs"),
    # port-name patterns went into str.format
    "port pattern {x}": (CAGE + ("port_names", "*"), "{x}", "unknown placeholder {x}"),
    "port pattern swp{": (CAGE + ("port_names", "*"), "swp{", "unbalanced brace"),
    "port pattern {0}": (CAGE + ("port_names", "*"), "{0}", "unknown placeholder {0}"),
    "port pattern huge width": (CAGE + ("port_names", "*"), "{cage:>200000000}",
                                "the only format is a zero-padded width"),
    "naming pattern huge width": (("settings", "naming", "leaf"), "leaf-{n:>200000000}",
                                  "the only format is a zero-padded width"),
    "name of a million characters": (("devices", 0, "name"), "x" * 10**6,
                                     "at most 256 characters"),
    "length of 10^300 m": (("links", 0, "length_m"), 1e300, "less than or equal to 100000"),
}


@pytest.mark.parametrize("case", FABRIC_CASES, ids=list(FABRIC_CASES))
def test_a_fabric_with_an_impossible_value_is_refused_with_its_place(case, aicnet, tmp_path):
    path, value, message = FABRIC_CASES[case]
    file = tmp_path / "bad.fabric"
    file.write_bytes(fabric_bytes(path, value))
    code, _out, err = aicnet("validate", str(file))
    assert code == 2, err
    if path[-1] in ("first", "breakouts") or path[-2] in ("port_names", "naming"):  # checked with the whole cage group
        path = path[:-1]
    place = "$." + ".".join(f"[{p}]" if isinstance(p, int) else p for p in path).replace(".[", "[")
    assert err.startswith(f"aicnet: error: {file}: {place}"), err
    assert message in err
    assert "Traceback" not in err and len(err) < 2000


def test_the_minimal_fabric_itself_is_fine(aicnet, tmp_path):
    file = tmp_path / "good.fabric"
    file.write_bytes(fabric_bytes())
    code, out, err = aicnet("info", str(file))
    assert code == 0, err
    assert "devices: 2" in out


def test_deeply_nested_json_is_refused(aicnet, tmp_path):
    file = tmp_path / "deep.fabric"
    file.write_bytes(fabric_bytes(("metadata",), None).replace(
        b'"metadata": null', b'"metadata": ' + b"[" * 100_000 + b"]" * 100_000))
    code, _out, err = aicnet("validate", str(file))
    assert code == 2 and "Traceback" not in err


@pytest.mark.parametrize("layout", ["as aicnet writes it", "hand-written"])
def test_a_design_with_more_links_than_the_limit_is_refused_with_the_limit(
        layout, aicnet, tmp_path, monkeypatch, small):
    from aicnet_gui.fileio import dumps_fabric
    from aicnet_gui.model.fabric import Endpoint, Link

    for n, port in ((2, "5/2"), (3, "1/1"), (4, "1/2")):
        add_link(small, Link(id=f"x{n}", a=Endpoint("gpu1", f"p{n}"), b=Endpoint("leaf1", port)))
    raw = dumps_fabric(small)
    if layout == "hand-written":
        raw = json.dumps(json.loads(raw)).encode()
    file = tmp_path / "big.fabric"
    file.write_bytes(raw)
    monkeypatch.setattr(pieces, "MAX_LINKS", 3)
    monkeypatch.setattr(fabric_file, "MAX_LINKS", 3)
    monkeypatch.setitem(fabric_file.SECTION_LIMITS, "links", 3)
    code, _out, err = aicnet("validate", str(file))
    assert code == 2
    assert f"{file}: $.links: a design holds at most 3 links; this one has 4" in err


def test_the_model_itself_refuses_more_links_than_the_limit():
    from aicnet_gui.model.fabric import Fabric

    assert Fabric.model_fields["links"].metadata[0].max_length == limits.MAX_LINKS == 3_000_000
    assert Fabric.model_fields["devices"].metadata[0].max_length == limits.MAX_DEVICES


def test_a_file_past_the_size_limit_is_refused_before_it_is_read(aicnet, tmp_path, monkeypatch):
    file = tmp_path / "huge.fabric"
    file.write_bytes(fabric_bytes())
    monkeypatch.setattr(fabric_file, "MAX_FABRIC_BYTES", 100)
    code, _out, err = aicnet("info", str(file))
    assert code == 2
    assert f"{file}: the file has {file.stat().st_size:,} bytes" in err
    assert "at most 100 bytes" in err


# ------------------------------------------------------------------------- user catalogs

CATALOG_CASES = {
    "cage count 10^12": (put(SWITCH, ("cages", 0, "count"), 10**12), "cages.0.count",
                         "less than or equal to 1024"),
    "cage count 10^8": (put(SWITCH, ("cages", 0, "count"), 10**8), "cages.0.count",
                        "less than or equal to 1024"),
    "lane_gbps 2^70": (put(SWITCH, ("cages", 0, "lane_gbps"), 2**70), "cages.0.lane_gbps",
                       "less than or equal to 400"),
    "port pattern huge width": (put(SWITCH, ("cages", 0, "port_names", "*"), "{cage:>200000000}"),
                                "cages.0.port_names", "zero-padded width"),
    "port pattern {0}": (put(SWITCH, ("cages", 0, "port_names", "1"), "{0}"),
                         "cages.0.port_names", "unknown placeholder"),
    "cable legs 2^70": (put(CABLE, ("legs",), 2**70), "legs", "less than or equal to 16"),
    "breakout 0x0G": (put(SWITCH, ("cages", 0, "breakouts"), ["0x0G"]), "cages.0.breakouts",
                      "1 to 16 legs"),
}


@pytest.mark.parametrize("case", CATALOG_CASES, ids=list(CATALOG_CASES))
def test_a_bad_user_catalog_entry_is_skipped_and_reported_and_the_rest_loads(
        case, aicnet, user_catalog):
    entry, field, message = CATALOG_CASES[case]
    path = user_catalog(catalog_text([entry]))
    code, out, _err = aicnet("catalog", "list")
    assert code == 0
    assert "acme-good" in out and "nvidia-" in out  # the file's good entry and the built-ins
    (warning,) = [line for line in out.splitlines() if line.startswith("warning:")]
    assert warning.startswith(f"warning: {path}: entry 1 ({entry['id']}): {field}")
    assert message in warning


BILLION_LAUGHS = """\
format: aicnet.catalog
version: &v [lol, lol, lol, lol, lol, lol, lol, lol, lol]
a: &a [*v, *v, *v, *v, *v, *v, *v, *v, *v]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]
h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]
i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]
entries: []
"""


def test_a_billion_laughs_user_catalog_is_refused_and_every_command_still_runs(
        aicnet, user_catalog, tmp_path):
    path = user_catalog(BILLION_LAUGHS)
    code, out, _err = aicnet("catalog", "list")
    assert code == 0 and "nvidia-qm9700" in out
    (warning,) = [line for line in out.splitlines() if line.startswith("warning:")]
    assert warning == (f"warning: {path}: line 3, column 8: YAML aliases (*name) are not "
                       "allowed in aicnet's YAML files (catalogs, device types, requirements); "
                       "write the value out")
    design = tmp_path / "good.fabric"
    design.write_bytes(fabric_bytes())
    assert aicnet("info", str(design))[0] == 0


def test_a_value_quoted_in_a_catalog_warning_is_shortened(aicnet, user_catalog):
    nested = "[" * 20 + "]" * 20  # (deeper than 32 levels is refused: test_round_two_defects)
    path = user_catalog(f"format: {nested}\nversion: 1\nentries: []\n")
    code, out, _err = aicnet("catalog", "list")
    assert code == 0
    (warning,) = [line for line in out.splitlines() if line.startswith("warning:")]
    assert warning == f"warning: {path}: format: format is [[[...]]]; expected 'aicnet.catalog'"


def test_a_catalog_file_past_the_limits_is_refused_with_the_limit(
        aicnet, user_catalog, monkeypatch):
    from aicnet_gui.catalog import loader

    path = user_catalog(catalog_text([put(SWITCH, ("id",), f"acme-{n}") for n in range(3)]))
    monkeypatch.setattr(loader, "MAX_CATALOG_ENTRIES", 3)
    out = aicnet("catalog", "list")[1]
    assert (f"warning: {path}: entries: a catalog file holds at most 3 entries; this one has 4"
            in out)
    assert "acme-0" not in out
    monkeypatch.setattr(loader, "MAX_CATALOG_BYTES", 50)
    out = aicnet("catalog", "list")[1]
    assert f"warning: {path}: the file has {path.stat().st_size:,} bytes; a catalog file is at " \
           "most 50 bytes" in out


def test_the_minimal_catalog_and_fabric_are_what_the_cases_change():
    assert FABRIC["catalog"]["devices"][0] is SWITCH  # the cases change a copy
    assert json.loads(fabric_bytes(CAGE + ("count",), 5))["catalog"]["devices"][0]["cages"][0][
        "count"] == 5


def test_a_yaml_escape_that_is_not_a_character_skips_its_entry(aicnet, user_catalog):
    # found by the fuzz: "\ud800" made a lone surrogate that could not be printed (exit 3)
    text = catalog_text([put(SWITCH, ("vendor",), "PLACEHOLDER")]).replace(
        '"PLACEHOLDER"', '"Acme \\ud800"')
    path = user_catalog(text)
    code, out, _err = aicnet("catalog", "list")
    assert code == 0 and "acme-good" in out
    assert (f"warning: {path}: entry 1: a text holds an escape (\\uD800-\\uDFFF) that is not a "
            "character") in out


def test_a_netbox_device_type_file_with_aliases_is_refused(tmp_path):
    from aicnet_gui.catalog.netbox_import import NetBoxImportError, import_device_type_file

    path = tmp_path / "laughs.yaml"
    path.write_text(BILLION_LAUGHS)
    with pytest.raises(NetBoxImportError, match="line 3, column 8: YAML aliases"):
        import_device_type_file(path)
