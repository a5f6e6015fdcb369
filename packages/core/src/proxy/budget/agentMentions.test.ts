import { describe, expect, it } from 'vitest';
import { ai, human, toolRoundTrip } from '../../test-utils/historyBuilders.js';
import { agentMentions } from './agentMentions.js';

describe('agentMentions', () => {
  const history = [
    human('Why does settleInvoice fail?'),
    ...toolRoundTrip(
      'c1',
      'run_shell_command',
      { command: 'cat src/billing/ledger.ts' },
      'pendingTotals',
    ),
    ai('The cause is in pendingTotals; next I read src/billing/cursor.ts.'),
  ];

  it('#24.10 a name or path the agent wrote after a position counts, one only the user or a tool wrote does not', () => {
    const mentions = agentMentions(history);
    expect(mentions.latest('pendingTotals')).toBeGreaterThan(2);
    expect(mentions.latest('src/billing/cursor.ts')).toBeGreaterThan(2);
    expect(mentions.latest('settleInvoice')).toBe(-1);
  });

  it('#24.10 a tool call’s input is the agent’s mention; nothing after the latest mention counts', () => {
    const mentions = agentMentions(history);
    expect(mentions.latest('src/billing/ledger.ts')).toBeGreaterThan(0);
    expect(mentions.latest('src/billing/ledger.ts')).toBeLessThanOrEqual(1);
    expect(mentions.latest('pendingTotals')).toBeLessThanOrEqual(3);
  });

  it('#33 the latest mention of a token is its position, -1 when the agent never wrote it', () => {
    const mentions = agentMentions(history);
    expect(mentions.latest('pendingTotals')).toBe(3);
    expect(mentions.latest('src/billing/ledger.ts')).toBe(1);
    expect(mentions.latest('settleInvoice')).toBe(-1);
  });

  it('#33 opening a file is no mention: a listing that named it gets no use from the read', () => {
    const listed = [
      ...toolRoundTrip('g1', 'glob', { pattern: 'src/**/*.ts' }, 'src/a.ts\nsrc/b.ts'),
      ...toolRoundTrip('r1', 'read_file', { file_path: 'src/a.ts' }, 'export const a = 1;'),
      ai('src/b.ts is next.'),
    ];
    const mentions = agentMentions(listed);
    expect(mentions.latest('src/a.ts')).toBe(-1);
    expect(mentions.latest('src/b.ts')).toBe(4);
  });
});
