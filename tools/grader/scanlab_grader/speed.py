"""Speed grading (grade.py --speed), in the style of CS149's scan assignment: the student's lab
and the reference solution are timed in the same run on the same GPU, and the student gets the
lab's speed points in full when within `tolerance` (default 1.2) times the reference's time,
`points * tolerance / ratio` when slower. Only a lab whose test cases all pass is timed.

What is timed is the lab's descriptor (tools/lab_descriptors/labNN.cpp), compiled with the lab
into the speed harness lab<NN>_speed_<flavour>_<backend> (speed/speed_harness.cpp says the
protocol between the grader and the harness); the rubric's [labs.NN.speed] gives the points, the
tolerance, and the variant, size and kind where they are not the descriptor's. The student's
harness is built in the sandbox, as the graded tests are.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import cmake, procs, tree
from .lab_build import build_lab_target
from .lab_context import memory_limit_mb, test_env
from .model import Grade, Progress, TestResult

ROUNDS = 2  # reference, student, reference, student: the best median of each counts


@dataclass
class SpeedPlan:
    backend: str
    labs: list[tree.Lab] = field(default_factory=list)


@dataclass
class StudentBuild:
    """How grading.py builds a submission's programs: what the sandbox shows the build, which
    compiler messages the student may see, and how their paths are shown."""
    view: Any
    allowed: Any
    replacements: dict[str, str]
    private: Any = None  # lab -> lab_build.Private: the build in a folder of its own


def descriptor_of(repo: Path, lab: tree.Lab) -> Path:
    return repo / "tools" / "lab_descriptors" / f"lab{lab.number}.cpp"


def gpu_present() -> tuple[bool, str]:
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False, "nvidia-smi not found"
    try:
        out = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as error:
        return False, f"nvidia-smi -L failed: {error}"
    gpus = [line for line in out.stdout.splitlines() if line.startswith("GPU ")]
    if out.returncode != 0 or not gpus:
        return False, "nvidia-smi -L lists no GPU"
    return True, gpus[0]


def nvcc_present() -> bool:
    return bool(shutil.which("nvcc") or os.environ.get("CUDACXX")
                or Path("/usr/local/cuda/bin/nvcc").exists())


def plan(opts, labs: list[tree.Lab], grade: Grade, say: Progress) -> SpeedPlan | None:
    if not opts.speed:
        return None
    backend = opts.speed_backend
    if backend == "cuda":
        ok, what = gpu_present()
        if not ok:
            grade.speed = f"speed grading skipped: no GPU on this machine ({what})"
            say(grade.speed)
            return None
        if not nvcc_present():
            grade.speed = "speed grading skipped: no CUDA compiler (nvcc) on this machine"
            say(grade.speed)
            return None
        say(f"speed grading on {what}")
    if not (opts.repo / "solutions").is_dir():
        grade.speed = "speed grading skipped: this tree has no reference solutions (solutions/)"
        say(grade.speed)
        return None
    result = SpeedPlan(backend)
    undescribed = []
    for lab in labs:
        spec = opts.rubric.lab(lab.number).speed
        if spec is None or spec.points <= 0:
            continue
        if not descriptor_of(opts.repo, lab).is_file():
            undescribed.append(lab.number)
            continue
        result.labs.append(lab)
    # The course's mistake, not the student's: said loudly, and no speed entry for the lab.
    missing = "".join(f"; lab {number} has speed points but no descriptor (tools/lab_descriptors/"
                      f"lab{number}.cpp says what to time): not timed" for number in undescribed)
    if not result.labs:
        grade.speed = "speed grading: no lab has speed points in the rubric" + missing
        say(grade.speed)
        return None
    grade.speed = (f"speed graded on the {backend} backend for lab(s) "
                   f"{', '.join(lab.number for lab in result.labs)}" + missing)
    if missing:
        say(grade.speed)
    return result


def _measure(exe: Path, spec, out_json: Path, ctx, lab_rubric, log: Path,
             backend: str) -> tuple[dict, str]:

    cwd = out_json.parent / (out_json.stem + "-cwd")
    cwd.mkdir(parents=True, exist_ok=True)
    procs.hand_over(cwd, ctx.run_as, reach_from=ctx.runs if cwd.is_relative_to(ctx.runs)
                    else out_json.parent.parent)
    out_json = cwd / out_json.name  # the harness writes it from inside the program
    box = ctx.sandbox
    view = ctx.program_view(exe, cwd)
    view.gpu = backend == "cuda"
    args = [exe, f"--out={out_json}", f"--seed={ctx.seed % 2**32}"]
    # Only what the rubric sets: the rest is the lab's descriptor's.
    args += [f"--variant={spec.variant}"] if spec.variant else []
    args += [f"--n={spec.n}"] if spec.n else []
    args += [f"--kind={spec.kind}"] if spec.kind else []
    proc = procs.run(box.command(args, view, cwd),
                     cwd=cwd, env=test_env(ctx, lab_rubric, cwd),
                     limits=box.limits(ctx.time_left(lab_rubric.timeout_s),
                                       memory_mb=memory_limit_mb(backend, lab_rubric)),
                     output_path=log, shell_status=box.wraps)
    try:
        data = json.loads(out_json.read_text())
    except (OSError, ValueError):
        data = {}
    if not proc.exited:
        return data, proc.describe(lab_rubric.timeout_s)
    if not data.get("correct"):
        return data, data.get("error", f"{proc.describe()} without a measurement")
    if proc.returncode != 0 or not isinstance(data.get("median_ms"), (int, float)):
        return data, f"{proc.describe()}: no valid measurement"
    return data, ""


def _target(speed_plan: SpeedPlan, lab: tree.Lab, flavour: str) -> str:
    return f"lab{lab.number}_speed_{flavour}_{speed_plan.backend}"


def reference_targets(speed_plan: SpeedPlan) -> list[str]:
    """The reference solutions' harnesses: grading.py builds them with the other programs
    that hold no student code, outside the sandbox and before any build in it."""
    return [_target(speed_plan, lab, "solution") for lab in speed_plan.labs]


def _executables(speed_plan: SpeedPlan, lab: tree.Lab, lab_rubric, opts, targets, ctx,
                 student: StudentBuild, say: Progress) -> tuple[dict[str, Path], str]:
    """Both harnesses of a lab: the reference's, built already, and the student's, built now
    in the sandbox under the limits of the lab's own build (its code is compiled there)."""
    reference = _target(speed_plan, lab, "solution")
    built = next((a for a in targets[reference].artifacts if a.exists()), None) \
        if reference in targets else None
    if built is None:
        return {}, f"the reference's harness {reference} was not built"
    target = _target(speed_plan, lab, "student")
    exe, _, problem = build_lab_target(
        target, lab, targets, opts.build, ctx.time_left(lab_rubric.build_timeout_s), opts.jobs,
        ctx.logs / f"{target}-build.log", student.replacements, say, sandbox=ctx.sandbox,
        view=student.view, memory_mb=lab_rubric.build_memory_limit_mb, allowed=student.allowed,
        private=student.private(lab) if student.private else None)
    if exe is None:
        return {}, f"{target} did not build: {problem}"
    return {"solution": built, "student": exe}, ""


