import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import type { IContent } from '../../services/history/IContent.js';
import { ai, human, toolRoundTrip } from '../../test-utils/historyBuilders.js';
import { recordingPosition } from '../oracle/exposureLedger.js';
import { IntentOracle, type IntentCounts } from './IntentOracle.js';
import { planIntent } from './planIntent.js';
import { planWorkState } from './planWorkState.js';

type WorkCounts = Pick<
  IntentCounts,
  'callsWithTasks' | 'tasksVisible' | 'callsWithFailure' | 'failureVisible'
>;

/** Judges `recording` at one call per `[sent, before entry]` pair; the work counts. */
function judged(
  recording: readonly IContent[],
  calls: readonly (readonly [readonly IContent[], number])[],
): WorkCounts {
  const oracle = new IntentOracle(planIntent(recording), planWorkState(recording));
  for (const [sent, entry] of calls) oracle.onModelCall(sent, recordingPosition(entry, 0));
  const { callsWithTasks, tasksVisible, callsWithFailure, failureVisible } = oracle.totals();
  return { callsWithTasks, tasksVisible, callsWithFailure, failureVisible };
}

const summary = (text: string): IContent => human(`Summary of the earlier turns.\n${text}`);
const tasks = (shown: number, visible: number) => ({
  callsWithTasks: shown,
  tasksVisible: visible,
});

describe('#33.5 intent oracle: the client task list', () => {
  const created = (id: string, n: number, subject: string) =>
    toolRoundTrip(
      id,
      'TaskCreate',
      { subject, description: `Details of ${subject}`, activeForm: `Doing ${subject}` },
      `Task #${n} created successfully: ${subject}`,
    );
  const recording = [
    human('Make the exporter stream its rows'),
    ...created('c1', 1, 'Rewrite the row writer'), // 1, 2
    ...created('c2', 2, 'Add a streaming test'), // 3, 4
    ...toolRoundTrip('u1', 'TaskUpdate', { taskId: '1', status: 'deleted' }, 'Updated task #1'), // 5, 6
    ...toolRoundTrip(
      'u2',
      'TaskUpdate',
      { taskId: '2', status: 'in_progress', subject: 'Add a chunked streaming test' },
      'Updated task #2 subject, status',
    ), // 7, 8
    ai('Working on it.'),
  ];

  it('#33.5 TaskCreate/TaskUpdate: the list as it stands before the call, judged visible or not', () => {
    expect(
      judged(recording, [
        [recording.slice(0, 1), 1], // no list yet
        [recording.slice(0, 2), 2], // TaskCreate sent, its result not yet recorded: no list
        [recording.slice(0, 5), 5], // both tasks, the whole recording sent
        [[summary('Tasks: Add a streaming test')], 5], // the first task left out
        [[summary('Tasks: Add a streaming test')], 7], // after the delete: only the second
        [[summary('Tasks: Add a streaming test')], 9], // renamed: the new subject is not shown
        [[summary('Tasks: [>] Add a chunked\n   streaming test')], 9], // re-wrapped: still visible
      ]),
    ).toEqual({ ...tasks(5, 3), callsWithFailure: 0, failureVisible: 0 });
  });

  it('#33.5 a TaskCreate the client refused creates nothing; an unnumbered result numbers it next', () => {
    const refused = [
      ...toolRoundTrip('c1', 'TaskCreate', { subject: 'Never made' }, '', 'invalid input'),
      ...toolRoundTrip('c2', 'TaskCreate', { subject: 'Made' }, 'ok'),
      ...toolRoundTrip('u1', 'TaskUpdate', { taskId: 1, status: 'completed' }, 'Updated'),
      ai('Done.'),
    ];
    expect(planWorkState(refused).taskLists.map((state) => state.items)).toEqual([
      ['Made'],
      ['Made'],
    ]);
    expect(judged(refused, [[[summary('Made')], 6]])).toMatchObject(tasks(1, 1));
  });

  it('#33.5 TodoWrite replaces the whole list: a later list does not need the abandoned items', () => {
    const todos = (...items: string[]) => ({
      todos: items.map((content) => ({ content, status: 'pending', activeForm: content })),
    });
    const todoRecording = [
      human('Clean up the config loader'),
      ...toolRoundTrip('t1', 'todo_write', todos('Drop the legacy keys', 'Keep old names'), 'ok'), // 1, 2
      human('Wait, undo that: keep the legacy keys and only rename the file'), // 3
      ...toolRoundTrip('t2', 'TodoWrite', todos('Rename the loader file'), 'ok'), // 4, 5
      ai('Renamed.'),
    ];
    expect(
      judged(todoRecording, [
        [[summary('List: Drop the legacy keys')], 3], // the first list, one item missing
        [[summary('List: Drop the legacy keys; Keep old names')], 3],
        [[summary('List: Rename the loader file')], 6], // the first list's items are gone
        [[summary('List: Drop the legacy keys; Keep old names')], 6], // the abandoned list
      ]),
    ).toMatchObject(tasks(4, 2));
  });

  it('#33.5 Codex update_plan (arguments a JSON string) and write_todos (description) are lists', () => {
    const plan = JSON.stringify({
      plan: [
        { step: 'Read the parser', status: 'completed' },
        { step: 'Fix the escape', status: 'in_progress' },
      ],
    });
    const writeTodos = { todos: [{ description: 'Check the CLI flags', status: 'pending' }] };
    const both = [
      ...toolRoundTrip('p1', 'update_plan', plan, 'Plan updated'),
      ...toolRoundTrip('w1', 'write_todos', writeTodos, 'ok'),
      ...toolRoundTrip('p2', 'update_plan', JSON.stringify({ plan: [] }), 'Plan updated'),
      ai('ok'),
    ];
    expect(planWorkState(both).taskLists.map((state) => state.items)).toEqual([
      ['Read the parser', 'Fix the escape'],
      ['Check the CLI flags'],
      [],
    ]);
    // An emptied list is no list: the last call is not judged.
    expect(
      judged(both, [
        [both.slice(0, 4), 4],
        [[], 6],
      ]),
    ).toMatchObject(tasks(1, 1));
  });
});

