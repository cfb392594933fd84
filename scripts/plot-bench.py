#!/usr/bin/env python3
"""Plots what scanlab_bench measured (results.csv, results.json in OUT_DIR) as PNGs in OUT_DIR.

    scripts/plot-bench.py OUT_DIR

  throughput.png    GB/s against n for every global and segmented entry, with the copy, CUB and
                    the memory's peak as reference lines
  fraction.png      each entry's time as a fraction of CUB's in the same rounds, with its spread
  single_block.png  time per call of the single-block labs (01-03) against n

Needs matplotlib (Debian: python3-matplotlib). A size whose result was wrong has no number: its
line has a gap there (results.csv and the run's log say what was wrong).
"""
import argparse
import csv
import json
import math
import sys
from pathlib import Path

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit("plot-bench.py needs matplotlib (Debian: apt install python3-matplotlib)")

GROUP_TITLES = {
    "global": "global scan",
    "segmented": "segmented scan (CUB: InclusiveSumByKey)",
}


def number(text):
    return float(text) if text not in ("", "null", None) else math.nan


def read_results(csv_path):
    """Every row, its numbers as floats; a wrong or failed result has NaN (a gap in its line)."""
    rows = []
    with open(csv_path, newline="") as f:
        for row in csv.DictReader(f):
            ok = row["status"] == "ok"
            row["n"] = float(row["n"])
            for key in ("median_us", "gb_per_s", "elements_per_s", "of_memcpy", "of_memcpy_low",
                        "of_memcpy_high", "of_cub", "of_cub_low", "of_cub_high"):
                row[key] = number(row[key]) if ok else math.nan
            rows.append(row)
    return rows


def series(rows, group):
    """{entry: (label, role, [(n, row), ...])} for one group, in the order of the CSV."""
    out = {}
    for row in rows:
        if row["group"] != group:
            continue
        out.setdefault(row["entry"], (row["label"], row["role"], []))[2].append((row["n"], row))
    for _, _, points in out.values():
        points.sort(key=lambda p: p[0])
    return out


def style(role, group="global"):
    """How a line looks: the baselines are black or grey, the labs take the colour cycle."""
    if role == "memcpy":
        return dict(color="black", linewidth=2.2, linestyle="-")
    if role in ("cub", "cub_second") and group == "segmented":
        return dict(color="dimgrey", linewidth=1.6, linestyle="-.")
    if role == "cub":
        return dict(color="black", linewidth=1.6, linestyle="--")
    if role == "cub_newest":
        return dict(color="dimgrey", linewidth=1.6, linestyle="--")
    if role == "baseline":
        return dict(color="grey", linewidth=1.2, linestyle=":")
    return dict(linewidth=1.6, marker="o", markersize=4)


def log2_axis(ax, ns):
    ax.set_xscale("log", base=2)
    ticks = sorted(set(ns))
    ax.set_xticks(ticks)
    ax.set_xticklabels([f"$2^{{{int(round(math.log2(n)))}}}$" for n in ticks])
    ax.set_xlabel("n (int32 elements)")
    ax.grid(True, which="major", alpha=0.3)


def caption(info):
    if not info:
        return "scanlab_bench"
    device = info.get("device", {})
    cubs = f"CUB {device.get('cub_version', '?')}"
    if device.get("newest_cub_version"):
        cubs += f" and {device['newest_cub_version']}"
    return f"{device.get('name', '?')}, {cubs}, {info.get('timestamp_utc', '')}"


