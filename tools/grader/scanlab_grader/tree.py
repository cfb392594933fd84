"""The labs of the pristine tree, the files of a submission, and the staged labs/ folder that the
build sees: the pristine labs/ with the submission's lab files copied over it."""

from __future__ import annotations

import fnmatch
import os
import re
import shutil
import tarfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

LAB_FOLDER = re.compile(r"^(\d\d)_([A-Za-z0-9_]+)$")
MAX_FILE_BYTES = 2 * 1024 * 1024  # a lab source larger than this is not a lab source
SKIP_DIRS = {".git", "__MACOSX", "__pycache__", ".vs", ".vscode", ".idea", "node_modules"}


def repo_root() -> Path:
    """The tree this grader belongs to (tools/grader/scanlab_grader/ -> the repository)."""
    return Path(__file__).resolve().parents[3]


@dataclass
class Lab:
    number: str  # "01"
    name: str  # "naive"
    folder: str  # "01_naive"
    path: Path  # <repo>/labs/01_naive
    test_files: list[Path]

    @property
    def title(self) -> str:
        return f"lab{self.number} {self.name}"


def discover_labs(root: Path) -> list[Lab]:
    """Every labs/NN_name folder that has graded tests (tests/labs/labNN_*test.cpp)."""
    labs = []
    labs_dir = root / "labs"
    if not labs_dir.is_dir():
        return labs
    for entry in sorted(labs_dir.iterdir()):
        match = LAB_FOLDER.match(entry.name)
        if not match or not entry.is_dir():
            continue
        number, name = match.groups()
        tests = sorted((root / "tests" / "labs").glob(f"lab{number}_*test.cpp"))
        if tests:
            labs.append(Lab(number, name, entry.name, entry, tests))
    return labs


def select_labs(labs: list[Lab], wanted: str | None) -> list[Lab]:
    """`wanted`: comma-separated lab numbers ("1,02") or folder names; None: all."""
    if not wanted:
        return labs
    keys = set()
    for item in wanted.split(","):
        item = item.strip()
        if not item:
            continue
        keys.add(item.zfill(2) if item.isdigit() else item)
    chosen = [lab for lab in labs if lab.number in keys or lab.folder in keys]
    unknown = keys - {lab.number for lab in chosen} - {lab.folder for lab in chosen}
    if unknown:
        raise ValueError(f"no such lab: {', '.join(sorted(unknown))} "
                         f"(labs here: {', '.join(lab.number for lab in labs)})")
    return chosen


# What an archived submission may unpack to, whatever its format (.zip, .tar, .tar.gz): checked
# from the archive's own index before anything is written (zipfile reads no more than a member's
# declared size; a tar member's header size is what tarfile writes).
MAX_UNPACKED_BYTES = 200 * 1024 * 1024
MAX_UNPACKED_ENTRIES = 10000


def _check_unpacked(archive: Path, sizes: list[int]) -> None:
    if len(sizes) > MAX_UNPACKED_ENTRIES:
        raise ValueError(f"{archive}: the archive holds {len(sizes)} entries, more than the "
                         f"{MAX_UNPACKED_ENTRIES} a submission may have: not unpacked")
    if sum(sizes) > MAX_UNPACKED_BYTES:
        raise ValueError(f"{archive}: the archive unpacks to {sum(sizes) / 2**20:.0f} MiB, more "
                         f"than the {MAX_UNPACKED_BYTES // 2**20} MiB a submission may have: "
                         f"not unpacked")


def _safe_extract_zip(archive: Path, dest: Path) -> None:
    with zipfile.ZipFile(archive) as z:
        infos = z.infolist()
        for info in infos:
            name = info.filename
            if name.startswith("/") or ".." in Path(name).parts:
                raise ValueError(f"{archive}: unsafe path in archive: {name}")
        _check_unpacked(archive, [info.file_size for info in infos])
        z.extractall(dest)


def _safe_extract_tar(archive: Path, dest: Path) -> None:
    with tarfile.open(archive) as t:
        members = []
        for member in t:  # reads the headers only (a .gz is decompressed, nothing is written)
            members.append(member)
            if len(members) > MAX_UNPACKED_ENTRIES:
                break
        _check_unpacked(archive, [m.size if m.isfile() else 0 for m in members])
        t.extractall(dest, members=members, filter="data")


def unpack_if_archive(submission: Path, work: Path) -> Path:
    """A .zip or .tar(.gz) submission is unpacked into `work`; a folder is returned as is."""
    if submission.is_dir():
        return submission
    name = submission.name.lower()
    dest = work / "submission"
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    if name.endswith(".zip"):
        _safe_extract_zip(submission, dest)
    elif name.endswith((".tar", ".tar.gz", ".tgz")):
        _safe_extract_tar(submission, dest)
    elif submission.is_file():
        shutil.copy(submission, dest / submission.name)  # one loose file
    else:
        raise FileNotFoundError(f"submission not found: {submission}")
    return dest