describe('#33.5 intent oracle: the latest failure', () => {
  const output = [
    'Exit code: 1',
    '> vitest run',
    ' FAIL  src/total.test.ts > sums the rows',
    'AssertionError: expected 7 to be 8',
  ].join('\n');
  const recording = [
    human('Make the totals test pass'),
    ...toolRoundTrip('s1', 'run_shell_command', { command: 'npx vitest run' }, output), // 1, 2
    ...toolRoundTrip('s2', 'run_shell_command', { command: 'ls' }, 'Exit code: 0\nsrc'), // 3, 4
    ...toolRoundTrip(
      'e1',
      'Bash',
      { command: 'npm run lint' },
      '',
      'Exit code 2\nnpm ERR! Missing script: "lint"',
    ), // 5, 6
    ai('There is no lint script.'),
  ];

  it('#33.5 the signature is the first line that reads as an error, whitespace collapsed', () => {
    expect(planWorkState(recording).failures.map((failure) => failure.signature)).toEqual([
      'FAIL src/total.test.ts > sums the rows',
      'npm ERR! Missing script: "lint"',
    ]);
  });

  it('#33.5 a failure is visible while its output is sent or a summary quotes its line; hidden otherwise', () => {
    const quoted = summary(
      'Tried: `npx vitest run` → exit 1: FAIL  src/total.test.ts > sums the rows',
    );
    expect(
      judged(recording, [
        [recording.slice(0, 2), 2], // before its result: not judged
        [recording.slice(0, 3), 3], // the output sent whole
        [[quoted], 5], // a later success does not replace it; the summary quotes it
        [[summary('Tried: the tests failed.')], 5], // paraphrased: hidden
        [[quoted], 7], // the lint failure is the latest now: hidden
        [[summary('npm ERR! Missing script: "lint"')], 7],
      ]),
    ).toEqual({ callsWithTasks: 0, tasksVisible: 0, callsWithFailure: 5, failureVisible: 3 });
  });

  /** The signatures the oracle reads from one call of `tool` that returned `result` / `error`. */
  const signaturesOf = (tool: string, result: string, error?: string): string[] =>
    planWorkState([
      human('Go on'),
      ...toolRoundTrip('x1', tool, { command: 'run' }, result, error),
      ai('Looking.'),
    ]).failures.map((failure) => failure.signature);

  it("#33.5 another tool's error is a message: its first line is the signature, not a line it echoes", () => {
    expect(
      signaturesOf(
        'Edit',
        '',
        '<tool_use_error>String to replace not found in file.\nString: warn!("Failed to start")</tool_use_error>',
      ),
    ).toEqual(['String to replace not found in file.']);
    // Claude Code's PowerShell tool is a shell: its error is the program's output.
    expect(
      signaturesOf(
        'PowerShell',
        '',
        'Exit code 255\nINFO odoo: version 18.0\nERROR odoo: module recruitment: invalid view',
      ),
    ).toEqual(['ERROR odoo: module recruitment: invalid view']);
    // A script's coloured box-drawing rule heads its output: no signature.
    const rule = `\u001b[0;34m${'═'.repeat(30)}\u001b[0m`;
    expect(
      signaturesOf(
        'Bash',
        '',
        `Exit code 1\n${rule}\n\u001b[0;34m  Agent launcher  \u001b[0m\nbuilding`,
      ),
    ).toEqual(['Agent launcher']);
  });

  it('#33.5 a test runner banner is no signature: the first error under it is', () => {
    const pytest = [
      'Exit code: 1',
      '======== test session starts ========',
      'collected 2 items',
      '======== FAILURES ========',
      '________ test_failing_total ________',
      '>       assert total([3, 4]) == 8',
      'E       assert 7 == 8',
      '======== 1 failed, 1 passed in 0.02s ========',
    ].join('\n');
    expect(signaturesOf('run_shell_command', pytest)).toEqual(['> assert total([3, 4]) == 8']);
  });

  it('#33.5 a shell result counts as failed by its reported exit code when no error is set; one with nothing but the framing shows nothing', () => {
    const codes = [
      ...toolRoundTrip('a', 'exec_command', { cmd: 'make' }, 'Process exited with code 0\nbuilt'),
      ...toolRoundTrip(
        'b',
        'exec_command',
        { cmd: 'make' },
        '{"exit_code": 0, "output": "error: none"}',
      ),
      ...toolRoundTrip('c', 'read_file', { file_path: 'a' }, 'Exit code: 3'),
      ...toolRoundTrip(
        'd',
        'shell',
        { command: 'make' },
        'Exit code: 2\nWall time: 1s\nOutput:\nmissing rule',
      ),
      ...toolRoundTrip(
        'e',
        'run_shell_command',
        { command: 'make' },
        'Command: make\nDirectory: (root)\nOutput: make: no rule to build\nError: (none)\nExit Code: 2\nSignal: (none)',
      ),
      ...toolRoundTrip(
        'g',
        'exec_command',
        { cmd: 'rg -n scanIdent src' },
        'Exit code: 1\nWall time: 0 seconds\nOutput:\n',
      ),
      ...toolRoundTrip(
        'h',
        'run_shell_command',
        { command: 'grep -E "^scanIdent" src/lex.ts' },
        'Command: grep -E "^scanIdent" src/lex.ts\nDirectory: (root)\nOutput: (empty)\nError: (none)\nExit Code: 1\nSignal: 0',
      ),
      ...toolRoundTrip(
        'f',
        'Write',
        { file_path: 'a' },
        '',
        '<tool_use_error>Read the file first.</tool_use_error>',
      ),
      ai('ok'),
    ];
    expect(planWorkState(codes).failures.map((failure) => failure.signature)).toEqual([
      'missing rule',
      'make: no rule to build',
      'Read the file first.',
    ]);
  });
});

