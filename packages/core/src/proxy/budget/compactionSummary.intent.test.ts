import { describe, expect, it } from 'vitest';
import type { IContent } from '../../services/history/IContent.js';
import { ai, human, toolRoundTrip } from '../../test-utils/historyBuilders.js';
import { workingBudgetSummary } from '../test-utils/workingBudgetSummary.js';
import { pinnedIn, recallIdOfUserMessage } from '../../core/compression/pinnedUserMessages.js';

const ENVIRONMENT =
  '<system-reminder>\nkernel 6.18.44, model 4.6, date 2025-06-01, 15000000 tokens left\n</system-reminder>';

/** A long session: the task with a constraint first, 40 large reads and 12 later user messages. */
function longSession(): IContent[] {
  const entries: IContent[] = [
    human(
      `${ENVIRONMENT}\nThe ledger tests fail. Find and fix the bugs; never change the public API.`,
    ),
  ];
  for (let n = 0; n < 40; n++) {
    const body = Array.from({ length: 300 }, (_, i) => `export const field${n}x${i} = ${i};`);
    entries.push(
      ...toolRoundTrip(`r${n}`, 'read_file', { file_path: `/w/src/m${n}.ts` }, body.join('\n')),
    );
    entries.push(ai(`Read module ${n}.`));
    if (n % 3 === 0) entries.push(human(`Note ${n}: keep the rounding mode as banker's rounding.`));
  }
  return entries;
}