@dataclass
class Overlay:
    """What a submission contributes: lab folder -> {path inside the lab: file}."""
    files: dict[str, dict[str, Path]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def for_lab(self, folder: str) -> dict[str, Path]:
        return self.files.get(folder, {})


def _walk(root: Path, max_depth: int = 8):
    root_depth = len(root.parts)
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        here = Path(dirpath)
        dirnames[:] = sorted(d for d in dirnames
                             if d not in SKIP_DIRS and not d.startswith("build")
                             and len(here.parts) - root_depth < max_depth)
        for name in sorted(filenames):
            yield here / name


def collect_submission(submission: Path, labs: list[Lab],
                       student_files: dict[str, list[str]]) -> Overlay:
    """Finds the submitted files of each lab. A file inside a folder named like a lab
    (…/01_naive/naive_scan.cu) belongs to that lab at its path below that folder; a loose file
    (naive_scan.cu at any depth) belongs to the lab whose pristine folder has a file of that
    name. Only files matching the lab's `student_files` patterns are taken; symbolic links,
    huge files and everything else are ignored (and noted)."""
    overlay = Overlay()
    by_folder = {lab.folder: lab for lab in labs}
    loose_owner: dict[str, list[Lab]] = {}
    for lab in labs:
        for f in lab.path.rglob("*"):
            if f.is_file():
                loose_owner.setdefault(f.name, []).append(lab)
    # candidates[(folder, rel)] = [(priority, path)]: inside a lab folder beats loose
    candidates: dict[tuple[str, str], list[tuple[int, Path]]] = {}
    ignored = []
    for path in _walk(submission):
        # The submission folder's own name counts too: grading labs/01_naive directly works.
        rel_parts = (submission.resolve().name,) + path.relative_to(submission).parts
        lab = None
        inner: tuple[str, ...] = ()
        priority = 1
        for i, part in enumerate(rel_parts[:-1]):
            if part in by_folder:
                lab, inner, priority = by_folder[part], rel_parts[i + 1:], 0
        if lab is None:
            owners = loose_owner.get(path.name, [])
            if len(owners) == 1:
                lab, inner = owners[0], (path.name,)
        if lab is None:
            in_other_lab = any(LAB_FOLDER.match(part) for part in rel_parts[:-1])
            if path.name.endswith((".cu", ".cuh")) and not in_other_lab:
                ignored.append(str(path.relative_to(submission)))
            continue
        rel = "/".join(inner)
        patterns = student_files.get(lab.number, ["*.cu", "*.cuh"])
        if not any(fnmatch.fnmatchcase(rel, p) or fnmatch.fnmatchcase(Path(rel).name, p)
                   for p in patterns):
            continue
        if path.is_symlink() or not path.is_file():
            overlay.notes.append(f"ignored {path.relative_to(submission)}: not a regular file")
            continue
        if path.stat().st_size > MAX_FILE_BYTES:
            overlay.notes.append(f"ignored {path.relative_to(submission)}: larger than "
                                 f"{MAX_FILE_BYTES // 1024} KiB")
            continue
        candidates.setdefault((lab.folder, rel), []).append((priority, path))
    for (folder, rel), found in sorted(candidates.items()):
        found.sort(key=lambda item: (item[0], len(item[1].parts), str(item[1])))
        chosen = found[0][1]
        if len(found) > 1:
            others = ", ".join(str(p.relative_to(submission)) for _, p in found[1:])
            overlay.notes.append(f"{folder}/{rel}: used {chosen.relative_to(submission)}, "
                                 f"ignored {others}")
        overlay.files.setdefault(folder, {})[rel] = chosen
    if ignored:
        overlay.notes.append("ignored files that belong to no lab: " + ", ".join(ignored[:10]))
    return overlay


def _write_if_changed(dest: Path, data: bytes) -> None:
    """Writes only when the content differs, so an unchanged file keeps its time stamp and is not
    rebuilt; a changed one gets a new time stamp even if the submission's is old."""
    try:
        if dest.read_bytes() == data:
            return
    except OSError:
        pass
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(dest.name + ".grader-tmp")
    tmp.write_bytes(data)
    os.replace(tmp, dest)


def stage_labs(pristine_labs: Path, staging: Path, overlay: Overlay) -> None:
    """Makes `staging` a copy of the pristine labs/ folder with the overlay's files on top,
    removing whatever else an earlier staging left there."""
    wanted: dict[Path, bytes] = {}
    for src in pristine_labs.rglob("*"):
        if src.is_file() and not src.is_symlink():
            wanted[staging / src.relative_to(pristine_labs)] = src.read_bytes()
    for folder, files in overlay.files.items():
        for rel, src in files.items():
            wanted[staging / folder / rel] = src.read_bytes()
    staging.mkdir(parents=True, exist_ok=True)
    for existing in sorted(staging.rglob("*"), reverse=True):
        if existing.is_file() or existing.is_symlink():
            if existing not in wanted:
                existing.unlink()
        elif existing.is_dir() and not any(existing.iterdir()):
            existing.rmdir()
    for dest, data in wanted.items():
        _write_if_changed(dest, data)
