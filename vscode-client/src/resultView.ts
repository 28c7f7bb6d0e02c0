/**
 * The result view: the diff editor, the file on the left and the optimized text (a read-only virtual document,
 * scheme `optiml-result`) on the right, and the trajectory in a webview beside it. Accept asks the server to apply
 * the result (`optiml.apply`, which refuses when the file changed since the job started) and then saves the file;
 * Reject tells the server to drop it. Both are in the diff editor's title bar, the palette and the webview.
 */

import {randomBytes} from 'node:crypto';
import * as vscode from 'vscode';

import {OptimizationResult, SERVER_COMMANDS} from './protocol';
import {OptimlServer} from './server';
import {trajectoryHtml} from './trajectory';

export const RESULT_SCHEME = 'optiml-result';
const SHOWN_CONTEXT = 'optiml.resultShown';

/** The virtual document of a result: the source file's path, the kernel in the query. */
function resultUri(result: OptimizationResult): vscode.Uri {
    const source = vscode.Uri.parse(result.uri);
    return source.with({scheme: RESULT_SCHEME, query: `kernel=${encodeURIComponent(result.kernel)}`});
}

function key(uri: string, kernel: string): string {
    return `${uri}\n${kernel}`;
}

/** The key of the result that a virtual document of `resultUri` shows. */
function keyOfResultUri(uri: vscode.Uri): string {
    const kernel = new URLSearchParams(uri.query).get('kernel') ?? '';
    return key(uri.with({scheme: 'file', query: ''}).toString(), kernel);
}

export class ResultView implements vscode.TextDocumentContentProvider, vscode.Disposable {
    private readonly results = new Map<string, OptimizationResult>();   // by key(source URI, kernel)
    private shown: OptimizationResult | undefined;
    private panel: vscode.WebviewPanel | undefined;
    private panelResult: OptimizationResult | undefined;   // what the trajectory panel shows
    private readonly changeEmitter = new vscode.EventEmitter<vscode.Uri>();
    readonly onDidChange = this.changeEmitter.event;
    private readonly registration: vscode.Disposable;

    constructor(private readonly server: OptimlServer) {
        this.registration = vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, this);
    }

    provideTextDocumentContent(uri: vscode.Uri): string {
        return this.results.get(keyOfResultUri(uri))?.new_text ?? '';
    }

    async show(result: OptimizationResult): Promise<void> {
        this.results.set(key(result.uri, result.kernel), result);
        this.shown = result;
        const optimized = resultUri(result);
        this.changeEmitter.fire(optimized);
        // before the diff opens: Accept and Reject are in the palette as soon as it shows
        await vscode.commands.executeCommand('setContext', SHOWN_CONTEXT, true);
        if (result.accepted) {
            const title = `${result.kernel}: original ↔ optimized (${result.speedup?.toFixed(1)}x, verified)`;
            await vscode.commands.executeCommand('vscode.diff', vscode.Uri.parse(result.uri), optimized, title,
                                                 {preview: false, viewColumn: vscode.ViewColumn.One});
        }
        this.showTrajectory(result);
    }

    /** The result whose diff editor is active, else the one shown last (the trajectory's buttons make theirs so). */
    private current(): OptimizationResult | undefined {
        const active = vscode.window.activeTextEditor?.document.uri;
        if (active?.scheme === RESULT_SCHEME) {
            return this.results.get(keyOfResultUri(active));
        }
        return this.shown;
    }

    async accept(): Promise<void> {
        const result = this.current();
        if (!result) {
            return void vscode.window.showInformationMessage('OptiML: no optimization result to accept');
        }
        const applied = await this.server.execute<boolean>(SERVER_COMMANDS.apply, result.uri, result.kernel);
        if (applied) {   // when not, the server said why
            const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(result.uri));
            await document.save();
            void vscode.window.showInformationMessage(
                `OptiML: applied the optimized ${result.kernel} (${result.speedup?.toFixed(1)}x) and saved ` +
                vscode.workspace.asRelativePath(document.uri));
            await this.close(result);
        }
    }

    async reject(): Promise<void> {
        const result = this.current();
        if (!result) {
            return void vscode.window.showInformationMessage('OptiML: no optimization result to reject');
        }
        await this.server.execute(SERVER_COMMANDS.reject, result.uri, result.kernel);
        await this.close(result);
    }

    private showTrajectory(result: OptimizationResult): void {
        if (!this.panel) {
            this.panel = vscode.window.createWebviewPanel('optiml.trajectory', 'OptiML trajectory',
                {viewColumn: vscode.ViewColumn.Beside, preserveFocus: true}, {enableScripts: true});
            this.panel.onDidDispose(() => this.panel = undefined);
            this.panel.webview.onDidReceiveMessage(async (message: {command: string}) => {
                // the buttons act on the result the panel shows, whichever editor is active
                this.shown = this.panelResult;
                await (message.command === 'accept' ? this.accept() : this.reject());
            });
        }
        this.panelResult = result;
        this.panel.title = `OptiML: ${result.kernel}`;
        this.panel.webview.html = trajectoryHtml(result, randomBytes(16).toString('base64'));
    }

    private async close(result: OptimizationResult): Promise<void> {
        this.results.delete(key(result.uri, result.kernel));
        const optimized = resultUri(result).toString();
        const tabs = vscode.window.tabGroups.all.flatMap(group => group.tabs).filter(tab =>
            tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.toString() === optimized);
        await vscode.window.tabGroups.close(tabs);
        if (this.shown === result) {
            this.shown = undefined;
            this.panel?.dispose();
            await vscode.commands.executeCommand('setContext', SHOWN_CONTEXT, false);
        }
    }

    dispose(): void {
        this.registration.dispose();
        this.changeEmitter.dispose();
        this.panel?.dispose();
    }
}
