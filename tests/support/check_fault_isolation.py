#!/usr/bin/env python3
"""Runs fault_isolation_demo (a trapping case, then an ordinary one) and checks what the test main
promises: the trap fails its own case only and the summary names it; the next case passes on a
reset device, or, where the device cannot be reset (a GPU after a trap), is NOT RUN, the summary
says so with the --first=N that runs it, and a fresh process with that option passes it.

usage: check_fault_isolation.py PROGRAM"""
import re
import subprocess
import sys


def run(args):
    done = subprocess.run(args, capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout + done.stderr


def main() -> int:
    program = sys.argv[1]
    code, out = run([program])
    print(out)
    if code == 77:
        return 77  # no GPU on the cuda backend
    problems = []
    if code == 0:
        problems.append("the run passed, but its first case traps")
    if 'the first kernel fault was in test case "a kernel that traps"' not in out:
        problems.append("the summary does not name the trapping case as the first fault")
    if "NOT RUN" in out:
        first = re.search(r"adding --first=(\d+)", out)
        if not first or first.group(1) != "2":
            problems.append("a run that stopped must say --first=2")
        if re.search(r"test cases:\s*1 \|", out) is None:
            problems.append("a run that stopped must have run one case")
        if not problems:
            rerun_code, rerun = run([program, f"--first={first.group(1)}"])
            print(rerun)
            # (doctest counts the cases before --first as passing the filters, not as run)
            if (rerun_code != 0 or re.search(r"test cases:.*\|\s*0 failed", rerun) is None
                    or "a kernel that traps" in rerun):
                problems.append("the cases not run did not pass in a fresh process")
    else:
        if re.search(r"test cases:\s*2 \|\s*1 passed \|\s*1 failed", out) is None:
            problems.append("the case after the fault did not pass on a reset device")
        if "the device was reset after each" not in out:
            problems.append("the summary does not say the device was reset")
    # The run ends with its summary, whose last line says how to reproduce the run.
    summary = out[out.find("==== scanlab: summary"):] if "==== scanlab: summary" in out else ""
    if not re.match(r"==== scanlab: summary \(1 of [12] test cases failed", summary):
        problems.append("the run does not end with a summary of 1 failed case")
    elif 'failed like "a kernel that traps"' not in summary:
        problems.append("the summary does not say how the trapping case failed")
    elif "\nscanlab: some tests failed; to reproduce: SCANLAB_SEED=" not in summary:
        problems.append("the summary does not say how to reproduce the run")
    # Both streams through one pipe, as a grader or `| less` gets them: whole lines, the
    # emulator's report before the case's failure (stdout is flushed before each report).
    merged = subprocess.run([program], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, timeout=300).stdout
    spliced = [line for line in merged.splitlines() if "simt: " in line[1:]
               and not line.startswith(("simt: ", "scanlab: "))]
    if spliced:
        problems.append(f"a line of one stream is spliced into the other's: {spliced[0]!r}")
    report, failure = merged.find("simt: trap in kernel"), merged.find("TEST CASE:  a kernel that")
    if "simt: trap in kernel" in out and (report < 0 or failure < 0 or
                                          report > merged.find("ERROR", failure)):
        problems.append("the emulator's report does not come before the case's failure")
    # --verbose is the test main's own option: taken out before doctest sees it.
    verbose_code, verbose = run([program, "--verbose", "--test-case=a kernel that traps"])
    print(verbose)
    if verbose_code == 0 or "every case's in full with --verbose" in verbose:
        problems.append("--verbose was not taken as the test main's option")
    for p in problems:
        print("check_fault_isolation:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
