"""`python -m rulesc`: runs the `rulesc` command installed with this package.

The wheel carries the command as a native executable in its scripts (pip puts it in the
environment's `bin/`, or `Scripts\\` on Windows, as it does ruff's and uv's), so `rulesc` on
the `PATH` starts with no Python in between: a hook runs it on every tool call. This module
finds that executable for `python -m rulesc ARGS`, and runs it in place of the interpreter.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import NoReturn

__all__ = ["find_rulesc_bin", "main"]


def _candidates(name: str) -> list[Path]:
    """Where pip puts the wheel's scripts, for each way it installs a package."""
    places = [Path(sysconfig.get_path("scripts"))]
    # `pip install --user`.
    if sys.version_info >= (3, 10):
        user_scheme = sysconfig.get_preferred_scheme("user")
    elif os.name == "nt":
        user_scheme = "nt_user"
    else:
        user_scheme = "posix_user"
    places.append(Path(sysconfig.get_path("scripts", scheme=user_scheme)))
    package = Path(__file__).resolve().parent
    # `pip install --target DIR` puts the package in DIR and the scripts in DIR/bin.
    places.append(package.parent / "bin")
    # `pip install --prefix PREFIX`: the package in PREFIX/lib/pythonX.Y/site-packages.
    if len(package.parents) > 3:
        places.append(package.parents[3] / "bin")
    return [place / name for place in places]


def find_rulesc_bin() -> str:
    """The path of the `rulesc` executable installed with this package.

    Raises `FileNotFoundError`, with what to do, when the package was installed without it
    (`pip install ./python` builds the module only).
    """
    name = "rulesc" + (sysconfig.get_config_var("EXE") or "")
    for path in _candidates(name):
        if path.is_file() and os.access(path, os.X_OK):
            return str(path)
    raise FileNotFoundError(
        f"the `{name}` command is not installed with this rulesc package: install the wheel "
        "that carries it (python/build-wheel.sh builds it) or put `rulesc` on the PATH "
        "another way (README.md, Install)"
    )


def main() -> NoReturn:
    """Runs `rulesc` with this process's arguments, and exits with its status."""
    try:
        binary = find_rulesc_bin()
    except FileNotFoundError as err:
        print(f"error: {err}", file=sys.stderr)
        sys.exit(2)
    args = [binary, *sys.argv[1:]]
    if sys.platform == "win32":
        # Windows has no exec that replaces the process: run it and pass its status on.
        sys.exit(subprocess.run(args, check=False).returncode)
    os.execv(binary, args)


if __name__ == "__main__":
    main()
