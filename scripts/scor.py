#!/usr/bin/env python3
"""Builds the ScoR race suite's 32 microbenchmarks (github.com/csl-iisc/ScoR) with simtcc, runs each
on the simt emulator and compares what the emulator reports with the PTX memory model's verdict
(scripts/scor-expected.tsv): the ScoR table of docs/emulator.md.

  usage: scripts/scor.py SCOR_CHECKOUT [BUILD_DIR] [--results FILE] [--timeout SECONDS]
                         [--splice FILE]
         e.g. scripts/scor.py /tmp/ScoR build --splice docs/emulator.md

SCOR_CHECKOUT: a checkout of ScoR (nothing is downloaded here). BUILD_DIR: a configured Scan Lab
tree with bin/simtcc, simt-rewrite and simt_runtime built (default build/). Each program is built
twice in a temporary directory (never inside the checkout): as written, and with `volatile`
removed from its data pointer (what ScoR means: it treats volatile accesses as plain ones, the
PTX model as relaxed system-scope strong ones). Each runs with the emulator's defaults (checks on,
in-order dispatch, relaxed visibility); SIMT_* variables in the environment pass through.

Writes the markdown table to stdout (or into --splice FILE's marked region), every run's output to --results (default
docs/scor-results.txt), and a one-line summary to stderr. The exit status is 0 whatever the
emulator reports; 2 for a usage error or a missing simtcc."""
import argparse
import os
import pathlib
import re
import subprocess
import sys
import tempfile

root = pathlib.Path(__file__).resolve().parent.parent

# What the emulator prints ("simt: <kind> in kernel ..."), as simt::FaultKind names. A kind not
# listed here (a check added later) is shown by its printed name with spaces as underscores.
KINDS = {
    "global memory race": "global_race",
    "memory ordering": "memory_ordering",
    "uninitialized global memory read": "uninitialized_global_read",
    "spin on a plain load": "plain_load_spin",
    "stale value from an earlier launch": "stale_read",
    "shared memory race": "shared_race",
    "uninitialized shared memory read": "uninitialized_read",
    "deadlock": "deadlock",
    "illegal address": "illegal_address",
    "misaligned address": "misaligned_address",
    "barrier divergence": "barrier_divergence",
    "warp intrinsic error": "warp_mask",
    "device assertion": "assertion",
    "trap": "trap",
    "unsupported feature": "unsupported",
    "stack overflow": "stack_overflow",
    "C++ exception": "exception",
    "invalid launch": "invalid_launch",
}
# Reports that are not about ordering: they never count as naming a race.
NOT_A_RACE = {"uninitialized_global_read", "uninitialized_read", "stale_read", "deadlock",
              "illegal_address", "misaligned_address", "barrier_divergence", "assertion", "trap",
              "unsupported", "stack_overflow", "exception", "invalid_launch", "plain_load_spin"}


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scor", type=pathlib.Path, help="ScoR checkout")
    parser.add_argument("build", type=pathlib.Path, nargs="?", default=root / "build",
                        help="Scan Lab build folder with bin/simtcc (default build/)")
    parser.add_argument("--results", type=pathlib.Path, default=root / "docs" / "scor-results.txt",
                        help="raw results file (default docs/scor-results.txt)")
    parser.add_argument("--timeout", type=int, default=60, help="seconds per run (default 60)")
    parser.add_argument("--splice", type=pathlib.Path,
                        help="write the table into this file, between its '<!-- scor:begin -->' "
                             "and '<!-- scor:end -->' lines, instead of to stdout "
                             "(docs/emulator.md)")
    return parser.parse_args()


def parse_lines(text):
    return {int(x) for x in text.split(",")} if text != "-" else set()


def parse_allowed(text):
    """'kind@1,2;kind2@3' -> {kind: {1, 2}, kind2: {3}} ('kind' alone: any line)."""
    allowed = {}
    for item in filter(None, text.split(";")) if text != "-" else []:
        kind, _, lines = item.partition("@")
        allowed[kind] = parse_lines(lines) if lines else set()
    return allowed


def read_expected():
    rows = []
    lines = (root / "scripts" / "scor-expected.tsv").read_text().splitlines()
    header = None
    for line in lines:
        if not line or line.startswith("#"):
            continue
        fields = line.split("\t")
        if header is None:
            header = fields
            continue
        if len(fields) != len(header):
            sys.exit(f"scor-expected.tsv: {fields[0]}: {len(fields)} fields, expected {len(header)}")
        rows.append(dict(zip(header, fields)))
    return rows


