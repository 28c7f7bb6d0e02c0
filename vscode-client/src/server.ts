/**
 * The language server's lifecycle: finds the interpreter, checks that it has `optiml` (saying how to install it when
 * not), starts `python -m server.app` over stdio with the settings, and stops or restarts it. Commands the server
 * offers (optiml.optimize, ...) are registered by the language client; run from a CodeLens they carry (document URI,
 * kernel), run from the context menu or the palette they do not, and the middleware fills in the kernel under the
 * cursor.
 */

import * as path from 'node:path';
import * as vscode from 'vscode';
import {LanguageClient, LanguageClientOptions, ServerOptions} from 'vscode-languageclient/node';

import {showProgressAsNotifications} from './progress';
import {JOBS_NOTIFICATION, JobsParams, OptimizationResult, RESULT_NOTIFICATION, SERVER_COMMANDS} from './protocol';
import {checkServerPackage, chooseInterpreter, PythonExtensionApi, SERVER_WORKING_DIRECTORY} from './python';
import {initializationOptions, readSettings, serverEnvironment} from './settings';

export const LLM_KEY_SECRET = 'optiml.llm.apiKey';
const KERNEL_COMMANDS: string[] = [SERVER_COMMANDS.optimize, SERVER_COMMANDS.profile];

export class OptimlServer implements vscode.Disposable {
    private client: LanguageClient | undefined;
    private readonly resultEmitter = new vscode.EventEmitter<OptimizationResult>();
    private readonly jobsEmitter = new vscode.EventEmitter<JobsParams>();
    readonly onResult = this.resultEmitter.event;
    readonly onJobs = this.jobsEmitter.event;

    constructor(private readonly context: vscode.ExtensionContext, private readonly output: vscode.OutputChannel) {}

    get running(): boolean {
        return this.client?.isRunning() ?? false;
    }

    async start(): Promise<void> {
        const settings = readSettings(vscode.workspace.getConfiguration('optiml'));
        const interpreter = await chooseInterpreter(await pythonExtensionApi(), settings.interpreter,
                                                    vscode.workspace.workspaceFolders?.[0]?.uri);
        const check = await checkServerPackage(interpreter, await optimlCheckout());
        if (!check.installed) {
            this.output.appendLine(`OptiML cannot start: ${check.problem}; ${check.fix}`);
            // not awaited: the message stays until the user answers, and activation must not wait for that
            void vscode.window.showErrorMessage(`OptiML cannot start: ${check.problem}. Fix: ${check.fix}.`,
                                                'Restart Server').then(async choice => {
                if (choice === 'Restart Server') {
                    await this.restart();
                }
            });
            return;
        }
        this.output.appendLine(`starting optiml-lsp ${check.version} with ${interpreter}`);
        const apiKey = await this.context.secrets.get(LLM_KEY_SECRET);
        const serverOptions: ServerOptions = {
            // no `transport`: TransportKind.stdio would add a --stdio argument, and stdio is the server's default
            command: interpreter, args: ['-m', 'server.app'],
            options: {cwd: SERVER_WORKING_DIRECTORY, env: serverEnvironment(settings, apiKey, process.env)},
        };
        const clientOptions: LanguageClientOptions = {
            documentSelector: [{scheme: 'file', language: 'cuda-cpp'}],
            initializationOptions: initializationOptions(settings),
            outputChannel: this.output,
            middleware: {
                executeCommand: async (command, args, next) => {
                    if (!KERNEL_COMMANDS.includes(command) || isKernelArguments(args)) {
                        return next(command, args);
                    }
                    const target = await kernelAtCursor(command);
                    if (typeof target === 'string') {
                        return void vscode.window.showErrorMessage(`OptiML: ${target}`);
                    }
                    return next(command, target);
                },
            },
        };
        this.client = new LanguageClient('optiml', 'OptiML', serverOptions, clientOptions);
        this.client.onNotification(RESULT_NOTIFICATION, (result: OptimizationResult) => this.resultEmitter.fire(result));
        this.client.onNotification(JOBS_NOTIFICATION, (params: JobsParams) => this.jobsEmitter.fire(params));
        await this.client.start();
        showProgressAsNotifications(this.client);   // after start: it replaces the client's own handler
    }

    async stop(): Promise<void> {
        const client = this.client;
        this.client = undefined;
        if (client?.isRunning()) {
            await client.stop();
        }
        this.jobsEmitter.fire({jobs: []});
    }

    async restart(): Promise<void> {
        await this.stop();
        await this.start();
    }

    /** Runs one of the server's commands; undefined, after saying so, when the server is not running. */
    async execute<T>(command: string, ...args: unknown[]): Promise<T | undefined> {
        if (!this.running) {
            void vscode.window.showErrorMessage('The OptiML server is not running: see the OptiML output, then run ' +
                                                'OptiML: Restart Server');
            return undefined;
        }
        return vscode.commands.executeCommand<T>(command, ...args);
    }

    dispose(): void {
        void this.stop();
        this.resultEmitter.dispose();
        this.jobsEmitter.dispose();
    }
}

/** The Python extension's API, when that extension is installed (it is activated on the way). */
async function pythonExtensionApi(): Promise<PythonExtensionApi | undefined> {
    const extension = vscode.extensions.getExtension<PythonExtensionApi>('ms-python.python');
    if (!extension) {
        return undefined;
    }
    const api = extension.isActive ? extension.exports : await extension.activate();
    return api?.environments ? api : undefined;
}

/** A workspace folder holding the OptiML sources, to name in the install command. */
async function optimlCheckout(): Promise<string | undefined> {
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
        try {
            await vscode.workspace.fs.stat(vscode.Uri.joinPath(folder.uri, 'optiml_engine'));
            return folder.uri.fsPath;
        } catch {
            // not this one
        }
    }
    return undefined;
}

function isKernelArguments(args: unknown[]): boolean {
    return args.length === 2 && args.every(arg => typeof arg === 'string');
}

/** [document URI, kernel] for the kernel under the cursor, from the server's own code action for `command`; or why
 * there is none. */
async function kernelAtCursor(command: string): Promise<unknown[] | string> {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.document.languageId !== 'cuda-cpp') {
        return 'open a CUDA file and put the cursor in a kernel';
    }
    const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
        'vscode.executeCodeActionProvider', editor.document.uri, editor.selection);
    for (const action of actions ?? []) {
        const found = 'command' in action && typeof action.command === 'object' ? action.command : action;
        if ((found as vscode.Command).command === command) {
            return (found as vscode.Command).arguments ?? [];
        }
    }
    return `no kernel at the cursor in ${path.basename(editor.document.uri.fsPath)}`;
}
