"""Grading one submission: stage, configure, build what holds no student code (the emulator,
the graded test objects, a listing program per lab), then for each lab build its test executable
inside the sandbox, run it there in its own process and score it. check_stubs.py reuses
run_lab_tests() and score_lab().

Trust rules (docs/grading.md, "What counts as passed"): the test cases to grade come from the
listing program (the graded tests linked to the pristine stub); the grader never reads a test
program's stdout for results. A test case passes only if doctest's XML report, sent through a
pipe that only the grader reads, is complete, holds exactly the graded test case (same name,
file and line) and says so, AND the process ended by itself with the exit status that report
implies (0 when every test case passed, 1 otherwise). When the whole run of a lab breaks that
rule (crash, hang, early exit, a report that does not add up), each test case is run again alone,
in its own process with its own time limit, so one bad test case costs only itself.
"""

from __future__ import annotations

import os
import secrets
import shutil
import tarfile
import tempfile
import time
import traceback
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from . import cmake, doctest_xml, procs, review, rubric as rubric_mod, sandbox as sandbox_mod, tree
from . import speed as speed_mod
from .build_cache import BuildCache
from .lab_build import Private, build_lab_target
from .lab_context import Context, memory_limit_mb, sha256_of, test_env
from .model import Grade, LabResult, Progress, TestResult

GRADER_DIR = Path(__file__).resolve().parents[1]
HOOKS = GRADER_DIR / "cmake" / "grader_hooks.cmake"
# Built before any lab, so that a broken emulator is reported as such, not as every lab failing.
SUPPORT_TARGETS = ("simt-rewrite", "simt_runtime", "scanlab_trace")


def _inside(path: str, folders: list[str]) -> bool:
    real = os.path.realpath(path) if path else ""
    return any(real.startswith(folder + os.sep) for folder in folders)


def _escape_filter(name: str) -> str:
    """doctest splits filters at commas; a backslash escapes a comma or a backslash."""
    return name.replace("\\", "\\\\").replace(",", "\\,")


@dataclass
class _Judged:
    trusted: bool
    problem: str
    report: doctest_xml.Report | None


def _absolute(filename: str, base: Path | None) -> str:
    """A test case's file as doctest records it (__FILE__: relative to the build folder when
    the compiler got relative paths, e.g. from ccache's base_dir), made absolute."""
    if not filename or os.path.isabs(filename) or base is None:
        return filename
    return os.path.normpath(os.path.join(str(base), filename))


def _judge(proc: procs.ProcResult, report: doctest_xml.Report,
           expected: list[doctest_xml.CaseInfo], timeout_s: float,
           base: Path | None = None) -> _Judged:
    """Whether a run's report can be trusted for the test cases `expected` (from the listing
    program). Test cases it has beyond those are left out of it (a student's own TEST_CASEs)."""
    if not proc.exited:
        return _Judged(False, proc.describe(timeout_s), None)
    if proc.report_overflow:
        return _Judged(False, f"{proc.describe()} but sent more than "
                              f"{doctest_xml.MAX_REPORT_BYTES} bytes as its report", None)
    if not report.complete:
        if proc.returncode == 0 and report.problem.endswith("is empty"):
            return _Judged(False, f"{proc.describe()} without running its tests (no report): "
                                  f"code that runs before main(), such as a static "
                                  f"constructor, or the lab's code ended the program", None)
        return _Judged(False, f"{proc.describe()} but {report.problem}", None)
    if proc.returncode == 77:
        return _Judged(False, "skipped itself (exit code 77: no GPU for the cuda backend?)", None)
    failed = sum(1 for case in report.cases if not case.passed)
    implied = 1 if failed else 0
    if proc.returncode != implied:
        return _Judged(False, f"{proc.describe()}, but its report lists {failed} failed test "
                              f"case(s), which means exit code {implied}: the report cannot be "
                              f"trusted", None)
    where = {(case.name, _absolute(case.filename, base), case.line) for case in report.cases}
    missing = [info for info in expected if (info.name, info.filename, info.line) not in where]
    if missing:
        return _Judged(False, f"its report lacks {len(missing)} graded test case(s), e.g. "
                              f"'{missing[0].name}'", None)
    wanted = {(info.name, info.filename, info.line) for info in expected}
    graded = [case for case in report.cases
              if (case.name, _absolute(case.filename, base), case.line) in wanted]
    return _Judged(True, "", doctest_xml.Report(True, "", graded))


def _output_note(proc: procs.ProcResult, lines: int = 15) -> str:
    tail = proc.tail(max_lines=lines)
    if not tail.strip():
        return ""
    return "\nlast lines of the program's output:\n" + tail


