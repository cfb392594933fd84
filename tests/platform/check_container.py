#!/usr/bin/env python3
"""Keeps the container path (Dockerfile, .dockerignore, .devcontainer/) consistent with the tree.

No container engine runs in CI, so this checks what can be checked without one:
- .devcontainer/devcontainer.json is JSON and builds the repository's Dockerfile;
- every file the Dockerfile COPYs exists and is not excluded by .dockerignore;
- the image installs its packages through scripts/install-deps.sh --all (one package list);
- each `docker run` command the Dockerfile and the README give runs one of the README's two
  quick-start commands.
Prints one line per problem; exit status 1 on any."""

import fnmatch
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def ignored(path: str, patterns: list[str]) -> bool:
    """.dockerignore semantics for plain patterns and `!` exceptions: the last match wins."""
    result = False
    for pattern in patterns:
        negate = pattern.startswith("!")
        pattern = pattern[1:] if negate else pattern
        if fnmatch.fnmatch(path, pattern) or path.startswith(pattern.rstrip("/") + "/"):
            result = not negate
    return result


def quick_start_commands(readme: str) -> set[str]:
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    return {line.split("#")[0].strip() for line in block.splitlines() if line.strip()}


def main() -> int:
    problems = []
    dockerfile = (ROOT / "Dockerfile").read_text()
    devcontainer = json.loads((ROOT / ".devcontainer" / "devcontainer.json").read_text())
    built = (ROOT / ".devcontainer" / devcontainer["build"]["dockerfile"]).resolve()
    if built != ROOT / "Dockerfile":
        problems.append(f"devcontainer.json builds {built}, not the repository's Dockerfile")
    if (ROOT / ".devcontainer" / devcontainer["build"].get("context", ".")).resolve() != ROOT:
        problems.append("devcontainer.json's build context is not the repository root")

    patterns = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
                if line.strip() and not line.startswith("#")]
    for source in re.findall(r"^COPY\s+(\S+)\s", dockerfile, re.M):
        if not (ROOT / source).exists():
            problems.append(f"Dockerfile copies {source}, which does not exist")
        elif ignored(source, patterns):
            problems.append(f"Dockerfile copies {source}, which .dockerignore leaves out")
    if not re.search(r"^FROM debian:12\b", dockerfile, re.M):
        problems.append("the Dockerfile is not based on debian:12")
    if "install-deps.sh --all" not in dockerfile:
        problems.append("the Dockerfile does not install through scripts/install-deps.sh --all")

    readme = (ROOT / "README.md").read_text()
    wanted = quick_start_commands(readme)
    runs = re.findall(r"docker run [^\n]*?(\./scanlab \w+)", dockerfile + readme)
    if not runs:
        problems.append("neither the Dockerfile nor the README shows a `docker run` command")
    for command in runs:
        if command not in wanted:
            problems.append(f"`docker run ... {command}` is not one of the README's quick-start "
                            f"commands {sorted(wanted)}")
    for problem in problems:
        print(problem)
    print(f"container files checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
