/**
 * One model call's own abort signal, following the turn's. SDKs add abort listeners to the signal
 * they are given and do not always remove them when the call ends; on the turn's signal those
 * would pile up (Node warns past 10: `MaxListenersExceededWarning`). They land on this short-lived
 * signal instead, and the one link to the turn's signal is removed when the call ends.
 */
export interface CallSignal {
  readonly signal: AbortSignal | undefined;
  /** Unlinks from the turn's signal; call when the model call ends, however it ends. */
  dispose(): void;
}

export function callSignal(turn: AbortSignal | undefined): CallSignal {
  if (turn === undefined) return { signal: undefined, dispose: () => undefined };
  const controller = new AbortController();
  if (turn.aborted) {
    controller.abort(turn.reason);
    return { signal: controller.signal, dispose: () => undefined };
  }
  const forward = (): void => controller.abort(turn.reason);
  turn.addEventListener('abort', forward, { once: true });
  return {
    signal: controller.signal,
    dispose: () => turn.removeEventListener('abort', forward),
  };
}
