"""Configuring and building with CMake; the targets and where their files land, from CMake's
file-based API (codemodel v2), so no build-tree layout is assumed."""

from __future__ import annotations

import json
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from . import procs

CLIENT = "client-scanlab-grader"


@dataclass
class Target:
    name: str
    type: str  # EXECUTABLE, STATIC_LIBRARY, ...
    artifacts: list[Path]


def read_cache(build: Path) -> dict[str, str]:
    """NAME -> value of CMakeCache.txt (types dropped); empty when there is none."""
    values: dict[str, str] = {}
    try:
        text = (build / "CMakeCache.txt").read_text(errors="replace")
    except OSError:
        return values
    for line in text.splitlines():
        match = re.match(r"^([A-Za-z_][A-Za-z0-9_.+-]*):[A-Z_]+=(.*)$", line)
        if match:
            values[match.group(1)] = match.group(2)
    return values


def configure(source: Path, build: Path, cache: dict[str, str], extra_args: list[str],
              timeout_s: float, log_path: Path,
              heartbeat: Callable[[float], None] | None = None) -> procs.ProcResult:
    build.mkdir(parents=True, exist_ok=True)
    query = build / ".cmake" / "api" / "v1" / "query" / CLIENT
    query.mkdir(parents=True, exist_ok=True)
    (query / "query.json").write_text(
        json.dumps({"requests": [{"kind": "codemodel", "version": 2}]}))
    command = ["cmake", "-S", str(source), "-B", str(build)]
    if not (build / "CMakeCache.txt").exists() and shutil.which("ninja"):
        command += ["-G", "Ninja"]
    command += [f"-D{key}={value}" for key, value in cache.items()]
    command += extra_args
    return procs.run(command, cwd=build, env=_env(), limits=procs.Limits(timeout_s),
                     output_path=log_path, heartbeat=heartbeat)


def unset(build: Path, names: list[str], restore: dict[str, str], timeout_s: float,
          log_path: Path) -> procs.ProcResult:
    """Re-configures an existing build with `restore` values set and `names` removed."""
    command = ["cmake", "-S", read_cache(build).get("CMAKE_HOME_DIRECTORY", "."),
               "-B", str(build)]
    command += [f"-U{name}" for name in names]
    command += [f"-D{key}={value}" for key, value in restore.items()]
    return procs.run(command, cwd=build, env=_env(), limits=procs.Limits(timeout_s),
                     output_path=log_path)


def _env() -> dict[str, str]:
    import os
    env = dict(os.environ)
    env.setdefault("LANG", "C.UTF-8")
    return env


def targets(build: Path) -> dict[str, Target]:
    """Every target of the last configure, from the file API reply."""
    reply = build / ".cmake" / "api" / "v1" / "reply"
    indexes = sorted(reply.glob("index-*.json"))
    if not indexes:
        raise RuntimeError(f"{build}: CMake wrote no file-API reply (CMake >= 3.14 needed)")
    index = json.loads(indexes[-1].read_text())
    codemodel_file = None
    client = index.get("reply", {}).get(CLIENT, {}).get("query.json", {})
    for response in client.get("responses", []) + index.get("objects", []):
        if response.get("kind") == "codemodel":
            codemodel_file = response["jsonFile"]
            break
    if codemodel_file is None:
        raise RuntimeError(f"{build}: the file-API reply has no codemodel")
    codemodel = json.loads((reply / codemodel_file).read_text())
    out: dict[str, Target] = {}
    configurations = codemodel.get("configurations", [])
    if not configurations:
        return out
    for entry in configurations[0].get("targets", []):
        data = json.loads((reply / entry["jsonFile"]).read_text())
        artifacts = []
        for artifact in data.get("artifacts", []):
            path = Path(artifact["path"])
            artifacts.append(path if path.is_absolute() else build / path)
        out[entry["name"]] = Target(entry["name"], data.get("type", ""), artifacts)
    return out


