import assert from 'node:assert/strict';
import {test} from 'node:test';

import {OptimizationResult} from '../src/protocol';
import {JobsAndResults} from '../src/status';

function result(accepted: boolean, speedup: number | null): OptimizationResult {
    return {uri: 'file:///a.cu', kernel: 'k', accepted, speedup, diff: '', new_text: '', trajectory: []};
}

test('the status bar counts running jobs and keeps the best verified speedup', () => {
    const status = new JobsAndResults();
    assert.equal(status.text, '$(zap) OptiML');
    status.jobsChanged([{uri: 'file:///a.cu', kernel: 'k', kind: 'optimize'}, {uri: 'file:///a.cu', kernel: 'j', kind: 'profile'}]);
    assert.equal(status.text, '$(sync~spin) OptiML: 2 jobs');
    assert.match(status.tooltip, /Optimizing k, j \(click to cancel\)/);
    status.resultArrived(result(true, 11.28));
    status.resultArrived(result(true, 3));
    status.resultArrived(result(false, 20));   // not verified: not counted
    status.jobsChanged([]);
    assert.equal(status.text, '$(zap) OptiML · best 11.3x');
});
