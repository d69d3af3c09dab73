"""How this machine runs Docker Compose, for the tests of the Docker files and the stack."""

from __future__ import annotations

import shutil
import subprocess


def compose_command() -> list[str] | None:
    """``docker compose`` (the plug-in) if it answers, else ``docker-compose``, else None."""
    if shutil.which("docker"):
        probe = subprocess.run(["docker", "compose", "version"], capture_output=True)
        if probe.returncode == 0:
            return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    return None
