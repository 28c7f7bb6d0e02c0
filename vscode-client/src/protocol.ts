/**
 * What the OptiML language server speaks beyond standard LSP (server/features/*.py): its commands, and the params of
 * its two notifications.
 */

export const SERVER_COMMANDS = {
    optimize: 'optiml.optimize',      // (document URI, kernel): starts a job; progress, then optiml/result
    profile: 'optiml.profile',        // (document URI, kernel)
    apply: 'optiml.apply',            // (document URI, kernel) -> whether the editor applied the result
    reject: 'optiml.reject',          // (document URI, kernel)
    openResult: 'optiml.openResult',  // (result file path): offers it for the open document it names
    cancel: 'optiml.cancel',          // (document URI, kernel)
} as const;

export const RESULT_NOTIFICATION = 'optiml/result';
export const JOBS_NOTIFICATION = 'optiml/jobs';

/** One edit on the path from the original to the best kernel (optiml_engine.search.mcts.Step). */
export interface TrajectoryStep {
    rule: string;
    description: string;
    symptom: string;
    reward: number;
    time_ms: number;
    speedup: number;
    percent_of_sol: number | null;
    diagnosis_before: string | null;
    diagnosis_after: string | null;
}

export interface OptimizationResult {
    uri: string;
    kernel: string;
    accepted: boolean;
    speedup: number | null;
    diff: string;
    new_text: string;
    trajectory: TrajectoryStep[];
}

export interface Job {
    uri: string;
    kernel: string;
    kind: 'optimize' | 'profile';
}

export interface JobsParams {
    jobs: Job[];
}
