"""What cannot be built says why in a buyer's words; a requirement nothing can meet is refused
before anything is built, with what would work; a bad price list is reported line by line and
the cost is then incomplete, never a made-up total; without a price list the cost says so."""

from __future__ import annotations

import pytest

from aicnet_gui.catalog.prices import PriceListError, load_price_list
from aicnet_gui.model.fabric import Requirement
from aicnet_gui.model.limits import MAX_PRICE_LINE
from aicnet_gui.study import Study, StudyError, run_study
from aicnet_gui.study.price_check import check_price_list

from .conftest import DATA, TEST_PRICES


def _study(catalog, tmp_path=None, prices=None, **fields):
    study = Study.prepare(Requirement(**fields), catalog, prices=prices)
    return run_study(study, tmp_path, workers=0)


def _reasons(result) -> dict[str, str]:
    return {c.name: c.reason for c in result.candidates if c.metrics is None}


def test_four_planes_on_a_switch_without_200g_say_so(catalog):
    # DGX B300: one 800G ConnectX-8 per GPU, split 4 x 200G for four planes; the Q3400-RA's
    # OSFP cages run 2 x 800G or 4 x 400G (catalog, NVIDIA's Quantum-X800 documents)
    result = _study(catalog, servers=64, server="nvidia-dgx-b300", leaves=["nvidia-q3400-ra"],
                    sweep={"planes": [1, 4]})
    reason = _reasons(result)["q3400-ra-4plane"]
    assert reason == ("4 planes run each GPU's NIC as 4 x 200G ports, and the Q3400-RA does "
                      "not offer 200G (it runs 800G, 400G)")
    assert result.candidates[0].metrics is not None  # one plane builds


def test_a_switch_that_cannot_carry_the_nics_and_the_wrong_technology_say_so(small_study,
                                                                              catalog):
    _study_, result, _out = small_study
    reasons = _reasons(result)
    assert set(reasons) == {"sn4600c-1to1", "sn4600c-2to1"}
    assert "the DGX H100 does not offer" not in reasons["sn4600c-1to1"]
    assert "share no port speed (DGX H100: 400G; SN4600C: 50G, 100G" in reasons["sn4600c-1to1"]
    result = _study(catalog, servers=16, leaves=["nvidia-qm9700"], technologies=["rocev2"])
    assert _reasons(result)["qm9700"] == ("the switches are InfiniBand switches; they carry "
                                          "InfiniBand, not Ethernet")
    result = _study(catalog, servers=16, leaves=["nvidia-sn5600"], technologies=["infiniband"])
    assert _reasons(result)["sn5600"] == ("the switches are Ethernet switches; they carry RoCEv2 "
                                          "or Ethernet, not InfiniBand")


def test_combinations_no_template_builds_say_why(catalog):
    result = _study(catalog, servers=64, leaves=["nvidia-qm9700"],
                    sweep={"planes": [2], "layouts": ["rail"]})
    assert "2 planes are built as rail-optimized scalable units" in _reasons(result)["qm9700"]
    result = _study(catalog, servers=64, leaves=["nvidia-qm9700"],
                    sweep={"oversubscription": [3], "layouts": ["rail-optimized"]})
    assert "1:1 by design" in _reasons(result)["qm9700"]
    result = _study(catalog, servers=97, leaves=["nvidia-qm9700"],
                    sweep={"layouts": ["rail-optimized"]})
    assert _reasons(result)["qm9700"] == (
        "97 servers do not split into equal scalable units of up to 32 (the server's "
        "reference SU); 96 or 128 servers would")


def test_two_tiers_too_small_give_the_generators_reason(catalog):
    # 300 DGX H100 in rail groups of 32 (a 1:1 leaf has 32 ports down): 10 groups x 8 rails =
    # 80 leaves, more than a 64-port QM9700 spine reaches in two tiers
    result = _study(catalog, servers=300, leaves=["nvidia-qm9700"], sweep={"tiers": ["2"]})
    reason = _reasons(result)["qm9700"]
    assert "80 leaves" in reason and "use three tiers" in reason and "--" not in reason


