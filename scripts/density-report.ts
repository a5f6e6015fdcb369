/**
 * A small density report over a history built in code, run through the real core classes: the
 * token accounting of HistoryService and a density edit applied through applyDensityResult.
 * (The full offline demo replaces this once the agent and replay exist.)
 */
import {
  createAiMessage,
  createToolResponse,
  createUserMessage,
  HistoryService,
  toolCallBlock,
  type IContent,
} from '@dense/core';

const source = Array.from({ length: 120 }, (_, i) => `export const value${i} = ${i} * 2;`).join(
  '\n',
);

function round(id: string, name: string, parameters: unknown, result: string): IContent[] {
  return [
    createAiMessage([toolCallBlock(id, name, parameters)]),
    createToolResponse({ callId: id, toolName: name, result }),
  ];
}

const history = new HistoryService();
history.addAll([
  createUserMessage('Double every value in src/values.ts'),
  ...round('c1', 'read_file', { file_path: 'src/values.ts' }, source),
  ...round('c2', 'replace', { file_path: 'src/values.ts' }, 'Successfully modified file.'),
  ...round('c3', 'read_file', { file_path: 'src/values.ts' }, source.replaceAll('* 2', '* 4')),
  createAiMessage('Done: every value is now doubled.'),
]);
await history.waitForTokenUpdates();
const before = history.getTotalTokens();

// The read at indices 1–2 happened before the write at 3–4: its content is stale.
await history.applyDensityResult({
  removals: [1, 2],
  replacements: new Map(),
  metadata: { readWrite: 1, dedup: 0, recency: 0 },
});
const after = history.getTotalTokens();

console.log('Density report (history built in code)');
console.log(`  entries: 8 → ${history.length}`);
console.log(`  tokens:  ${before} → ${after} (${before - after} reclaimed from one stale read)`);
