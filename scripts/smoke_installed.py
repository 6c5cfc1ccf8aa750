"""The installed-package smoke test: calcnb as a school installs it, from its wheel, used from another folder.

``python scripts/smoke_installed.py`` (``.ci/run`` runs it after the test suite; the hosted CI on every platform):

1. clones the checkout as the teacher's guide says (``git clone ADDRESS calcnb``: committed files only) and,
   in the clone, with a home folder of its own, runs the README's first set-up line as written, up to its
   ``calcnb lab`` (step 5 runs that): a fresh virtual environment and ``pip install .``, whose output must
   carry no warning of pip's resolver (no backtracking, no conflict);
2. builds the wheel with the README's line for a school's IT (``pip wheel --no-deps . -w dist``, in the
   clone, its environment active) and the sdist (``python -m build --sdist``), and checks both
   (``scripts/check_dist.py``);
3. runs a few test files from the unpacked sdist (it holds what the tests need);
4. from a folder outside the clone, with that home folder: ``calcnb --version`` (compiled, the
   installed package), ``calcnb lessons``, ``calcnb app 02_wraparound --class-log lesson.db`` and ``calcnb app``
   (their first page fetched), ``calcnb class-view`` (its page) and its ``--summary``, ``calcnb lab`` (its
   notebooks listed through Jupyter's API; a second run keeps a notebook edited in between), and
   ``calcnb worksheets`` from yet another folder, reading the class key of that class log; and every ``calcnb``
   line of the teacher's guide as written, in its order (lab, the lesson, the classroom line, the class view,
   the projector view, the worksheets, the summary).

Every server is stopped as Ctrl-C stops it (Ctrl-Break on Windows), must say "Stopped.", leave no kernel
running, and show no traceback, deprecation or encryption warning. Prints each command, what it did and
how long it took; exits 1 at the first failure. ``--keep`` leaves the temporary folder for a look.

``--prepare DIR`` runs only the clone and the README's install (about 80 s, mostly pip unpacking and byte-compiling;
it needs nothing but Python, so it can start before any environment exists), and ``--prepared DIR`` runs the rest
on that folder: ``.ci/run`` runs the first at the lowest priority beside the test suite, on the CPU time the suite
leaves idle, and the second after it.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WINDOWS = sys.platform == "win32"
# What a teacher's terminal must never show on a default start.
NOISE = re.compile(r"Traceback|DeprecationWarning|deprecated|without encryption", re.IGNORECASE)
SDIST_TESTS = ("tests/test_readme.py", "tests/test_layers.py", "tests/test_workspace.py")
README = ROOT / "README.md"
GUIDE = ROOT / "docs" / "teachers.md"
# What pip's resolver says when it struggles: a teacher must never see it (the install's pins prevent it).
RESOLVER_WARNINGS = re.compile(
    r"taking longer than usual|backtrack|ResolutionImpossible|ResolutionTooDeep|dependency conflicts"
    r"|dependency resolver does not currently take into account|incompatible",
    re.IGNORECASE,
)


def readme_setup_line() -> str:
    """The README's first set-up line: a fresh virtual environment, ``pip install .`` and ``calcnb lab``."""
    pattern = r"^python3 -m venv \.venv && .* && pip install \. && calcnb lab$"
    found = re.search(pattern, README.read_text("utf-8"), re.MULTILINE)
    if found is None:
        raise SmokeFailure("README.md has no set-up line ending in 'pip install . && calcnb lab'")
    return found.group(0)


def readme_wheel_command() -> list[str]:
    """The README's line for a school's IT that builds the wheel (``pip wheel --no-deps . -w dist``)."""
    found = re.search(r"`(pip wheel [^`]+)`", README.read_text("utf-8"))
    if found is None:
        raise SmokeFailure("README.md has no `pip wheel ...` line for a school's IT")
    return found.group(1).split()


def guide_lines() -> list[list[str]]:
    """Every ``calcnb`` line of the teacher's guide's boxes, in its order, split as a shell splits it."""
    lines, boxed = [], False
    for line in GUIDE.read_text("utf-8").splitlines():
        if line.strip().startswith("```"):
            boxed = not boxed
        elif boxed and line.strip().startswith("calcnb "):
            lines.append(shlex.split(line.strip()))
    return lines


