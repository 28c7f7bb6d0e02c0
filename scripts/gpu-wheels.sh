#!/usr/bin/env bash
# Here (with network): download the wheels the GPU machine lacks into .whl/ (git-ignored, carried by the device
# tool). Uses the workplace's ../shared/tools/gpu-wheels.sh, which leaves out what the GPU image already has.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf .whl
../shared/tools/gpu-wheels.sh .whl pydantic diskcache tree-sitter tree-sitter-cuda