def grade_speed(speed_plan: SpeedPlan, opts, grade: Grade, targets: dict[str, cmake.Target],
                ctx, say: Progress, student: StudentBuild) -> None:

    by_number = {r.lab.number: r for r in grade.labs}
    scratch = opts.work / "speed_runs"
    scratch.mkdir(parents=True, exist_ok=True)
    for lab in speed_plan.labs:
        result = by_number[lab.number]
        lab_rubric = opts.rubric.lab(lab.number)
        spec = lab_rubric.speed
        entry = TestResult(name="speed", kind="speed", max_score=spec.points,
                           visibility=lab_rubric.visibility)
        result.tests.append(entry)
        tests = [t for t in result.tests if t.kind == "test"]
        if not tests or any(t.synthetic or not t.passed for t in tests):
            entry.message = "not timed: speed is graded only when all the lab's test cases pass"
            continue
        exes, problem = _executables(speed_plan, lab, lab_rubric, opts, targets, ctx, student,
                                     say)
        if problem:
            entry.message = f"not timed: {problem}"
            continue
        say(f"{lab.title}: timing the reference and yours ({ROUNDS} rounds each)")
        best: dict[str, float] = {}
        measured: dict = {}
        failure = ""
        for round_no in range(ROUNDS):
            for flavour in ("solution", "student"):
                data, problem = _measure(exes[flavour], spec,
                                         scratch / f"lab{lab.number}-{flavour}-{round_no}.json",
                                         ctx, lab_rubric,
                                         ctx.logs / f"lab{lab.number}-speed-{flavour}.log",
                                         speed_plan.backend)
                if problem:
                    who = "the reference solution" if flavour == "solution" else "your code"
                    failure = f"not timed: {who}: {problem}"
                    break
                measured = data
                best[flavour] = min(best.get(flavour, float("inf")), float(data["median_ms"]))
            if failure:
                break
        if failure:
            entry.message = failure
            continue
        mine, reference = best["student"], best["solution"]
        ratio = mine / reference if reference > 0 else float("inf")
        tolerance = spec.tolerance
        fraction = 1.0 if ratio <= tolerance else tolerance / ratio
        entry.score = spec.points * fraction
        entry.passed = fraction >= 1.0
        entry.duration = mine / 1000.0
        entry.message = (f"your time {mine:.4f} ms, reference {reference:.4f} ms "
                         f"({ratio:.2f}x the reference) on "
                         f"{measured.get('device') or speed_plan.backend}: "
                         f"{measured.get('what', 'lab ' + lab.number)}, "
                         f"n = {measured.get('n')}, {measured.get('kind')} int32 sum; full "
                         f"points up to {tolerance:g}x, then points * {tolerance:g} / ratio")
        say(f"{lab.title}: speed {ratio:.2f}x the reference: {entry.score:.2f}/{spec.points:.2f}")