def guide_line_kind(words: list[str]) -> str:
    """What the smoke test does with a line of the guide: ``lab``, ``serve``, ``summary`` or ``worksheets``."""
    command = words[1] if len(words) > 1 else ""
    if command == "lab" and len(words) == 2:
        return "lab"
    if command == "app" or (command == "class-view" and "--summary" not in words):
        return "serve"
    if command == "class-view":
        return "summary"
    if command == "worksheets":
        return "worksheets"
    raise SmokeFailure(f"the smoke test does not know how to check the teacher's guide's line {shlex.join(words)!r}")


SERVER_SECONDS = 120  # a kernel starting and a notebook running, on a loaded 2-core machine


class SmokeFailure(Exception):
    """A step of the smoke test that did not do what it must."""


def _run(command: list[str], *, cwd: Path, env: dict[str, str] | None = None, code: int = 0) -> str:
    """Run a command to its end; its output (stdout and stderr); SmokeFailure unless it exits with ``code``."""
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=1800)
    output = done.stdout + done.stderr
    if done.returncode != code:
        raise SmokeFailure(f"{' '.join(command)} exited {done.returncode}, not {code}:\n{output[-4000:]}")
    return output


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """A ``calcnb`` server command in the foreground, as a terminal runs it: its lines read as they come."""

    def __init__(self, command: list[str], *, cwd: Path, env: dict[str, str]) -> None:
        options = {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP} if WINDOWS else {"start_new_session": True}
        self.command = command
        self.process = subprocess.Popen(
            command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **options
        )
        self.lines: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, pattern: str, seconds: float = SERVER_SECONDS) -> re.Match:
        """The first line matching ``pattern`` (SmokeFailure if the command ends or takes too long)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for line in list(self.lines):
                found = re.search(pattern, line)
                if found:
                    return found
            if self.process.poll() is not None:
                break
            time.sleep(0.2)
        raise SmokeFailure(f"{' '.join(self.command)}: no line like {pattern!r}:\n" + "\n".join(self.lines[-40:]))

    def kill(self) -> None:
        """End it and everything it started at once (a step failed while it ran)."""
        import psutil  # the checks' own need: the stage before them runs on a Python with nothing installed

        with contextlib.suppress(psutil.Error):
            for child in psutil.Process(self.process.pid).children(recursive=True):
                child.kill()
        self.process.kill()

    def stop(self) -> None:
        """Stop it as Ctrl-C does (Ctrl-Break on Windows); it must say Stopped and leave no kernel running."""
        import psutil

        family = psutil.Process(self.process.pid).children(recursive=True)
        self.process.send_signal(signal.CTRL_BREAK_EVENT if WINDOWS else signal.SIGINT)
        try:
            self.process.wait(60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise SmokeFailure(f"{' '.join(self.command)} did not stop on Ctrl-C") from None
        self.reader.join(10)
        _gone, alive = psutil.wait_procs(family, timeout=15)
        text = "\n".join(self.lines)
        if alive:
            raise SmokeFailure(f"{' '.join(self.command)} left {len(alive)} processes running: {alive}")
        if self.process.returncode != 0 or "Stopped." not in text:
            raise SmokeFailure(f"{' '.join(self.command)} stopped with {self.process.returncode}:\n{text[-3000:]}")
        noise = [line for line in self.lines if NOISE.search(line)]
        if noise:
            raise SmokeFailure(f"{' '.join(self.command)} showed the teacher:\n" + "\n".join(noise[:10]))


def _fetch(url: str, seconds: float = SERVER_SECONDS) -> bytes:
    with urllib.request.urlopen(url, timeout=seconds) as response:
        if response.status != 200:
            raise SmokeFailure(f"{url} answered {response.status}")
        return response.read()


class Smoke:
    """The steps, each timed and reported, in one temporary folder outside the checkout."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.clone = base / "calcnb"  # the teacher's guide: git clone ADDRESS calcnb
        self.dist = self.clone / "dist"
        self.venv = self.clone / ".venv"  # made by the README's set-up line
        self.home = base / "home"  # the user's home: the default workspace and Jupyter's own folders
        self.work = base / "work"  # where the teacher types the commands
        self.other = base / "elsewhere"  # another folder, for the worksheets
        self.report: list[tuple[str, str, float]] = []

    # ------------------------------------------------------------ the steps

    def step(self, command: str, action) -> None:
        started = time.monotonic()
        said = action()
        seconds = time.monotonic() - started
        self.report.append((command, said, seconds))
        print(f"{seconds:6.1f} s  {command}\n          {said}", flush=True)

    def calcnb(self) -> str:
        scripts = self.venv / ("Scripts" if WINDOWS else "bin")
        return str(scripts / ("calcnb.exe" if WINDOWS else "calcnb"))

    def python(self) -> str:
        return str(self.venv / ("Scripts/python.exe" if WINDOWS else "bin/python"))

    def env(self) -> dict[str, str]:
        environment = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("PYTHON", "JUPYTER", "VIRTUAL_ENV", "CALCNB_"))
        }
        scripts = str(Path(self.calcnb()).parent)
        environment.update(HOME=str(self.home), USERPROFILE=str(self.home), VIRTUAL_ENV=str(self.venv))
        environment["PATH"] = scripts + os.pathsep + environment.get("PATH", "")
        for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR", "XDG_DOCUMENTS_DIR"):
            environment.pop(name, None)
        return environment

    def get(self) -> str:
        """The teacher's guide's first step: ``git clone ADDRESS calcnb`` (this checkout's address)."""
        _run(["git", "clone", "--quiet", str(ROOT), str(self.clone)], cwd=self.base)
        files = len(_run(["git", "ls-files"], cwd=self.clone).splitlines())
        return f"a fresh clone of {files} committed files in {self.clone}"

    def setup_line(self) -> str:
        """The README's set-up line, as written, in the clone, up to its ``calcnb lab`` (a later step runs that)."""
        line = readme_setup_line()
        install = line.removesuffix(" && calcnb lab")
        if WINDOWS:  # the README's Windows steps: py -m venv .venv, .venv\Scripts\activate, pip install .
            _run(["py", "-m", "venv", ".venv"], cwd=self.clone, env=self.env())
            output = _run([self.python(), "-m", "pip", "install", "."], cwd=self.clone, env=self.env())
        else:
            output = _run(["bash", "-c", install], cwd=self.clone, env=self.env())
        struggles = [said for said in output.splitlines() if RESOLVER_WARNINGS.search(said)]
        if struggles:
            raise SmokeFailure("pip's resolver struggled during the README's install:\n" + "\n".join(struggles[:10]))
        return f"{install!r}: installed, with no word from pip's resolver"

    def build(self) -> str:
        """The README's wheel line for a school's IT (in the clone, its environment active), and the sdist."""
        pip_wheel = readme_wheel_command()
        _run([self.python(), "-m", *pip_wheel], cwd=self.clone, env=self.env())
        sdist = [sys.executable, "-m", "build", "--no-isolation", "--sdist", "--outdir", str(self.dist), "."]
        _run(sdist, cwd=self.clone)
        built = sorted(path.name for path in self.dist.iterdir())
        return f"{' '.join(pip_wheel)}, then the sdist: " + ", ".join(built)

    def check(self) -> str:
        output = _run([sys.executable, str(ROOT / "scripts" / "check_dist.py"), str(self.dist)], cwd=ROOT)
        return output.strip().replace("\n", "; ")

    def sdist_tests(self) -> str:
        unpacked = self.base / "sdist"
        with tarfile.open(next(self.dist.glob("calcnb-*.tar.gz"))) as archive:
            if hasattr(tarfile, "data_filter"):  # Python 3.12, and the security releases of 3.10 and 3.11
                archive.extractall(unpacked, filter="data")
            else:
                archive.extractall(unpacked)
        source = next(unpacked.iterdir())
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not slow", *SDIST_TESTS]
        output = _run(command, cwd=source)
        return f"from the unpacked sdist: {output.strip().splitlines()[-1]}"

    def version(self) -> str:
        output = _run([self.calcnb(), "--version"], cwd=self.work, env=self.env())
        package = next((line for line in output.splitlines() if line.startswith("package: ")), "")
        if "runs compiled" not in output or "site-packages" not in package or str(ROOT) in package:
            raise SmokeFailure(f"calcnb --version does not name the installed, compiled calcnb:\n{output}")
        return output.strip().replace("\n", "; ")

    def lessons(self) -> str:
        output = _run([self.calcnb(), "lessons"], cwd=self.work, env=self.env())
        if "02_wraparound" not in output or "compiled" not in output:
            raise SmokeFailure(f"calcnb lessons:\n{output}")
        return f"{output.count('serve it:')} lessons listed, each with its command; then the version lines"

    def serve(self, command: str, *arguments: str, expect: bytes) -> str:
        """Start ``calcnb COMMAND ARGUMENTS``, fetch its first page (which must hold ``expect``), stop it."""
        port = _free_port()
        line = [self.calcnb(), command, *arguments, "--no-browser", "--port", str(port)]
        server = Server(line, cwd=self.work, env=self.env())
        try:
            server.wait_for(rf"http://[\w.-]+:{port}/")  # with --host 0.0.0.0, the machine's own address
            page = _fetch(f"http://127.0.0.1:{port}/")
            if expect not in page.lower():
                raise SmokeFailure(f"the page of calcnb {command} {' '.join(arguments)} lacks {expect!r}")
        except BaseException:
            server.kill()
            raise
        server.stop()
        return f"its first page ({len(page):,} bytes) holds {expect.decode()!r}; Ctrl-C stopped it and its kernels"

    def guide_line(self, words: list[str]) -> str:
        """Run one ``calcnb`` line of the teacher's guide as written, in the folder the teacher types in."""
        kind = guide_line_kind(words)
        if kind == "lab":
            return self.lab()
        if kind == "serve":
            if words[1] == "class-view":
                # the notebook's own words for what its cells show once run (not "class": any page holds that)
                expect = b"the projector view, once" if "--projector" in words else b"the class view, once"
            else:  # the class code is asked first; without one, the class server's own page
                expect = b'id="calcnb-code"' if "--class-code" in words else b"calcnb-server-gone"
            return self.serve(*words[1:], expect=expect)
        before = set(self.work.iterdir())
        said = _run([self.calcnb(), *words[1:]], cwd=self.work, env=self.env())
        made = sorted(path.name for path in set(self.work.iterdir()) - before)
        if kind == "summary":
            wanted = [words[words.index("--summary") + 1]]
        else:  # a worksheet and its answer sheet
            wanted = [name for name in made if name.endswith(".pdf")]
            if len(wanted) != 2:
                raise SmokeFailure(f"{shlex.join(words)} wrote {made}, not a worksheet and its answers:\n{said}")
        missing = [name for name in wanted if not (self.work / name).is_file()]
        if missing:
            raise SmokeFailure(f"{shlex.join(words)} wrote no {missing}:\n{said}")
        return "wrote " + ", ".join(f"{name} ({(self.work / name).stat().st_size:,} bytes)" for name in wanted)

    def lab(self, *, edited: Path | None = None) -> str:
        port = _free_port()
        # The default workspace, in the user's Documents; Windows finds that folder without HOME: named here.
        workspace = ["--workspace", str(self.home / "Documents" / "calcnb")] if WINDOWS else []
        line = [self.calcnb(), "lab", *workspace, "--no-browser", "--port", str(port)]
        server = Server(line, cwd=self.work, env=self.env())
        try:
            found = server.wait_for(rf"(http://127\.0\.0\.1:{port}/lab\?token=(\w+))")
            token = found.group(2)
            listing = json.loads(_fetch(f"http://127.0.0.1:{port}/api/contents?token={token}"))
            teacher = json.loads(_fetch(f"http://127.0.0.1:{port}/api/contents/teacher?token={token}"))
        except BaseException:
            server.kill()
            raise
        server.stop()
        names = sorted(item["name"] for item in listing["content"])
        notes = sorted(item["name"] for item in teacher["content"])
        if "02_wraparound.ipynb" not in names or "02_wraparound_teacher.ipynb" not in notes:
            raise SmokeFailure(f"calcnb lab lists {names} and teacher/ {notes}")
        said = [line for line in server.lines if "calcnb notebooks" in line or "(new)" in line]
        if edited is not None:
            if "my own note" not in edited.read_text(encoding="utf-8") or said:
                raise SmokeFailure(f"calcnb lab overwrote {edited}, or said so: {said}")
            return f"kept the edit of {edited.name}, and said nothing of the workspace; lists {len(names)} entries"
        if len(said) != 1 or str(self.home) not in said[0]:
            raise SmokeFailure(f"calcnb lab did not say in one line where the notebooks are: {server.lines[:5]}")
        listed = ", ".join(names[:4])
        return f"said: {said[0]!r}; Jupyter's API lists {len(names)} entries ({listed}, ...), teacher/ {notes}"

    def edit_notebook(self) -> Path:
        workspaces = list((self.home).rglob(".calcnb-manifest.json"))
        if len(workspaces) != 1:
            raise SmokeFailure(f"calcnb lab made {len(workspaces)} workspaces in {self.home}")
        notebook = workspaces[0].parent / "02_wraparound.ipynb"
        document = json.loads(notebook.read_text(encoding="utf-8"))
        document["cells"].append({"cell_type": "markdown", "id": "mine", "metadata": {}, "source": ["my own note"]})
        notebook.write_text(json.dumps(document, indent=1), encoding="utf-8")
        return notebook

    def worksheets(self) -> str:
        log = os.path.relpath(self.work / "lesson.db", self.other)
        sheets = [self.calcnb(), "worksheets", "02_wraparound", "--class-log", log, "--paper", "a4"]
        sheets += ["--folder", "sheets"]
        said = _run([*sheets, "--students", "Ana,Bruno"], cwd=self.other, env=self.env())
        _run([*sheets, "--students", "30", "--folder", "class"], cwd=self.other, env=self.env())
        pdfs = sorted(path.name for path in (self.other / "sheets").glob("*.pdf"))
        if len(pdfs) != 2 or "lesson.db" not in said:
            raise SmokeFailure(f"calcnb worksheets wrote {pdfs}:\n{said}")
        refused = _run([*sheets[:4], "no_such.db"], cwd=self.other, env=self.env(), code=2)
        if "no_such.db" not in refused:
            raise SmokeFailure(f"a missing class log was not refused clearly:\n{refused}")
        made = ", ".join(pdfs)
        return f"with the key of {log}: {made} (and for 30 numbered students); a missing log: {refused.strip()}"


