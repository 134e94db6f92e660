"""Summarize a run of the array API conformance suite (data-apis/array-api-tests) from its
pytest-json-report file: the pass rate, passed / (passed + failed), with skips and xfails counted
apart, and every failing test with the first line of its error, grouped by test file.

    python3 scripts/array_api_report.py build/array-api/report.json
"""
import collections
import json
import sys


def first_line(test):
    for phase in ("setup", "call", "teardown"):
        info = test.get(phase, {})
        if info.get("outcome") == "failed":
            msg = info.get("crash", {}).get("message", "") or str(info.get("longrepr", ""))
            return msg.strip().splitlines()[0][:160] if msg.strip() else "(no message)"
    return "(no message)"


def main(path):
    with open(path) as f:
        report = json.load(f)
    tests = report.get("tests", [])
    counts = collections.Counter(t["outcome"] for t in tests)
    failed = [t for t in tests if t["outcome"] in ("failed", "error")]
    passed = counts["passed"]
    ran = passed + len(failed)
    rate = 100.0 * passed / ran if ran else 0.0
    print(f"array API conformance: {passed} passed, {len(failed)} failed, "
          f"{counts['skipped']} skipped, {counts['xfailed']} xfailed, {counts['xpassed']} xpassed")
    print(f"pass rate {rate:.1f}% (passed / (passed + failed); skips and xfails apart)")
    by_file = collections.defaultdict(list)
    for t in failed:
        name = t["nodeid"].split("array_api_tests/")[-1]
        by_file[name.split("::")[0]].append((name.split("::", 1)[-1], first_line(t)))
    for fname in sorted(by_file):
        print(f"\n{fname}: {len(by_file[fname])} failed")
        for name, msg in by_file[fname]:
            print(f"  {name}\n      {msg}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
