import assert from 'node:assert/strict';
import {test} from 'node:test';

import {initializationOptions, readSettings, serverEnvironment} from '../src/settings';

function configuration(values: Record<string, unknown>) {
    return {get: <T>(section: string, defaultValue: T): T => (section in values ? values[section] : defaultValue) as T};
}

test('defaults: budget as `optiml optimize`, no LLM, every GPU', () => {
    const settings = readSettings(configuration({}));
    assert.deepEqual(initializationOptions(settings),
                     {budget: {candidates: 60, seconds: 600}, llm: false, lints: {severity: 'hint'}});
    const environment = serverEnvironment(settings, 'a key', {PATH: '/bin', OPTIML_GPUS: '3', OPTIML_LLM_MODEL: 'x'});
    assert.deepEqual(environment, {PATH: '/bin'});   // nothing inherited decides what the settings leave out
});

test('GPU indices and the LLM go into the environment, the budget into initializationOptions', () => {
    const settings = readSettings(configuration({
        'budget.candidates': 12, 'budget.seconds': 30, gpus: ' 0, 2 ',
        'llm.endpoint': 'http://localhost:8000/v1', 'llm.model': 'qwen', 'lints.severity': 'warning',
    }));
    assert.deepEqual(initializationOptions(settings),
                     {budget: {candidates: 12, seconds: 30}, llm: true, lints: {severity: 'warning'}});
    assert.deepEqual(serverEnvironment(settings, 'sk-1', {}), {
        OPTIML_GPUS: '0,2', OPTIML_LLM_BASE_URL: 'http://localhost:8000/v1', OPTIML_LLM_MODEL: 'qwen',
        OPTIML_LLM_API_KEY: 'sk-1',
    });
});

test('an endpoint without a model is no LLM, and its key is not passed on', () => {
    const settings = readSettings(configuration({'llm.endpoint': 'http://localhost:8000/v1'}));
    assert.equal((initializationOptions(settings) as {llm: boolean}).llm, false);
    assert.deepEqual(serverEnvironment(settings, 'sk-1', {}), {});
});
