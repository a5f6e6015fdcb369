import { DenseError } from './errors.js';

/** A store or service that did not answer within the time a request may wait for it. */
export class NoAnswerInTime extends DenseError {
  readonly code = 'NO_ANSWER_IN_TIME';

  constructor(readonly ms: number) {
    super(`no answer in ${ms} ms`);
  }
}

/**
 * `work`'s answer if it comes within `ms`, else a `NoAnswerInTime` rejection (a late answer or
 * failure is dropped). Redis clients' own command timeouts end once the command is written, so a
 * server that reads it and stays silent (paused, overloaded, a stalled link) is bounded only here.
 */
export function answeredWithin<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NoAnswerInTime(ms)), ms);
  });
  work.catch(() => undefined);
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
