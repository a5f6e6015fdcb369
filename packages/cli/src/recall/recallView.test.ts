import { describe, expect, it } from 'vitest';
import { parseRecallArgs } from './recallOptions.js';
import { viewText, type RecallView } from './recallView.js';

const TEXT =
  Array.from({ length: 12 }, (_, index) => `line ${index + 1}${index === 6 ? ' Needle' : ''}`).join(
    '\n',
  ) + '\n';

function view(argv: readonly string[]): RecallView {
  const parsed = parseRecallArgs(['r0123456789', ...argv]);
  if (parsed.kind !== 'request' || parsed.request.view === undefined)
    throw new Error(JSON.stringify(parsed));
  return parsed.request.view;
}

describe('recall views', () => {
  it('#34.3 --lines A:B is 1-based and inclusive; A: and :B are open-ended; one number is one line', () => {
    expect(viewText(TEXT, view(['--lines', '2:4'])).text).toBe('line 2\nline 3\nline 4\n');
    expect(viewText(TEXT, view(['--lines=11:'])).text).toBe('line 11\nline 12\n');
    expect(viewText(TEXT, view(['--lines', ':2'])).text).toBe('line 1\nline 2\n');
    expect(viewText(TEXT, view(['--lines', '5'])).text).toBe('line 5\n');
    expect(viewText(TEXT, view(['--lines', '20:30']))).toEqual({
      text: '',
      total: 12,
      matches: undefined,
    });
  });

  it('#34.3 --grep is a case-insensitive regex; matches numbered N:, context N-, groups split by --', () => {
    expect(viewText(TEXT, view(['--grep', 'needle'])).text).toBe(
      '5-line 5\n6-line 6\n7:line 7 Needle\n8-line 8\n9-line 9\n',
    );
    const two = viewText(TEXT, view(['--grep', '^line (1|12)$', '--context', '1']));
    expect(two).toEqual({
      text: '1:line 1\n2-line 2\n--\n11-line 11\n12:line 12\n',
      total: 12,
      matches: 2,
    });
    // A match inside another's context is still marked as a match, and groups that touch merge.
    expect(viewText(TEXT, view(['--grep', 'line [23]$', '--context', '1'])).text).toBe(
      '1-line 1\n2:line 2\n3:line 3\n4-line 4\n',
    );
    expect(viewText(TEXT, view(['--grep', 'absent'])).matches).toBe(0);
  });

  it('#34.3 --head N keeps the first N lines printed; the views apply as --lines, --grep, --head', () => {
    expect(viewText(TEXT, view(['--head', '2'])).text).toBe('line 1\nline 2\n');
    expect(
      viewText(TEXT, view(['--lines', '6:12', '--grep', 'line 1', '--context', '0'])).text,
    ).toBe('10:line 10\n11:line 11\n12:line 12\n');
    expect(viewText(TEXT, view(['--grep', 'line 1', '--context', '0', '--head', '2'])).text).toBe(
      '1:line 1\n10:line 10\n',
    );
    expect(viewText('no final newline', view(['--head', '5'])).text).toBe('no final newline\n');
  });

  it('#34.3 bad usage is one line naming the option', () => {
    const errors = [
      [[], 'missing the recall id'],
      [['r0123456789', 'r0123456788'], 'one recall id, not 2'],
      [['r0123456789', '--lines', '4:2'], '--lines takes A:B'],
      [['r0123456789', '--lines', 'x'], '--lines takes A:B'],
      [['r0123456789', '--lines', '0:3'], '--lines takes A:B'],
      [['r0123456789', '--head', '-1'], '--head takes a whole number'],
      [['r0123456789', '--grep', '('], '--grep: '],
      [['r0123456789', '--grep'], '--grep needs PATTERN'],
      [['r0123456789', '--json=yes'], '--json takes no value'],
      [['r0123456789', '--tail', '3'], 'unknown option --tail'],
    ] as const;
    for (const [argv, message] of errors) {
      const parsed = parseRecallArgs(argv);
      expect(parsed.kind, argv.join(' ')).toBe('error');
      expect(parsed.kind === 'error' && parsed.message, argv.join(' ')).toContain(message);
    }
    expect(parseRecallArgs(['--help']).kind).toBe('help');
    expect(parseRecallArgs(['r0123456789', '--json'])).toEqual({
      kind: 'request',
      request: { id: 'r0123456789', json: true, view: undefined },
    });
  });
});
