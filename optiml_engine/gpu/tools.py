"""Finding the CUDA toolkit's command-line tools (nvcc, ncu, compute-sanitizer) and their versions."""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
from pathlib import Path

from cuda.pathfinder import find_nvidia_binary_utility

TOOLKIT_BIN = Path("/usr/local/cuda/bin")


def find_cuda_tool(name: str) -> str | None:
    """PATH first, then cuda.pathfinder's search (pip wheels, CUDA_HOME, conda), then the default toolkit."""
    found = shutil.which(name) or find_nvidia_binary_utility(name)
    if found:
        return found
    fallback = TOOLKIT_BIN / name
    return str(fallback) if fallback.exists() else None


@functools.cache
def tool_version(binary: str, pattern: str) -> str | None:
    """The first group of `pattern` in `binary --version`, or None when it cannot be read."""
    try:
        output = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = re.search(pattern, output)
    return match.group(1) if match else None
