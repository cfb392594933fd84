#!/usr/bin/env python3
"""Draws tools/pdl_timeline's stamps as an SVG (no plotting library needed): one lane per launch
mode, each call a bar from its first block's start to its last block's end, the part where its
blocks waited in cudaGridDependencySynchronize() lighter.

    scripts/plot-pdl-timeline.py pdl_timeline.csv out.svg ["caption"]
"""
import collections
import csv
import sys


def calls_of(rows, mode):
    calls = collections.defaultdict(list)
    for r in rows:
        if r["mode"] == mode:
            calls[int(r["call"])].append(r)
    out = []
    for k in sorted(calls):
        c = calls[k]
        start = min(int(r["start_ns"]) for r in c)
        resumed = max(int(r["resumed_ns"]) for r in c)
        end = max(int(r["end_ns"]) for r in c)
        out.append((k, start, resumed, end))
    return out


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    caption = sys.argv[3] if len(sys.argv) > 3 else ""
    lanes = [("plain", "plain launches (&lt;&lt;&lt;...&gt;&gt;&gt;)"),
             ("pdl", "PDL (cudaLaunchKernelEx, programmatic serialization)")]
    data = {mode: calls_of(rows, mode) for mode, _ in lanes}
    span = max(end for calls in data.values() for _, _, _, end in calls)
    left, width, lane_h, top = 40, 900, 70, 40
    scale = width / span
    height = top + len(lanes) * (lane_h + 40) + 60
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 40}" '
           f'height="{height}" font-family="sans-serif" font-size="13">',
           f'<rect width="100%" height="100%" fill="white"/>',
           f'<text x="{left}" y="22" font-size="15">{caption}</text>']
    for i, (mode, title) in enumerate(lanes):
        y = top + i * (lane_h + 40) + 20
        calls = data[mode]
        per_call = (calls[-1][1] - calls[0][1]) / (len(calls) - 1) / 1000
        svg.append(f'<text x="{left}" y="{y - 6}">{title}: a call every {per_call:.2f} µs</text>')
        for k, start, resumed, end in calls:
            x0, x1, x2 = (left + t * scale for t in (start, resumed, end))
            svg.append(f'<rect x="{x0:.1f}" y="{y}" width="{max(x1 - x0, 0.5):.1f}" '
                       f'height="{lane_h - 30}" fill="#f4b183"/>')
            svg.append(f'<rect x="{x1:.1f}" y="{y}" width="{max(x2 - x1, 0.5):.1f}" '
                       f'height="{lane_h - 30}" fill="#2e75b6"/>')
            svg.append(f'<text x="{(x0 + x2) / 2:.1f}" y="{y + lane_h - 14}" '
                       f'text-anchor="middle">{k}</text>')
    axis_y = top + len(lanes) * (lane_h + 40)
    svg.append(f'<line x1="{left}" y1="{axis_y}" x2="{left + width}" y2="{axis_y}" '
               f'stroke="black"/>')
    step = 2000
    for t in range(0, int(span) + 1, step):
        x = left + t * scale
        svg.append(f'<line x1="{x:.1f}" y1="{axis_y}" x2="{x:.1f}" y2="{axis_y + 5}" '
                   f'stroke="black"/>')
        svg.append(f'<text x="{x:.1f}" y="{axis_y + 20}" text-anchor="middle">{t // 1000} µs'
                   f'</text>')
    legend_y = axis_y + 42
    svg.append(f'<rect x="{left}" y="{legend_y - 11}" width="14" height="12" fill="#2e75b6"/>')
    svg.append(f'<text x="{left + 20}" y="{legend_y}">blocks working (first block start to '
               f'last block end)</text>')
    svg.append(f'<rect x="{left + 330}" y="{legend_y - 11}" width="14" height="12" '
               f'fill="#f4b183"/>')
    svg.append(f'<text x="{left + 350}" y="{legend_y}">blocks starting, or waiting in '
               f'cudaGridDependencySynchronize()</text>')
    svg.append('</svg>')
    open(sys.argv[2], "w").write("\n".join(svg) + "\n")


if __name__ == "__main__":
    main()
