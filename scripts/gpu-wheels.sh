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
# Ray (optimize-all's distributed engine) is a 79 MB wheel, over the device tool's 64 MiB carry: carried instead as
# its installed tree without what OptiML never imports (RLlib, Tune, Train, Serve, Data, the Java jars, the
# dashboard's web front end, test suites), xz-compressed (~28 MB), with the dependencies the image lacks.
ray_tmp=$(mktemp -d)
../shared/tools/gpu-wheels.sh "$ray_tmp/wheels" "ray>=2.40,<3" >/dev/null   # pyproject.toml's requirement
mkdir "$ray_tmp/site"
for wheel in "$ray_tmp"/wheels/*.whl; do python3 -m zipfile -e "$wheel" "$ray_tmp/site"; done
(cd "$ray_tmp/site/ray" && rm -rf jars rllib data serve tune train llm dashboard/client/build \
  && find . -name tests -type d -prune -exec rm -rf {} + \
  && chmod +x core/src/ray/raylet/raylet core/src/ray/gcs/gcs_server)
tar -cJf .whl/ray-site.tar.xz -C "$ray_tmp/site" .
rm -rf "$ray_tmp"
du -sh .whl
