import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import type { ApprovalDecision, ApprovalRequest } from '@dense/core';
import { ApprovalPrompt, previewStyle } from './ApprovalPrompt.js';

const request: ApprovalRequest = {
  toolName: 'run_shell_command',
  kind: 'shell',
  callId: 'c1',
  description: 'Run `npm test`',
  parameters: { command: 'npm test' },
};

function setup() {
  const answers: ApprovalDecision[] = [];
  const view = render(<ApprovalPrompt request={request} onAnswer={(d) => answers.push(d)} />);
  return { ...view, answers };
}

const press = async (stdin: { write(data: string): void }, data: string) => {
  stdin.write(data);
  await new Promise((resolve) => setImmediate(resolve));
};

describe('ApprovalPrompt', () => {
  it('says which tool wants to do what, and offers yes / no / always', () => {
    const frame = setup().lastFrame() ?? '';
    expect(frame).toContain('Allow run_shell_command? (shell)');
    expect(frame).toContain('Run `npm test`');
    expect(frame).toContain('[y] yes');
    expect(frame).toContain('[n] no');
    expect(frame).toContain('[a] always for this tool');
  });

  it.each([
    ['y', 'yes'],
    ['n', 'no'],
    ['a', 'always'],
    ['Y', 'yes'],
    ['\u001b', 'no'],
  ] as const)('key %j answers %s', async (key, decision) => {
    const { stdin, answers } = setup();
    await press(stdin, key);
    await vi.waitFor(() => expect(answers).toEqual([decision]));
  });

  it('arrows move the selection and Enter answers it', async () => {
    const { stdin, answers } = setup();
    await press(stdin, '\u001b[C');
    await press(stdin, '\u001b[C');
    await press(stdin, '\r');
    await vi.waitFor(() => expect(answers).toEqual(['always']));
  });

  it('a letter and Enter arriving in one chunk answer with the letter', async () => {
    const { stdin, answers } = setup();
    await press(stdin, 'a\r');
    expect(answers).toEqual(['always']);
  });

  it('other keys do nothing', async () => {
    const { stdin, answers } = setup();
    await press(stdin, 'x');
    await press(stdin, '1');
    expect(answers).toEqual([]);
  });

  it('#13.3 shows the preview lines; colour only adds to the +/- prefixes (NO_COLOR-safe)', () => {
    const view = render(
      <ApprovalPrompt
        request={request}
        preview={[
          { kind: 'hunk', text: '@@ -1,1 +1,1 @@' },
          { kind: 'remove', text: '-status: draft' },
          { kind: 'add', text: '+status: final' },
        ]}
        onAnswer={() => undefined}
      />,
    );
    const frame = view.lastFrame() ?? '';
    expect(frame).toContain('-status: draft');
    expect(frame).toContain('+status: final');
    expect(previewStyle({ color: true }, 'add')).toEqual({ color: 'green' });
    expect(previewStyle({ color: true }, 'remove')).toEqual({ color: 'red' });
    expect(previewStyle({ color: false }, 'add')).toEqual({});
    expect(previewStyle({ color: false }, 'remove')).toEqual({});
  });
});
