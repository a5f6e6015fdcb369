/**
 * When the bench's client compacts by itself, and what a compaction the recording lacks looks
 * like: the client's threshold on the context reported to it (Claude Code's, from the one place
 * it is written), a synthetic summary of the recorded size class, and the client's wait. Pure.
 */
import type { IContent } from '@dense/core';
import {
  CLIENT_RESERVE_TOKENS,
  CODEX_COMPACT_SHARE,
  clientCompactionThreshold,
} from '../../packages/core/src/proxy/budget/workingBudget.js';
import { recordedCompactionWallMs } from '../../packages/core/src/replay/recordedCompactions.js';
import type { ClientApi } from './clientRequests.js';

/**
 * The client's wait for its own compaction where the recording does not show it: the middle of
 * the 56–95 s recorded from the last record before a boundary to the boundary (docs/clients.md).
 */
export const CLIENT_COMPACTION_WAIT_MS = 75_000;

/** Summary characters where the session recorded none (recorded summaries: 9–17k characters). */
export const SUMMARY_CHARS = 13_000;

/**
 * The reported context (prompt + output) from which the client compacts before its next
 * request, as measured with the real binaries (docs/clients.md): Claude Code's window less
 * `CLIENT_RESERVE_TOKENS` (167,000 for a 200k window, 967,000 at 1M), Codex's
 * `CODEX_COMPACT_SHARE` of its window (244,800 for 272,000). `window` is the client's window when
 * the bench sets it; otherwise the model's.
 */
export function clientThreshold(api: ClientApi, model: string, window?: number): number {
  if (window === undefined) return clientCompactionThreshold({ model, longContext: false });
  return api === 'anthropic'
    ? window - CLIENT_RESERVE_TOKENS
    : Math.floor(window * CODEX_COMPACT_SHARE);
}

/**
 * Whether the side behind the proxy compacts at a recorded boundary (pass-through always does:
 * the recording did). Yes when the recorded compaction was asked for below the trigger
 * (`recordedContext` under `userAskedBelow`: the user's `/compact`). Otherwise the recorded client
 * compacted once told `recordedContext`, which the bench's pass-through side was told as
 * `passReported` in its own tokens: the proxy side compacts when told at least that much
 * (`reported ≥ passReported`); without those, when `reported` passes the client's threshold.
 */
export function compactsAtBoundary(input: {
  readonly recordedContext: number | undefined;
  readonly reported: number;
  readonly passReported: number;
  readonly threshold: number | undefined;
  readonly userAskedBelow: number;
}): boolean {
  const { recordedContext, reported, threshold } = input;
  if (recordedContext !== undefined && recordedContext < input.userAskedBelow) return true;
  if (input.passReported > 0) return reported >= input.passReported;
  return threshold === undefined || reported >= threshold;
}

/** Median characters of the session's recorded summaries, else `SUMMARY_CHARS`. */
export function summaryChars(contents: readonly IContent[]): number {
  const sizes = contents
    .filter((entry) => entry.metadata?.isSummary === true)
    .map((entry) =>
      entry.blocks.reduce((sum, block) => sum + (block.type === 'text' ? block.text.length : 0), 0),
    )
    .sort((a, b) => a - b);
  return sizes[Math.floor(sizes.length / 2)] ?? SUMMARY_CHARS;
}

/** A summary entry of `chars` characters standing in for the one the client would have written. */
export function syntheticSummary(chars: number): IContent {
  const line = 'Continued task: files touched, decisions taken, open problems and next steps.\n';
  return {
    speaker: 'human',
    blocks: [{ type: 'text', text: line.repeat(Math.ceil(chars / line.length)).slice(0, chars) }],
    metadata: { isSummary: true },
  };
}

/**
 * How long the client waited for the recorded compaction whose summary is at `index` (ms): from
 * the request that triggered it to the summary. That request is the one the client was about to
 * send after the entry before the boundary, a tool result or the user's prompt (Claude Code
 * records its time as `compactionStartedAt`, else that entry's own time is used). Not measured
 * when the entry before the boundary is a model reply: the turn had ended and the user's idle
 * time and `/compact` lie in between unrecorded; then, and when no time is recorded,
 * `CLIENT_COMPACTION_WAIT_MS`.
 */
export function recordedWaitMs(contents: readonly IContent[], index: number): number {
  const summary = contents[index];
  const trigger = contents[index - 1];
  if (summary === undefined || trigger === undefined || trigger.speaker === 'ai') {
    return CLIENT_COMPACTION_WAIT_MS;
  }
  const wall = recordedCompactionWallMs(summary);
  if (wall !== undefined) return wall;
  const at = summary.metadata?.timestamp;
  const sent = trigger.metadata?.timestamp;
  return typeof at === 'number' && typeof sent === 'number' && at >= sent
    ? at - sent
    : CLIENT_COMPACTION_WAIT_MS;
}
