/**
 * The OptiML extension: activated by a CUDA file, it starts the language server (server.ts), shows its results
 * (resultView.ts) and its jobs in the status bar, and registers the client's own commands; the server's commands
 * (Optimize, Profile) come with the language client.
 */

import * as path from 'node:path';
import * as vscode from 'vscode';

import {Job, SERVER_COMMANDS} from './protocol';
import {ResultView} from './resultView';
import {LLM_KEY_SECRET, OptimlServer} from './server';
import {JobsAndResults} from './status';

let runningServer: OptimlServer | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
    const output = vscode.window.createOutputChannel('OptiML');
    const server = runningServer = new OptimlServer(context, output);
    const results = new ResultView(server);
    const status = new JobsAndResults();
    const statusItem = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 10);
    const refreshStatus = () => {
        statusItem.text = status.text;
        statusItem.tooltip = status.tooltip;
        statusItem.command = status.jobs.length > 0 ? 'optiml.cancelJob' : undefined;
    };
    refreshStatus();
    statusItem.show();

    context.subscriptions.push(
        output, server, results, statusItem,
        server.onJobs(params => {
            status.jobsChanged(params.jobs);
            refreshStatus();
        }),
        server.onResult(async result => {
            status.resultArrived(result);
            refreshStatus();
            await results.show(result);
        }),
        vscode.commands.registerCommand('optiml.cancelJob', () => cancelJob(server, status.jobs)),
        vscode.commands.registerCommand('optiml.openResultFile', (file?: vscode.Uri) => openResultFile(server, file)),
        vscode.commands.registerCommand('optiml.restartServer', () => server.restart()),
        vscode.commands.registerCommand('optiml.acceptResult', () => results.accept()),
        vscode.commands.registerCommand('optiml.rejectResult', () => results.reject()),
        vscode.commands.registerCommand('optiml.setLlmApiKey', () => setLlmApiKey(context, server)),
        vscode.workspace.onDidChangeConfiguration(async change => {
            // the settings reach the server at its start (initializationOptions, environment)
            if (change.affectsConfiguration('optiml')) {
                await server.restart();
            }
        }),
    );
    await server.start();
}

async function cancelJob(server: OptimlServer, jobs: Job[]): Promise<void> {
    if (jobs.length === 0) {
        return void vscode.window.showInformationMessage('OptiML: no job is running');
    }
    const picked = jobs.length === 1 ? jobs[0] : (await vscode.window.showQuickPick(
        jobs.map(job => ({label: `${job.kind} ${job.kernel}`, description: vscode.workspace.asRelativePath(vscode.Uri.parse(job.uri)), job})),
        {placeHolder: 'Cancel which job?'}))?.job;
    if (picked) {
        await server.execute(SERVER_COMMANDS.cancel, picked.uri, picked.kernel);
    }
}

/**
 * Opens a result file written by `optiml optimize --result` (here or on a GPU machine): opens the source file it
 * names, found in the workspace when the path is relative, then has the server offer the result for it.
 */
async function openResultFile(server: OptimlServer, file?: vscode.Uri): Promise<void> {
    file ??= (await vscode.window.showOpenDialog({
        canSelectMany: false, filters: {'OptiML result': ['json']}, openLabel: 'Open Result',
        defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
    }))?.[0];
    if (!file) {
        return;
    }
    let sourcePath: string;
    try {
        sourcePath = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(file))).path;
    } catch (error) {
        return void vscode.window.showErrorMessage(`OptiML: cannot read ${file.fsPath}: ${error}`);
    }
    const source = await findSource(String(sourcePath));
    if (!source) {
        return void vscode.window.showErrorMessage(
            `OptiML: ${file.fsPath} is a result for ${sourcePath}, which is not in the workspace: open that file first`);
    }
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(source));
    await server.execute(SERVER_COMMANDS.openResult, file.fsPath);
}

/** The file at an absolute path, or the one workspace file whose path ends with a relative one. */
async function findSource(sourcePath: string): Promise<vscode.Uri | undefined> {
    if (path.isAbsolute(sourcePath)) {
        const uri = vscode.Uri.file(sourcePath);
        return vscode.workspace.fs.stat(uri).then(() => uri, () => undefined);
    }
    const open = vscode.workspace.textDocuments.find(document => document.uri.path.endsWith(`/${sourcePath}`));
    if (open) {
        return open.uri;
    }
    const found = await vscode.workspace.findFiles(`**/${sourcePath}`, '**/node_modules/**', 2);
    return found.length === 1 ? found[0] : undefined;
}

async function setLlmApiKey(context: vscode.ExtensionContext, server: OptimlServer): Promise<void> {
    const key = await vscode.window.showInputBox({
        prompt: 'API key of the LLM endpoint (kept in the editor\'s secret storage; empty removes it)', password: true,
    });
    if (key === undefined) {
        return;
    }
    await (key ? context.secrets.store(LLM_KEY_SECRET, key) : context.secrets.delete(LLM_KEY_SECRET));
    await server.restart();   // the key reaches the server through its environment
}

export function deactivate(): Promise<void> | undefined {
    return runningServer?.stop();   // awaited by the editor, unlike the subscriptions' disposal
}
