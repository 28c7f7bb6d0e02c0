"""The VS Code extension's TypeScript tests (`npm test`: node's test runner, vscode-client/test/), run here so that
the README's test command covers them: they check the client's settings, interpreter choice, package check, status
bar and trajectory view, and the protocol the client assumes against the real `optiml-lsp` (started with this
checkout's .venv). Skipped where npm is not installed."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.lsp.test_server import REPO

NPM = shutil.which("npm")


@pytest.mark.skipif(NPM is None, reason="npm is not installed (the extension's tests need node 20 and npm)")
def test_the_extension_tests_pass():
    # `npm install` is quick when node_modules is up to date with package-lock.json (`npm ci` always starts over)
    install = subprocess.run([NPM, "install", "--no-audit", "--no-fund"], cwd=REPO, capture_output=True, text=True)
    assert install.returncode == 0, f"npm install (it needs the npm registry) failed:\n{install.stderr[-2000:]}"
    tests = subprocess.run([NPM, "test"], cwd=REPO, capture_output=True, text=True)
    assert tests.returncode == 0, tests.stdout[-4000:] + tests.stderr[-2000:]
    assert "# fail 0" in tests.stdout
