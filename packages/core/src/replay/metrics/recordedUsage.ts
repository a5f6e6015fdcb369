/**
 * How closely a replay reproduces the context sizes the recorded agent's provider reported (Claude
 * Code records `usage` per message). Each call is predicted from what the replay sent:
 * predicted(k) = fixed prompt + tokensPerReplayedToken × replayed(k) + tokensPerCall × calls(k)
 * + tokensPerSignatureChar × signatures(k), where the fixed prompt (system prompt, tool schemas,
 * injected instructions) is measured on the first call with recorded usage, calls(k) counts the
 * model calls in the context since the last compaction, signatures(k) is the length of the
 * thinking signatures the model keeps in that context, and the constants are one calibration per
 * agent and tokenizer (`RecordedUsageModel`), not fitted per session. Only a policy that holds
 * what the agent had can be predicted within a few percent after a compaction. Pure.
 */
import { entriesWithDroppedThinking } from '../../providers/thinkingKept.js';
import type { IContent } from '../../services/history/IContent.js';

/** How the agent's provider counts a replayed context; measured, never fitted per session. */
export interface RecordedUsageModel {
  /** Provider tokens per replayed (o200k) token of recorded content. */
  readonly tokensPerReplayedToken: number;
  /**
   * Provider tokens each model call in the context adds beyond the recorded content: message and
   * tool-call framing, and what the agent injects per turn without recording it.
   */
  readonly tokensPerCall: number;
  /**
   * Provider tokens per character of the thinking signatures kept in the context: opaque text the
   * provider receives with each kept thinking block that the replayed count leaves out.
   */
  readonly tokensPerSignatureChar: number;
}

/**
 * Claude Code with Claude's tokenizer, against o200k replays (thinking blocks imported): one
 * least-squares fit of Δrecorded on Δreplayed, one call and Δkept signature characters, pooled over
 * the consecutive calls within a user turn before the first compaction of the five self-compacted
 * Claude Code sessions of the corpus (455 deltas). See docs/replay.md.
 */
export const CLAUDE_CODE_USAGE_MODEL: RecordedUsageModel = {
  tokensPerReplayedToken: 1.125,
  tokensPerCall: 149,
  tokensPerSignatureChar: 0.119,
};

/**
 * The characters of thinking signatures `model` keeps in a request's context: those of every AI
 * entry whose thinking it does not drop (`entriesWithDroppedThinking`).
 */
export function keptSignatureChars(
  contents: readonly IContent[],
  model: string | undefined,
): number {
  return signatureCharsBesides(contents, new Set(entriesWithDroppedThinking(contents, model)));
}

const SIGNATURE_CHARS = new WeakMap<IContent, number>();

/** The signature characters of the AI entries of `contents` that `dropped` does not hold. */
export function signatureCharsBesides(
  contents: readonly IContent[],
  dropped: { has(entry: IContent): boolean },
): number {
  let chars = 0;
  for (const entry of contents) {
    if (entry.speaker !== 'ai' || dropped.has(entry)) continue;
    let own = SIGNATURE_CHARS.get(entry);
    if (own === undefined) {
      own = 0;
      for (const block of entry.blocks) {
        if (block.type === 'thinking') own += block.signature?.length ?? 0;
      }
      SIGNATURE_CHARS.set(entry, own);
    }
    chars += own;
  }
  return chars;
}

export interface UsageComparisonInput {
  /** Context tokens of each replayed call. */
  readonly series: readonly number[];
  /** Per call, the prompt tokens the recorded provider reported (`undefined`: not recorded). */
  readonly recordedPromptTokens: readonly (number | undefined)[];
  /** Per compaction of the replayed context, the calls made before it (`ReplayRun.compactionCalls`). */
  readonly compactionCalls: readonly number[];
  /** Per call, the signature characters kept in its context (`keptSignatureChars`; default none). */
  readonly keptSignatureChars?: readonly number[];
  readonly model: RecordedUsageModel;
  /** Judge the calls from this one on (default 0). */
  readonly checkFrom?: number;
}

export const USAGE_NOT_COMPARED = ['no-recorded-usage', 'no-call-after'] as const;

/** One judged call. */
export interface UsageCall {
  readonly call: number;
  readonly predicted: number;
  readonly recorded: number;
  /** (predicted − recorded) / recorded. */
  readonly error: number;
}

export type UsageComparison =
  | {
      readonly kind: 'compared';
      /** Tokens of the fixed prompt, measured on the first call with recorded usage. */
      readonly fixedPrompt: number;
      readonly checkedCalls: number;
      /** Σ predicted / Σ recorded over the checked calls (1 = exact). */
      readonly ratio: number;
      /** Median and largest |predicted − recorded| / recorded per checked call. */
      readonly medianError: number;
      readonly maxError: number;
      /** Checked calls predicted within 5% of the recorded count. */
      readonly within5Percent: number;
      /** The checked calls predicted worst, largest error first (at most 3). */
      readonly worst: readonly UsageCall[];
    }
  | { readonly kind: 'not-compared'; readonly reason: (typeof USAGE_NOT_COMPARED)[number] };

/** Per call, the model calls in its context since the last compaction before it. */
export function callsInContext(calls: number, compactionCalls: readonly number[]): number[] {
  const boundaries = [...compactionCalls].sort((a, b) => a - b);
  let last = 0;
  let next = 0;
  return Array.from({ length: calls }, (_, call) => {
    // Boundaries in order: each is passed once over the whole session.
    for (; next < boundaries.length && (boundaries[next] as number) <= call; next++)
      last = Math.max(last, boundaries[next] as number);
    return call - last;
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? 0)
    : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export function compareRecordedUsage(input: UsageComparisonInput): UsageComparison {
  const { series, recordedPromptTokens, model } = input;
  const calls = callsInContext(series.length, input.compactionCalls);
  const variable = (call: number): number =>
    model.tokensPerReplayedToken * (series[call] ?? 0) +
    model.tokensPerCall * (calls[call] ?? 0) +
    model.tokensPerSignatureChar * (input.keptSignatureChars?.[call] ?? 0);
  const first = recordedPromptTokens.findIndex(
    (tokens, call) => tokens !== undefined && call < series.length,
  );
  if (first < 0) return { kind: 'not-compared', reason: 'no-recorded-usage' };
  const fixedPrompt = (recordedPromptTokens[first] ?? 0) - variable(first);
  const judged: UsageCall[] = [];
  for (let call = input.checkFrom ?? 0; call < series.length; call++) {
    const recorded = recordedPromptTokens[call];
    if (recorded === undefined) continue;
    const predicted = fixedPrompt + variable(call);
    judged.push({ call, predicted, recorded, error: (predicted - recorded) / recorded });
  }
  if (judged.length === 0) return { kind: 'not-compared', reason: 'no-call-after' };
  const errors = judged.map((one) => Math.abs(one.error));
  return {
    kind: 'compared',
    fixedPrompt,
    checkedCalls: judged.length,
    ratio:
      judged.reduce((t, one) => t + one.predicted, 0) /
      judged.reduce((t, one) => t + one.recorded, 0),
    medianError: median(errors),
    maxError: Math.max(...errors),
    within5Percent: errors.filter((error) => error <= 0.05).length,
    worst: [...judged].sort((a, b) => Math.abs(b.error) - Math.abs(a.error)).slice(0, 3),
  };
}