@dataclass
class LabRun:
    status: str  # "graded", "test listing failed", "no graded tests"
    problem: str = ""
    tests: list[TestResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    run_s: float = 0.0
    isolated: bool = False


def list_graded_cases(listing_exe: Path, lab: tree.Lab, ctx: Context,
                      tag: str) -> tuple[list[doctest_xml.CaseInfo] | None, str]:
    """The graded test cases of a lab, from its listing program (the graded tests linked to
    the pristine stub, no student code): (cases, "") or (None, why not)."""
    scratch = ctx.runs / f"{tag}-listing"
    scratch.mkdir(parents=True, exist_ok=True)
    ctx.verify_trusted(listing_exe)
    listing_file = scratch / "list.xml"
    proc = procs.run([listing_exe, "--list-test-cases", "--reporters=xml",
                      f"--out={listing_file}"], cwd=scratch, env=test_env(ctx, ctx.rubric.lab(
                          lab.number), scratch), limits=procs.Limits(timeout_s=120),
                     output_path=scratch / "list.out")
    listing, problem = doctest_xml.read_listing(listing_file)
    if not proc.exited or proc.returncode != 0 or listing is None:
        why = proc.describe(120) if not proc.exited or proc.returncode != 0 else problem
        return None, f"the listing program {listing_exe.name} failed: {why}{_output_note(proc)}"
    for info in listing:
        info.filename = _absolute(info.filename, ctx.build)
    return listing, ""


def harness_target(number: str, backend: str, targets) -> str | None:
    """The lab's trusted harness target (tools/worker), when the lab runs its code in a worker
    process on this backend; None for a lab graded in one process."""
    name = f"lab{number}_harness_{backend}"
    return name if name in targets else None


def run_lab_tests(exe: Path, lab: tree.Lab, lab_rubric: rubric_mod.LabRubric, ctx: Context,
                  tag: str, graded: list[doctest_xml.CaseInfo],
                  worker: Path | None = None) -> LabRun:
    """Runs and judges one lab test executable on the test cases `graded` (from
    list_graded_cases). `tag` names its scratch files. With `worker`, `exe` is the lab's
    trusted harness (no student code): it runs outside the sandbox, as the grader, and starts
    `worker` (the lab's code) in the sandbox for each call (tools/worker/README.md)."""
    say = ctx.progress
    scratch = ctx.runs / tag
    if scratch.exists():
        shutil.rmtree(scratch)
    scratch.mkdir(parents=True)
    started = time.monotonic()
    box = ctx.sandbox

    def fresh_cwd(name: str) -> Path:
        cwd = scratch / "cwd" / name
        cwd.mkdir(parents=True, exist_ok=True)
        if worker is None:  # the test program is the submission's; a harness is the grader's
            procs.hand_over(cwd, ctx.run_as, reach_from=ctx.runs)
        return cwd

    def run(args: list[str], timeout: float, cwd: Path, output: Path, **extra):
        memory_mb = memory_limit_mb(ctx.backend, lab_rubric)
        env = test_env(ctx, lab_rubric, cwd)
        if worker is not None:
            # The harness as the grader, outside the sandbox; the worker inside it, in a
            # folder of its own. One call may take the time of one test case.
            worker_cwd = cwd / "worker"
            worker_cwd.mkdir(exist_ok=True)
            procs.hand_over(worker_cwd, ctx.run_as, reach_from=ctx.runs)
            view = sandbox_mod.View(read_only=[worker], scratch=[worker_cwd],
                                    gpu=ctx.backend == "cuda")
            command = box.worker_command(
                ["/usr/bin/env", f"HOME={worker_cwd}", f"TMPDIR={worker_cwd}", worker],
                view, worker_cwd)
            if any("\n" in str(a) for a in command):
                raise RuntimeError(f"a path of the worker's command has a line break: {command}")
            env["SCANLAB_WORKER_ARGV"] = "\n".join(str(a) for a in command)
            env["SCANLAB_WORKER_CALL_TIMEOUT_S"] = f"{min(lab_rubric.test_timeout_s, timeout):g}"
            env["SCANLAB_WORKER_WRAPPED"] = "1" if box.wraps else "0"
            limits = box.harness_limits(timeout, memory_mb=memory_mb, cpu_s=timeout * 2 + 10)
            ctx.verify_trusted(exe)
            try:
                return procs.run([exe, *args], cwd=cwd, env=env, limits=limits,
                                 output_path=output,
                                 report_fd_arg=lambda fd: f"--out=/proc/self/fd/{fd}", **extra)
            finally:
                # Nothing a worker left passes to a later run (the hidden cases' to a later
                # lab's visible ones): its folder goes with it.
                shutil.rmtree(worker_cwd, ignore_errors=True)
        limits = box.limits(timeout, memory_mb=memory_mb, cpu_s=timeout * 2 + 10)
        return procs.run(box.command([exe, *args], ctx.program_view(exe, cwd), cwd), cwd=cwd,
                         env=env, limits=limits, output_path=output,
                         report_fd_arg=lambda fd: f"--out=/proc/self/fd/{fd}",
                         shell_status=box.wraps, **extra)

    graded_dirs = ctx.graded_dirs()
    hidden_dirs = [graded_dirs[1]] if len(graded_dirs) > 1 else []
    cases: list[TestResult] = []
    infos: list[doctest_xml.CaseInfo] = []
    seen: set[str] = set()
    skipped_hidden = False  # hidden cases compiled in, left out by --hidden no
    notes: list[str] = []
    for info in graded:
        if not _inside(info.filename, graded_dirs):
            continue  # doctest's own or the support code's: not graded
        if info.name in seen:
            notes.append(f"test case name '{info.name}' appears twice; graded once")
            continue
        seen.add(info.name)
        hidden = _inside(info.filename, hidden_dirs) or info.suite == "hidden"
        if hidden and not ctx.run_hidden:
            skipped_hidden = True
            continue  # compiled in (the build folder's configuration), not graded (--hidden no)
        cases.append(TestResult(name=info.name, hidden=hidden))
        infos.append(info)
    if not cases:
        return LabRun("no graded tests", "the lab's tests have no graded test cases",
                      notes=notes, run_s=time.monotonic() - started)

    # 1. The visible test cases in one process, then the hidden ones in another (each with
    # a worker of its own, started afresh: nothing a hidden case's call showed the lab's code
    # can reach what is shown of a visible case).
    groups = [[i for i, case in enumerate(cases) if not case.hidden],
              [i for i, case in enumerate(cases) if case.hidden]]
    groups = [group for group in groups if group]
    timeout_all = ctx.time_left(lab_rubric.timeout_s)
    isolation_deadline = None  # one budget for every case run alone, whichever group
    problems: list[str] = []
    whole = None
    isolated = False
    for g, group in enumerate(groups):
        kind = "hidden" if cases[group[0]].hidden else "visible"
        filters = []
        # Named cases whenever the program holds cases that are not run here: hidden ones
        # beside visible ones, or hidden ones compiled in but not graded (--hidden no).
        if len(groups) > 1 or skipped_hidden:
            filters = ["--case-sensitive=true", "--test-case=" + ",".join(
                _escape_filter(cases[i].name) for i in group)]
            if kind == "visible":  # whatever a name's wildcards match, never a hidden case
                filters.append("--test-suite-exclude=hidden")
        timeout = ctx.time_left(max(0.0, timeout_all - (time.monotonic() - started)))
        say(f"{lab.title}: running {len(group)} {kind if len(groups) > 1 else ''} test cases "
            f"(time limit {timeout:g} s)".replace("  ", " "))
        log = ctx.logs / (f"{tag}-run.log" if g == 0 else f"{tag}-run-{kind}.log")
        # --verbose: every failing case's report in full (each case is shown on its own).
        proc = run(["--reporters=xml", "--duration=true", "--verbose", *filters], timeout,
                   fresh_cwd("all" if g == 0 else f"all-{kind}"), log,
                   heartbeat=say.heartbeat(f"{lab.title}: still running"))
        if proc.exited and proc.returncode == 77:  # test_main.cpp: cuda backend without a GPU
            return LabRun("no GPU", "the cuda backend's tests need a GPU and this machine has "
                          "none (the simt backend runs them on the CPU)" + _output_note(proc),
                          run_s=time.monotonic() - started)
        group_infos = [infos[i] for i in group]
        judged = _judge(proc, doctest_xml.read_report_bytes(proc.report), group_infos, timeout,
                        ctx.build)
        if judged.trusted:
            results = judged.report.by_name()
            extra = len({c.name for c in doctest_xml.read_report_bytes(proc.report).cases}) - \
                len(results)
            if extra > 0:
                notes.append(f"{extra} test case(s) that are not graded ones (defined outside "
                             f"the graded test files) were ignored")
            for i in group:
                result = results[cases[i].name]
                cases[i].passed = result.passed
                cases[i].message = result.message
                cases[i].duration = result.duration
            continue

        # 2. Something went wrong: each test case of the group alone, in its own process.
        problem = f"the run of all {kind} test cases together {judged.problem}"
        if len(groups) == 1:
            problem = f"the run of all test cases together {judged.problem}"
        if whole is None and kind == "visible":  # a hidden run's output is never shown here
            whole = proc
        problems.append(problem)
        isolated = True
        say(f"{lab.title}: {problem}; running the {len(group)} test cases one at a time")
        if isolation_deadline is None:
            isolation_deadline = time.monotonic() + ctx.time_left(lab_rubric.isolation_budget_s)
        deadline = isolation_deadline
        for i in group:
            case, info = cases[i], infos[i]
            left = deadline - time.monotonic()
            if left < 0.5:
                case.passed = False
                case.message = (f"not run: the time budget for running test cases one at a "
                                f"time ({lab_rubric.isolation_budget_s:g} s for the lab, "
                                f"{ctx.rubric.time_budget_s:g} s for the submission) was used "
                                f"up")
                continue
            timeout = min(lab_rubric.test_timeout_s, left)
            proc = run(["--reporters=xml", "--duration=true", "--verbose", "--case-sensitive=true",
                        f"--test-case={_escape_filter(case.name)}"], timeout,
                       fresh_cwd(f"case-{i}"), scratch / f"case-{i}.out")
            alone = _judge(proc, doctest_xml.read_report_bytes(proc.report), [info], timeout,
                           ctx.build)
            if alone.trusted:
                result = alone.report.by_name()[case.name]
                case.passed = result.passed
                case.message = result.message
                case.duration = result.duration
            else:
                case.passed = False
                case.message = f"{alone.problem} (run alone){_output_note(proc)}"
                case.duration = proc.elapsed
    if not isolated:
        return LabRun("graded", "", cases, notes, time.monotonic() - started)
    return LabRun("graded", "; ".join(problems) + (_output_note(whole) if whole else ""),
                  cases, notes,
                  time.monotonic() - started, isolated=True)


def score_lab(result: LabResult, lab_rubric: rubric_mod.LabRubric) -> None:
    """Fills in max_score and score of each test case from the rubric. A lab without test cases
    (not built, ...) gets one failed stand-in entry worth all its points."""
    tests = [t for t in result.tests if t.kind == "test"]
    if not tests:
        reason = result.status
        stand_in = TestResult(name=reason, passed=False, synthetic=True,
                              message=result.problem or reason, max_score=lab_rubric.points,
                              visibility=lab_rubric.visibility)
        result.tests.insert(0, stand_in)
        return
    visible = [t.name for t in tests if not t.hidden]
    hidden = [t.name for t in tests if t.hidden]
    split = rubric_mod.split_points(lab_rubric, visible, hidden)
    result.notes.extend(split.warnings)
    for t in tests:
        t.max_score = split.points.get(t.name, 0.0)
        t.score = t.max_score if t.passed else 0.0
        t.visibility = lab_rubric.hidden_visibility if t.hidden else lab_rubric.visibility


# --------------------------------------------------------------------------------------------


@dataclass
class Options:
    submission: Path
    repo: Path
    rubric: rubric_mod.Rubric
    out: Path
    work: Path
    build: Path
    labs: str | None = None
    hidden: str = "auto"  # auto, yes, no
    hidden_dir: Path | None = None  # instead of grading/hidden
    seed: int | None = None
    jobs: int | None = None
    backend: str = "simt"
    cmake_args: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    speed: bool = False
    speed_backend: str = "cuda"
    quiet: bool = False
    configure_timeout_s: float = 600.0
    support_build_timeout_s: float = 3600.0  # the emulator and the trusted programs, cold
    run_as: str | None = None  # user name for the test programs (grader running as root)
    sandbox: str = "auto"  # auto, require, none (sandbox.choose)
    results_path: Path | None = None  # where results.json goes (kept out of the sandbox)
    cleanup: list[Path] = field(default_factory=list)  # scratch folders to remove at the end


def hidden_dir_for(repo: Path, mode: str, folder: Path | None = None) -> Path | None:
    """The folder of hidden tests to compile in, or None. `folder` overrides grading/hidden
    (hidden tests kept in a private place of their own)."""
    folder = folder.resolve() if folder else repo / "grading" / "hidden"
    present = folder.is_dir() and any(folder.glob("lab[0-9][0-9]_*.cpp"))
    if mode == "no":
        return None
    if mode == "yes" and not present:
        raise FileNotFoundError(f"--hidden yes, but {folder} has no labNN_*.cpp files")
    return folder if present else None


def configure_cache(repo: Path, backend: str, labs_dir: Path, hidden: Path | None,
                    need_cuda: bool, foreign: bool) -> dict[str, str]:
    """The cache variables the grader configures with. In a build folder the grader did not
    make (`foreign`: someone's ./build) only the grader's own variables are set, and
    ForeignBuild puts the old values back afterwards."""
    solutions = repo / "solutions"
    cache = {
        "SCANLAB_LABS_DIR": str(labs_dir),
        # Defined but only built when asked for (check_stubs.py, --speed); none in a handout.
        "SCANLAB_SOLUTIONS_DIR": str(solutions) if solutions.is_dir()
        else str(repo / "solutions-not-in-this-tree"),
        "CMAKE_PROJECT_INCLUDE": str(HOOKS),
        "SCANLAB_GRADER_HIDDEN_DIR": str(hidden) if hidden else "",
    }
    if not foreign:
        simt = backend == "simt"
        cache.update({
            "SCANLAB_BUILD_TESTS": "ON",
            # The emulator may need the trace library; only what the lab targets need is built.
            "SCANLAB_SKIP_TRACE": "OFF",
            "SCANLAB_SIMT": "ON" if simt else "OFF",
            "SCANLAB_CUDA": "ON" if need_cuda or not simt else "OFF",
        })
    elif need_cuda:
        cache["SCANLAB_CUDA"] = "ON"
    return cache


class ForeignBuild:
    """A build folder that the grader did not configure first (no CMAKE_PROJECT_INCLUDE of
    ours in its cache): remembers the cache values the grader is about to change and restores
    them in restore(), so that e.g. `./scanlab check-stubs` leaves ./build as it was."""

    def __init__(self, build: Path) -> None:
        self.build = build
        before = cmake.read_cache(build)
        self.foreign = bool(before) and before.get("CMAKE_PROJECT_INCLUDE") != str(HOOKS)
        self.before = before

    def restore(self, cache: dict[str, str], log: Path) -> None:
        if not self.foreign:
            return
        restore = {k: self.before[k] for k in cache if k in self.before}
        drop = [k for k in cache if k not in self.before]
        cmake.unset(self.build, drop, restore, 600, log)


# What of the project a submission's compiler may read: the labs, the common code, the tests and
# tools the lab's programs are built from. Never solutions/, grading/, dist/, .git, build folders
# or anything else an instructor keeps in the tree.
BUILD_VISIBLE = ("common", "labs", "tests", "tools", "examples", "cmake", "CMakeLists.txt")


def build_view(repo: Path, folder: Path) -> sandbox_mod.View:
    """What a submission's build sees (private_build.py): the project's sources that the lab's
    programs are built from (read-only; BUILD_VISIBLE) and its own build folder (writable).
    Not the grader's build folder (hidden tests' objects, CMakeCache.txt), not the staged labs
    there (the private folder has its own copy), not the tests of the grader itself."""
    view = sandbox_mod.View(writable=[folder])
    for name in BUILD_VISIBLE:
        entry = repo / name
        if entry.exists():
            view.read_only.append(entry)
    return view


def secret_paths(repo: Path, hidden_dir: Path | None) -> list[Path]:
    """What the submission's user must not be able to read when there is no mount namespace
    (the user sandbox refuses to grade otherwise)."""
    paths = [repo / "grading" / "hidden", repo / "solutions", repo / "dist"]
    if hidden_dir is not None:
        paths.append(hidden_dir.resolve())
    return paths


def _reclaim_build(build: Path, grade: Grade, say: Progress) -> None:
    """A root grader's build folder must hold nothing another user could have written (an
    older grader handed it to the submission's user): such a folder, if the grader made it, is
    deleted and built again; anyone else's is refused. It is made the grader's alone (0700)."""
    if os.geteuid() != 0 or not build.exists():
        return
    foreign = None
    for root, dirs, files in os.walk(build):
        for name in [root] + [os.path.join(root, n) for n in dirs + files]:
            info = os.lstat(name)
            if info.st_uid != 0 or (info.st_mode & 0o022 and not os.path.islink(name)):
                foreign = name
                break
        if foreign:
            break
    if foreign and cmake.read_cache(build).get("CMAKE_PROJECT_INCLUDE") != str(HOOKS):
        # Not a folder the grader made: someone's own build, never deleted.
        raise RuntimeError(f"the build folder {build} holds a file that root does not own "
                           f"alone ({foreign}): a root grader runs its programs, so give it a "
                           f"build folder of its own (--build-dir)")
    if foreign:
        note = (f"the build folder {build} held a file that the grader's user did not write "
                f"alone ({foreign}): deleted and built again")
        say(note)
        grade.notes.append(note)
        shutil.rmtree(build)
        build.mkdir(parents=True)
    build.chmod(0o700)


def shown_file(repo: Path, staging: Path, hidden: Path | None):
    """Which files a student may see compiler messages about: the staged labs, the project's
    tests and common code, the system's headers; never a hidden test or anything else."""
    roots = [os.path.realpath(p) for p in (staging, repo / "labs", repo / "tests" / "labs",
                                           repo / "tests" / "support", repo / "common")]
    roots += ["/usr/include", "/usr/lib/gcc", "/usr/local/include", "/usr/bin/ld"]
    secret = [os.path.realpath(p) for p in (repo / "grading", repo / "solutions")]
    if hidden is not None:
        secret.append(os.path.realpath(hidden))

    def allowed(path: str) -> bool:
        real = os.path.realpath(path)
        if any(real == s or real.startswith(s + os.sep) for s in secret):
            return False
        return any(real == r or real.startswith(r + os.sep) for r in roots)
    return allowed


def grade_submission(opts: Options, grade: Grade, say: Progress) -> None:
    """Fills `grade` in place (so that whatever happened before an error is kept)."""
    repo = opts.repo
    all_labs = tree.discover_labs(repo)
    labs = [lab for lab in tree.select_labs(all_labs, opts.labs)
            if opts.rubric.lab(lab.number).enabled]
    for lab in labs:
        grade.labs.append(LabResult(lab, opts.rubric.lab(lab.number).points))
    if not labs:
        grade.notes.append("no labs to grade")
        return

    run_as = procs.lookup_user(opts.run_as) if opts.run_as else None
    box = sandbox_mod.choose(opts.sandbox, run_as, opts.run_as,
                             secret_paths(repo, opts.hidden_dir))
    grade.sandbox = box.describe()
    grade.sandbox_mode = box.mode
    if run_as is not None:
        # What the grader writes (logs, listings, reports, outputs) is its own alone: the
        # submission's user may pass through the folders it must reach, never read them.
        os.umask(0o077)
    say(grade.sandbox)
    if box.mode != "namespaces":
        grade.notes.append(grade.sandbox)

    graded_hidden = hidden_dir_for(repo, opts.hidden, opts.hidden_dir)
    grade.hidden = graded_hidden is not None
    # The hidden tests are compiled in whenever the tree has them, also with --hidden no, which
    # only leaves their cases out: one configuration, so that switching does not rebuild every
    # lab's trusted programs.
    hidden = graded_hidden or hidden_dir_for(repo, "auto", opts.hidden_dir)
    logs = opts.out / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    opts.work.mkdir(parents=True, exist_ok=True)
    _reclaim_build(opts.build, grade, say)

    # The submission's files over the pristine labs/.
    try:
        submission = tree.unpack_if_archive(opts.submission, opts.work)
    except (ValueError, tarfile.TarError, zipfile.BadZipFile) as error:
        problem = f"the submission was not graded: {error}"
        say(problem)
        grade.notes.append(problem)
        for result in grade.labs:
            result.status, result.problem = "not graded", problem
            score_lab(result, opts.rubric.lab(result.lab.number))
        return
    overlay = tree.collect_submission(
        submission, labs, {lab.number: opts.rubric.lab(lab.number).student_files for lab in labs})
    grade.notes.extend(overlay.notes)
    staging = opts.build / "_grader" / "labs"
    tree.stage_labs(repo / "labs", staging, overlay)
    for result in grade.labs:
        files = overlay.for_lab(result.lab.folder)
        if files:
            result.notes.append("submitted: " + ", ".join(sorted(files)))
            for rel, path in sorted(files.items()):
                result.review += review.flags(path, f"{result.lab.folder}/{rel}")
        else:
            result.notes.append("no files submitted for this lab: graded the untouched stub")
    say(f"submission: {sum(len(f) for f in overlay.files.values())} file(s) for "
        f"{len(overlay.files)} lab(s) found in {opts.submission}")

    plan = speed_mod.plan(opts, labs, grade, say)

    say(f"configuring {opts.build}")
    foreign = ForeignBuild(opts.build)
    cache = configure_cache(repo, opts.backend, staging, hidden,
                            need_cuda=bool(plan and plan.backend == "cuda"),
                            foreign=foreign.foreign)
    try:
        _grade_configured(opts, grade, say, labs, hidden, staging, plan, cache, logs, box)
    finally:
        foreign.restore(cache, logs / "restore-configure.log")


def _grade_configured(opts, grade, say, labs, hidden, staging, plan, cache, logs, box) -> None:
    repo = opts.repo
    proc = cmake.configure(repo, opts.build, cache, opts.cmake_args, opts.configure_timeout_s,
                           logs / "configure.log", say.heartbeat("still configuring"))
    if not proc.exited or proc.returncode != 0:
        problem = ("CMake could not configure the build: " + proc.describe() + "\n" +
                   cmake.error_excerpt(logs / "configure.log", {}))
        for result in grade.labs:
            result.status, result.problem = "configure failed", problem
            score_lab(result, opts.rubric.lab(result.lab.number))
        grade.notes.append(problem)
        return
    targets = cmake.targets(opts.build)

    # What holds no student code is built first, outside the sandbox: the emulator (its
    # failure is not a submission's fault), the graded tests (the hidden ones need their
    # sources, which the sandbox does not show), the listing programs and, with --speed, the
    # reference solutions' speed harnesses (the sandbox does not show solutions/ either).
    trusted = [t for t in SUPPORT_TARGETS if t in targets]
    for lab in labs:
        trusted += [t for t in (f"lab{lab.number}_test_objects_{opts.backend}",
                                f"scanlab_test_main_{opts.backend}",
                                f"lab{lab.number}_listing_{opts.backend}",
                                f"lab{lab.number}_harness_{opts.backend}",
                                f"lab{lab.number}_worker_support_{opts.backend}")
                    if t in targets]
    if plan:
        trusted += [t for t in speed_mod.reference_targets(plan) if t in targets]
    trusted = list(dict.fromkeys(trusted))
    say(f"building the emulator and the graded tests ({len(trusted)} targets)")
    proc = cmake.build_target(opts.build, " ".join(trusted), opts.jobs,
                              opts.support_build_timeout_s, logs / "support-build.log",
                              say.heartbeat("still building the emulator and the tests"))
    if proc.timed_out:
        raise RuntimeError(f"building the emulator and the graded tests took longer than "
                           f"{opts.support_build_timeout_s:g} s (not the submission's fault; a "
                           f"cold build on a slow or busy machine: raise "
                           f"--support-build-timeout, or build once beforehand)")
    if not proc.exited or proc.returncode != 0:
        raise RuntimeError("the emulator or the graded tests did not build (not the "
                           "submission's fault; see logs/support-build.log):\n" +
                           cmake.error_excerpt(logs / "support-build.log", {}))
    # The budget counts the submission's own builds and runs, not the tree's configure and
    # support build above (slow on a cold build folder, and the same for every submission).
    deadline = time.monotonic() + opts.rubric.time_budget_s

    run_as = box.user
    runs = opts.work / "runs"
    runs.mkdir(parents=True, exist_ok=True)
    if run_as is not None:
        # The unprivileged user must reach its scratch folders, whatever the work folder's
        # parents allow: they go under the system's temporary folder instead.
        runs = Path(tempfile.mkdtemp(prefix="scanlab-runs-"))
        runs.chmod(0o711)
        opts.cleanup.append(runs)
    box.budget_disk(opts.rubric.disk_limit_mb, runs)
    # The build folder stays the grader's: the submission's targets are built in folders of
    # their own (private_build.py), and the trusted programs are checked before they run.
    trusted_hashes = {}
    for name in trusted:
        for artifact in targets[name].artifacts if name in targets else []:
            if artifact.is_file() and os.access(artifact, os.X_OK):
                trusted_hashes[artifact.resolve()] = sha256_of(artifact)
    ctx = Context(repo=repo, rubric=opts.rubric, runs=runs, logs=logs,
                  seed=grade.seed, hidden_dir=hidden, run_hidden=grade.hidden,
                  backend=opts.backend, jobs=opts.jobs,
                  env=opts.env, progress=say, sandbox=box, deadline=deadline,
                  build=opts.build, trusted=trusted_hashes)
    replacements = {str(staging) + "/": "labs/", str(repo) + "/": ""}
    allowed = shown_file(repo, staging, hidden)

    build_cache = BuildCache(opts.build / "_grader" / "private-builds",
                             f"sandbox {box.mode}, user {run_as}")

    def private_for(lab) -> Private:
        return Private(staging=staging, runs=runs, user=run_as,
                       view=lambda folder: build_view(repo, folder), cache=build_cache)
    for result in grade.labs:
        lab = result.lab
        lab_rubric = opts.rubric.lab(lab.number)
        if ctx.time_left(1.0) <= 0:
            result.status = "not graded"
            result.problem = (f"not graded: the submission's time budget "
                              f"({opts.rubric.time_budget_s:g} s) was used up")
            score_lab(result, lab_rubric)
            continue
        listing_exe = next((a for a in targets.get(
            f"lab{lab.number}_listing_{opts.backend}", cmake.Target("", "", [])).artifacts
            if a.exists()), None)
        if listing_exe is None:
            raise RuntimeError(f"the listing program of lab {lab.number} was not built")
        graded, problem = list_graded_cases(listing_exe, lab, ctx, f"lab{lab.number}")
        if graded is None:
            raise RuntimeError(problem)
        # A lab with a harness (tools/worker) builds only the worker in the sandbox.
        harness = harness_target(lab.number, opts.backend, targets)
        target = (f"lab{lab.number}_worker_{opts.backend}" if harness else
                  f"lab{lab.number}_tests_student_{opts.backend}")
        build_timeout = ctx.time_left(lab_rubric.build_timeout_s)
        exe, result.build_s, problem = build_lab_target(
            target, lab, targets, opts.build, build_timeout,
            opts.jobs, logs / f"lab{lab.number}-build.log", replacements, say, sandbox=box,
            memory_mb=lab_rubric.build_memory_limit_mb, allowed=allowed,
            private=private_for(lab))
        if exe is None and build_timeout < lab_rubric.build_timeout_s and \
                ctx.time_left(1.0) <= 0:
            # The submission's budget, not the lab's own build limit, stopped this build.
            result.status = "not graded"
            result.problem = (f"not graded: the submission's time budget "
                              f"({opts.rubric.time_budget_s:g} s) was used up while the lab "
                              f"was building")
            say(f"{lab.title}: not graded (the time budget was used up during its build)")
        elif exe is None:
            result.status = "build failed"
            result.problem = problem
            say(f"{lab.title}: BUILD FAILED: {problem.splitlines()[0]}")
        elif harness:
            harness_exe = next((a for a in targets[harness].artifacts if a.exists()), None)
            if harness_exe is None:
                raise RuntimeError(f"the harness of lab {lab.number} was not built")
            run = run_lab_tests(harness_exe, lab, lab_rubric, ctx, f"lab{lab.number}", graded,
                                worker=exe)
            result.status, result.problem = run.status, run.problem
            result.tests, result.run_s, result.isolated = run.tests, run.run_s, run.isolated
            result.notes.extend(run.notes)
        else:
            run = run_lab_tests(exe, lab, lab_rubric, ctx, f"lab{lab.number}", graded)
            result.status, result.problem = run.status, run.problem
            result.tests, result.run_s, result.isolated = run.tests, run.run_s, run.isolated
            result.notes.extend(run.notes)
        score_lab(result, lab_rubric)
        passed = sum(1 for t in result.tests if t.passed)
        say(f"{lab.title}: {passed}/{len(result.tests)} passed, {result.points:.2f}/"
            f"{result.total_max:.2f} points")

    if plan:
        speed_mod.grade_speed(plan, opts, grade, targets, ctx, say,
                              speed_mod.StudentBuild(None, allowed, replacements,
                                                     private_for))


def new_grade(opts: Options) -> Grade:
    seed = opts.seed if opts.seed is not None else secrets.randbelow(2**63 - 1) + 1
    return Grade(submission=str(opts.submission), seed=seed, backend=opts.backend,
                 hidden=False)


def run_grading(opts: Options, say: Progress) -> Grade:
    """Never raises: a failure of the grader itself ends up in grade.fatal, and every lab not
    graded by then is scored as a failed stand-in."""
    grade = new_grade(opts)
    say(f"grading {opts.submission} (seed {grade.seed}, backend {opts.backend})")
    try:
        grade_submission(opts, grade, say)
    except BaseException as error:  # KeyboardInterrupt and SIGTERM too: results.json is written
        grade.fatal = "".join(traceback.format_exception_only(type(error), error)).strip()
        if not isinstance(error, (KeyboardInterrupt, SystemExit)):
            grade.notes.append("grader error:\n" + traceback.format_exc())
        say(f"GRADER ERROR: {grade.fatal}")
        if not grade.labs:  # it failed before the labs were known
            try:
                for lab in tree.select_labs(tree.discover_labs(opts.repo), opts.labs):
                    if opts.rubric.lab(lab.number).enabled:
                        grade.labs.append(LabResult(lab, opts.rubric.lab(lab.number).points))
            except Exception:
                pass
        for result in grade.labs:
            if not result.tests:
                result.status = "not graded"
                result.problem = f"not graded: the grader failed ({grade.fatal})"
                score_lab(result, opts.rubric.lab(result.lab.number))
    grade.finished = time.time()
    return grade
