/** A provider's retry wait in words: "rate limited — retry 2/4 in 3 s". */
import type { RetryNotice } from '@dense/core';

function reasonWords(notice: RetryNotice): string {
  switch (notice.reason) {
    case 'rate-limited':
      return 'rate limited';
    case 'overloaded':
      return 'server overloaded';
    case 'server-error':
      return `server error${notice.status === undefined ? '' : ` ${notice.status}`}`;
    case 'network':
      return 'connection failed';
  }
}

/** `msLeft` is the time still to wait; whole seconds, rounded up, never below 0. */
export function describeRetry(notice: RetryNotice, msLeft: number = notice.delayMs): string {
  const seconds = Math.max(0, Math.ceil(msLeft / 1000));
  return `${reasonWords(notice)} — retry ${notice.nextAttempt}/${notice.maxAttempts} in ${seconds} s`;
}
