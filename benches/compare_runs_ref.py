#!/usr/bin/env python3
"""The reference for benches/compare_runs.mjs: the same comparison in Python, on the same ADK
result files: json.load, then COMPARE.md with numpy, scipy and statsmodels (the implementation in
tools/compare-oracle/oracle.py, which the tests check evalcore against). Prints the best times
and the comparison as JSON.

    python benches/compare_runs_ref.py --repeat 3 --baseline A.json ... --candidate B.json ...
"""

import argparse
import json
import sys
import time

from oracle import compare  # tools/compare-oracle, on PYTHONPATH


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--baseline", nargs="+", required=True)
    ap.add_argument("--candidate", nargs="+", required=True)
    a = ap.parse_args()
    loads, compares, totals = [], [], []
    result = None
    for _ in range(a.repeat):
        t0 = time.perf_counter()
        sides = []
        for paths in (a.baseline, a.candidate):
            side = []
            for p in paths:
                with open(p, encoding="utf-8") as f:
                    side.append(json.load(f))
            sides.append(side)
        t1 = time.perf_counter()
        result = compare(sides[0], sides[1])
        t2 = time.perf_counter()
        loads.append(t1 - t0)
        compares.append(t2 - t1)
        totals.append(t2 - t0)
    ms = lambda xs: min(xs) * 1000
    json.dump({"times": {"load_min": ms(loads), "compare_min": ms(compares), "total_min": ms(totals)}, "comparison": result}, sys.stdout)


if __name__ == "__main__":
    main()
