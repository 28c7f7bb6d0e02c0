import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import {test} from 'node:test';

import {OptimizationResult} from '../src/protocol';
import {escapeHtml, trajectoryHtml} from '../src/trajectory';
import {RECORDED_RESULT} from './repo';

/** The recorded GPU result file as the server's optiml/result notification carries it. */
function recorded(): OptimizationResult {
    const file = JSON.parse(fs.readFileSync(RECORDED_RESULT, 'utf8'));
    return {uri: 'file:///w/examples/layernorm_rows.cu', kernel: file.kernel, accepted: file.accepted,
            speedup: file.final.speedup.median, diff: file.diff, new_text: file.new_text, trajectory: file.trajectory};
}

test('the trajectory of the recorded layernorm run: each step, its speedup and the metric that moved', () => {
    const html = trajectoryHtml(recorded(), 'n0nce');
    assert.match(html, /<h2>layernorm_rows: 11\.28x faster, verified<\/h2>/);
    assert.match(html, /<b>row_reduction<\/b>: 128 threads per row, 2 rows per block/);
    assert.match(html, /cures uncoalesced_loads/);
    assert.match(html, /11\.39x<\/td><td class="number">0\.193 ms<\/td><td>94% of SOL<\/td>/);
    assert.match(html, /before: occupancy-limited: 25% of the SMs&#39; warp slots are active/);
    assert.match(html, /<button id="accept">Accept<\/button><button id="reject">Reject<\/button>/);
    assert.match(html, /script-src 'nonce-n0nce'/);
});

test('a result without a verified kernel offers no Accept', () => {
    const html = trajectoryHtml({...recorded(), accepted: false, trajectory: []}, 'n');
    assert.match(html, /no verified faster kernel/);
    assert.doesNotMatch(html, /id="accept"/);
    assert.match(html, /no steps: the original stays the best/);
});

test('text from the result is escaped', () => {
    assert.equal(escapeHtml(`<img src=x onerror="a('b')">&`), '&#60;img src=x onerror=&#34;a(&#39;b&#39;)&#34;&#62;&#38;');
});
