"""Import `aicnet export --netbox` folders into a real NetBox, as a user would, and say what it
accepted and rejected, file by file and row by row.  Not run by CI (it needs a NetBox checkout,
PostgreSQL and Redis); the rules it found are encoded in tests/report/test_netbox_rules.py.

Run it with NetBox's own Python (its requirements installed), against a NetBox whose
`netbox/netbox/configuration.py` points at a database that `manage.py migrate` has prepared:

    NETBOX-VENV/bin/python tools/netbox_check.py --netbox /path/to/netbox-checkout \\
        OUT/small-hgx OUT/roce-enterprise ...      # folders written by aicnet export --netbox

Every folder is imported into an emptied database (`flush`; `--preload-manufacturer Nvidia`
first creates the manufacturers a NetBox that loaded the device-type library has), through NetBox's own bulk-import
views (the Django test client, logged in as a superuser): sites.csv, manufacturers.csv,
device_roles.csv, each device-types/**/*.yaml, racks.csv, devices.csv, interfaces.csv,
cables.csv.  A file is first posted whole, as a user pastes it; NetBox imports a file all or
nothing, so a file it refuses is then posted row by row, which counts the rows it accepts and
groups the reasons of the ones it refuses.  The report is printed as JSON (`--json`) or text.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ORDER: tuple[tuple[str, str, str], ...] = (
    ("sites.csv", "/dcim/sites/import/", "dcim.Site"),
    ("manufacturers.csv", "/dcim/manufacturers/import/", "dcim.Manufacturer"),
    ("device_roles.csv", "/dcim/device-roles/import/", "dcim.DeviceRole"),
    ("device-types/", "/dcim/device-types/import/", "dcim.DeviceType"),
    ("racks.csv", "/dcim/racks/import/", "dcim.Rack"),
    ("devices.csv", "/dcim/devices/import/", "dcim.Device"),
    ("interfaces.csv", "/dcim/interfaces/import/", "dcim.Interface"),
    ("cables.csv", "/dcim/cables/import/", "dcim.Cable"),
)


def _django(netbox: Path) -> None:
    sys.path.insert(0, str(netbox / "netbox"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "netbox.settings")
    import django

    django.setup()
    from django.test.utils import setup_test_environment

    setup_test_environment()  # the client keeps the rendered form, with its errors


def _client(preload: list[str]) -> Any:
    from dcim.models import Manufacturer
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client
    from django.utils.text import slugify

    call_command("flush", interactive=False, verbosity=0)
    for name in preload:  # as a NetBox that loaded the device-type library has them
        Manufacturer.objects.create(name=name, slug=slugify(name))
    user = get_user_model().objects.create_superuser("aicnet-check", "check@example.invalid",
                                                     "aicnet-check-password")
    client = Client()
    client.force_login(user)
    return client


def _count(label: str) -> int:
    from django.apps import apps

    return apps.get_model(label).objects.count()


def _errors(response: Any) -> list[str]:
    context = response.context
    form = context.get("form") if context is not None else None
    if form is None:
        return [f"HTTP {response.status_code}"]
    return [re.sub(r"\s+", " ", str(e)) for e in form.non_field_errors()] + [
        f"{field}: {' '.join(str(x) for x in errs)}"
        for field, errs in form.errors.items() if field != "__all__"]


def _post(client: Any, url: str, data: str, kind: str) -> tuple[bool, list[str]]:
    fields = {"data": data, "format": kind, "import_method": "direct"}
    if kind == "csv":
        fields["csv_delimiter"] = ","
    response = client.post(url, fields)
    if response.status_code == 302:
        return True, []
    return False, _errors(response)


def _reason(message: str) -> str:
    """A refusal without its row number and names, to group alike ones."""
    text = re.sub(r"^Record \d+ ", "", message)
    return re.sub(r"\b[\w./-]*\d[\w./-]*\b", "…", text)[:200]


def _import_csv(client: Any, url: str, label: str, path: Path) -> dict[str, Any]:
    text = path.read_text(encoding="utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    header, body = rows[0], [r for r in rows[1:] if any(c.strip() for c in r)]
    before = _count(label)
    whole, errors = _post(client, url, text, "csv")
    result: dict[str, Any] = {"rows": len(body), "whole_file": "accepted" if whole else "refused"}
    if whole:
        result.update(accepted=_count(label) - before, rejected=0)
        return result
    result["first_error"] = errors[:3]
    reasons: Counter[str] = Counter()
    examples: dict[str, str] = {}
    accepted = 0
    for row in body:
        buffer = io.StringIO()
        csv.writer(buffer).writerows([header, row])
        ok, row_errors = _post(client, url, buffer.getvalue(), "csv")
        if ok:
            accepted += 1
            continue
        reason = _reason(row_errors[0] if row_errors else "refused")
        reasons[reason] += 1
        examples.setdefault(reason, (row_errors or [""])[0][:300])
    result.update(accepted=accepted, rejected=len(body) - accepted,
                  reasons=[{"count": n, "reason": r, "example": examples[r]}
                           for r, n in reasons.most_common()])
    return result


def _import_device_types(client: Any, url: str, label: str, folder: Path) -> dict[str, Any]:
    files = sorted(folder.rglob("*.yaml"))
    accepted, refused = 0, []
    for path in files:
        ok, errors = _post(client, url, path.read_text(encoding="utf-8"), "yaml")
        if ok:
            accepted += 1
        else:
            refused.append({"file": str(path.relative_to(folder)), "errors": errors[:3]})
    return {"rows": len(files), "accepted": accepted, "rejected": len(refused),
            "refused": refused, "objects": _count(label)}


def check_folder(folder: Path, preload: list[str]) -> dict[str, Any]:
    client = _client(preload)
    report: dict[str, Any] = {}
    for name, url, label in ORDER:
        path = folder / name
        if name.endswith("/"):
            report[name] = _import_device_types(client, url, label, path) if path.is_dir() \
                else {"missing": True}
        elif path.exists():
            report[name] = _import_csv(client, url, label, path)
        else:
            report[name] = {"missing": True}
    return report


def _text(folder: str, report: dict[str, Any]) -> str:
    lines = [f"{folder}:"]
    for name, result in report.items():
        if result.get("missing"):
            lines.append(f"  {name:18} (not in the folder)")
            continue
        head = (f"  {name:18} {result['accepted']} of {result['rows']} accepted"
                + (f", whole file {result['whole_file']}" if "whole_file" in result else ""))
        lines.append(head)
        for reason in result.get("reasons", []):
            lines.append(f"      {reason['count']} refused: {reason['example']}")
        for refused in result.get("refused", []):
            lines.append(f"      {refused['file']}: {'; '.join(refused['errors'])}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--netbox", required=True, type=Path, help="the NetBox checkout")
    parser.add_argument("folders", nargs="+", type=Path, help="aicnet export --netbox folders")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--preload-manufacturer", action="append", default=[], metavar="NAME",
                        help="create this manufacturer first, as a NetBox that loaded the "
                             "device-type library has it (e.g. Nvidia); repeatable")
    args = parser.parse_args(argv)
    _django(args.netbox.resolve())
    reports = {str(folder): check_folder(folder.resolve(), args.preload_manufacturer)
               for folder in args.folders}
    if args.json:
        print(json.dumps(reports, indent=2))
    else:
        print("\n\n".join(_text(folder, report) for folder, report in reports.items()))
    clean = all(r.get("rejected", 0) == 0 for report in reports.values() for r in report.values())
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main())
