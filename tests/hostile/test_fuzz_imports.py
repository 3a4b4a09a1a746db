"""Property-based fuzz of the two other files a user hands aicnet: NetBox device types
(`aicnet catalog import-netbox`) and price lists (`aicnet bom --prices`).

Device types start from a real file of the NetBox device-type library (tests/data, the SN5600)
with values replaced by hostile ones (mutation.py), YAML written out, then sometimes bytes
spliced in: deep nesting, aliases, tags, huge numbers, tabs.  Price lists are a few good rows
with rows, fields and bytes made hostile: long and quoted fields, line breaks in quotes, BOMs,
UTF-16, bytes that are no text, NULs, huge and odd numbers, extra columns, mixed currencies.
Each runs through the command line in a bounded child (bounded.py).  The property: a result or
one message (exit 0, 1 or 2), never an internal error, a traceback, a hang or gigabytes.

Seeded and bounded (150 examples each: about 10 s for both on this two-core machine), so
`make test` runs the same inputs every time.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from hypothesis import given, seed, settings
from hypothesis import strategies as st
from minimal import put
from mutation import FUZZ, checked, leaf_paths, mutated, spliced

import aicnet_gui.cli.commands.bom
import aicnet_gui.cli.commands.catalog  # noqa: F401 - imported once here, not in every child

ROOT = Path(__file__).resolve().parents[2]
DEVICE_TYPE = yaml.safe_load((ROOT / "tests" / "data" / "netbox-devicetypes" / "Nvidia" /
                              "SN5600.yaml").read_text())
DEVICE_TYPE["interfaces"] = DEVICE_TYPE["interfaces"][:12]  # a short file: quicker to fuzz
DEVICE_PATHS = list(leaf_paths(DEVICE_TYPE))
IMPORTS = settings(FUZZ, max_examples=150)

YAML_SPLICES = st.sampled_from([
    "[" * 60, "{a: " * 40, "&a x", "*a", "!!python/object/apply:os.system ['true']", "9" * 5000,
    "0x" + "f" * 100, "1e999", ".nan", "\t", "? ", "- ", "'", '"\\ud800"', "2020-02-30",
    "<<: {u_height: 1}", "\x00", "\u2028", "%YAML 1.1\n---\n",
])


#: YAML written in place of one value: what only a raw file can hold
RAW_VALUES = st.sampled_from([
    "[" * 1000 + "]" * 1000, "{a: " * 200 + "1" + "}" * 200, "9" * 5000, "-" + "9" * 5000,
    "0x" + "f" * 5000, "1" * 4300 + ".5", "!!python/name:os.system", "!!binary AAAA", "&a [1, 2]",
    "*a", ".inf", "-.inf", ".nan", "2020-02-30", "1_000_000_000_000_000", "190:20:30",
])
#: interface names: numbers past any cage, slot/port forms, long names
PORT_NAMES = st.sampled_from([
    "swp99999999", "swp0", "Ethernet1/99999999", "P99999999.0", "P1.99999999", "swp" + "9" * 60,
    "x" * 5000, "1" * 5000, "swp1s" + "9" * 30, "eth" + "1" * 4400, "", "swp-1", "P1.1.1"])
_MARK = "ZZRAWVALUEZZ"


@seed(33)
@IMPORTS
@given(data=st.data())
def test_fuzzed_netbox_device_types_end_in_a_result_or_a_message(data, tmp_path_factory):
    base = mutated(DEVICE_TYPE, DEVICE_PATHS, data)
    for _ in range(data.draw(st.integers(0, 2), label="hostile port names")):
        index = data.draw(st.integers(0, len(DEVICE_TYPE["interfaces"]) - 1), label="interface")
        if isinstance(base.get("interfaces"), list) and index < len(base["interfaces"]) \
                and isinstance(base["interfaces"][index], dict):
            base["interfaces"][index]["name"] = data.draw(PORT_NAMES, label="port name")
    raw_value = data.draw(st.one_of(st.none(), RAW_VALUES), label="raw value")
    if raw_value is not None:
        paths = list(leaf_paths(base))
        base = put(base, data.draw(st.sampled_from(paths), label="raw at"), _MARK)
    text = yaml.safe_dump(base, sort_keys=False, allow_unicode=True)
    if raw_value is not None:
        text = text.replace(_MARK, raw_value)
    raw = text.encode("utf-8", "surrogatepass")
    if data.draw(st.booleans(), label="splice YAML"):
        at = data.draw(st.integers(0, len(raw)), label="at")
        raw = raw[:at] + data.draw(YAML_SPLICES, label="insert").encode("utf-8",
                                                                       "surrogatepass") + raw[at:]
    if data.draw(st.booleans(), label="splice bytes"):
        raw = spliced(raw, data)
    file = tmp_path_factory.mktemp("devicetype") / "device.yaml"
    file.write_bytes(raw)
    checked(["catalog", "import-netbox", str(file), "--dry-run"])


GOOD_ROWS = [["nvidia-qm9700", "23000", "USD", "2026-11-30"],
             ["MFP7E10-N003", "310.5", "USD", "2026-11-01"],
             ["nvidia-mfp7e10@3", "299", "USD", "2026-10-15"]]
HOSTILE_FIELDS = st.one_of(
    st.sampled_from(["x" * 140_000, "y" * 4_000 + "\n" * 2]),  # past the csv module's limit
    st.sampled_from(["", " ", "x" * 5000, "x" * 140_000, '"', '"a"b"', "a\nb", "\r", "\x00",
                     "1e999", "-1", "nan", "inf", "1" * 400, "0x10", "１２", "EUR", "usd", "USDX",
                     "2026-02-30", "99999-01-01", "=1+1", "\ufeffpart", "\u2028", "a,b", "\t"]),
    st.text(max_size=20),
)
HEADERS = [["part", "unit_price", "currency", "date"], ["Part", "Unit_Price", "CURRENCY", "Date"],
           ["part", "part", "currency", "date"], ["part", "price"], []]


def _csv_line(fields: list[str], separator: str, quote: bool) -> str:
    if quote:
        fields = ['"' + f.replace('"', '""') + '"' for f in fields]
    return separator.join(fields)


@seed(33)
@IMPORTS
@given(data=st.data())
def test_fuzzed_price_lists_end_in_a_result_or_a_message(data, tmp_path_factory):
    header = data.draw(st.one_of(st.just(HEADERS[0]), st.sampled_from(HEADERS)), label="header")
    rows = [list(r) for r in GOOD_ROWS[:data.draw(st.integers(0, 3), label="rows")]]
    for _ in range(data.draw(st.integers(0, 3), label="hostile rows")):
        row = list(data.draw(st.sampled_from(GOOD_ROWS), label="row"))
        for _ in range(data.draw(st.integers(1, 3), label="fields")):
            column = data.draw(st.integers(0, 4), label="column")
            value = data.draw(HOSTILE_FIELDS, label="value")
            row[column:column + 1] = [value]
        rows.insert(data.draw(st.integers(0, len(rows)), label="where"), row)
    separator = data.draw(st.sampled_from([",", "\t", ";"]), label="separator")
    quote = data.draw(st.booleans(), label="quote")
    text = "\n".join(_csv_line(r, separator, quote) for r in [header, *rows]) + "\n"
    encoding = data.draw(st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "latin-1"]),
                         label="encoding")
    raw = text.encode(encoding, "replace")
    if data.draw(st.booleans(), label="splice bytes"):
        raw = spliced(raw, data)
    file = tmp_path_factory.mktemp("prices") / "prices.csv"
    file.write_bytes(raw)
    checked(["bom", str(ROOT / "examples" / "small-hgx.fabric"), "--prices", str(file)])
