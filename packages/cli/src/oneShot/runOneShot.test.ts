import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatFileInclusion, ProviderError } from '@dense/core';
import { makeTestDirs, makeTestSession, type TestDirs } from '../test-utils/cliTestSession.js';
import { runOneShot } from './runOneShot.js';

let dirs: TestDirs;

beforeEach(async () => {
  dirs = await makeTestDirs();
});

afterEach(async () => {
  await dirs.cleanup();
});

function capture(): { write: (text: string) => boolean; text: () => string } {
  let text = '';
  return {
    write: (chunk) => {
      text += chunk;
      return true;
    },
    text: () => text,
  };
}

describe('runOneShot', () => {
  it('prints only the final answer on stdout; tool progress and notices go to stderr', async () => {
    await writeFile(path.join(dirs.workspace, 'a.txt'), 'alpha\n');
    const { cli, provider } = await makeTestSession({
      dirs,
      interactive: false,
      replies: [
        {
          text: 'Let me look.',
          toolCalls: [{ id: 'r1', name: 'read_file', parameters: { file_path: 'a.txt' } }],
        },
        { text: ['It says ', 'alpha.'] },
      ],
    });
    const stdout = capture();
    const stderr = capture();
    const code = await runOneShot(cli, 'what is in @a.txt and @missing.txt?', { stdout, stderr });
    expect(code).toBe(0);
    expect(stdout.text()).toBe('It says alpha.\n');
    expect(stderr.text()).toBe(
      'dense: @missing.txt was not included: no such file.\n→ read_file a.txt\n  ✓ read_file\n',
    );
    expect(JSON.stringify(provider.requests[0]?.contents)).toContain(
      JSON.stringify(formatFileInclusion('a.txt', 'alpha\n')).slice(1, -1),
    );
    cli.dispose();
  });

  it('a failed turn is exit code 1 with the error on stderr and nothing on stdout', async () => {
    const { cli } = await makeTestSession({
      dirs,
      interactive: false,
      replies: [
        {
          error: new ProviderError({
            code: 'PROVIDER_HTTP_ERROR',
            provider: 'openai',
            status: 500,
            message: 'The openai API answered 500: boom.',
          }),
        },
      ],
    });
    const stdout = capture();
    const stderr = capture();
    expect(await runOneShot(cli, 'hello', { stdout, stderr })).toBe(1);
    expect(stdout.text()).toBe('');
    expect(stderr.text()).toBe(
      'dense: openai (PROVIDER_HTTP_ERROR): The openai API answered 500: boom.\n',
    );
    cli.dispose();
  });

  it('an interrupt cancels the turn (exit code 1)', async () => {
    const { cli } = await makeTestSession({
      dirs,
      interactive: false,
      replies: [{ text: ['a', 'b', 'c'] }],
    });
    const stderr = capture();
    const code = await runOneShot(cli, 'hello', {
      stdout: capture(),
      stderr,
      onInterrupt: (cancel) => {
        cancel();
        return () => undefined;
      },
    });
    expect(code).toBe(1);
    expect(stderr.text()).toBe('dense: Turn cancelled; the history keeps every completed step.\n');
    cli.dispose();
  });

  it('#12.8 with an unwritable DENSE_HOME, -p still answers and says the session is not recorded', async () => {
    await writeFile(dirs.home, 'not a directory');
    const { cli } = await makeTestSession({
      dirs,
      interactive: false,
      replies: [{ text: 'fine' }],
    });
    const stdout = capture();
    const stderr = capture();
    const code = await runOneShot(cli, 'hello', { stdout, stderr });
    expect(code).toBe(0);
    expect(stdout.text()).toBe('fine\n');
    expect(stderr.text()).toMatch(/^dense: Could not record the session to .*unrecorded\.\n$/);
    cli.dispose();
  });
});
