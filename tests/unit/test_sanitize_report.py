"""compute-sanitizer's reports, recorded on an H100 (bench/evaluator_bench.py), read back on the CPU."""

from pathlib import Path

from optiml_engine.gpu.sanitize import read_report

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "sanitizer"


def test_memcheck_report_of_an_out_of_bounds_access():
    report = read_report("memcheck", (FIXTURES / "memcheck-off_by_one_write.log").read_text(), 99)
    assert not report.ok and report.errors == 11


def test_racecheck_report_counts_hazards_and_names_the_kernel():
    report = read_report("racecheck", (FIXTURES / "racecheck-race_shared.log").read_text(), 99)
    assert not report.ok and report.errors == 3
    assert report.first_error.startswith("Error: Race reported between") and "row_sum_racy" in report.first_error


def test_clean_report():
    report = read_report("memcheck", "========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n", 0)
    assert report.ok and report.errors == 0 and report.first_error == ""


def test_missing_summary_is_not_clean():
    report = read_report("memcheck", "========= COMPUTE-SANITIZER\nSegmentation fault\n", 139)
    assert not report.ok and report.errors == -1 and report.first_error == "exit code 139"