def test_a_site_with_too_few_rows_is_listed_with_the_reason(catalog, tmp_path):
    result = _study(catalog, tmp_path, servers=64, leaves=["nvidia-qm9700"],
                    site={"racks_per_row": 8, "rows": 2})
    candidate = result.candidates[0]
    assert candidate.metrics is not None and candidate.feasible is False
    assert candidate.reason == f"needs {candidate.metrics.rows} rows of up to 8 racks; the " \
                               "site has 2"
    assert candidate.pareto.cost_time is None and candidate.pareto.power_time is None


def test_more_servers_than_three_tiers_of_the_largest_switch_connect_is_refused(catalog):
    # a k-port switch builds a three-tier fat tree of k^3/4 hosts at 1:1 (Al-Fares et al.,
    # SIGCOMM 2008): 64^3 / 4 = 65,536 NIC ports of the QM9700 = 8,192 DGX H100 (8 NICs each)
    with pytest.raises(StudyError) as info:
        Study.prepare(Requirement(servers=8193, leaves=["nvidia-qm9700"]), catalog)
    message = str(info.value)
    assert "8,193 DGX H100 (65,544 GPUs)" in message
    assert "connects at most 8,192 servers (65,536 GPUs)" in message
    assert "nvidia-q3400-ra" in message  # a catalog switch that would connect them
    Study.prepare(Requirement(servers=8192, leaves=["nvidia-qm9700"]), catalog)  # fits


def test_a_rack_budget_below_one_server_is_refused(catalog):
    with pytest.raises(StudyError, match=r"one DGX H100 draws 10\.2 kW at its maximum, more "
                       r"than the site's 8 kW rack budget.*at least 10\.2 kW.*holds 4"):
        Study.prepare(Requirement(servers=8, site={"rack_power_kw": 8}), catalog)


def test_unknown_models_and_oversized_workloads_are_refused(catalog):
    with pytest.raises(StudyError, match="'nvidia-qm9999' is not in the catalog; switches:"):
        Study.prepare(Requirement(servers=8, leaves=["nvidia-qm9999"]), catalog)
    with pytest.raises(StudyError, match="server model 'dgx-z' is not in the catalog"):
        Study.prepare(Requirement(servers=8, server="dgx-z"), catalog)
    with pytest.raises(StudyError, match="the workloads take 10 servers, and the cluster has 8"):
        Study.prepare(Requirement(servers=8, workloads=[
            {"id": "a", "gpus": 64}, {"id": "b", "servers": 2}]), catalog)


def test_a_bad_price_list_is_reported_line_by_line_and_the_cost_is_incomplete(catalog,
                                                                               tmp_path):
    result = _study(catalog, tmp_path, prices=DATA / "test-prices-bad.csv", servers=16,
                    leaves=["nvidia-qm9700"])
    lines = [p.split(": ", 1)[1] for p in result.price_problems]
    assert lines == [
        "line 3: unit_price: Input should be greater than or equal to 0 (row left out)",
        "line 6: part 'nvidia-qm9701' is not a catalog id, part number or model of the "
        "catalog (aicnet catalog list); it prices nothing",
        "line 7: part 'nvidia-mfp7e10' is a cable, priced per stock length: name it "
        "nvidia-mfp7e10@LENGTH (stock lengths 3, 5, 7, 10, 15, 20, 30, 50 m) or by its part "
        "number",
        "line 8: part 'nvidia-mfp7e10@4': 4 m is not a stock length of nvidia-mfp7e10 (3, 5, "
        "7, 10, 15, 20, 30, 50 m)",
        "line 10: date: Input should be a valid date or datetime, invalid character in year "
        "(row left out)",
        "line 12: part 'nvidia-mma4z00-ns' is listed twice (first on line 4); this row is "
        "left out",
    ]
    m = result.candidates[0].metrics
    assert m.cost is None and m.cost_incomplete
    assert "nvidia-qm9700" in m.unpriced  # its only row was negative
    assert m.cost_known > 0  # the good rows priced the rest
    assert "bad or unknown row" in m.cost_note


