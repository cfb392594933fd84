"""Building one lab's target for grading: the old program deleted first, the build sandboxed and
time- and memory-limited, and its failure explained with the student's own compiler messages."""

from __future__ import annotations

import os

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from . import cmake, private_build, procs, tree
from .build_cache import BuildCache
from .model import Progress


@dataclass
class Private:
    """How a submission's target is built in a folder of its own (private_build.py): the staged
    labs, where the private folders go, the submission's user, and what the sandbox shows the
    build besides its folder (`view(folder)`)."""
    staging: Path
    runs: Path
    user: tuple[int, int] | None
    view: Callable[[Path], Any]
    cache: BuildCache | None = None  # programs of earlier identical builds (build_cache.py)


def build_lab_target(target: str, lab: tree.Lab, targets: dict[str, cmake.Target],
                     build: Path, timeout_s: float, jobs: int | None, log: Path,
                     replacements: dict[str, str], say: Progress, sandbox=None, view=None,
                     memory_mb: int = 0, allowed=None, private: Private | None = None):
    """Builds one target after deleting its old file, inside `sandbox` when given (see
    cmake.build_target). With `private`, the submission's target is built in a folder of its
    own in the sandbox (private_build.py), never in `build`. Returns (exe or None, seconds,
    problem); the problem shows only the compiler's messages about files `allowed` accepts."""
    if target not in targets:
        return None, 0.0, (f"the build has no target {target} (is the lab's source file "
                           f"missing, or the {target.rsplit('_', 1)[-1]} backend not built?)")
    for artifact in targets[target].artifacts:
        try:
            artifact.unlink()
        except FileNotFoundError:
            pass
    if timeout_s <= 0:
        return None, 0.0, "not built: the submission's time budget was used up"
    say(f"{lab.title}: building {target}")
    if private is not None:
        folder = private.runs / f"{target}-build"
        plan = private_build.plan(build, target, folder, private.staging)
        staged = str(plan.folder / private.staging.resolve().relative_to(build.resolve()))
        replacements = {staged + "/": "labs/", **replacements}
        programs = [plan.relative(a) for a in targets[target].artifacts]
        key = private.cache.key(plan) if private.cache else ""
        if private.cache and private.cache.lookup(plan, key, programs):
            say(f"{lab.title}: the same lab code was built before: its program is reused")
            log.write_text(f"reused the program of an identical earlier build ({key})\n")
            proc = procs.ProcResult([], 0, None, False, 0.0, log)
        else:
            private_build.hand_over(folder, private.user)
            proc = private_build.run(plan, sandbox, private.view(folder), timeout_s, log,
                                     memory_mb, say.heartbeat(f"{lab.title}: still building"))
        base_allowed = allowed

        def allowed(path: str, _staged=staged) -> bool:
            real = os.path.realpath(path)
            return real.startswith(_staged + os.sep) or (base_allowed is None or
                                                         base_allowed(path))
        build = plan.folder
        if private.user is not None:
            private_build.seal(folder)
        exe = next((plan.artifact(a) for a in targets[target].artifacts
                    if plan.artifact(a).exists()), None)
        if proc.stopped:  # past the submission's disk budget: what it wrote goes
            private_build.remove(folder)
        elif private.cache and proc.exited and proc.returncode == 0 and exe and proc.command:
            private.cache.store(plan, key, programs)
    else:
        proc = cmake.build_target(build, target, jobs, timeout_s, log,
                                  heartbeat=say.heartbeat(f"{lab.title}: still building"),
                                  sandbox=sandbox, view=view, memory_mb=memory_mb)
        exe = next((a for a in targets[target].artifacts if a.exists()), None)
    if not proc.exited or proc.returncode != 0 or exe is None:
        if proc.stopped:
            return None, proc.elapsed, f"the build {proc.describe()}"
        if proc.timed_out:
            return None, proc.elapsed, f"the build took longer than {timeout_s:g} s"
        if proc.signal is not None:
            return None, proc.elapsed, (f"the build {proc.describe()} (a compiler over the "
                                        f"memory limit of {memory_mb} MiB?):\n" +
                                        cmake.error_excerpt(log, replacements, allowed=allowed,
                                                            build=build))
        problem = "the lab does not compile:\n"
        if memory_mb and _ran_out_of_memory(log):
            problem = (f"the lab does not compile: a compiler ran out of its memory limit "
                       f"({memory_mb} MiB, build_memory_limit_mb):\n")
        return None, proc.elapsed, problem + cmake.error_excerpt(log, replacements,
                                                                 allowed=allowed, build=build)
    say(f"{lab.title}: built in {proc.elapsed:.1f} s")
    return exe, proc.elapsed, ""


def _ran_out_of_memory(log: Path) -> bool:
    try:
        text = log.read_text(errors="replace")
    except OSError:
        return False
    return any(sign in text for sign in ("virtual memory exhausted", "out of memory",
                                         "std::bad_alloc", "Cannot allocate memory"))
