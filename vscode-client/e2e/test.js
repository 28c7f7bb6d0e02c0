// The end-to-end test in a real browser (run by run.sh): code-server with the extension installed from the .vsix,
// driven in Debian's chromium by playwright-core. Each step is timed; a failing step leaves a screenshot.
// Arguments: URL, workspace directory, artifacts directory, where to write the diff view's screenshot, the user
// settings file.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const {chromium} = require('playwright-core');

const [url, workspace, artifacts, diffScreenshot, userSettings] = process.argv.slice(2);
const NO_CONTRACT = path.join(workspace, 'examples', 'layernorm_no_contract.cu');
const WITH_CONTRACT = path.join(workspace, 'examples', 'layernorm_rows.cu');
const VECTOR_ADD = path.join(workspace, 'examples', 'vector_add.cu');
const RESULT_FILE = path.join(workspace, 'results', 'optimize-layernorm-h100.json');
const KERNEL_LINE = 5;   // `__global__ void layernorm_rows(...)` in the file without its contract (1-based)

async function step(page, name, action) {
    const began = Date.now();
    try {
        await action();
        console.log(`ok   ${name} (${((Date.now() - began) / 1000).toFixed(1)} s)`);
    } catch (error) {
        const shot = path.join(artifacts, `failure-${name.replace(/\W+/g, '-')}.png`);
        await page.screenshot({path: shot}).catch(() => undefined);
        console.log(`FAIL ${name} (${((Date.now() - began) / 1000).toFixed(1)} s): screenshot ${shot}`);
        throw error;
    }
}

/** Opens a quick input, types `text`, and when `pick` is given waits for the focused row to show it. */
async function quickInput(page, opener, text, pick) {
    await page.keyboard.press(opener);
    const input = page.locator('.quick-input-widget input.input');
    await input.waitFor({state: 'visible'});
    await input.fill(text);
    if (pick) {   // the list fills and filters after the typing
        await page.locator('.quick-input-list .monaco-list-row.focused').filter({hasText: pick}).waitFor();
    }
    await page.keyboard.press('Enter');
}

async function runCommand(page, title) {
    await quickInput(page, 'F1', `>${title}`, title);
}

async function openFile(page, name) {
    await quickInput(page, 'Control+P', name, name);
    await page.locator(`.tab.active[aria-label^="${name}"]`).waitFor();
}

async function waitForFile(file, predicate, seconds = 20) {
    const deadline = Date.now() + seconds * 1000;
    while (!predicate(fs.readFileSync(file, 'utf8'))) {
        if (Date.now() > deadline) {
            throw new Error(`${file} did not change as expected in ${seconds} s`);
        }
        await new Promise(resolve => setTimeout(resolve, 200));
    }
}