def test_a_bad_row_after_a_blank_line_is_reported_at_its_own_line(catalog, tmp_path):
    # the line a user opens in an editor, as `aicnet bom --prices` names it (the study used to
    # count rows, so a blank line put every later problem one line too early)
    prices = tmp_path / "prices.csv"
    prices.write_text("part,unit_price,currency,date\nnvidia-qm9700,1,USD,2026-01-01\n\n"
                      "nvidia-sn5600,-1,USD,2026-01-01\n")
    assert [p.line for p in check_price_list(prices, catalog).problems] == [4]
    with pytest.raises(PriceListError, match=r"prices\.csv: line 4: unit_price"):
        load_price_list(prices)


def test_the_study_reads_a_price_list_within_the_same_limits_as_the_bom(catalog, tmp_path):
    # a bad row is reported and the study goes on; a line past MAX_PRICE_LINE is the end of
    # the file for both readers, not a row the study takes
    prices = tmp_path / "prices.csv"
    prices.write_text(TEST_PRICES.read_text() + "nvidia-qm9700,-1,USD,2026-01-01\n"
                      + "x" * (MAX_PRICE_LINE + 1) + ",1,USD,2026-01-01\n")
    with pytest.raises(PriceListError, match=f"a line of more than {MAX_PRICE_LINE:,} bytes"):
        check_price_list(prices, catalog)


def test_a_clean_list_with_an_unknown_part_still_says_incomplete(catalog, tmp_path):
    prices = tmp_path / "prices.csv"
    prices.write_text(TEST_PRICES.read_text() + "nvidia-qm9701,1,USD,2026-01-01\n")
    result = _study(catalog, tmp_path, prices=prices, servers=16, leaves=["nvidia-qm9700"])
    m = result.candidates[0].metrics
    assert result.price_problems and m.cost is None and m.cost_incomplete
    assert m.unpriced == ()  # every part has a price, the list itself has a doubtful row


def test_without_a_price_list_the_cost_says_so(catalog):
    result = _study(catalog, servers=16, leaves=["nvidia-qm9700"])
    m = result.candidates[0].metrics
    assert m.cost is None and m.cost_incomplete and m.currency is None
    assert m.cost_note == "no price list: cost unknown (aicnet ships no prices)"
    assert m.cost_by_class is None


def test_a_file_that_is_no_price_list_is_refused(catalog, tmp_path):
    bad = tmp_path / "prices.csv"
    bad.write_text("part;price\nx;1\n")
    with pytest.raises(StudyError, match="the header needs the columns part, unit_price"):
        Study.prepare(Requirement(servers=8), catalog, prices=bad)


def test_a_rail_optimized_switch_that_cannot_carry_the_nics_is_a_refusal_not_a_bug(catalog):
    # multi-plane DGX B300 studies build rail-optimized SUs; an SN4600C (50G/100G) cannot carry
    # the ConnectX-8's ports: the generator's reason, not "aicnet could not evaluate"
    result = _study(catalog, servers=72, server="nvidia-dgx-b300", leaves=["nvidia-sn4600c"],
                    sweep={"planes": [2]})
    reason = _reasons(result)["sn4600c"]
    assert "could not evaluate" not in reason and "bug" not in reason, reason
    assert "share no port speed" in reason and reason.count("SN4600C:") == 1, reason


def test_fewer_servers_than_a_reference_su_are_one_smaller_su(catalog):
    # 32 DGX B300 on XDR: NVIDIA's reference SU is 72 nodes, but 32 servers are one SU of 32
    # (`aicnet generate rail-optimized --sus 1 --nodes-per-su 32` builds it), not a refusal
    # that asks the buyer for 72 servers
    result = _study(catalog, servers=32, server="nvidia-dgx-b300", leaves=["nvidia-q3400-ra"],
                    sweep={"planes": [1], "layouts": ["rail-optimized"]})
    (candidate,) = result.candidates
    assert candidate.reason is None and candidate.metrics is not None, candidate.reason
    assert candidate.metrics.servers == 32
    assert candidate.metrics.switches["leaf"] == {"nvidia-q3400-ra": 8}


def test_planes_on_a_server_without_one_nic_per_gpu_read_as_english(catalog):
    result = _study(catalog, servers=32, leaves=["nvidia-sn5600"], sweep={"planes": [2]})
    reason = _reasons(result)["sn5600"]
    assert reason.startswith("2 planes split each GPU's NIC over the planes, but DGX H100"), reason