describe("compactionSummary: the user's words first (#33.1)", () => {
  it('#33.1 every user message stays verbatim under the cap, client context left out', () => {
    const removed = longSession();
    const { text } = workingBudgetSummary(removed, 40_000);
    expect(text).toContain(
      'The ledger tests fail. Find and fix the bugs; never change the public API.',
    );
    for (let n = 0; n < 40; n += 3) {
      expect(text).toContain(`Note ${n}: keep the rounding mode as banker's rounding.`);
    }
    // The environment block is the client's, not the user's: no numbers from it, no copy of it.
    expect(text).not.toContain('6.18.44');
    expect(text).not.toContain('15000000');
    expect(text.length).toBeLessThanOrEqual(40_000);
  });

  it("#33.1 when the user's words alone pass the budget they are kept whole and the header says so", () => {
    const removed = Array.from({ length: 30 }, (_, i) => [
      human(
        `Requirement ${i}: ${'the report must list every account by region and currency. '.repeat(4)}`,
      ),
      ai('Noted.'),
    ]).flat();
    const { text } = workingBudgetSummary(removed, 2_000);
    expect(pinnedIn(text)).toHaveLength(30);
    expect(text).toMatch(/alone take [\d,]+ characters, over this summary's 2,000: kept whole/);
  });

  it('#33.1 a huge paste keeps head and tail, and its whole text is a recall entry', () => {
    const paste = `BEGIN LOG\n${'worker 7 retried the job\n'.repeat(2_000)}END LOG`;
    const { text, recall } = workingBudgetSummary([human(paste), ai('I see the retries.')], 40_000);
    expect(text).toContain('BEGIN LOG');
    expect(text).toContain('END LOG');
    expect(recall).toContainEqual({ id: recallIdOfUserMessage(paste), text: paste });
  });

  it('#33.1 a summary of turns that hold an earlier summary carries its pinned messages', () => {
    const first = workingBudgetSummary(
      [human('Port the CLI to Deno.'), ai('Starting.')],
      8_000,
    ).text;
    const continued = `This session is being continued from a previous conversation.\n${first}`;
    const { text } = workingBudgetSummary(
      [human(continued), ai('Continuing.'), human('Also add a --json flag.')],
      8_000,
    );
    expect(pinnedIn(text)).toEqual(['Port the CLI to Deno.', 'Also add a --json flag.']);
  });
});

describe('compactionSummary: task list and what failed (#33.2, #33.3)', () => {
  it('#33.2 the task list is the one as of the cut, never a later (rewound) branch', () => {
    const removed = [
      human('Clean up the database.'),
      ...toolRoundTrip(
        't1',
        'TaskCreate',
        { subject: 'Archive old rows' },
        'Task #1 created successfully: Archive old rows',
      ),
      ...toolRoundTrip(
        't2',
        'TaskUpdate',
        { taskId: '1', status: 'in_progress' },
        'Updated task #1',
      ),
    ];
    const later = [
      ...toolRoundTrip(
        't3',
        'TodoWrite',
        { todos: [{ content: 'DROP TABLE users in production', status: 'in_progress' }] },
        'ok',
      ),
    ];
    const { text } = workingBudgetSummary(removed, 8_000, [...removed, ...later]);
    expect(text).toContain('[>] Archive old rows');
    expect(text).not.toContain('DROP TABLE users');
  });

  it('#33.3 a failed command keeps its exit code, first error line and what succeeded next', () => {
    const removed = [
      human('Make the build pass.'),
      ...toolRoundTrip(
        'c1',
        'run_shell_command',
        { command: 'npm test' },
        'src/a.test.ts\nError: expected 3 to be 4\nExit code: 1',
      ),
      ...toolRoundTrip(
        'c2',
        'run_shell_command',
        { command: 'npm test -- --update' },
        'all passed\nExit code: 0',
      ),
    ];
    const { text } = workingBudgetSummary(removed, 8_000);
    expect(text).toContain('Tried and failed:');
    expect(text).toContain(
      '- `npm test` → exit 1: Error: expected 3 to be 4; then `npm test -- --update` → exit 0',
    );
  });

  it("#33.3 a failed Codex command is known by its output, not by the tool's framing", () => {
    const removed = [
      human('Show the contractor page.'),
      ...toolRoundTrip(
        'c1',
        'run_shell_command',
        { command: 'cat src/app/contractors/[id]/page.tsx' },
        'Exit code: 1\nWall time: 0 seconds\nOutput:\nzsh:1: no matches found: src/app/contractors/[id]/page.tsx',
      ),
      ...toolRoundTrip(
        'c2',
        'run_shell_command',
        { command: "cat 'src/app/contractors/[id]/page.tsx'" },
        'Exit code: 0\nWall time: 0 seconds\nOutput:\nexport default function Page() {}',
      ),
    ];
    const { text } = workingBudgetSummary(removed, 8_000);
    expect(text).toContain(
      'exit 1: zsh:1: no matches found: src/app/contractors/[id]/page.tsx; then',
    );
    expect(text).not.toContain('Wall time');
  });

  it("#33.3 a failure with no error word is known by its first output line, not Claude Code's `Exit code N`", () => {
    const removed = [
      human('Commit the notes.'),
      ...toolRoundTrip(
        'c1',
        'Bash',
        { command: 'git add learnings.md' },
        '',
        "Exit code 128\nfatal: pathspec 'learnings.md' did not match any files",
      ),
      ai('The file is missing.'),
    ];
    const { text } = workingBudgetSummary(removed, 8_000);
    const tried = text
      .split('\n')
      .find((line) => line.startsWith('- `Bash git add learnings.md` → failed:'));
    expect(tried).toContain("fatal: pathspec 'learnings.md' did not match any files");
  });

  it("#33.4 client context in a result and Dense's own earlier summary are no source of specifics or numbers", () => {
    const reminder =
      '<system-reminder>\nSkill palette: references/palette.md, 14978157 tokens left\n</system-reminder>';
    const first = workingBudgetSummary(
      [human('Count the rows, 42 at most.'), ai('Counting.')],
      8_000,
    ).text;
    const removed = [
      human(`This session is being continued.\n${first}`),
      ...toolRoundTrip(
        'c1',
        'read_file',
        { file_path: '/w/rows.txt' },
        `row one\nrow two\n${reminder}`,
      ),
      ai('Two rows.'),
    ];
    const { text } = workingBudgetSummary(removed, 8_000);
    expect(text).not.toContain('references/palette.md');
    expect(text).not.toContain('14978157');
    expect(text).toContain('Numbers the user gave:\n42');
  });

  it('#33.3 a failed edit is tried-and-failed too, answered only by its own later success', () => {
    const edit = { file_path: '/w/a.ts', old_string: 'x', new_string: 'y' };
    const removed = [
      human('Rename x.'),
      ...toolRoundTrip('e1', 'replace', edit, '', 'old_string not found in /w/a.ts'),
      ...toolRoundTrip('r1', 'read_file', { file_path: '/w/b.ts' }, 'const b = 1;'),
    ];
    const { text } = workingBudgetSummary(removed, 8_000);
    const line = text.split('\n').find((l) => l.includes('old_string not found')) ?? '';
    expect(line).toMatch(/^- `replace .*a\.ts` → failed: old_string not found in \/w\/a\.ts$/);
  });
});