async function main() {
    // a fresh profile each run (playwright passes it as --user-data-dir)
    const browser = await chromium.launchPersistentContext(fs.mkdtempSync(path.join(artifacts, 'chromium-')), {
        executablePath: '/usr/bin/chromium',
        args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
               '--disable-component-update', '--disable-sync'],
        viewport: {width: 1800, height: 1000},
    });
    const page = await browser.newPage();
    page.setDefaultTimeout(30_000);
    try {
        await step(page, 'workbench loads', async () => {
            for (let attempt = 0; ; attempt++) {   // code-server may still be starting
                try {
                    await page.goto(url);
                    break;
                } catch (error) {
                    if (attempt > 60) throw error;
                    await page.waitForTimeout(1000);
                }
            }
            await page.locator('.monaco-workbench .part.editor').waitFor({timeout: 90_000});
        });

        await step(page, 'CodeLens above the kernel', async () => {
            await openFile(page, 'layernorm_no_contract.cu');
            const lenses = page.locator('.codelens-decoration');
            await lenses.getByText('Optimize', {exact: true}).waitFor({timeout: 90_000});   // the server's first start
            await lenses.getByText('Profile', {exact: true}).waitFor();
        });

        await step(page, 'quick fix inserts the contract', async () => {
            await page.locator('.monaco-editor .view-lines').first().click();
            await quickInput(page, 'Control+G', `:${KERNEL_LINE}`);
            await page.keyboard.press('Control+.');
            await page.locator('.action-widget').getByText('Add benchmark contract').click();
            await page.locator('.monaco-editor .view-lines').getByText('/* @optiml').waitFor();
            await page.keyboard.press('Control+S');
            await waitForFile(NO_CONTRACT, text => text.includes('/* @optiml') && text.includes('launch:'));
        });

        await step(page, 'Profile from the context menu: a profiling job on the testing engine ends with its diagnosis', async () => {
            await page.locator('.view-line').filter({hasText: '__global__ void layernorm_rows'}).click({button: 'right'});
            const item = page.locator('.context-view .action-label').getByText('Profile Kernel', {exact: true});
            await item.waitFor();
            await page.waitForTimeout(500);   // a menu ignores clicks that come right after it opened
            await item.click();
            await page.locator('.context-view .monaco-menu').waitFor({state: 'detached'});
            await page.locator('.notifications-toasts')
                .getByText(/layernorm_rows: memory-bound \(.* of SOL\); hover the kernel's name for the metrics/).waitFor();
        });

        await step(page, 'a job: progress, status bar, Cancel, its best kernel in the diff view, Reject', async () => {
            const original = fs.readFileSync(VECTOR_ADD, 'utf8');
            await openFile(page, 'vector_add.cu');
            await page.locator('.codelens-decoration').getByText('Optimize', {exact: true}).click();
            const progress = page.locator('.notification-toast').filter({hasText: 'Optimizing vector_add'});
            await progress.filter({hasText: /\d+\/400 candidates, best/}).waitFor();
            await page.locator('.statusbar-item').filter({hasText: 'OptiML: 1 job'}).waitFor();
            const started = Date.now();
            await progress.locator('.monaco-button', {hasText: 'Cancel'}).click();
            await page.locator('.tab.active').filter({hasText: /vector_add: original ↔ optimized \(\d+\.\dx, verified\)/})
                .waitFor();
            // the whole budget takes over 20 s (400 candidates, 50 ms each): a result this soon is the cancelled job's
            assert.ok(Date.now() - started < 10_000, `the job ended ${Date.now() - started} ms after Cancel`);
            await page.locator('.statusbar-item').filter({hasText: /OptiML · best \d+\.\dx/}).waitFor();
            await page.locator('.editor-actions [aria-label^="Reject Optimized Kernel"]').click();
            await page.locator('.monaco-diff-editor').waitFor({state: 'detached'});
            assert.equal(fs.readFileSync(VECTOR_ADD, 'utf8'), original);
        });

        await step(page, 'Optimize from the palette, cancelled from the status bar (OptiML: Cancel Job)', async () => {
            await page.locator('.view-line').filter({hasText: '__global__ void vector_add'}).click();
            await runCommand(page, 'OptiML: Optimize Kernel');
            const started = Date.now();
            await page.locator('.statusbar-item').filter({hasText: 'OptiML: 1 job'}).click();
            await page.locator('.tab.active').filter({hasText: 'vector_add: original ↔ optimized'}).waitFor();
            assert.ok(Date.now() - started < 10_000, `the job ended ${Date.now() - started} ms after Cancel`);
            await runCommand(page, 'OptiML: Reject Optimized Kernel');
            await page.locator('.monaco-diff-editor').waitFor({state: 'detached'});
        });

        await step(page, 'recorded result opens in the diff view', async () => {
            await runCommand(page, 'Notifications: Clear All Notifications');   // a clean screenshot
            await runCommand(page, 'OptiML: Open Result File...');
            const input = page.locator('.quick-input-widget input.input');
            // the simple file dialog lists the workspace folder first, and would overwrite a path typed before
            await page.locator('.quick-input-list .monaco-list-row').filter({hasText: 'results'}).waitFor();
            await input.fill(RESULT_FILE);
            await page.waitForTimeout(300);
            assert.equal(await input.inputValue(), RESULT_FILE);
            await page.keyboard.press('Enter');
            await page.locator('.monaco-diff-editor').waitFor({timeout: 60_000});
            await page.locator('.tab.active').filter({hasText: 'original ↔ optimized (11.3x, verified)'}).waitFor();
            await page.locator('.statusbar-item').filter({hasText: 'best 11.3x'}).waitFor();
            const trajectory = page.frameLocator('iframe.webview').frameLocator('iframe#active-frame');
            await trajectory.getByText('128 threads per row, 2 rows per block').waitFor();
            await page.mouse.move(1000, 600);   // no tooltip in the screenshot
            await page.waitForTimeout(1000);   // the diff's decorations settle
            await page.screenshot({path: diffScreenshot});
        });

        await step(page, 'Accept applies the diff and saves the file', async () => {
            const expected = JSON.parse(fs.readFileSync(RESULT_FILE, 'utf8')).new_text;
            await page.locator('.editor-actions [aria-label^="Accept Optimized Kernel"]').click();
            await waitForFile(WITH_CONTRACT, text => text === expected);
            await page.locator('.monaco-diff-editor').waitFor({state: 'detached'});
        });

        await step(page, 'an interpreter without optiml: the server restarts and says how to install it', async () => {
            // through the settings editor, as a user would (code-server does not see the file change on disk)
            const settings = JSON.parse(fs.readFileSync(userSettings, 'utf8'));
            await runCommand(page, 'Preferences: Open User Settings (JSON)');
            await page.locator('.view-line').filter({hasText: '"optiml.python.interpreter"'}).click();
            await page.keyboard.press('Control+A');
            await page.keyboard.insertText(JSON.stringify({...settings, 'optiml.python.interpreter': '/usr/bin/python3'}));
            await page.keyboard.press('Control+S');
            await page.locator('.notifications-toasts').getByText(
                "OptiML cannot start: the Python package 'optiml' is not installed for /usr/bin/python3. " +
                'Fix: run `/usr/bin/python3 -m pip install -e <path to the OptiML checkout>`').waitFor();
        });
    } finally {
        await browser.close();
    }
}

main().catch(error => {
    console.error(error);
    process.exit(1);
});
