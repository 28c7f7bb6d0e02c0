/**
 * Which Python runs the language server, and whether it has the `optiml` package. No `vscode` import (the unit
 * tests run under plain node): the Python extension's API is passed in, typed by the little of it used here.
 */

import {execFile} from 'node:child_process';
import * as os from 'node:os';

/** The part of the Python extension's exported API (ms-python.python, `environments`) that names the interpreter. */
export interface PythonExtensionApi {
    environments: {
        getActiveEnvironmentPath(resource?: unknown): {path: string};
        resolveEnvironment(path: {path: string} | string): Promise<{executable: {uri?: {fsPath: string}}} | undefined>;
    };
}

export const DEFAULT_INTERPRETER = 'python3';
/** Where the check and the server run: not the workspace, since Python puts the working directory on its path and
 * a workspace that is an OptiML checkout would then pass the check without the package being installed. */
export const SERVER_WORKING_DIRECTORY = os.tmpdir();

/** The Python extension's active interpreter when that extension is there, else the setting, else python3. */
export async function chooseInterpreter(pythonApi: PythonExtensionApi | undefined, setting: string,
                                        resource?: unknown): Promise<string> {
    if (pythonApi) {
        const active = pythonApi.environments.getActiveEnvironmentPath(resource);
        const resolved = await pythonApi.environments.resolveEnvironment(active);
        const executable = resolved?.executable.uri?.fsPath;
        if (executable) {
            return executable;
        }
    }
    return setting || DEFAULT_INTERPRETER;
}

export type PackageCheck =
    | {installed: true; version: string}
    | {installed: false; problem: string; fix: string};

const VERSION_SCRIPT = 'from importlib.metadata import version; print(version("optiml"))';

/** Asks `interpreter` for the installed optiml's version; when it has none, says why and how to fix it. */
export function checkServerPackage(interpreter: string, checkout?: string): Promise<PackageCheck> {
    return new Promise(resolve => {
        execFile(interpreter, ['-c', VERSION_SCRIPT], {cwd: SERVER_WORKING_DIRECTORY, timeout: 30_000}, (error, stdout) => {
            if (!error) {
                return resolve({installed: true, version: stdout.trim()});
            }
            if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
                return resolve({installed: false, problem: `the Python interpreter '${interpreter}' was not found`,
                    fix: 'install Python 3.11 or newer, or choose an interpreter (Python: Select Interpreter, or ' +
                         'the setting optiml.python.interpreter)'});
            }
            resolve({installed: false,
                problem: `the Python package 'optiml' is not installed for ${interpreter}`,
                fix: `run \`${installCommand(interpreter, checkout)}\`, then OptiML: Restart Server`});
        });
    });
}

/** optiml installs from a checkout of its repository (the workspace, when it is one). */
export function installCommand(interpreter: string, checkout?: string): string {
    return `${quoted(interpreter)} -m pip install -e ${checkout ? quoted(checkout) : '<path to the OptiML checkout>'}`;
}

function quoted(word: string): string {
    return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
