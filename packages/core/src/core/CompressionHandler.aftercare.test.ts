import { testCompressionHandler } from '../test-utils/testCompressionHandler.js';
import { describe, expect, it, vi } from 'vitest';
import { human, readFile, toolRoundTrip } from '../test-utils/historyBuilders.js';
import { ScriptedProvider } from '../test-utils/ScriptedProvider.js';
import { HistoryService } from '../services/history/HistoryService.js';
import type { IContent } from '../services/history/IContent.js';
import { charEstimateTokenCounter } from '../services/history/TokenCounter.js';
import type { EphemeralSettings } from '../settings/settingsRegistry.js';
import type { Todo } from '../tools/todo-schemas.js';
import { formatTodoList } from '../tools/todo/formatTodoList.js';
import type { CompressionContext, CompressionStrategy } from './compression/types.js';
import { getCompressionStrategy } from './compression/compressionStrategyFactory.js';
import { historyText, isNamedIn } from './compression/artifactTrail/namedInHistory.js';
import { isTrailEntry } from './compression/artifactTrail/ArtifactTrailKeeper.js';
import { isWorkingBudgetSummary } from './compression/workingBudget/compactToWorkingBudget.js';
import { AUTO_WORKING_BUDGET } from './compression/workingBudget/workingBudgetTokens.js';
import type { CompactionLoopEvent } from './CompactionLoopGuard.js';
import { LOOP_WINDOW_SENDS } from './CompactionLoopGuard.js';

const TODOS: Todo[] = [
  { id: 't1', content: 'Fix the parser', status: 'in_progress' },
  { id: 't2', content: 'Add a test for 42 items', status: 'pending' },
  { id: 't3', content: 'Read the spec', status: 'completed' },
];

const big = (label: string) =>
  Array.from({ length: 80 }, (_, i) => `${label} line ${i}: content`).join('\n');

function session(rounds: number, offset = 0): IContent[] {
  const history: IContent[] = [human('Please make the limit 250 and retry 3 times.')];
  for (let i = offset; i < offset + rounds; i++) {
    history.push(...readFile(`r${i}`, `/ws/src/f${i}.ts`, big(`f${i}`)));
    history.push(
      ...toolRoundTrip(
        `s${i}`,
        'run_shell_command',
        { command: `npm test -- f${i}` },
        `FAIL f${i}.test.ts\nExit Code: 1`,
      ),
    );
  }
  return history;
}

function setup(
  strategy: CompressionStrategy,
  settings: EphemeralSettings = {},
  provider = new ScriptedProvider(),
) {
  const history = new HistoryService({ tokenCounter: charEstimateTokenCounter });
  const { handler } = testCompressionHandler({
    history,
    settings: {
      'context-limit': 20_000,
      'compression.preserveThreshold': 0.2,
      // The threshold's compression and the trail entry after it (the working budget's summary
      // carries its own: below).
      'compression.density.workingBudget': 0,
      ...settings,
    },
    provider,
    overrides: { resolveStrategy: () => strategy, completionReserve: () => 0, todos: () => TODOS },
  });
  return { history, handler };
}

const trailOf = (history: readonly IContent[]) =>
  history.filter((e) => e.metadata?.artifactTrail === true && e.speaker === 'human');
const textOf = (entry: IContent | undefined) =>
  entry?.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('') ?? '';

