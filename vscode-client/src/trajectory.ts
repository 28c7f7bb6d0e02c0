/**
 * The trajectory beside the diff: each step from the original to the optimized kernel, its speedup and the metric
 * that moved (percent of the speed-of-light floor, and the diagnosis before and after). HTML for a webview; no
 * `vscode` import.
 */

import {OptimizationResult, TrajectoryStep} from './protocol';

export function escapeHtml(text: string): string {
    return text.replace(/[&<>"']/g, character => `&#${character.charCodeAt(0)};`);
}

function stepRow(step: TrajectoryStep, index: number): string {
    const sol = step.percent_of_sol === null ? '' : `${step.percent_of_sol.toFixed(0)}% of SOL`;
    const diagnosis = [step.diagnosis_before && `before: ${escapeHtml(step.diagnosis_before)}`,
                       step.diagnosis_after && `after: ${escapeHtml(step.diagnosis_after)}`].filter(Boolean).join('<br>');
    return `<tr><td>${index + 1}</td><td><b>${escapeHtml(step.rule)}</b>: ${escapeHtml(step.description)}` +
        `<br><small>cures ${escapeHtml(step.symptom)}</small></td>` +
        `<td class="number">${step.speedup.toFixed(2)}x</td><td class="number">${step.time_ms.toFixed(3)} ms</td>` +
        `<td>${sol}</td><td><small>${diagnosis}</small></td></tr>`;
}

export function trajectoryHtml(result: OptimizationResult, nonce: string): string {
    const verdict = result.accepted && result.speedup !== null
        ? `${result.speedup.toFixed(2)}x faster, verified` : 'no verified faster kernel';
    const rows = result.trajectory.map(stepRow).join('\n');
    return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}';">
<style nonce="${nonce}">
 body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); }
 table { border-collapse: collapse; width: 100%; } td, th { border-bottom: 1px solid var(--vscode-panel-border); padding: 4px; vertical-align: top; text-align: left; }
 .number { text-align: right; white-space: nowrap; }
 button { margin-right: 8px; padding: 4px 12px; color: var(--vscode-button-foreground); background: var(--vscode-button-background); border: none; }
</style></head>
<body>
<h2>${escapeHtml(result.kernel)}: ${escapeHtml(verdict)}</h2>
<p>${result.accepted ? '<button id="accept">Accept</button>' : ''}<button id="reject">Reject</button></p>
<table><thead><tr><th>#</th><th>step</th><th>speedup</th><th>time</th><th>of floor</th><th>diagnosis</th></tr></thead>
<tbody>
${rows || '<tr><td colspan="6">no steps: the original stays the best</td></tr>'}
</tbody></table>
<script nonce="${nonce}">
 const vscode = acquireVsCodeApi();
 for (const id of ['accept', 'reject']) {
   document.getElementById(id)?.addEventListener('click', () => vscode.postMessage({command: id}));
 }
</script>
</body></html>`;
}