def build_target(build: Path, target: str, jobs: int | None, timeout_s: float, log_path: Path,
                 heartbeat: Callable[[float], None] | None = None, sandbox=None, view=None,
                 memory_mb: int = 0) -> procs.ProcResult:
    """Builds `target` (several: separated by spaces). With `sandbox` (sandbox.Sandbox) and its
    `view`, the build runs inside it: a submission's build, whose compiler reads whatever the
    student's files #include."""
    command = ["cmake", "--build", str(build), "--target", *target.split()]
    if jobs:
        command += ["--parallel", str(jobs)]
    if sandbox is None:
        return procs.run(command, cwd=build, env=_env(), limits=procs.Limits(timeout_s),
                         output_path=log_path, heartbeat=heartbeat)
    env = _env()
    env["CCACHE_DISABLE"] = "1"  # a student's files never go into (or come from) a shared cache
    return procs.run(sandbox.command(command, view, build), cwd=build, env=env,
                     limits=sandbox.limits(timeout_s, memory_mb=memory_mb),
                     output_path=log_path, heartbeat=heartbeat, shell_status=sandbox.wraps)


_ERROR_LINE = re.compile(r"(error|Error|ERROR|undefined reference|fatal)")
# A compiler diagnostic's location: "path:line:col: ...", "In file included from path:line,"
_LOCATION = re.compile(r"^(?:In file included from |\s+from |In instantiation of .*? )?"
                       r"(?P<path>[^\s:][^:]*?):\d+(?::\d+)?[:,]")
# What follows a diagnostic: gcc's source excerpt ("   12 | code", "      |   ^~~").
_EXCERPT = re.compile(r"^\s*\d*\s*\|")


def shown_lines(lines: list[str], allowed: Callable[[str], bool],
                build: Path | None = None) -> tuple[list[str], int]:
    """The lines of a build log that may be shown to the student: a diagnostic about a file
    `allowed(path)` refuses (a hidden test, /etc/passwd, anything outside the handout) is left
    out with its source excerpt, and so are command lines (they name the grader's folders).
    Returns (lines, how many diagnostics were left out)."""
    out: list[str] = []
    dropped = 0
    keep_excerpt = True
    for line in lines:
        if line.startswith(("FAILED:", "ninja:", "[")) or (" -o " in line and " -c " in line):
            continue
        if _EXCERPT.match(line):
            if keep_excerpt:
                out.append(line)
            continue
        match = _LOCATION.match(line)
        if match:
            path = match.group("path")
            if build is not None and not os.path.isabs(path):
                path = os.path.join(str(build), path)
            keep_excerpt = allowed(os.path.normpath(path))
            if not keep_excerpt:
                dropped += 1
                continue
        out.append(line)
    return out, dropped


def error_excerpt(log_path: Path, replacements: dict[str, str], max_lines: int = 40,
                  allowed: Callable[[str], bool] | None = None, build: Path | None = None) -> str:
    """The compiler's complaints from a build log: the error lines with a little context, or
    the log's end when no line looks like an error. With `allowed`, only diagnostics about
    files it accepts (see shown_lines)."""
    try:
        lines = log_path.read_text(errors="replace").splitlines()
    except OSError:
        return ""
    dropped = 0
    if allowed is not None:
        lines, dropped = shown_lines(lines, allowed, build)

    def clean(line: str) -> str:
        for old, new in replacements.items():
            line = line.replace(old, new)
        return line

    picked: list[str] = []
    seen: set[int] = set()
    for i, line in enumerate(lines):
        if line.startswith(("[", "FAILED:", "ninja:")) and "error" not in line.lower():
            continue
        if _ERROR_LINE.search(line):
            for j in range(i, min(len(lines), i + 4)):
                if j not in seen and not lines[j].startswith(("[", "ninja:")):
                    seen.add(j)
                    picked.append(clean(lines[j]))
        if len(picked) >= max_lines:
            break
    if not picked:
        picked = [clean(line) for line in lines[-max_lines:]]
    text = "\n".join(picked[:max_lines])
    if dropped:
        text += (f"\n({dropped} message(s) about files that are not part of the lab's sources "
                 f"are not shown)")
    return text
