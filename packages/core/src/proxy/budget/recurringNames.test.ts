import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import type { AgentMentions } from './agentMentions.js';
import type { CondensedOutput } from './condensedOutputs.js';
import {
  carriedVocabulary,
  MIN_TEXTS,
  RECURRING_HEADING,
  recurringNames,
} from './recurringNames.js';
import { ai, human } from '../../test-utils/historyBuilders.js';

const output = (text: string, position = 0): CondensedOutput => ({
  kind: 'read',
  text,
  position,
});

/** The agent mentioned each of `names` at the position given. */
const mentionsOf = (names: Readonly<Record<string, number>>): AgentMentions => ({
  latest: (token) => names[token] ?? -1,
});

const never = () => false;

describe('recurringNames: the vocabulary many removed outputs showed', () => {
  it('#33 a name shown by MIN_TEXTS outputs and used by the agent is named; fewer outputs, or never used, is not', () => {
    const outputs = [
      output('SELECT * FROM be_transactions JOIN be_payees'),
      output('insert into be_transactions; be_payees; be_accounts'),
      output('be_transactions are synced after be_payees and be_accounts'),
    ];
    const mentions = mentionsOf({ be_transactions: 9, be_accounts: 9 });
    const text = recurringNames({ outputs, writes: [], mentions, room: 1_000, shown: never });
    expect(MIN_TEXTS).toBe(3);
    expect(text.startsWith(`${RECURRING_HEADING}\n`)).toBe(true);
    expect(text).toContain('be_transactions');
    // be_payees: shown thrice, never used by the agent; be_accounts: used, shown twice.
    expect(text).not.toContain('be_payees');
    expect(text).not.toContain('be_accounts');
  });

  it('#33 the most widely shown first, then the latest used; none the summary shows already', () => {
    const outputs = [
      output('alpha_one beta_two gamma_three'),
      output('alpha_one beta_two gamma_three'),
      output('alpha_one beta_two gamma_three'),
      output('alpha_one'),
    ];
    const mentions = mentionsOf({ alpha_one: 1, beta_two: 5, gamma_three: 7 });
    const text = recurringNames({
      outputs,
      writes: [],
      mentions,
      room: 1_000,
      shown: (name) => name === 'beta_two',
    });
    expect(text.split('\n')[1]).toBe('alpha_one gamma_three');
  });

  it('#33 the names an earlier Dense summary named are read up to the end of their line, and count though nothing else shows them', () => {
    const answer = `<summary>\n[Dense summarized the 9 messages of this conversation so far, deterministically (no model call).]\n\n${RECURRING_HEADING}\nbe_ledger_totals ledgerRowsFor\n</summary>`;
    const carried = carriedVocabulary([human(answer), ai(`${RECURRING_HEADING}\nnot_from_dense`)]);
    expect([...carried]).toEqual(['be_ledger_totals', 'ledgerRowsFor']);
    const text = recurringNames({
      outputs: [],
      writes: [],
      mentions: mentionsOf({}),
      room: 1_000,
      shown: never,
      carried,
    });
    expect(text).toBe(`${RECURRING_HEADING}\nbe_ledger_totals ledgerRowsFor`);
  });

  it('#33 what the agent wrote counts as a text: two outputs and one write show a name three times', () => {
    const write = {
      type: 'tool_call',
      id: 'w1',
      name: 'write_file',
      parameters: { file_path: 'a.ts', content: 'SELECT invoice_net FROM t' },
    } as const;
    const outputs = [output('invoice_net is 4'), output('sum invoice_net')];
    const mentions = mentionsOf({ invoice_net: 3 });
    const section = (writes: readonly (typeof write)[]) =>
      recurringNames({ outputs, writes, mentions, room: 1_000, shown: never });
    expect(section([write])).toContain('invoice_net');
    expect(section([])).toBe('');
  });

  it('#33 nothing to name gives no section', () => {
    expect(
      recurringNames({
        outputs: [output('plain words only')],
        writes: [],
        mentions: mentionsOf({}),
        room: 1_000,
        shown: never,
      }),
    ).toBe('');
  });

  test.prop([
    fc.array(
      fc.array(fc.constantFrom('ledger_row', 'sumCents', 'AccountId', 'x_y_z'), { maxLength: 6 }),
      {
        maxLength: 8,
      },
    ),
    fc.integer({ min: -10, max: 300 }),
  ])('#33 the section never exceeds its room', (texts, room) => {
    const outputs = texts.map((words) => output(words.join(' ')));
    const mentions = mentionsOf({ ledger_row: 1, sumCents: 2, AccountId: 3, x_y_z: 4 });
    expect(
      recurringNames({ outputs, writes: [], mentions, room, shown: never }).length,
    ).toBeLessThanOrEqual(Math.max(0, room));
  });
});
