#!/usr/bin/env bash
# Here (with network): download the wheels the GPU machine lacks into .whl/ (git-ignored, carried by the device
# tool). Uses the workplace's ../shared/tools/gpu-wheels.sh, which leaves out what the GPU image already has.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf .whl
# The server and its GPU test need pygls, lsprotocol and pytest-lsp too; the server imports the LLM policy (openai).
../shared/tools/gpu-wheels.sh .whl pydantic diskcache tree-sitter tree-sitter-cuda pygls lsprotocol pytest-lsp pytest-asyncio openai
# The project itself, for its installed metadata (the server reports its version); its code on the GPU machine is
# the working tree's, which gpu-env.sh puts first on PYTHONPATH.
python3 -m pip wheel -q --no-deps . -w .whl
