/** Paths the tests share: the repository, its virtual environment's Python (the README's setup makes it). */

import * as fs from 'node:fs';
import * as path from 'node:path';

export const REPO = path.resolve(__dirname, '..', '..', '..');   // from vscode-client/out/test
export const VENV_PYTHON = process.env.OPTIML_PYTHON ?? path.join(REPO, '.venv', 'bin', 'python');
export const HAS_VENV = fs.existsSync(VENV_PYTHON);
export const RECORDED_RESULT = path.join(REPO, 'bench', 'results', 'optimize-layernorm-h100.json');