PREPARED = "prepared.txt"  # in a --prepare folder: what its steps said, for the --prepared run to print


def main(argv: list[str] | None = None) -> int:
    """Run every step (or one stage of them: see the module's notes); 0 when all passed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    stage = parser.add_mutually_exclusive_group()
    stage.add_argument("--prepare", type=Path, metavar="DIR", help="only clone and install, into the empty DIR")
    stage.add_argument("--prepared", type=Path, metavar="DIR", help="the other steps, on a --prepare DIR")
    arguments = parser.parse_args(argv)
    base = arguments.prepare or arguments.prepared or Path(tempfile.mkdtemp(prefix="calcnb-smoke-"))
    smoke = Smoke(base)
    started = time.monotonic()
    try:
        if arguments.prepared is None:
            if arguments.prepare is not None:
                base.mkdir(parents=True, exist_ok=True)
                if any(base.iterdir()):
                    raise SmokeFailure(f"{base} is not empty")
            for folder in (smoke.home, smoke.work, smoke.other):
                folder.mkdir()
            smoke.step("git clone ADDRESS calcnb (the teacher's guide, step 1)", smoke.get)
            smoke.step("the README's set-up line, in the clone", smoke.setup_line)
            if arguments.prepare is not None:
                said = [f"{seconds:6.1f} s  {command}\n          {what}" for command, what, seconds in smoke.report]
                (base / PREPARED).write_text("\n".join(said) + "\n", encoding="utf-8")
                return 0
        elif (base / PREPARED).is_file():
            print((base / PREPARED).read_text(encoding="utf-8"), end="", flush=True)
        else:
            raise SmokeFailure(f"{base} holds no finished --prepare (no {PREPARED})")
        smoke.step("pip wheel --no-deps . -w dist (the README's line for IT), and the sdist", smoke.build)
        smoke.step("python scripts/check_dist.py", smoke.check)
        smoke.step("python -m pytest (a few test files, in the unpacked sdist)", smoke.sdist_tests)
        smoke.step("calcnb --version", smoke.version)
        smoke.step("calcnb lessons", smoke.lessons)
        # Every line of the teacher's guide as written, in its order (the lesson alone, then started for the class,
        # the class view, the projector view, worksheets, the summary). The class server's first page is its
        # own (with the script that watches for the server); the lesson arrives over its websocket.
        for words in guide_lines():
            smoke.step(f"{shlex.join(words)} (the teacher's guide)", lambda words=words: smoke.guide_line(words))
        smoke.step(
            "calcnb app 02_wraparound --server voila",
            lambda: smoke.serve("app", "02_wraparound", "--server", "voila", expect=b"the clock of 13"),
        )
        smoke.step("calcnb app", lambda: smoke.serve("app", expect=b"calcnb-server-gone"))
        notebook = smoke.edit_notebook()
        smoke.step("calcnb lab (again, after an edit)", lambda: smoke.lab(edited=notebook))
        smoke.step("calcnb worksheets 02_wraparound --class-log ../work/lesson.db ...", smoke.worksheets)
    except SmokeFailure as failure:
        print(f"smoke test failed: {failure}", file=sys.stderr)
        print(f"(its folder is kept: {base})", file=sys.stderr)
        return 1
    if arguments.keep:
        print(f"its folder: {base}")
    else:
        shutil.rmtree(base, ignore_errors=True)
    stage_said = " (after its install, run beforehand)" if arguments.prepared else ""
    print(f"the installed-package smoke test passed in {time.monotonic() - started:.0f} s{stage_said}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