describe('after compression (issue #11.3, #11.4)', () => {
  for (const name of ['high-density', 'top-down-truncation'] as const) {
    it(`#11.4 the todo list survives two ${name} compressions unchanged, from the store`, async () => {
      const { history, handler } = setup(getCompressionStrategy(name));
      history.addAll(session(12));
      await handler.performCompression('p1');
      history.addAll(session(12, 12));
      await handler.performCompression('p2');
      const trail = trailOf(history.getRawHistory());
      expect(trail).toHaveLength(1);
      expect(textOf(trail[0])).toContain(formatTodoList(TODOS));
    });

    it(`#11.3 ${name}: the trail names every file and command of both rounds, with exit status`, async () => {
      const { history, handler } = setup(getCompressionStrategy(name), { 'context-limit': 10_000 });
      history.addAll(session(12));
      expect((await handler.performCompression('p1')).result.kind).toBe('applied');
      history.addAll(session(12, 12));
      expect((await handler.performCompression('p2')).result.kind).toBe('applied');
      const raw = history.getRawHistory();
      const text = textOf(trailOf(raw)[0]);
      const kept = historyText(raw.filter((entry) => !isTrailEntry(entry)));
      for (let i = 0; i < 24; i++) {
        expect(text).toContain(`src/f${i}.ts: read; recall id r`);
        // Every command stays named: by the kept history, else by the trail with its status.
        const command = `npm test -- f${i}`;
        if (isNamedIn(kept, command)) continue;
        expect(text).toContain(`\`${command}\` → exit 1`);
      }
      expect(text).toContain('FAIL f23.test.ts');
      expect(text).toMatch(/Numbers the user gave:\n250, 3/);
    });
  }

  it('#35.1 the todo list from the store survives two working-budget compactions (the default budget)', async () => {
    // Each round of 12 (~5,200 tokens) passes the threshold (5,100): both compactions are needed.
    const { history, handler } = setup(getCompressionStrategy('high-density'), {
      'context-limit': 6_000,
      'compression.density.workingBudget': AUTO_WORKING_BUDGET,
    });
    history.addAll(session(12));
    expect((await handler.performCompression('p1')).result.kind).toBe('applied');
    history.addAll(session(12, 12));
    expect((await handler.performCompression('p2')).result.kind).toBe('applied');
    const raw = history.getRawHistory();
    const summaries = raw.filter(isWorkingBudgetSummary);
    expect(summaries).toHaveLength(1);
    expect(textOf(summaries[0])).toContain(formatTodoList(TODOS));
    expect(textOf(summaries[0])).toContain('Please make the limit 250 and retry 3 times.');
    expect(trailOf(raw)).toHaveLength(0);
  });

  it('#11.3 a summarizing strategy gets the trail right after its summary', async () => {
    const provider = new ScriptedProvider([
      { text: '<state_snapshot>the summary</state_snapshot>' },
    ]);
    const strategy = getCompressionStrategy('middle-out');
    const { history, handler } = setup(strategy, {}, provider);
    history.addAll(session(8));
    const event = await handler.performCompression('p1');
    expect(event.result.kind).toBe('applied');
    const raw = history.getRawHistory();
    const summaryAt = raw.findIndex((e) => e.metadata?.isSummary === true);
    expect(raw[summaryAt + 2]?.metadata?.artifactTrail).toBe(true);
  });
});

describe('compaction that cannot loop (issue #11.5)', () => {
  it('#11.5 a compression that leaves the context over the threshold is not repeated every send; the loop is reported', async () => {
    const compress = vi.fn((context: CompressionContext) =>
      Promise.resolve({
        kind: 'applied' as const,
        newHistory: [...context.history], // frees nothing
        metadata: {
          originalMessageCount: context.history.length,
          compressedMessageCount: context.history.length,
          strategyUsed: 'top-down-truncation' as const,
          llmCallMade: false,
        },
      }),
    );
    const strategy: CompressionStrategy = {
      name: 'top-down-truncation',
      requiresLLM: false,
      trigger: { mode: 'threshold', defaultThreshold: 0.85 },
      compress,
    };
    const { history, handler } = setup(strategy, { 'context-limit': 1_000 });
    // 900 of 1000 tokens: over the threshold (850), under the hard limit.
    history.addAll(Array.from({ length: 9 }, () => human('x'.repeat(400))));
    const loops: CompactionLoopEvent[] = [];
    handler.events.on('compactionLoop', (event) => loops.push(event));
    const sends = 12;
    for (let i = 0; i < sends; i++) {
      await handler.ensureCompressionBeforeSend(`p${i}`).catch(() => undefined);
    }
    // Without the guard: one compression per send. With it: at most one per window (+1).
    expect(compress.mock.calls.length).toBeLessThanOrEqual(
      Math.ceil(sends / (LOOP_WINDOW_SENDS + 1)) + 1,
    );
    expect(loops.length).toBeGreaterThan(0);
    expect(loops[0]?.message).toMatch(/not compressing again/);
  });
});
