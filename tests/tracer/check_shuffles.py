#!/usr/bin/env python3
"""trace.tracer_shuffles: a lab 05 trace (warp scans by __shfl_up_sync) carries its shuffles, and
each one's source lanes are what the kind says: for `up` by delta d, lane l reads lane l - d and
lanes below d keep their own value; `down` and `xor` likewise; `idx` reads one lane per segment.
Lanes reading the same source receive the same value, and in a register scan (up by d, then by
2d) what a lane receives is the sum its source lane held after the step before.

usage: check_shuffles.py TRACE.json
"""
import json
import sys


def fail(text):
    print(f"check_shuffles: {text}")
    sys.exit(1)


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        trace = json.load(f)
    if trace["version"] < 3:
        fail(f"version {trace['version']}: shuffles came with version 3")
    shuffles = trace.get("shuffles", [])
    if not shuffles:
        fail("the trace has no shuffles")
    kinds = set()
    for k, shuffle in enumerate(shuffles):
        lanes = shuffle["lanes"]
        kinds.add(shuffle["kind"])
        if shuffle["value_type"] != "i32" or shuffle["width"] != 4:
            fail(f"shuffles[{k}]: a scan of ints shuffles i32, not {shuffle['value_type']}")
        if [l["lane"] for l in lanes] != sorted({l["lane"] for l in lanes}):
            fail(f"shuffles[{k}]: lanes not in increasing order")
        moved = [l for l in lanes if l["source"] != l["lane"]]
        if shuffle["kind"] == "up":
            deltas = {l["lane"] - l["source"] for l in moved}
            if len(deltas) != 1 or min(deltas) <= 0:
                fail(f"shuffles[{k}]: an up shuffle with sources at deltas {sorted(deltas)}")
            delta = deltas.pop()
            for l in lanes:
                want = l["lane"] - delta if l["lane"] >= delta else l["lane"]
                if l["source"] != want:
                    fail(f"shuffles[{k}]: lane {l['lane']} read lane {l['source']}, "
                         f"expected {want} (up by {delta})")
        elif shuffle["kind"] == "down":
            deltas = {l["source"] - l["lane"] for l in moved}
            if len(deltas) > 1 or (deltas and min(deltas) <= 0):
                fail(f"shuffles[{k}]: a down shuffle with sources at deltas {sorted(deltas)}")
        elif shuffle["kind"] == "xor":
            masks = {l["source"] ^ l["lane"] for l in moved}
            if len(masks) > 1:
                fail(f"shuffles[{k}]: an xor shuffle with masks {sorted(masks)}")
        by_source = {}
        for l in lanes:
            by_source.setdefault(l["source"], set()).add(l["value"])
        for source, values in by_source.items():
            if len(values) != 1:
                fail(f"shuffles[{k}]: lanes reading lane {source} got different values {values}")
    if "up" not in kinds:
        fail(f"lab 05's warp scan shuffles up; the trace has {sorted(kinds)}")
    # Register dataflow of a Hillis-Steele warp scan: consecutive up shuffles of one warp at one
    # line with deltas d then 2d. Lane l receives x(l - 2d) after the step by d, which is what
    # lane l - 2d + d received then plus what lane l - 2d received then... that is, with r the
    # values received at the step by d: r2(l) = r(l - d) + r(l - 2d) when l - 2d >= d.
    chained = 0
    previous = {}
    for shuffle in shuffles:
        key = (shuffle["block"], shuffle["warp"])
        values = {l["lane"]: l["value"] for l in shuffle["lanes"]}
        delta = {l["lane"] - l["source"] for l in shuffle["lanes"] if l["source"] != l["lane"]}
        before = previous.get(key)
        if (shuffle["kind"] == "up" and len(delta) == 1 and before and before[0] == "up"
                and before[1] * 2 == min(delta) and before[2] == shuffle["source"]["line"]):
            d = before[1]
            for lane, value in values.items():
                if lane - 2 * d >= d and lane - d in before[3] and lane - 2 * d in before[3]:
                    want = before[3][lane - d] + before[3][lane - 2 * d]
                    if value != want:
                        fail(f"block {key[0]} warp {key[1]}: lane {lane} received {value} at "
                             f"delta {2 * d}, but the step by {d} makes it {want}")
                    chained += 1
        previous[key] = (shuffle["kind"], min(delta) if len(delta) == 1 else 0,
                         shuffle["source"]["line"], values)
    if chained == 0:
        fail("no consecutive up shuffles of a warp scan to check the register dataflow of")
    print(f"{len(shuffles)} shuffles checked ({', '.join(sorted(kinds))}); "
          f"{sum(len(s['lanes']) for s in shuffles)} lanes, {chained} values checked against "
          "the step before")


if __name__ == "__main__":
    main()
