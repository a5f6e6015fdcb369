import { describe, expect, it } from 'vitest';
import { answerCompaction } from '../../../proxy/budget/answerCompaction.js';
import { budgetProxy } from '../../../proxy/test-utils/budgetProxy.js';
import {
  compactionRequestBody,
  longSessionMessages,
} from '../../../proxy/test-utils/longSession.js';
import { anthropicBody } from '../../../proxy/test-utils/wireRequests.js';
import { carriedTrail } from './carriedTrail.js';
import { TRAIL_HEADER } from '../denseText.js';

/** The summary text of Dense's answer to a compaction request (its stream's text deltas). */
function answeredSummary(): string {
  const reply = answerCompaction('anthropic', Buffer.from(compactionRequestBody(false)));
  const body = JSON.parse(reply?.body ?? '{}') as { content: { text: string }[] };
  const text = body.content.map((block) => block.text).join('');
  return /<summary>([\s\S]*)<\/summary>/.exec(text)?.[1] ?? '';
}

describe('carriedTrail: what an earlier Dense summary named stays named (#34.1)', () => {
  it('#34.1 the files and commands of an earlier summary are read back with their recall ids; other text gives none', () => {
    const summary = answeredSummary();
    const carried = carriedTrail(summary);
    const read = carried.files.find((file) => file.path.endsWith('m0.ts'));
    expect(read?.states).toContain('read');
    expect(read?.recallIds[0]).toMatch(/^r[0-9a-f]{10}$/);
    expect(summary).toContain(`recall id ${read?.recallIds[0] ?? '-'}`);
    expect(carried.commands.some((command) => command.command.startsWith('npm test'))).toBe(true);
    expect(carriedTrail('- /w/a.ts: read; recall id r0123456789')).toEqual({
      files: [],
      commands: [],
      tried: [],
    });
  });

  it('#33.3 what an earlier trail lists as tried and failed is read back, oldest first, and is no command', () => {
    const trail = [
      TRAIL_HEADER,
      'Tried and failed: (2 older omitted)',
      '- `npm run build` → exit 2: src/a.ts(4,1): error TS2304; then `npm test` → exit 0',
      '- `read_file /w/b.ts` → failed: ENOENT: no such file',
      'Commands (last exit status):',
      '- `npm test` → exit 0; recall id r0123456789',
    ].join('\n');
    const carried = carriedTrail(trail);
    expect(carried.tried).toEqual([
      {
        command: 'npm run build',
        failure: 'exit 2: src/a.ts(4,1): error TS2304',
        then: '`npm test` → exit 0',
      },
      { command: 'read_file /w/b.ts', failure: 'failed: ENOENT: no such file' },
    ]);
    expect(carried.commands).toEqual([
      { command: 'npm test', status: 'exit 0', recallIds: ['r0123456789'] },
    ]);
  });

  it("#33.3 a shell run the summary's turns name (and its trail therefore leaves out) is read back from its turn line", () => {
    const summary = [
      TRAIL_HEADER,
      'Files:',
      '- /w/a.ts: read; recall id r0123456789',
      '',
      'The compacted turns, oldest first:',
      '[run_shell_command npm test — error: exit 1, first error: FAIL a.test.ts; recall id r1111111111] a.test.ts',
      '[run_shell_command ls -la — success, "a.ts"; recall id r2222222222]',
      '[read_file /w/a.ts — success, 12 lines; recall id r3333333333] main:1',
    ].join('\n');
    expect(carriedTrail(summary).commands).toEqual([
      { command: 'npm test', status: 'exit 1', recallIds: ['r1111111111'] },
      { command: 'ls -la', status: 'ok', recallIds: ['r2222222222'] },
    ]);
  });

  it("#34.1 a working-budget compaction that covers the client's kept summary (Dense's answer) still names the files it named", () => {
    const summary = answeredSummary();
    const id = carriedTrail(summary).files.find((file) => file.path.endsWith('m0.ts'))
      ?.recallIds[0];
    const continued = {
      role: 'user',
      content: [
        {
          type: 'text',
          text: `This session is being continued from a previous conversation that ran out of context.\n\n${summary}`,
        },
      ],
    };
    const later = longSessionMessages(24, 4_000)
      .slice(1)
      .map((message) => {
        // Other files this time, so the first summary's m0.ts is not read again.
        return JSON.parse(JSON.stringify(message).replaceAll('/w/src/m', '/w/lib/n')) as Record<
          string,
          unknown
        >;
      });
    const body = anthropicBody([continued, ...later], { model: 'claude-sonnet-4-6' });
    const { send } = budgetProxy({ api: 'anthropic', budget: 12_000 });
    const result = send(body);
    expect(result.compaction?.kind).toBe('compacted');
    const sent = result.body.toString();
    expect(sent).toContain('[Dense compacted the');
    expect(sent).toContain(`recall id ${id ?? '-'}`);
  });
});
