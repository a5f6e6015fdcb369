/**
 * The Codex rollouts of the shared corpus (`../shared/corpus`, listed in its manifest.jsonl):
 * every `compacted` line is a boundary of the `recorded` policy, and the prompt it replays for the
 * first model call after each boundary is within 5% of the input tokens the rollout recorded for
 * that call (the fixed prompt, which the replay does not hold, measured on the session's first
 * call). Skipped, with a name that says so, when the folder is absent (as on CI).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, corpusEntries, corpusPresent as present } from '../test-utils/sharedCorpus.js';
import { importTranscriptSessions } from '../transcripts/importTranscript.js';
import { prepareReplay } from './prepareReplay.js';
import { getReplayPolicy } from './replayPolicies.js';
import { replaySession, type ReplayRun } from './replaySession.js';

const codexFiles = corpusEntries
  .filter((entry) => /codex/i.test(entry.format))
  .map((entry) => entry.file);

/** `compacted` lines, counted as plainly as `jq 'select(.type=="compacted")'` would. */
function compactedLines(file: string): number {
  return readFileSync(path.join(CORPUS, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .filter((line) => (JSON.parse(line) as { type?: unknown }).type === 'compacted').length;
}

interface Replayed {
  readonly compacted: number;
  readonly window: number | undefined;
  readonly run: ReplayRun;
}

const replayed = new Map<string, Replayed>();

describe.skipIf(!present)(
  present
    ? `#32.2 corpus: Codex compactions under recorded (${CORPUS})`
    : `#32.2 corpus: skipped, ${CORPUS} not found`,
  () => {
    beforeAll(async () => {
      for (const file of codexFiles) {
        const [session] = await importTranscriptSessions(path.join(CORPUS, file));
        if (session === undefined) throw new Error(`${file}: no session imported`);
        const prepared = await prepareReplay(session, {});
        const run = await replaySession(prepared, {
          policy: getReplayPolicy('recorded'),
          contextLimit: 128_000,
        });
        const window = session.recordedContextWindow;
        replayed.set(file, { compacted: compactedLines(file), window, run });
      }
    }, 300_000);

    it('#32.2 the corpus holds compacted Codex sessions', () => {
      const total = [...replayed.values()].reduce((sum, one) => sum + one.compacted, 0);
      expect(total).toBeGreaterThan(0);
    });

    it.each(codexFiles)('#32.2 %s: every compacted line is a boundary of recorded', (file) => {
      const one = replayed.get(file);
      expect(one?.run.compactionCalls).toHaveLength(one?.compacted ?? -1);
      expect(one?.window).toBeGreaterThan(0);
    });

    it.each(codexFiles)(
      '#32.2 %s: recorded reproduces the rollout’s input tokens after each boundary within 5%',
      (file) => {
        const { run } = replayed.get(file) as Replayed;
        const recorded = run.recordedPromptTokens;
        const first = recorded.findIndex((tokens) => tokens !== undefined);
        expect(first).toBe(0);
        const fixedPrompt = (recorded[0] ?? 0) - (run.series[0] ?? 0);
        for (const call of run.compactionCalls) {
          const tokens = recorded[call];
          expect(tokens, `call ${call} records its input tokens`).toBeDefined();
          const predicted = fixedPrompt + (run.series[call] ?? 0);
          const error = Math.abs(predicted - (tokens ?? 0)) / (tokens ?? 1);
          expect(error, `call ${call}: ${predicted} vs ${tokens}`).toBeLessThanOrEqual(0.05);
        }
      },
    );
  },
);
