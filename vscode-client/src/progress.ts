/**
 * The server's work-done progress as notifications with a Cancel button. The language client shows it in the
 * status bar, where VS Code offers no cancel (ProgressLocation.Window); an optimization runs for minutes, so this
 * takes over the client's `window/workDoneProgress/create` handler (one handler per method: the later one wins) and
 * shows each progress where it can be cancelled. Cancel sends `window/workDoneProgress/cancel`, as the client would.
 */

import * as vscode from 'vscode';
import {
    LanguageClient,
    ProgressToken,
    WorkDoneProgress,
    WorkDoneProgressBegin,
    WorkDoneProgressCancelNotification,
    WorkDoneProgressCreateRequest,
} from 'vscode-languageclient/node';

export function showProgressAsNotifications(client: LanguageClient): void {
    client.onRequest(WorkDoneProgressCreateRequest.type, ({token}) => followProgress(client, token));
}

function followProgress(client: LanguageClient, token: ProgressToken): void {
    let done = false;
    let ended: () => void = () => undefined;
    let progress: vscode.Progress<{message?: string; increment?: number}> | undefined;
    let reported = 0;   // VS Code takes increments, LSP sends percentages
    const report = (message?: string, percentage?: number) => {
        const increment = percentage === undefined ? undefined : Math.max(0, Math.min(percentage, 100) - reported);
        reported += increment ?? 0;
        progress?.report({message, increment});
    };
    const listener = client.onProgress(WorkDoneProgress.type, token, value => {
        if (value.kind === 'begin') {
            void begin(value);
        } else if (value.kind === 'report') {
            report(value.message, value.percentage);
        } else {
            listener.dispose();
            done = true;
            ended();
        }
    });

    function begin(params: WorkDoneProgressBegin): Thenable<void> {
        const options = {location: vscode.ProgressLocation.Notification, title: params.title,
                         cancellable: params.cancellable ?? false};
        return vscode.window.withProgress(options, (shown, cancellation) => {
            progress = shown;
            report(params.message, params.percentage);
            cancellation.onCancellationRequested(() =>
                client.sendNotification(WorkDoneProgressCancelNotification.type, {token}));
            return new Promise<void>(resolve => done ? resolve() : ended = resolve);
        });
    }
}
