"""grade.py's command line."""

from __future__ import annotations

import argparse
import fnmatch
import json
import shutil
import signal
import sys
import tempfile
from pathlib import Path

from . import grading, outputs, rubric as rubric_mod, tree
from .model import Progress

DESCRIPTION = """\
Grades a student's copy of labs/: builds each lab's graded tests against the student's code
(simt backend: the CPU emulator, no GPU needed), runs each lab in its own process with a time
limit, and scores every test case with the rubric. Writes results.json (Gradescope's format),
junit.xml and table.txt to --out, and prints the table. results.json is written even when the
build or the grader itself fails.

SUBMISSION is the student's labs/ folder, a folder or archive (.zip, .tar.gz) that contains it,
or loose lab files (naive_scan.cu, ...): each file is matched to its lab by its folder name
(01_naive/) or by its file name. Only the files a student edits (rubric: student_files, by
default *.cu and *.cuh) are taken; everything else comes from this tree."""

EPILOG = """\
examples:
  python3 tools/grader/grade.py ~/submissions/alice/labs
  python3 tools/grader/grade.py alice.zip --out grades/alice --labs 00,01
  python3 tools/grader/grade.py labs --build-dir build-grade      # reuse a build: faster
  python3 tools/grader/grade.py labs --speed                      # on a machine with a GPU
  python3 tools/grader/grade.py /autograder/submission --results-json /autograder/results/results.json

exit status: 0 graded (whatever the score), 1 the grader failed (results.json still written),
2 bad arguments or rubric.  docs/grading.md has the details."""


class Terminated(Exception):
    pass


def _on_sigterm(signum, frame):  # Gradescope's timeout, ctest's, a user's kill
    raise Terminated(f"terminated by signal {signum}")


def parse_env(items: list[str]) -> dict[str, str]:
    env = {}
    for item in items:
        if "=" not in item:
            raise argparse.ArgumentTypeError(f"--env {item}: expected NAME=VALUE")
        key, value = item.split("=", 1)
        env[key] = value
    return env


def make_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="grade.py", description=DESCRIPTION, epilog=EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("submission", type=Path, help="the student's labs/ (folder, archive or files)")
    p.add_argument("--out", type=Path, default=Path("grade-results"),
                   help="folder for results.json, junit.xml, table.txt, logs/ "
                        "(default: ./grade-results)")
    p.add_argument("--results-json", type=Path,
                   help="write results.json here instead of OUT/results.json "
                        "(Gradescope: /autograder/results/results.json)")
    p.add_argument("--junit", type=Path, help="write the JUnit XML here instead of OUT/junit.xml")
    p.add_argument("--rubric", type=Path, help="the rubric (default: grading/rubric.toml)")
    p.add_argument("--labs", help="grade only these labs, e.g. 00,01 (default: all)")
    p.add_argument("--hidden", choices=("auto", "yes", "no"), default="auto",
                   help="grade the hidden tests, grading/hidden/labNN_*.cpp: auto = when that "
                        "folder has some (default); they are compiled in whenever it has some, "
                        "and 'no' only leaves their cases out")
    p.add_argument("--hidden-dir", type=Path, metavar="DIR",
                   help="take the hidden tests (labNN_*.cpp) from DIR instead of grading/hidden")
    p.add_argument("--seed", type=int, help="SCANLAB_SEED for every test (default: random, "
                                            "printed)")
    p.add_argument("--backend", choices=("simt", "cuda"), default="simt",
                   help="which backend runs the correctness tests (default simt; cuda needs "
                        "nvcc and a GPU)")
    p.add_argument("--speed", action="store_true",
                   help="also grade speed against the reference solution on the GPU (skipped, "
                        "with a message, where there is none)")
    p.add_argument("--speed-backend", choices=("cuda", "simt"), default="cuda",
                   help=argparse.SUPPRESS)  # simt: exercises the pipeline in tests; times mean nothing
    p.add_argument("--work-dir", type=Path,
                   help="scratch folder (default: a new temporary folder, removed at the end)")
    p.add_argument("--build-dir", type=Path,
                   help="CMake build folder to (re)use (default: WORK/build, fresh); the grader "
                        "deletes each lab's test program before building it")
    p.add_argument("--keep-work", action="store_true", help="keep the scratch folder")
    p.add_argument("--jobs", "-j", type=int, help="parallel build jobs (default: all cores)")
    p.add_argument("--cmake-arg", action="append", default=[], metavar="ARG",
                   help="extra argument for the CMake configure step (repeatable), "
                        "e.g. --cmake-arg=-DCMAKE_PREFIX_PATH=/opt/doctest")
    p.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                   help="environment variable for the test programs (repeatable), "
                        "e.g. --env SIMT_MODE=pre-volta")
    p.add_argument("--run-as", metavar="USER",
                   help="run the test programs as this unprivileged user (the grader must run "
                        "as root; Gradescope's run_autograder does this)")
    p.add_argument("--sandbox", choices=("auto", "require", "user", "none"), default="auto",
                   help="isolation of the submission's builds and test programs: auto = "
                        "bubblewrap namespaces where they work, else the user sandbox with "
                        "--run-as (refused while that user can read hidden tests, solutions/ "
                        "or dist/), else refused when the grader is root; require = stop (exit "
                        "2) without namespaces; user = the user sandbox (needs --run-as); none "
                        "= no isolation, for trusted code (refused with --run-as)")
    p.add_argument("--support-build-timeout", type=float, default=3600.0, metavar="S",
                   help="time limit in seconds for building the emulator and every trusted "
                        "test program before any submission code runs (default: 3600; a cold "
                        "build on a slow or busy machine needs most of it, a warm one seconds)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress lines, no table")
    return p


