/**
 * The protocol the extension assumes, against the real language server: started as server.ts starts it (the
 * interpreter, `-m server.app`, the working directory, the environment and initializationOptions from the
 * settings), driven over JSON-RPC as the language client drives it.
 */

import assert from 'node:assert/strict';
import {ChildProcess, spawn} from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {after, before, test} from 'node:test';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {createMessageConnection, MessageConnection, StreamMessageReader, StreamMessageWriter} from 'vscode-jsonrpc/node';

import {JOBS_NOTIFICATION, JobsParams, OptimizationResult, RESULT_NOTIFICATION, SERVER_COMMANDS} from '../src/protocol';
import {SERVER_WORKING_DIRECTORY} from '../src/python';
import {initializationOptions, readSettings, serverEnvironment} from '../src/settings';
import {HAS_VENV, RECORDED_RESULT, REPO, VENV_PYTHON} from './repo';

const skip = !HAS_VENV && 'no .venv (see the README)';
let server: ChildProcess;
let connection: MessageConnection;
let commands: string[];
const results: OptimizationResult[] = [];
const jobLists: JobsParams[] = [];
const appliedTexts: string[] = [];
const shownDocuments: string[] = [];
const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'optiml-client-test-'));

async function until<T>(found: () => T | undefined, seconds = 20): Promise<T> {
    const deadline = Date.now() + seconds * 1000;
    for (let value = found(); ; value = found()) {
        if (value) {
            return value;
        }
        if (Date.now() > deadline) {
            throw new Error('timed out');
        }
        await new Promise(resolve => setTimeout(resolve, 20));
    }
}

function openExample(name: string): string {
    const file = path.join(workspace, 'examples', name);
    fs.mkdirSync(path.dirname(file), {recursive: true});
    fs.copyFileSync(path.join(REPO, 'examples', name), file);
    const uri = pathToFileURL(file).toString();
    void connection.sendNotification('textDocument/didOpen', {textDocument: {
        uri, languageId: 'cuda-cpp', version: 1, text: fs.readFileSync(file, 'utf8')}});
    return uri;
}

before(async () => {
    if (skip) {
        return;
    }
    const settings = readSettings({get: (_, defaultValue) => defaultValue});
    const environment = {...serverEnvironment(settings, undefined, process.env), CUDA_VISIBLE_DEVICES: '',
                         OPTIML_CACHE: path.join(workspace, 'cache')};
    server = spawn(VENV_PYTHON, ['-m', 'server.app'], {cwd: SERVER_WORKING_DIRECTORY, env: environment,
                                                        stdio: ['pipe', 'pipe', 'inherit']});
    connection = createMessageConnection(new StreamMessageReader(server.stdout!), new StreamMessageWriter(server.stdin!));
    connection.onNotification(RESULT_NOTIFICATION, (result: OptimizationResult) => results.push(result));
    connection.onNotification(JOBS_NOTIFICATION, (params: JobsParams) => jobLists.push(params));
    connection.onNotification('textDocument/publishDiagnostics', () => undefined);
    connection.onRequest('workspace/applyEdit', (params: {edit: {changes: Record<string, {newText: string}[]>}}) => {
        appliedTexts.push(...Object.values(params.edit.changes).flat().map(edit => edit.newText));
        return {applied: true};
    });
    connection.onRequest('window/showDocument', (params: {uri: string}) => {
        shownDocuments.push(params.uri);
        return {success: true};
    });
    connection.listen();
    const answer = await connection.sendRequest('initialize', {
        processId: process.pid, rootUri: pathToFileURL(workspace).toString(),
        capabilities: {workspace: {applyEdit: true}, window: {showDocument: {support: true}}},
        initializationOptions: initializationOptions(settings)});
    commands = (answer as {capabilities: {executeCommandProvider: {commands: string[]}}})
        .capabilities.executeCommandProvider.commands;
    await connection.sendNotification('initialized', {});
});

after(async () => {
    if (skip) {
        return;
    }
    await connection.sendRequest('shutdown');
    await connection.sendNotification('exit');
    connection.dispose();
    fs.rmSync(workspace, {recursive: true, force: true});
});

test('the server offers every command the extension runs, and the menus name server commands', {skip}, () => {
    assert.deepEqual(Object.values(SERVER_COMMANDS).filter(command => !commands.includes(command)), []);
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
    const menuCommands: string[] = manifest.contributes.menus['editor/context'].map((item: {command: string}) => item.command);
    assert.deepEqual(menuCommands, [SERVER_COMMANDS.optimize, SERVER_COMMANDS.profile]);
});

test('the recorded GPU result opens for its file and Accept applies its text', {skip}, async () => {
    const uri = openExample('layernorm_rows.cu');
    const recorded = JSON.parse(fs.readFileSync(RECORDED_RESULT, 'utf8'));
    await connection.sendRequest('workspace/executeCommand', {command: SERVER_COMMANDS.openResult,
                                                              arguments: [RECORDED_RESULT]});
    const result = await until(() => results.find(found => found.uri === uri));
    assert.equal(result.kernel, 'layernorm_rows');
    assert.equal(result.accepted, true);
    assert.equal(result.speedup?.toFixed(2), '11.28');
    assert.equal(result.new_text, recorded.new_text);
    assert.equal(result.trajectory[0].rule, 'row_reduction');
    const applied = await connection.sendRequest('workspace/executeCommand', {command: SERVER_COMMANDS.apply,
                                                                               arguments: [uri, 'layernorm_rows']});
    assert.equal(applied, true);
    assert.deepEqual(appliedTexts, [recorded.new_text]);
});

test('a job is listed while it runs; without a GPU it runs the dry run and opens its report', {skip}, async () => {
    const uri = openExample('vector_add.cu');
    await connection.sendRequest('workspace/executeCommand', {command: SERVER_COMMANDS.optimize,
                                                              arguments: [uri, 'vector_add']});
    const report = await until(() => shownDocuments.find(shown => shown.endsWith('/vector_add.cu.vector_add.md')), 60);
    assert.match(fs.readFileSync(fileURLToPath(report), 'utf8'), /^# Dry run of optimize on `vector_add`\n/);
    await until(() => jobLists.length >= 2 || undefined);
    assert.deepEqual(jobLists, [{jobs: [{uri, kernel: 'vector_add', kind: 'optimize'}]}, {jobs: []}]);
});
