import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { completeInput } from '../../commands/completeInput.js';
import { InputBox } from './InputBox.js';

const ENTER = '\r';
const TAB = '\t';
const UP = '\u001b[A';
const LEFT = '\u001b[D';
const BACKSPACE = '\u007f';

const complete = (text: string) => completeInput(text, { profileNames: ['work'] });

function setup(history: string[] = []) {
  const submitted: string[] = [];
  const onExit = vi.fn();
  const view = render(
    <InputBox
      active
      history={history}
      complete={complete}
      onSubmit={(text) => submitted.push(text)}
      onExit={onExit}
      placeholder="Ask, or type /help"
    />,
  );
  return { ...view, submitted, onExit };
}

/** Writes one key or chunk and waits for ink to have handled it. */
async function press(stdin: { write(data: string): void }, data: string): Promise<void> {
  stdin.write(data);
  await new Promise((resolve) => setImmediate(resolve));
}

describe('InputBox', () => {
  it('shows the placeholder, then what is typed, and submits on Enter', async () => {
    const { stdin, lastFrame, submitted } = setup();
    expect(lastFrame()).toContain('Ask, or type /help');
    for (const char of 'hi there') await press(stdin, char);
    await vi.waitFor(() => expect(lastFrame()).toContain('> hi there'));
    await press(stdin, ENTER);
    await vi.waitFor(() => expect(submitted).toEqual(['hi there']));
    // The cleared box renders after the submit, on a later tick under load.
    await vi.waitFor(() => expect(lastFrame()).toContain('Ask, or type /help'));
  });

  it('edits at the cursor: left arrow then backspace', async () => {
    const { stdin, lastFrame, submitted } = setup();
    await press(stdin, 'abcd');
    await press(stdin, LEFT);
    await press(stdin, BACKSPACE);
    await vi.waitFor(() => expect(lastFrame()).toContain('abd'));
    await press(stdin, ENTER);
    await vi.waitFor(() => expect(submitted).toEqual(['abd']));
  });

  it('Tab completes a setting key, and lists candidates when there are several', async () => {
    const { stdin, lastFrame } = setup();
    await press(stdin, '/set compression.st');
    await press(stdin, TAB);
    await vi.waitFor(() => expect(lastFrame()).toContain('/set compression.strategy'));
    await press(stdin, 'h');
    await press(stdin, TAB);
    await vi.waitFor(() => expect(lastFrame()).toContain('/set compression.strategy high-density'));
  });

  it('Tab on an ambiguous prefix shows the candidates', async () => {
    const { stdin, lastFrame } = setup();
    await press(stdin, '/co');
    await press(stdin, TAB);
    await vi.waitFor(() => expect(lastFrame()).toContain('context  compress'));
  });

  it('Up recalls earlier input', async () => {
    const { stdin, lastFrame, submitted } = setup(['/context', '/todo']);
    await press(stdin, UP);
    await vi.waitFor(() => expect(lastFrame()).toContain('> /todo'));
    await press(stdin, UP);
    await vi.waitFor(() => expect(lastFrame()).toContain('> /context'));
    await press(stdin, ENTER);
    await vi.waitFor(() => expect(submitted).toEqual(['/context']));
  });

  it('Ctrl-D on an empty line exits', async () => {
    const { stdin, onExit } = setup();
    await press(stdin, '\u0004');
    await vi.waitFor(() => expect(onExit).toHaveBeenCalledOnce());
  });

  it('ignores keys while inactive', async () => {
    const submitted: string[] = [];
    const { stdin, lastFrame } = render(
      <InputBox
        active={false}
        history={[]}
        complete={complete}
        onSubmit={(t) => submitted.push(t)}
      />,
    );
    await press(stdin, 'x');
    await press(stdin, ENTER);
    expect(submitted).toEqual([]);
    expect(lastFrame()).not.toContain('x');
  });
});
