/**
 * The replay bench's command line. Kept apart from the entry point (which runs on import) so it can
 * be tested. `npm run bench:replay -- <flags>` appends the flags to the script's last command, so
 * that command must be the bench itself (see package.json): a formatter chained after it would
 * receive them instead.
 */
import path from 'node:path';
import { REPLAY_POLICY_IDS, type ReplayPolicyId } from '@dense/core';
import { BenchOptionError, flagValue, parseTokenList, parseWorkers } from '../benchFlags.js';

export interface BenchArgs {
  readonly corpus: string;
  readonly workers: number;
  readonly only?: string;
  /** Absolute path of the raw-runs JSON to write. */
  readonly json?: string;
  readonly docs: boolean;
  /**
   * `--limits 16000,32000,…`: replay at these context limits and print the window grid
   * (`benchGrid.ts`) instead of writing the docs' sections, which are laid out for the default
   * limits.
   */
  readonly limits?: readonly number[];
  /**
   * `--policies a,b`: run only these policies. The report then shows only them, and the docs'
   * sections, laid out for every policy, are not written.
   */
  readonly policies?: readonly ReplayPolicyId[];
  /**
   * `--sent DIR` (absolute): also write what each run sent to each model call, under
   * `DIR/<source>/` (core's `sentLog.ts`).
   */
  readonly sent?: string;
}

type ValueFlag = '--corpus' | '--only' | '--json' | '--limits' | '--policies' | '--sent';

const isPolicy = (id: string): id is ReplayPolicyId =>
  (REPLAY_POLICY_IDS as readonly string[]).includes(id);

/** `high-density,none` → the policies, each once, in `REPLAY_POLICY_IDS` order. */
function parsePolicies(value: string): ReplayPolicyId[] {
  const ids = value.split(',').map((id) => id.trim());
  const unknown = ids.filter((id) => !isPolicy(id));
  if (unknown.length > 0 || ids.length === 0) {
    throw new BenchOptionError(
      `bench:replay: --policies takes policy ids separated by commas, of ${REPLAY_POLICY_IDS.join(', ')} ` +
        `(got "${value}")`,
    );
  }
  return REPLAY_POLICY_IDS.filter((id) => ids.includes(id));
}

/** `16000,32k,1m` → [16000, 32000, 1000000], sorted, each once. */
function parseLimits(value: string): number[] {
  const limits = parseTokenList(value);
  if (limits === undefined) {
    throw new BenchOptionError(
      `bench:replay: --limits takes context limits in tokens, e.g. --limits 16000,32k,1m (got "${value}")`,
    );
  }
  return [...new Set(limits)].sort((a, b) => a - b);
}

export function parseBenchArgs(
  argv: readonly string[],
  defaults: { readonly corpus: string; readonly workers: number },
): BenchArgs {
  const value = (flag: ValueFlag) => flagValue('bench:replay', argv, flag);
  const only = value('--only');
  const json = value('--json');
  const limits = value('--limits');
  const policies = value('--policies');
  const sent = value('--sent');
  return {
    corpus: path.resolve(value('--corpus') ?? defaults.corpus),
    workers: parseWorkers('bench:replay', argv, defaults.workers),
    ...(only === undefined ? {} : { only }),
    ...(json === undefined ? {} : { json: path.resolve(json) }),
    docs: !argv.includes('--no-docs') && limits === undefined && policies === undefined,
    ...(limits === undefined ? {} : { limits: parseLimits(limits) }),
    ...(policies === undefined ? {} : { policies: parsePolicies(policies) }),
    ...(sent === undefined ? {} : { sent: path.resolve(sent) }),
  };
}
