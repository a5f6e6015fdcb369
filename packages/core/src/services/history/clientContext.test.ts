import { describe, expect, it } from 'vitest';
import { isClientContext, withoutClientContext } from './clientContext.js';

describe('clientContext', () => {
  it('#33.4 takes out what the client injected and keeps what the user typed', () => {
    expect(
      withoutClientContext('<system-reminder>\nTools changed.\n</system-reminder>\nFix the build'),
    ).toBe('Fix the build');
    expect(isClientContext('<task-notification><task-id>a1</task-id></task-notification>')).toBe(
      true,
    );
    expect(isClientContext('<environment_context>cwd</environment_context>')).toBe(true);
    expect(isClientContext('Keep <b>bold</b> as it is')).toBe(false);
  });

  it('#33.4 an element inside a line leaves a line break, so the words on each side stay as typed', () => {
    const text = 'first part <ide_selection>lines 3-4</ide_selection> second part';
    expect(
      withoutClientContext(text)
        .split('\n')
        .map((line) => line.trim()),
    ).toEqual(['first part', 'second part']);
  });
});
