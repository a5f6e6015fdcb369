/**
 * Progress of a `dense savings` run on stderr: a bar redrawn in place when stderr is a terminal,
 * otherwise a plain line every `every` files and one at the end (logs and pipes get no carriage
 * returns).
 */
import { formatProgressBar } from '../commands/replayFormat.js';

export interface SavingsProgress {
  /** `done` files of the total finished; `label` the file now being replayed. */
  update(done: number, label: string): void;
  finish(): void;
}

export interface ProgressStream {
  readonly isTTY?: boolean;
  readonly columns?: number;
  write(chunk: string): unknown;
}

export const PLAIN_PROGRESS_EVERY = 10;

export function savingsProgress(
  stream: ProgressStream,
  total: number,
  every = PLAIN_PROGRESS_EVERY,
): SavingsProgress {
  if (stream.isTTY === true) {
    const width = Math.max(20, (stream.columns ?? 80) - 1);
    return {
      update: (done, label) =>
        stream.write(`\r${formatProgressBar(done, total, label, width).padEnd(width)}`),
      finish: () => stream.write(`\r${' '.repeat(width)}\r`),
    };
  }
  let last = 0;
  const line = (done: number) => {
    last = done;
    stream.write(`dense savings: ${done} of ${total} files replayed\n`);
  };
  return {
    update: (done) => {
      if (done > 0 && done % every === 0 && done !== last) line(done);
    },
    finish: () => {
      if (total > 0 && last !== total) line(total);
    },
  };
}
