/**
 * The unchanged-read / same-output reply runs once per tool response, before it is
 * recorded: a scan of the history newest to oldest. Measured on histories of 100k and 1M tokens
 * for a re-run whose output repeats nothing (the whole history is scanned: the worst case) and
 * for a file re-read (the scan stops at the first write of the file or the matching copy). The
 * repeated-lines reply (asked when the unchanged reply is not given) is measured beside it: for a
 * re-run that shares nothing, and for one repeating a 2,000-line output with a line changed (a
 * diff of each of the three earlier outputs sharing the most lines).
 */
import { bench, describe } from 'vitest';
import { HistoryService } from '../../../../services/history/HistoryService.js';
import type {
  IContent,
  ToolCallBlock,
  ToolResponseBlock,
} from '../../../../services/history/IContent.js';
import { toolRoundTrip } from '../../../../test-utils/historyBuilders.js';
import { syntheticHistory } from '../test-utils/syntheticHistory.js';
import { unchangedReadReply } from './unchangedRead.js';
import { repeatedLinesReply } from './repeatedLines.js';

const RUN = { iterations: 200, time: 0, warmupIterations: 5, warmupTime: 0 } as const;
const ws = { workspaceRoot: '/workspace' };

async function historyOf(targetTokens: number): Promise<{ history: IContent[]; label: string }> {
  const counter = new HistoryService();
  const all = syntheticHistory(Math.ceil(targetTokens / 80), 7);
  await counter.estimateTokensForContents(all);
  let tokens = 0;
  let n = 0;
  while (n < all.length && tokens < targetTokens) tokens += counter.tokensOf(all[n++]!) ?? 0;
  return {
    history: all.slice(0, n),
    label: `${tokens.toLocaleString('en-US')} tokens, ${n} entries`,
  };
}

function call(name: string, parameters: object, output: string) {
  const [c, r] = toolRoundTrip('new', name, parameters, output);
  return [c.blocks[0] as ToolCallBlock, r.blocks[0] as ToolResponseBlock] as const;
}

for (const size of [100_000, 1_000_000]) {
  const { history, label } = await historyOf(size);
  const output = 'a fresh test run output\n'.repeat(40);
  const [run, runResult] = call('run_shell_command', { command: 'npm test' }, output);
  const [read, readResult] = call('read_file', { file_path: '/workspace/src/file3.ts' }, output);
  const log = Array.from({ length: 2000 }, (_, i) => `test_${i} ... ok`);
  const before = toolRoundTrip('log-1', 'run_shell_command', { command: 'pytest' }, log.join('\n'));
  const withLog = [...history, ...before];
  log[1000] = 'test_1000 ... FAILED';
  const [rerun, rerunResult] = call('run_shell_command', { command: 'pytest' }, log.join('\n'));
  describe(`one reply decision, history of ${label}`, () => {
    bench(
      'repeated lines: re-run, nothing shared',
      () => {
        repeatedLinesReply(history, run, runResult, ws);
      },
      RUN,
    );
    bench(
      'repeated lines: re-run of a 2,000-line output, one line changed',
      () => {
        repeatedLinesReply(withLog, rerun, rerunResult, ws);
      },
      RUN,
    );
    bench(
      're-run, nothing repeats (full scan)',
      () => {
        unchangedReadReply(history, run, runResult, ws);
      },
      RUN,
    );
    bench(
      'file re-read',
      () => {
        unchangedReadReply(history, read, readResult, ws);
      },
      RUN,
    );
  });
}
