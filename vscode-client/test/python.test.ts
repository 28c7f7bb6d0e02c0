import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {test} from 'node:test';

import {checkServerPackage, chooseInterpreter, installCommand, PythonExtensionApi} from '../src/python';
import {HAS_VENV, REPO, VENV_PYTHON} from './repo';

/** The two calls of the Python extension's API that chooseInterpreter makes, answering with `executable`. */
function pythonExtension(executable: string | undefined): PythonExtensionApi {
    return {environments: {
        getActiveEnvironmentPath: () => ({path: '/envs/active'}),
        resolveEnvironment: async path => (path as {path: string}).path === '/envs/active'
            ? {executable: {uri: executable === undefined ? undefined : {fsPath: executable}}} : undefined,
    }};
}

test('the Python extension\'s interpreter first, then the setting, then python3', async () => {
    assert.equal(await chooseInterpreter(pythonExtension('/envs/active/bin/python'), '/opt/py'), '/envs/active/bin/python');
    assert.equal(await chooseInterpreter(pythonExtension(undefined), '/opt/py'), '/opt/py');
    assert.equal(await chooseInterpreter(undefined, '/opt/py'), '/opt/py');
    assert.equal(await chooseInterpreter(undefined, ''), 'python3');
});

test('the package check finds the installed optiml', {skip: !HAS_VENV && 'no .venv (see the README)'}, async () => {
    const expected = execFileSync(VENV_PYTHON, ['-c', 'from importlib.metadata import version; print(version("optiml"))'])
        .toString().trim();
    assert.deepEqual(await checkServerPackage(VENV_PYTHON), {installed: true, version: expected});
});

test('a Python without optiml gets the install command as the fix', async () => {
    const bare = '/usr/bin/python3';
    const check = await checkServerPackage(bare, REPO);
    assert.deepEqual(check, {installed: false, problem: `the Python package 'optiml' is not installed for ${bare}`,
        fix: `run \`/usr/bin/python3 -m pip install -e ${REPO}\`, then OptiML: Restart Server`});
});

test('a missing interpreter is named as such', async () => {
    const check = await checkServerPackage('/nonexistent/python3');
    assert.equal(check.installed, false);
    assert.match((check as {problem: string}).problem, /interpreter '\/nonexistent\/python3' was not found/);
});

test('the install command quotes what needs quoting and names a placeholder without a checkout', () => {
    assert.equal(installCommand('/my envs/python'), `'/my envs/python' -m pip install -e <path to the OptiML checkout>`);
});
