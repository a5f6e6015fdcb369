/**
 * The policy-independent half of the grounding oracle: for each recorded reply, the specifics the
 * agent used in it (text and tool-call arguments) that first appeared in an earlier tool output or
 * user message of the recording. A specific the agent named before any such source showed it (a
 * file it created, a name it knew) is its own and never counted; so is one a recorded compaction
 * summary brought up first (the agent's model wrote it, as it writes its replies). Computed once
 * per recording. Pure.
 */
import type { IContent, ToolResponseBlock } from '../../services/history/IContent.js';
import { recordingPosition } from '../oracle/exposureLedger.js';
import { extractSpecifics, occursIn, type Specific } from './extractSpecifics.js';
import { shownText, usedText } from './groundingText.js';

/** A specific a reply used, and where it first appeared. */
export interface GroundedUse {
  readonly specific: Specific;
  /** Recording position of the first tool output or user message that showed it. */
  readonly origin: number;
}

export interface GroundingPlan {
  /** By the recording position of the reply: what it used from earlier context. */
  readonly uses: ReadonlyMap<number, readonly GroundedUse[]>;
  /** Every recorded tool response with its recording position (what a recall id can name). */
  readonly responses: readonly { readonly block: ToolResponseBlock; readonly position: number }[];
}

interface Source {
  readonly position: number;
  readonly text: string;
}

function keyOf(specific: Specific): string {
  return `${specific.kind}\u0000${specific.text}`;
}

const plans = new WeakMap<readonly IContent[], GroundingPlan>();

/** The grounding plan of a recording (entries in recorded order); memoised per array. */
export function planGrounding(contents: readonly IContent[]): GroundingPlan {
  let plan = plans.get(contents);
  if (plan === undefined) {
    plan = buildPlan(contents);
    plans.set(contents, plan);
  }
  return plan;
}

function buildPlan(contents: readonly IContent[]): GroundingPlan {
  const sources: Source[] = [];
  const responses: { block: ToolResponseBlock; position: number }[] = [];
  /** First decision per specific: where it came from, or `null` when the agent named it first. */
  const origins = new Map<string, number | null>();
  const uses = new Map<number, GroundedUse[]>();
  contents.forEach((entry, entryIndex) => {
    const position = recordingPosition(entryIndex, 0);
    if (entry.speaker !== 'ai') {
      if (entry.metadata?.isSummary !== true) sources.push({ position, text: shownText(entry) });
      entry.blocks.forEach((block, blockIndex) => {
        if (block.type === 'tool_response') {
          responses.push({ block, position: recordingPosition(entryIndex, blockIndex) });
        }
      });
      return;
    }
    const used: GroundedUse[] = [];
    for (const specific of extractSpecifics(usedText(entry))) {
      const key = keyOf(specific);
      let origin = origins.get(key);
      if (origin === undefined) {
        origin = sources.find((source) => occursIn(specific, source.text))?.position ?? null;
        origins.set(key, origin);
      }
      if (origin !== null) used.push({ specific, origin });
    }
    if (used.length > 0) uses.set(position, used);
  });
  return { uses, responses };
}
