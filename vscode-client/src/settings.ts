/**
 * The extension's settings and what the server gets of them. The language server reads its job settings from
 * `initializationOptions` (server/features/settings.py); the GPU indices and the LLM's endpoint, model and key go
 * into the server's environment under the names `optiml` reads on the command line (OPTIML_GPUS, OPTIML_LLM_*), so
 * the key never travels in a message. No `vscode` import: the unit tests run under plain node.
 */

export interface Settings {
    interpreter: string;        // empty: the Python extension's interpreter, else python3
    budgetCandidates: number;
    budgetSeconds: number;
    gpus: string;               // "0,1"; empty: every device
    llmEndpoint: string;
    llmModel: string;
    lintSeverity: string;       // hint | information | warning: how performance findings show
}

/** What `vscode.workspace.getConfiguration('optiml')` offers; a Map stands in for it in the tests. */
export interface ConfigurationLike {
    get<T>(section: string, defaultValue: T): T;
}

export function readSettings(configuration: ConfigurationLike): Settings {
    return {
        interpreter: configuration.get('python.interpreter', '').trim(),
        budgetCandidates: configuration.get('budget.candidates', 60),
        budgetSeconds: configuration.get('budget.seconds', 600),
        gpus: configuration.get('gpus', '').replace(/\s+/g, ''),
        llmEndpoint: configuration.get('llm.endpoint', '').trim(),
        llmModel: configuration.get('llm.model', '').trim(),
        lintSeverity: configuration.get('lints.severity', 'hint'),
    };
}

export function usesLlm(settings: Settings): boolean {
    return settings.llmEndpoint !== '' && settings.llmModel !== '';
}

export function initializationOptions(settings: Settings): object {
    return {
        budget: {candidates: settings.budgetCandidates, seconds: settings.budgetSeconds},
        llm: usesLlm(settings),
        lints: {severity: settings.lintSeverity},
    };
}

/** The server's environment: the editor's, with the GPU and LLM settings replacing any the editor inherited. */
export function serverEnvironment(settings: Settings, llmApiKey: string | undefined,
                                  inherited: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
    const environment: NodeJS.ProcessEnv = {...inherited};
    for (const name of ['OPTIML_GPUS', 'OPTIML_LLM_BASE_URL', 'OPTIML_LLM_MODEL', 'OPTIML_LLM_API_KEY']) {
        delete environment[name];
    }
    if (settings.gpus) {
        environment.OPTIML_GPUS = settings.gpus;
    }
    if (usesLlm(settings)) {
        environment.OPTIML_LLM_BASE_URL = settings.llmEndpoint;
        environment.OPTIML_LLM_MODEL = settings.llmModel;
        if (llmApiKey) {
            environment.OPTIML_LLM_API_KEY = llmApiKey;
        }
    }
    return environment;
}