/** Words that cannot spell error, fail, exception, traceback, assert or panic. */
const word = fc.stringMatching(/^[bdghkmquvwyz]{3,8}$/);

describe('#33.5 intent oracle: property', () => {
  test.prop([
    fc.uniqueArray(word, { minLength: 1, maxLength: 6 }),
    fc.array(word, { minLength: 1, maxLength: 5 }),
    word,
    fc.nat(),
  ])(
    '#33.5 a policy that drops the failure line or a task is caught; one that keeps everything is not',
    (items, noise, cause, pick) => {
      const texts = items.map((item, i) => `<<${i}>> ${item}`);
      const failureLine = `Error: ${cause} went wrong`;
      const output = ['Exit code: 1', ...noise, failureLine, ...noise].join('\n');
      const todos = { todos: texts.map((content) => ({ content, status: 'pending' })) };
      const recording = [
        human('Do the work'),
        ...toolRoundTrip('t', 'TodoWrite', todos, 'ok'),
        ...toolRoundTrip('s', 'run_shell_command', { command: 'make' }, output),
        ai('Next.'),
      ];
      const at = recording.length - 1;
      const keepAll = judged(recording, [[recording.slice(0, at), at]]);
      expect(keepAll).toEqual({ ...tasks(1, 1), callsWithFailure: 1, failureVisible: 1 });

      const without = (drop: string, from: string) =>
        from
          .split('\n')
          .filter((line) => line !== drop)
          .join('\n');
      const listed = `Tasks:\n${texts.join('\n')}`;
      const dropTask = summary(
        `${without(texts[pick % texts.length] as string, listed)}\n${output}`,
      );
      expect(judged(recording, [[[dropTask], at]])).toEqual({
        ...tasks(1, 0),
        callsWithFailure: 1,
        failureVisible: 1,
      });
      const dropFailure = summary(`${listed}\n${without(failureLine, output)}`);
      expect(judged(recording, [[[dropFailure], at]])).toEqual({
        ...tasks(1, 1),
        callsWithFailure: 1,
        failureVisible: 0,
      });
    },
  );
});
