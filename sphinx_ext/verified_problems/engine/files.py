"""Files written whole or not at all, so that a reader never sees half of one."""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def write_whole(path: Path, data: bytes) -> None:
    """Write through a temporary file beside ``path``, created like any output file.

    Not ``mkstemp``: its files are private (0600), and a file published with the HTML must be
    readable by the web server, like every other file of the build (the umask decides).
    """
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        with temporary.open("xb") as stream:
            stream.write(data)
        temporary.replace(path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
