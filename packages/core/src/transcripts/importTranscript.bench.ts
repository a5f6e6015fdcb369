/**
 * Import cost: a synthetic Claude Code session of 5,000 lines (in memory, always available) and
 * the largest files of the shared corpus (`../shared/corpus`, skipped when absent).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bench, describe } from 'vitest';
import { importClaudeCode } from './importers/claudeCode.js';
import { importTranscriptSessions } from './importTranscript.js';

const CORPUS = fileURLToPath(new URL('../../../../../shared/corpus/raw/', import.meta.url));
const LARGEST = [
  'claude-code-gastownhall/4-claude-code-website-cc-loose-execute-plan.jsonl',
  'mini-swe-agent-swebench-gemini3pro/psf__requests-1142.traj.json',
  'gemini-cli-chatrecording-gastownhall/6-gemini-execute-plan.json',
];

function syntheticClaudeSession(turns: number): string[] {
  const lines: string[] = [];
  const base = { sessionId: 's', cwd: '/w', isSidechain: false };
  for (let i = 0; i < turns; i++) {
    const id = `t${i}`;
    const input = { file_path: `/w/src/file${i % 50}.ts` };
    lines.push(
      JSON.stringify({
        ...base,
        type: 'assistant',
        uuid: `a${i}`,
        message: { id: `m${i}`, content: [{ type: 'tool_use', id, name: 'Read', input }] },
      }),
      JSON.stringify({
        ...base,
        type: 'user',
        uuid: `u${i}`,
        message: { content: [{ type: 'tool_result', tool_use_id: id, content: 'x'.repeat(2000) }] },
      }),
    );
  }
  return lines;
}

const synthetic = syntheticClaudeSession(2500);

describe('import', () => {
  bench('synthetic Claude Code session, 5,000 lines (5.9 MB)', async () => {
    await importClaudeCode(synthetic, { file: 'synthetic.jsonl' });
  });

  for (const file of LARGEST) {
    bench.skipIf(!existsSync(CORPUS + file))(`corpus ${file.split('/')[1] ?? file}`, async () => {
      await importTranscriptSessions(CORPUS + file);
    });
  }
});
