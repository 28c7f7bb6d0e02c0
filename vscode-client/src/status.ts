/** The status bar's text: the running jobs, and the best verified speedup this session. No `vscode` import. */

import {Job, OptimizationResult} from './protocol';

export class JobsAndResults {
    jobs: Job[] = [];
    private best: number | undefined;

    jobsChanged(jobs: Job[]): void {
        this.jobs = jobs;
    }

    resultArrived(result: OptimizationResult): void {
        if (result.accepted && result.speedup !== null) {
            this.best = Math.max(this.best ?? 0, result.speedup);
        }
    }

    get text(): string {
        const running = this.jobs.length === 0 ? '$(zap) OptiML'
            : `$(sync~spin) OptiML: ${this.jobs.length} job${this.jobs.length === 1 ? '' : 's'}`;
        return this.best === undefined ? running : `${running} · best ${this.best.toFixed(1)}x`;
    }

    get tooltip(): string {
        const running = this.jobs.length === 0 ? 'No optimization running'
            : `Optimizing ${this.jobs.map(job => job.kernel).join(', ')} (click to cancel)`;
        return this.best === undefined ? running : `${running}; best verified speedup ${this.best.toFixed(2)}x`;
    }
}
