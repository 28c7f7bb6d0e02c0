"""The bench scripts (bench/*.py are scripts, not a package), loaded as modules for the CPU tests of their logic."""

import importlib.util
from pathlib import Path
from types import ModuleType


def bench_module(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, Path(__file__).resolve().parents[1] / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
