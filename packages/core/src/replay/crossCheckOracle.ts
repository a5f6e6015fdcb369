/**
 * Where the replay oracle and the strategies' classifiers disagree about a recorded session: which
 * files a call showed or changed, whether it succeeded, and which files a text inlines. The oracle
 * (replay/oracle/) reads the transcript by its own rules; this module is the one place that puts
 * the two side by side, so the benchmark can list every disagreement instead of grading the
 * strategies with their own classification. Pure.
 */
import type { IContent, ToolCallBlock, ToolResponseBlock } from '../services/history/IContent.js';
import { fileEffectOf, responseFailed } from '../core/compression/density/callFileEffect.js';
import { findFileInclusions } from '../core/compression/densityVocabulary.js';
import { fileAccessOf, responseSucceeded } from './oracle/fileAccess.js';
import { requestedFiles } from './oracle/oracleFacts.js';
import { inlinedFiles } from './oracle/oracleInclusions.js';
import { resolvePathKey } from './oracle/pathKey.js';

export type DisagreementAspect = 'success' | 'reads' | 'writes' | 'inclusions';

export interface ClassificationDisagreement {
  /** The call id, or `entry <n>` for a human text. */
  readonly at: string;
  /** Tool name (or `human`) and what it was about: the command, the file. */
  readonly subject: string;
  readonly aspect: DisagreementAspect;
  readonly oracle: string;
  readonly strategy: string;
}

/** The strategies' classifiers the oracle is compared with (replaceable in tests). */
export interface StrategyClassifiers {
  readonly fileEffect: (
    call: ToolCallBlock,
  ) => { readonly reads: readonly string[]; readonly writes: readonly string[] } | undefined;
  readonly failed: (response: ToolResponseBlock) => boolean;
  readonly inclusions: (
    text: string,
  ) => readonly { readonly filePath: string; readonly start: number; readonly end: number }[];
}

export const STRATEGY_CLASSIFIERS: StrategyClassifiers = {
  fileEffect: (call) => fileEffectOf(call, { shellFileOps: true }),
  failed: responseFailed,
  inclusions: findFileInclusions,
};

const NONE = '—';
const SUBJECT_CHARS = 80;

function subjectOf(call: ToolCallBlock): string {
  const params = call.parameters as Readonly<Record<string, unknown>> | null;
  const about =
    typeof params === 'object' && params !== null
      ? (params.command ?? params.file_path ?? params.paths ?? params.path)
      : undefined;
  const text = typeof about === 'string' ? about : JSON.stringify(about ?? '');
  const oneLine = text.replace(/\s+/g, ' ').trim();
  const short =
    oneLine.length > SUBJECT_CHARS ? `${oneLine.slice(0, SUBJECT_CHARS - 1)}…` : oneLine;
  return `${call.name} ${short}`.trim();
}

function listed(paths: readonly string[]): string {
  return paths.length === 0 ? NONE : [...new Set(paths)].sort().join(', ');
}

class CrossCheck {
  readonly found: ClassificationDisagreement[] = [];

  constructor(
    private readonly workspaceRoot: string,
    private readonly strategy: StrategyClassifiers,
  ) {}

  private keys(paths: readonly string[]): string[] {
    return paths.map((p) => resolvePathKey(p, this.workspaceRoot));
  }

  private differ(
    at: string,
    subject: string,
    aspect: DisagreementAspect,
    oracle: readonly string[],
    strategy: readonly string[],
  ): void {
    const a = listed(this.keys(oracle));
    const b = listed(this.keys(strategy));
    if (a !== b) this.found.push({ at, subject, aspect, oracle: a, strategy: b });
  }

  response(call: ToolCallBlock, response: ToolResponseBlock): void {
    const subject = subjectOf(call);
    if (!this.success(call, subject, response)) return;
    const oracle = fileAccessOf(call, { shell: true });
    const strategy = this.strategy.fileEffect(call);
    this.differ(call.id, subject, 'writes', oracle?.writes ?? [], strategy?.writes ?? []);
    // The strategy counts a shell read only when the result is nothing else (by design); the
    // oracle counts every file shown. Compare where the strategy claims a read.
    const strategyReads = strategy?.reads ?? [];
    if (oracle?.via !== 'shell' || strategyReads.length > 0) {
      this.differ(call.id, subject, 'reads', oracle?.reads ?? [], strategyReads);
    }
    if (call.name === 'read_many_files' && typeof response.result === 'string') {
      this.inclusions(call.id, subject, response.result, requestedFiles(call));
    }
  }

  /** Records a disagreement on success; whether either side saw the call succeed. */
  private success(call: ToolCallBlock, subject: string, response: ToolResponseBlock): boolean {
    const oracleOk = responseSucceeded(response);
    const strategyOk = !this.strategy.failed(response);
    if (oracleOk !== strategyOk) {
      const verdict = (ok: boolean) => (ok ? 'succeeded' : 'failed');
      this.found.push({
        at: call.id,
        subject,
        aspect: 'success',
        oracle: verdict(oracleOk),
        strategy: verdict(strategyOk),
      });
    }
    return oracleOk || strategyOk;
  }

  inclusions(at: string, subject: string, text: string, expected?: readonly string[]): void {
    const oracle = inlinedFiles(text, expected).map((s) => `${s.filePath}@${s.start}-${s.end}`);
    const strategy = this.strategy.inclusions(text).map((s) => `${s.filePath}@${s.start}-${s.end}`);
    const a = oracle.length === 0 ? NONE : oracle.join(', ');
    const b = strategy.length === 0 ? NONE : strategy.join(', ');
    if (a !== b) this.found.push({ at, subject, aspect: 'inclusions', oracle: a, strategy: b });
  }
}

/** Every disagreement in a recorded session (its entries as replay plans them). */
export function crossCheckOracle(
  contents: readonly IContent[],
  workspaceRoot: string,
  strategy: StrategyClassifiers = STRATEGY_CLASSIFIERS,
): ClassificationDisagreement[] {
  const check = new CrossCheck(workspaceRoot, strategy);
  const calls = new Map<string, ToolCallBlock>();
  contents.forEach((entry, index) => {
    for (const block of entry.blocks) {
      if (block.type === 'tool_call') calls.set(block.id, block);
      else if (block.type === 'tool_response') {
        const call = calls.get(block.callId);
        if (call !== undefined) check.response(call, block);
      } else if (block.type === 'text' && entry.speaker === 'human') {
        check.inclusions(`entry ${index}`, 'human text', block.text);
      }
    }
  });
  return check.found;
}