def save(fig, info, path):
    """Writes a figure with the benchmark's caption and closes it."""
    fig.suptitle(caption(info), fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_throughput(rows, info, path):
    groups = [g for g in ("global", "segmented") if series(rows, g)]
    if not groups:
        return False
    fig, axes = plt.subplots(1, len(groups), figsize=(7.5 * len(groups), 5.2), squeeze=False)
    peak = (info or {}).get("device", {}).get("peak_bandwidth_gb_per_s")
    for ax, group in zip(axes[0], groups):
        lines = series(rows, group)
        ns = []
        for label, role, points in lines.values():
            ns += [n for n, _ in points]
            ax.plot([n for n, _ in points], [r["gb_per_s"] for _, r in points], label=label,
                    **style(role, group))
        if group == "segmented":  # the copy of the same values, measured in the global group
            copy = [l for l in series(rows, "global").values() if l[1] == "memcpy"]
            for label, role, points in copy:
                ax.plot([n for n, _ in points], [r["gb_per_s"] for _, r in points],
                        label=label, **style(role))
        if peak:
            ax.axhline(peak, color="tab:red", linewidth=0.8, linestyle="-.",
                       label=f"peak memory bandwidth {peak:.0f} GB/s")
        log2_axis(ax, ns)
        ax.set_ylim(bottom=0)
        ax.set_ylabel("GB/s (n reads + n writes of 4 bytes)")
        ax.set_title(GROUP_TITLES[group])
        ax.legend(fontsize=8, loc="upper left")
    save(fig, info, path)
    return True


def plot_fraction(rows, info, path):
    """Each entry's time as a fraction of CUB's in the same rounds (median, and the quartiles as
    a band): above 1.0 is faster than CUB."""
    groups = [g for g in ("global", "segmented", "types") if series(rows, g)]
    if not groups:
        return False
    fig, axes = plt.subplots(1, len(groups), figsize=(7.5 * len(groups), 5.2), squeeze=False)
    for ax, group in zip(axes[0], groups):
        ns = []
        for label, role, points in series(rows, group).values():
            if role in ("memcpy", "cub", "cub_newest"):
                continue
            xs = [n for n, _ in points]
            ys = [r["of_cub"] for _, r in points]
            if all(math.isnan(y) for y in ys):
                continue
            ns += xs
            line, = ax.plot(xs, ys, label=label, **style(role, group))
            ax.fill_between(xs, [r["of_cub_low"] for _, r in points],
                            [r["of_cub_high"] for _, r in points], color=line.get_color(),
                            alpha=0.2)
        cub = {"segmented": "CUB InclusiveScan of (flag, value) pairs, same inputs",
               "types": "CUB InclusiveSum of the same type"}.get(group, "CUB InclusiveSum")
        cub = "the faster CUB's " + cub.removeprefix("CUB ")  # of the toolkit's and the newest
        ax.axhline(1.0, color="black", linewidth=2.2, label=cub)
        log2_axis(ax, ns)
        ax.set_ylabel("CUB's time / this time (band: quartiles over the rounds)")
        title = {"types": "other value types"}.get(group, f"{group} scan")
        ax.set_title(f"{title}: against {cub}")
        ax.legend(fontsize=7, loc="lower right")
    save(fig, info, path)
    return True


def plot_single_block(rows, info, path):
    lines = series(rows, "single_block")
    if not lines:
        return False
    fig, ax = plt.subplots(figsize=(7.5, 5.2))
    ns = []
    for label, role, points in lines.values():
        ns += [n for n, _ in points]
        ax.plot([n for n, _ in points], [r["median_us"] for _, r in points], label=label,
                **style(role))
    log2_axis(ax, ns)
    ax.set_ylim(bottom=0)
    ax.set_ylabel("time per call (µs, back-to-back calls)")
    ax.set_title("single-block scans: one call, one thread block")
    ax.legend(fontsize=8, loc="upper left")
    save(fig, info, path)
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", type=Path, help="the folder scanlab_bench --out wrote")
    args = parser.parse_args()
    csv_path = args.out_dir / "results.csv"
    if not csv_path.is_file():
        sys.exit(f"plot-bench.py: no {csv_path} (run scanlab_bench --out {args.out_dir} first)")
    rows = read_results(csv_path)
    info = None
    json_path = args.out_dir / "results.json"
    if json_path.is_file():
        with open(json_path) as f:
            info = json.load(f)
    made = []
    for name, plot in (("throughput.png", plot_throughput), ("fraction.png", plot_fraction),
                       ("single_block.png", plot_single_block)):
        if plot(rows, info, args.out_dir / name):
            made.append(name)
    print(f"plot-bench.py: wrote {', '.join(made) if made else 'nothing'} in {args.out_dir}")


if __name__ == "__main__":
    main()