def make_plain(source):
    """The program with `volatile` dropped from its data pointer, or None if it has none."""
    text, count = re.subn(r"\bvolatile\s+(unsigned int\s*\*\s*data)\b", r"\1", source)
    return text if count else None


def run_program(simtcc, workdir, name, source, timeout):
    """Builds and runs one program; returns (status, exit status, reports, output)."""
    workdir.mkdir(parents=True)
    cu = workdir / f"{name}.cu"
    cu.write_text(source)
    exe = workdir / name
    build = subprocess.run(["nice", str(simtcc), "-O2", "-o", str(exe), str(cu)], cwd=workdir,
                           capture_output=True, text=True)
    if build.returncode != 0:
        return "build fails", build.returncode, [], build.stdout + build.stderr
    try:
        run = subprocess.run(["nice", str(exe)], cwd=workdir, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode(errors="replace")
        return "timeout", None, parse_reports(name, out), out
    return "ran", run.returncode, parse_reports(name, run.stdout), run.stdout


def parse_reports(name, log):
    """Each 'simt: <kind> in kernel' block -> (kind, {lines of NAME.cu it names})."""
    reports = []
    for block in re.split(r"^(?=simt: )", log, flags=re.M):
        head = re.match(r"simt: (.+?) in kernel ", block)
        if not head:
            continue
        kind = KINDS.get(head.group(1), head.group(1).replace(" ", "_"))
        lines = {int(n) for n in re.findall(re.escape(name) + r"\.cu:(\d+)", block)}
        reports.append((kind, lines))
    return reports


def git_commit(path, *pathspec):
    """The last commit that changed PATHSPEC (default: anything) in a checkout, with '+changes' if
    those files have uncommitted changes; 'unknown' outside git."""
    def git(*argv):
        return subprocess.run(["git", "-C", str(path), *argv], capture_output=True, text=True)
    head = git("log", "-1", "--format=%h", "--", *pathspec)
    if head.returncode != 0 or not head.stdout.strip():
        return "unknown"
    dirty = git("status", "--porcelain", "--untracked-files=no", "--", *pathspec).stdout.strip()
    return head.stdout.strip() + ("+changes" if dirty else "")


def describe(status, rc, reports):
    """'global_race 26/30; uninitialized_global_read 26' or 'no report' (+ how it ended)."""
    if status != "ran":
        return status
    kinds = {}
    for kind, lines in reports:
        kinds.setdefault(kind, set()).update(lines)
    text = "; ".join(f"{kind} {'/'.join(map(str, sorted(lines)))}".strip()
                     for kind, lines in kinds.items()) or "no report"
    if not reports and rc != 0:
        text += f" (exit {rc})"
    return text


def judge(status, reports, racy_lines, allowed):
    """(found: a race report names a racy line, extra: reports the model does not justify)."""
    if status == "build fails":
        return False, ["build fails"]
    found = False
    extra = []
    for kind, lines in reports:
        if kind not in NOT_A_RACE and lines & racy_lines:
            found = True
            continue
        if kind in allowed and (not allowed[kind] or lines & allowed[kind]):
            continue
        extra.append(f"{kind} {'/'.join(map(str, sorted(lines)))}".strip())
    if status == "timeout":
        extra.append("timeout")
    return found, sorted(set(extra))


def agreement(racy, found, extra):
    if racy and not found:
        return "no: race missed" + (f"; extra {', '.join(extra)}" if extra else "")
    if extra:
        return "no: extra " + ", ".join(extra)
    return "yes"


def main():
    args = parse_args()
    simtcc = args.build.resolve() / "bin" / "simtcc"
    if not os.access(simtcc, os.X_OK):
        print(f"scor: no {simtcc} (configure and build the tree first; docs/simtcc.md)",
              file=sys.stderr)
        return 2
    src = args.scor / "microbenchmarks" / "src"
    if not src.is_dir():
        print(f"scor: {args.scor} is not a ScoR checkout (no microbenchmarks/src)", file=sys.stderr)
        return 2
    expected = read_expected()
    missing = sorted({p.stem for p in src.glob("*.cu")} ^ {row["program"] for row in expected})
    if missing:
        print(f"scor: scor-expected.tsv and the checkout differ: {', '.join(missing)}",
              file=sys.stderr)
        return 2

    main_rows, plain_rows, log_parts, plain_extra = [], [], [], {}
    counts = {"scor_racy": 0, "scor_found": 0, "scor_free": 0, "scor_extra": 0,
              "ptx_racy": 0, "ptx_found": 0, "ptx_extra": 0,
              "plain_racy": 0, "plain_found": 0, "plain_extra": 0}
    with tempfile.TemporaryDirectory(prefix="scor-") as tmp:
        for index, row in enumerate(expected, 1):
            name = row["program"]
            print(f"[{index}/{len(expected)}] {name}", file=sys.stderr)
            source = (src / f"{name}.cu").read_text()
            variants = [("as written", source, row["ptx"], row["ptx_lines"], row["allowed"])]
            plain = make_plain(source)
            if plain is not None and row["plain_ptx"] != "same":
                variants.append(("volatile removed", plain, row["plain_ptx"], row["plain_lines"],
                                 row["plain_allowed"]))
            for variant, text, verdict, racy_lines, allowed in variants:
                workdir = pathlib.Path(tmp) / name / variant.replace(" ", "-")
                status, rc, reports, log = run_program(simtcc, workdir, name, text,
                                                                args.timeout)
                log = log.replace(str(workdir) + "/", "")
                racy = verdict == "racy"
                found, extra = judge(status, reports, parse_lines(racy_lines),
                                     parse_allowed(allowed))
                emulator = describe(status, rc, reports)
                agrees = agreement(racy, found, extra)
                rc_text = "-" if rc is None else str(rc)
                ptx_text = f"{verdict} at {racy_lines}" if racy else verdict
                log_parts.append(f"== {name} ({variant}): {status}, exit {rc_text}\n"
                                 f"-- emulator: {emulator}\n"
                                 f"-- PTX model: {ptx_text}; agrees: {agrees}\n"
                                 f"{log.rstrip()}\n")
                verdict_text = f"racy: {racy_lines.replace(',', ', ')}" if racy else "race-free"
                if variant == "as written":
                    # Its race, as ScoR means it: a report that names one of ScoR's lines.
                    scor_found, _ = judge(status, reports, parse_lines(row["scor_lines"]), {})
                    if row["scor"] == "race":
                        counts["scor_racy"] += 1
                        counts["scor_found"] += scor_found
                    else:
                        counts["scor_free"] += 1
                        counts["scor_extra"] += bool(extra)
                    counts["ptx_racy"] += racy
                    counts["ptx_found"] += racy and found
                    counts["ptx_extra"] += bool(extra)
                    if row["scor"] != ("race" if racy else "norace"):
                        verdict_text += " (differs from ScoR)"
                    main_rows.append(f"| `{name}` | {row['scor']} | {verdict_text} | {emulator} "
                                     f"| {agrees} |")
                else:
                    counts["plain_racy"] += racy
                    counts["plain_found"] += racy and found
                    counts["plain_extra"] += bool(extra)
                    plain_extra[name] = extra
                    plain_rows.append(f"| `{name}` | {verdict_text} | {emulator} | {agrees} |")

    tree = git_commit(root, "common", "cmake")  # the emulator and simtcc
    scor_commit = git_commit(args.scor)
    args.results.parent.mkdir(parents=True, exist_ok=True)
    args.results.write_text(
        "# scripts/scor.py: every ScoR microbenchmark built with simtcc and run on the emulator\n"
        "# (default settings), as written and with `volatile` removed from its data pointer.\n"
        f"# Emulator (common/, cmake/) at {tree}; ScoR at {scor_commit}.\n\n"
        + "\n".join(log_parts))

    c = counts
    summary = (f"{c['scor_found']} of {c['scor_racy']} racy programs reported for their race, "
               f"{c['scor_extra']} race-free programs with extra reports")
    detail = (f"PTX model: {c['ptx_found']} of {c['ptx_racy']} racy programs reported, "
              f"{c['ptx_extra']} of 32 programs with reports it does not justify; "
              f"with `volatile` removed: {c['plain_found']} of {c['plain_racy']} racy reported, "
              f"{c['plain_extra']} of {len(plain_rows)} with reports it does not justify")
    differ = [row for row in expected
              if row["scor"] != ("race" if row["ptx"] == "racy" else "norace")]

    scor_racy_ptx_free = sum(row["scor"] == "race" and row["ptx"] != "racy" for row in expected)
    # Within one block the emulator orders threads only by barriers and warp intrinsics (see
    # "How it differs from a GPU"): name the warp-level programs whose fenced lock or flag it
    # reports, so that the reader does not take them for a new finding.
    intra_block = [name for name, extra in plain_extra.items()
                   if "interwarp" in name and any(e.startswith("global_race") for e in extra)]

    out = []
    out.append("### The ScoR race suite")
    out.append("")
    out.append("<!-- Generated by scripts/scor.py from scripts/scor-expected.tsv and a run of the "
               "emulator; do not edit by hand. -->")
    out.append("")
    out.append(
        "[ScoR](https://github.com/csl-iisc/ScoR) (Kamath, George and Basu, \"ScoRD: a scoped "
        "race detector for GPUs\", ISCA 2020) is 32 small CUDA programs, each named for whether "
        f"it races: {c['scor_racy']} racy, {c['scor_free']} race-free, most about scopes "
        "(`*_block` atomics and `__threadfence_block()` where two blocks meet). Each program is "
        "judged here by the PTX memory model, which the emulator's checks follow: a `volatile` load or "
        "store is a relaxed system-scope strong operation, so two of them (or one and a device "
        "atomic) are morally strong and never a data race, although they order nothing: a value "
        "passed with a volatile store and a flag may still be read stale, and a lock whose fences "
        "are missing protects nothing. ScoR counts volatile accesses as plain ones, so "
        f"{scor_racy_ptx_free} of its {c['scor_racy']} racy programs are race-free by the PTX "
        "model as written; the second table builds each program with `volatile` removed from its "
        "data pointer, which gives the race ScoR means. The lines are those of ScoR's files "
        "(`microbenchmarks/src/`); \"agrees\" means the emulator reports a race or ordering "
        "finding at a racy line of a racy program and nothing in a race-free one beyond the "
        "reports listed below the table. Regenerate with "
        "`scripts/scor.py SCOR_CHECKOUT build --splice docs/emulator.md` (every run's output goes to "
        "docs/scor-results.txt; the fixed columns live in scripts/scor-expected.tsv).")
    out.append("")
    out.append(f"This run (emulator at {tree}, ScoR at {scor_commit}): {summary} ({detail}).")
    out.append("")
    out.append("| program | ScoR | PTX model (racy lines) | emulator (default run) "
               "| agrees with the PTX model? |")
    out.append("| --- | --- | --- | --- | --- |")
    out.extend(main_rows)
    out.append("")
    out.append("Where ScoR and the PTX model disagree, and why:")
    out.append("")
    for row in differ:
        why = row["why"].removeprefix("Differs from ScoR: ")
        out.append(f"- `{row['program']}` (ScoR: {row['scor']}): {why[0].upper()}{why[1:]}")
    out.append("")
    out.append("Reports the PTX model justifies in a race-free program (a true statement about "
               "the program, not a data race), counted as agreeing:")
    out.append("")
    for row in expected:
        if row["ptx"] != "racy" and row["allowed"] != "-":
            allowed = row["allowed"].replace(";", "; ").replace("@", " at ")
            why = "" if row in differ else " " + row["why"]
            out.append(f"- `{row['program']}`: {allowed}.{why}")
    out.append("")
    out.append("The same programs with `volatile` removed from the data pointer (the programs "
               "without `volatile` are left out):")
    out.append("")
    out.append("| program | PTX model (racy lines) | emulator (default run) "
               "| agrees with the PTX model? |")
    out.append("| --- | --- | --- | --- |")
    out.extend(plain_rows)
    if intra_block:
        out.append("")
        out.append("Within one block the emulator orders threads only by barriers and warp "
                   "intrinsics (see \"How it differs from a GPU\" above), so a lock or flag "
                   "passed between warps through global memory is reported as a race even with "
                   "its fences in place: " + ", ".join(f"`{n}`" for n in sorted(intra_block))
                   + " (volatile removed); the racy warp-level lock programs of that table are "
                   "reported for the same reason, whether or not a fence is missing.")
    table = "\n".join(out)
    if args.splice:
        text = args.splice.read_text()
        begin, end = "<!-- scor:begin -->\n", "<!-- scor:end -->"
        if begin not in text or end not in text:
            print(f"scor: {args.splice} has no {begin.strip()} ... {end} region", file=sys.stderr)
            return 2
        head, rest = text.split(begin, 1)
        args.splice.write_text(head + begin + table + "\n" + end + rest.split(end, 1)[1])
    else:
        print(table)
    print(f"scor: {summary} ({detail})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
