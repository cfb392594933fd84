"""Where a submission's code runs: its builds (the compiler reads whatever the student's files
#include) and its test programs (the student's code runs in them).

The best that the machine allows is chosen once per grading run:

  namespaces  bubblewrap (bwrap): a user namespace (no privileges, whoever runs the grader), a
              mount namespace that shows only the system folders, what the step needs and a
              private /tmp (no hidden tests, no solutions, no grader outputs), a PID namespace
              (every process of the step dies when it ends: setsid daemons too), no network.
  user        no namespaces, but the grader runs as root with --run-as USER: the step runs as
              that user, and every process of that user is killed after each step. The build
              folder and the trusted programs stay the grader's (private_build.py); the grader
              refuses this mode while USER can read the hidden tests, solutions/ or dist/
              (check_user_mode). Other files USER may read stay visible.
  none        neither: the step runs as the grader's own user; only its session is killed.
              Said loudly in the output, with what is missing. Trusted code only: refused with
              --run-as, and for a root grader unless asked for by name (--sandbox none).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from . import procs

# What a compiler or a test program needs from the system, read-only. /etc only in part: a
# sandbox that runs as root outside (a grader started as root) must not read /etc/shadow.
SYSTEM_DIRS = ("/usr", "/opt")
SYSTEM_LINKS_OR_DIRS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC_ENTRIES = ("alternatives", "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "passwd", "group",
               "nsswitch.conf", "localtime", "os-release")
NOBODY = 65534  # the user inside the namespace when the grader itself is root
# The size of the sandbox's /tmp and /dev/shm (each a tmpfs, private to one step).
TMPFS_MB = 256


@dataclass
class View:
    """What one sandboxed step sees besides the system folders."""
    read_only: list[Path] = field(default_factory=list)
    writable: list[Path] = field(default_factory=list)
    # Writable folders whose contents nobody needs after the step (a worker's working folder):
    # in the namespaces a fresh tmpfs of TMPFS_MB there, so that the step's disk use is bounded.
    scratch: list[Path] = field(default_factory=list)
    # (stand-in, where it appears): e.g. empty files in place of the hidden tests, with their
    # time stamps, so that the build tool finds its inputs but the compiler reads nothing.
    stand_ins: list[tuple[Path, Path]] = field(default_factory=list)
    gpu: bool = False  # /dev/nvidia* and /sys, for the cuda backend


@dataclass
class Sandbox:
    mode: str  # "namespaces", "user" or "none"
    bwrap: str | None = None
    user: tuple[int, int] | None = None  # (uid, gid) the steps run as (root grader, --run-as)
    missing: list[str] = field(default_factory=list)  # isolation this machine did not allow
    why_no_namespaces: str = ""
    # The files the submission may keep (set once its scratch folder is made: budget_disk).
    disk: procs.DiskBudget | None = None

    def budget_disk(self, limit_mb: int, scratch: Path) -> None:
        """Every step of the submission may keep at most `limit_mb` MiB of files (0: no limit):
        what is under `scratch` (its builds and working folders), and in the user sandbox its
        user's files in /tmp, /var/tmp, /dev/shm and /run/lock (the machine's own folders
        there; the namespaces give each step a tmpfs of TMPFS_MB instead)."""
        if limit_mb <= 0:
            self.disk = None
            return
        user = self.user[0] if self.mode == "user" and self.user is not None else None
        self.disk = procs.DiskBudget(limit_mb, (scratch,), user)

    def limits(self, timeout_s: float, memory_mb: int = 0,
               cpu_s: float | None = None) -> procs.Limits:
        return procs.Limits(timeout_s=timeout_s, memory_mb=memory_mb, cpu_s=cpu_s,
                            user=self.user, kill_user=self.user is not None, disk=self.disk)

    def command(self, argv: list[str], view: View, cwd: Path) -> list[str]:
        """`argv` wrapped so that it runs inside the sandbox (unchanged without namespaces)."""
        if self.mode != "namespaces":
            return [str(a) for a in argv]
        return _bwrap_argv(self.bwrap, self.user is None and os.geteuid() == 0, view, cwd) + \
            ["--", *[str(a) for a in argv]]

    def harness_limits(self, timeout_s: float, memory_mb: int = 0,
                       cpu_s: float | None = None) -> procs.Limits:
        """The limits of a trusted test harness: it runs as the grader (out of the reach of the
        worker it starts through worker_command), and every process of the submission's user
        is killed after it."""
        return procs.Limits(timeout_s=timeout_s, memory_mb=memory_mb, cpu_s=cpu_s,
                            kill_as=self.user, disk=self.disk)

    def worker_command(self, argv: list[str], view: View, cwd: Path) -> list[str]:
        """The command with which a trusted harness, running as the grader, starts the worker
        that runs the submission's code: in the sandbox, and as the submission's user where
        there is one (setpriv, util-linux), so that the worker cannot reach the harness."""
        command = self.command(argv, view, cwd)
        if self.user is None or os.geteuid() != 0:
            return command
        setpriv = shutil.which("setpriv") or "/usr/bin/setpriv"
        uid, gid = self.user
        return [setpriv, f"--reuid={uid}", f"--regid={gid}", "--clear-groups", "--",
                *command]

    @property
    def wraps(self) -> bool:
        """Whether exit statuses come through bwrap (a signal n then reads as 128 + n)."""
        return self.mode == "namespaces"

    def describe(self) -> str:
        if self.mode == "namespaces":
            who = "an unprivileged user" if self.user else "no privileges"
            return (f"sandbox: bubblewrap namespaces ({who}; only the lab's sources and its "
                    f"own folders visible; every process killed after each step)")
        lines = ["SANDBOX MISSING: " + "; ".join(self.missing)]
        if self.why_no_namespaces:
            lines.append(f"(bubblewrap: {self.why_no_namespaces})")
        return " ".join(lines)


def _system_binds() -> list[str]:
    args: list[str] = []
    for folder in SYSTEM_DIRS:
        if os.path.isdir(folder):
            args += ["--ro-bind", folder, folder]
    for entry in SYSTEM_LINKS_OR_DIRS:
        if os.path.islink(entry):
            args += ["--symlink", os.readlink(entry), entry]
        elif os.path.isdir(entry):
            args += ["--ro-bind", entry, entry]
    for name in ETC_ENTRIES:
        path = os.path.join("/etc", name)
        if os.path.lexists(path):
            args += ["--ro-bind", path, path]
    return args


def _bwrap_argv(bwrap: str, as_root: bool, view: View, cwd: Path) -> list[str]:
    args = [bwrap, "--unshare-user"]
    if as_root:  # root outside: an ordinary user inside, with no capabilities
        args += ["--uid", str(NOBODY), "--gid", str(NOBODY)]
    args += ["--unshare-pid", "--unshare-ipc", "--unshare-net", "--unshare-uts",
             "--unshare-cgroup-try", "--die-with-parent", "--new-session"]
    args += _system_binds()
    # RAM-backed folders are sized: their pages are the machine's memory, outside RLIMIT_AS.
    tmpfs = str(TMPFS_MB * 1024 * 1024)
    args += ["--proc", "/proc", "--dev", "/dev", "--size", tmpfs, "--tmpfs", "/tmp",
             "--size", tmpfs, "--tmpfs", "/dev/shm"]
    if view.gpu:
        for dev in sorted(Path("/dev").glob("nvidia*")):
            args += ["--dev-bind", str(dev), str(dev)]
        if os.path.isdir("/sys"):
            args += ["--ro-bind", "/sys", "/sys"]
    for path in view.read_only:
        args += ["--ro-bind", str(path), str(path)]
    for stand_in, where in view.stand_ins:
        args += ["--ro-bind", str(stand_in), str(where)]
    for path in view.writable:
        args += ["--bind", str(path), str(path)]
    for path in view.scratch:
        args += ["--size", tmpfs, "--tmpfs", str(path)]
    args += ["--chdir", str(cwd), "--setenv", "TMPDIR", "/tmp"]
    return args


def _probe(bwrap: str, user: tuple[int, int] | None) -> str:
    """'' when bwrap can make its namespaces here, else why not."""
    argv = _bwrap_argv(bwrap, user is None and os.geteuid() == 0, View(), Path("/")) + \
        ["--", "true"]

    def drop() -> None:
        if user is not None:
            os.setgroups([])
            os.setresgid(user[1], user[1], user[1])
            os.setresuid(user[0], user[0], user[0])

    try:
        proc = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=30,
                              preexec_fn=drop)
    except (OSError, subprocess.SubprocessError) as error:
        return str(error)
    if proc.returncode != 0:
        return (proc.stderr.decode(errors="replace").strip() or
                f"exit code {proc.returncode}")
    return ""


def choose(mode: str, run_as: tuple[int, int] | None, run_as_name: str | None,
           secrets: list[Path] | None = None) -> Sandbox:
    """The sandbox for this grading run. `mode`: "auto" (the best available), "require"
    (namespaces or a ValueError), "user" (the `user` sandbox even where namespaces work, for
    testing it), "none" (no isolation: trusted code only). Untrusted grading never degrades to
    no isolation: a ValueError says why instead. `secrets`: what the submission's user must not
    be able to read in the `user` sandbox (check_user_mode)."""
    bwrap = shutil.which("bwrap")
    why = "not installed (Debian/Ubuntu package bubblewrap)" if bwrap is None else ""
    if mode == "none" and run_as is not None:
        raise ValueError("--sandbox none runs the submission with no isolation, which is for "
                         "trusted code only; --run-as means it is not: use --sandbox auto, "
                         "require or user")
    if mode == "user" and run_as is None:
        raise ValueError("--sandbox user needs --run-as USER (the grader running as root)")
    if mode in ("auto", "require") and bwrap is not None:
        why = _probe(bwrap, run_as)
        if not why:
            return Sandbox("namespaces", bwrap=bwrap, user=run_as)
    if mode == "none":
        why = "turned off with --sandbox none"
    if mode == "user":
        why = "turned off with --sandbox user"
    if mode == "require":
        raise ValueError(f"--sandbox require: bubblewrap cannot make its namespaces here: {why}")
    if mode == "auto" and run_as is None and os.geteuid() == 0:
        raise ValueError(f"refusing to grade: bubblewrap cannot make its namespaces here "
                         f"({why}) and the grader is root, so the submission's code would run "
                         f"as root. Give --run-as USER (an unprivileged user), or --sandbox "
                         f"none for code you trust")
    missing = []
    if run_as is not None:
        readable = check_user_mode(run_as, secrets or [])
        if readable:
            raise ValueError(
                f"refusing to grade in the user sandbox (no namespaces: {why}): user "
                f"{run_as_name} can read " + ", ".join(readable[:5]) +
                ". Make them root-only first (chmod -R go-rwx), as the Gradescope setup.sh "
                "does for grading/hidden")
        missing.append("no mount namespace: the submission's code can read every file that "
                       f"user {run_as_name} can")
        missing.append("no PID namespace: its processes are killed by user id instead")
        return Sandbox("user", user=run_as, missing=missing, why_no_namespaces=why)
    import getpass
    me = "root" if os.geteuid() == 0 else getpass.getuser()
    missing.append(f"the submission's builds and test programs run as {me} and can read and "
                   f"write whatever {me} can (hidden tests, solutions, the grader and its "
                   f"outputs)")
    missing.append("no PID namespace: a daemon it starts outside its session survives")
    return Sandbox("none", missing=missing, why_no_namespaces=why)


def check_user_mode(user: tuple[int, int], secrets: list[Path]) -> list[str]:
    """The files of `secrets` (files or folders) that `user` can read, and folders it can
    list: each must be out of its reach in the `user` sandbox, which has no mount namespace."""
    paths: list[str] = []
    for secret in secrets:
        if not os.path.lexists(secret):
            continue
        paths.append(str(secret))
        for root, dirs, files in os.walk(secret):  # as the grader: every name, guessable too
            paths += [os.path.join(root, n) for n in dirs + files]
            if len(paths) > 5000:
                break
    if not paths:
        return []
    script = 'for p in "$@"; do [ -r "$p" ] && printf "%s\\n" "$p"; done; true'

    def drop() -> None:
        os.setgroups([])
        os.setresgid(user[1], user[1], user[1])
        os.setresuid(user[0], user[0], user[0])

    proc = subprocess.run(["/bin/sh", "-c", script, "sh", *paths], capture_output=True,
                          text=True, timeout=60, preexec_fn=drop, cwd="/")
    return [line for line in proc.stdout.splitlines() if line]


def stand_in_folder(real: Path, where: Path) -> Path:
    """A folder of empty files named like the .cpp files of `real`, each with the same
    modification time, in `where` (so that ninja sees an up-to-date input and reads nothing)."""
    if where.exists():
        shutil.rmtree(where)
    where.mkdir(parents=True)
    for source in sorted(real.glob("*")):
        if source.is_file():
            copy = where / source.name
            copy.write_bytes(b"")
            stat = source.stat()
            os.utime(copy, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    os.chmod(where, 0o755)
    return where
