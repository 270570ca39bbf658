"""The repository's tool environment, `.venv-tools/`, shared by the Python tools in scripts/.

Each tool pins its own requirements and keeps its own stamp file in the environment; the
environment is only ever added to, never cleared, and its `.lock` is held while it is changed, so
that tools started at the same time (parallel tests) set it up once. PyPI is the only source;
pip's own cache (~/.cache/pip) makes a second setup on the same machine quick.
"""

import fcntl
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv-tools"


class SetupError(Exception):
    """The environment could not be made; the message says why and what to install."""


def python() -> Path:
    return VENV / "bin" / "python3"


def ensure(tool: str, requirements: list, probe: str = "", say=lambda message: None) -> Path:
    """Installs `requirements` (pinned) for `tool` unless its stamp says they are there and `probe`
    (Python code, e.g. an import) runs; returns the environment's python."""
    stamp = VENV / f".{tool}-requirements"
    wanted = "\n".join(requirements) + "\n"
    quiet = dict(stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def ready() -> bool:
        if not (python().exists() and stamp.exists() and stamp.read_text() == wanted):
            return False
        return not probe or subprocess.run([str(python()), "-c", probe], **quiet).returncode == 0

    if ready():
        return python()
    VENV.mkdir(exist_ok=True)
    with open(VENV / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if ready():
            return python()
        if not python().exists():
            say(f"creating {VENV.relative_to(ROOT)}/")
            run = subprocess.run([sys.executable, "-m", "venv", str(VENV)], **quiet)
            if run.returncode != 0:
                raise SetupError(f"python3 -m venv failed (Debian: apt-get install python3-venv):\n{run.stdout[-3000:]}")
        say(f"installing {' '.join(requirements)} into {VENV.relative_to(ROOT)}/")
        run = subprocess.run([str(python()), "-m", "pip", "install", "--quiet", "--no-input", "--disable-pip-version-check",
                              *requirements], **quiet)
        if run.returncode != 0:
            raise SetupError(f"pip install {' '.join(requirements)} failed:\n{run.stdout[-3000:]}")
        stamp.write_text(wanted)
    return python()