ARCHIVES = (".zip", ".tar", ".tar.gz", ".tgz")


def check_submission(submission: Path, rubric: rubric_mod.Rubric, repo: Path) -> None:
    """A usage error (ValueError) unless SUBMISSION is a folder, an archive or a lab file."""
    expected = ("expected the student's labs/ folder, an archive of it (.zip, .tar.gz) "
                "or lab files (naive_scan.cu, ...)")
    if submission.is_dir():
        return
    if not submission.exists():
        raise ValueError(f"no such submission: {submission} ({expected})")
    if not submission.is_file():
        raise ValueError(f"{submission} is neither a folder nor a file: {expected}")
    patterns = {p for lab in tree.discover_labs(repo) for p in rubric.lab(lab.number).student_files}
    name = submission.name
    if not (name.lower().endswith(ARCHIVES) or
            any(fnmatch.fnmatchcase(name, p) for p in patterns)):
        raise ValueError(f"{submission} is a file, not a folder of submissions: {expected}")


def _emergency_results(path: Path, message: str, rubric: rubric_mod.Rubric | None,
                       repo: Path) -> None:
    """The last resort when even the normal output code failed: a valid results.json."""
    max_score = 0.0
    try:
        if rubric is not None:
            max_score = sum(rubric.lab(lab.number).points for lab in tree.discover_labs(repo)
                            if rubric.lab(lab.number).enabled)
    except Exception:
        pass
    data = {"score": 0.0, "execution_time": 0, "output": f"The grader failed: {message}",
            "tests": [{"name": "grader", "score": 0.0, "max_score": max_score,
                       "status": "failed", "output": message, "visibility": "visible"}]}
    outputs.write_atomic(path, json.dumps(data, indent=2) + "\n")


def main(argv: list[str] | None = None) -> int:
    args = make_parser().parse_args(argv)
    repo = tree.repo_root()
    say = Progress(quiet=args.quiet)
    out = args.out.resolve()
    results_path = (args.results_json or out / "results.json").resolve()
    rubric = None
    try:
        rubric = rubric_mod.load((args.rubric or repo / "grading" / "rubric.toml").resolve())
        env = parse_env(args.env)
        run_as = None
        if args.run_as:
            from . import procs
            run_as = procs.lookup_user(args.run_as)
        # Refused here (exit 2) rather than graded with less isolation than asked for.
        from . import sandbox
        sandbox.choose(args.sandbox, run_as, args.run_as,
                       grading.secret_paths(repo, args.hidden_dir))
        if args.labs:
            tree.select_labs(tree.discover_labs(repo), args.labs)
        check_submission(args.submission, rubric, repo)
    except (rubric_mod.RubricError, ValueError, argparse.ArgumentTypeError) as error:
        print(f"grade.py: {error}", file=sys.stderr)
        _emergency_results(results_path, str(error), rubric, repo)
        return 2

    signal.signal(signal.SIGTERM, _on_sigterm)
    made_work = args.work_dir is None
    work = (args.work_dir or Path(tempfile.mkdtemp(prefix="scanlab-grade-"))).resolve()
    build = (args.build_dir or work / "build").resolve()
    opts = grading.Options(
        submission=args.submission.resolve(), repo=repo, rubric=rubric, out=out, work=work,
        build=build, labs=args.labs, hidden=args.hidden, hidden_dir=args.hidden_dir,
        seed=args.seed, jobs=args.jobs,
        backend=args.backend, cmake_args=args.cmake_arg, env=env, speed=args.speed,
        speed_backend=args.speed_backend, quiet=args.quiet, run_as=args.run_as,
        sandbox=args.sandbox, results_path=results_path,
        support_build_timeout_s=args.support_build_timeout)
    status = 0
    try:
        grade = grading.run_grading(opts, say)
        written = outputs.write_all(grade, out, results_path,
                                    args.junit.resolve() if args.junit else None)
        if not args.quiet:
            print()
            print(outputs.table(grade), end="")
            print(f"results: {written['results']}  junit: {written['junit']}  "
                  f"table: {written['table']}")
        status = 1 if grade.fatal else 0
    except BaseException as error:  # nothing may stop results.json from being written
        print(f"grade.py: {error!r}", file=sys.stderr)
        _emergency_results(results_path, repr(error), rubric, repo)
        status = 1
    finally:
        for folder in opts.cleanup:
            shutil.rmtree(folder, ignore_errors=True)
        if made_work and not args.keep_work:
            shutil.rmtree(work, ignore_errors=True)
        elif not args.quiet:
            print(f"scratch folder kept: {work}")
    return status


if __name__ == "__main__":
    sys.exit(main())
