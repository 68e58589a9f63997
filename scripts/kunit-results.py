#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn KTAP files (from /sys/kernel/debug/kunit/<suite>/results) into one
"PASS: kunit <suite>.<case>[.<param>]" / "FAIL: ..." line per leaf test, by
way of the kernel's own parser (tools/testing/kunit/kunit.py parse --json).
Exit status 1 if any case failed or a file could not be parsed."""

import json
import os
import subprocess
import sys
import tempfile


def leaves(group, prefix):
    """Yield (name, status) for every leaf test case under a JSON group."""
    for case in group.get("test_cases", []):
        yield f"{prefix}{case['name']}", case["status"]
    for sub in group.get("sub_groups", []):
        yield from leaves(sub, f"{prefix}{sub['name']}.")


def main():
    if len(sys.argv) < 3:
        print("usage: kunit-results.py KERNEL_SRC KTAP...", file=sys.stderr)
        return 2
    kunit_py = os.path.join(sys.argv[1], "tools/testing/kunit/kunit.py")
    failed = 0
    for ktap in sys.argv[2:]:
        suite = os.path.basename(ktap).removesuffix(".ktap")
        with tempfile.NamedTemporaryFile(suffix=".json") as out:
            # kunit.py chdirs to the kernel tree: absolute paths only.
            subprocess.run([sys.executable, kunit_py, "parse",
                            f"--json={out.name}", os.path.abspath(ktap)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           check=False)
            try:
                result = json.load(open(out.name))
            except (OSError, ValueError):
                result = None
        cases = list(leaves(result, "")) if result else []
        if not cases:
            print(f"FAIL: kunit {suite}: no parseable results in {ktap}")
            failed = 1
            continue
        for name, status in cases:
            if status in ("PASS", "SKIP"):
                print(f"PASS: kunit {name}" + (" (skipped)" if status == "SKIP" else ""))
            else:
                print(f"FAIL: kunit {name}: {status}")
                failed = 1
    return failed


if __name__ == "__main__":
    sys.exit(main())
