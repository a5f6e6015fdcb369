/** Exit codes of `dense recall` (documented in its help and in docs/proxy.md). */
import type { RecallMissingReason } from '@dense/core';

export const RECALL_EXIT = {
  found: 0,
  unknown: 1,
  /** A malformed id or bad usage. */
  malformed: 2,
  /** Expired or evicted. */
  gone: 3,
  unreadable: 4,
  /** `--grep` matched no line. */
  noMatch: 5,
} as const;

export const RECALL_EXIT_OF: Readonly<Record<RecallMissingReason, number>> = {
  malformed: RECALL_EXIT.malformed,
  unknown: RECALL_EXIT.unknown,
  expired: RECALL_EXIT.gone,
  evicted: RECALL_EXIT.gone,
};
