import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { render } from 'ink-testing-library';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GenerateRequest, IProvider, ProviderChunk } from '@dense/core';
import { buildSession } from '../../session/buildSession.js';
import type { CliSession } from '../../session/CliSession.js';
import { makeTestDirs, makeTestSession, type TestDirs } from '../../test-utils/cliTestSession.js';
import { ChatController } from '../ChatController.js';
import { App } from './App.js';

let dirs: TestDirs;
let cli: CliSession | undefined;

beforeEach(async () => {
  dirs = await makeTestDirs();
});

afterEach(async () => {
  cli?.dispose();
  cli = undefined;
  await dirs.cleanup();
});

function mount(session: CliSession) {
  cli = session;
  const controller = new ChatController(session);
  controller.start();
  const view = render(<App controller={controller} />);
  const type = async (text: string) => {
    view.stdin.write(text);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { ...view, controller, type };
}

/** A provider whose reply streams one chunk and then waits until the request is aborted. */
class HangingProvider implements IProvider {
  readonly name = 'hanging';
  readonly model = 'hanging-model';
  async *generate(request: GenerateRequest): AsyncIterable<ProviderChunk> {
    yield { content: { speaker: 'ai', blocks: [{ type: 'text', text: 'Thinking about it' }] } };
    await new Promise((_resolve, reject) => {
      request.signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
    });
  }
}

/** Replies "reply N" to the N-th request; the first one waits until `open()` is called. */
class GatedProvider implements IProvider {
  readonly name = 'gated';
  readonly model = 'gated-model';
  private calls = 0;
  private release: () => void = () => undefined;
  private readonly gate = new Promise<void>((resolve) => (this.release = resolve));
  open(): void {
    this.release();
  }
  async *generate(): AsyncIterable<ProviderChunk> {
    this.calls++;
    const call = this.calls;
    if (call === 1) await this.gate;
    yield { content: { speaker: 'ai', blocks: [{ type: 'text', text: `reply ${call}` }] } };
  }
}

/** Announces a 429 retry wait of 3 s, then waits for the abort (a provider that never recovers). */
class RetryingProvider implements IProvider {
  readonly name = 'retrying';
  readonly model = 'retrying-model';
  async *generate(request: GenerateRequest): AsyncIterable<ProviderChunk> {
    yield {
      content: { speaker: 'ai', blocks: [] },
      retry: { reason: 'rate-limited', status: 429, nextAttempt: 2, maxAttempts: 4, delayMs: 3000 },
    };
    await new Promise((_resolve, reject) => {
      request.signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
    });
  }
}

describe('App', () => {
  it('shows the welcome, the footer, a streamed reply, and tools with their status', async () => {
    await writeFile(path.join(dirs.workspace, 'a.txt'), 'alpha\n');
    const { cli: session } = await makeTestSession({
      dirs,
      replies: [
        {
          text: 'Looking.',
          toolCalls: [{ id: 'r1', name: 'read_file', parameters: { file_path: 'a.txt' } }],
        },
        { text: ['All ', 'good.'] },
      ],
    });
    const { lastFrame, type } = mount(session);
    expect(lastFrame()).toContain('dense 0.1.0 · openai/scripted-model');
    expect(lastFrame()).toContain('scripted-model · high-density │ ctx');
    await type('check @a.txt\r');
    await vi.waitFor(() => expect(lastFrame()).toContain('All good.'), { timeout: 5000 });
    const frame = lastFrame() ?? '';
    expect(frame).toContain('> check @a.txt');
    expect(frame).toContain('+ a.txt (1 line)');
    expect(frame).toContain('Looking.');
    expect(frame).toContain('✓ read_file a.txt');
  });

  it('asks before a write tool and runs it after "y"', async () => {
    const { cli: session } = await makeTestSession({
      dirs,
      replies: [
        {
          toolCalls: [
            { id: 'w1', name: 'write_file', parameters: { file_path: 'b.txt', content: 'beta' } },
          ],
        },
        { text: 'Written.' },
      ],
    });
    const { lastFrame, type } = mount(session);
    await type('write b\r');
    await vi.waitFor(() => expect(lastFrame()).toContain('Allow write_file? (write)'));
    await type('y');
    await vi.waitFor(() => expect(lastFrame()).toContain('Written.'));
    expect(lastFrame()).toContain('✓ write_file b.txt');
    expect(lastFrame()).not.toContain('Allow write_file?');
  });

  it('/set changes the footer, /context shows the breakdown', async () => {
    const { cli: session } = await makeTestSession({ dirs });
    const { lastFrame, type } = mount(session);
    await type('/set compression.strategy middle-out\r');
    await vi.waitFor(() => expect(lastFrame()).toContain('scripted-model · middle-out │'));
    await type('/context\r');
    await vi.waitFor(() =>
      expect(lastFrame()).toContain('Density this session (0 history edits):'),
    );
  });

  it('Ctrl-C cancels the running turn and keeps the session usable', async () => {
    cli = await buildSession(
      { settings: [], yolo: false, workspace: dirs.workspace },
      { env: dirs.env, interactive: true, createProvider: () => new HangingProvider() },
    );
    const { lastFrame, type } = mount(cli);
    await type('hello\r');
    await vi.waitFor(() => expect(lastFrame()).toContain('working… (Ctrl-C to cancel)'));
    await type('\u0003');
    await vi.waitFor(() => expect(lastFrame()).toContain('Turn cancelled; the history keeps'));
    // #13.7: the partial reply on screen is marked as discarded.
    expect(lastFrame()).toContain('Thinking about it');
    expect(lastFrame()).toContain('⊘ reply discarded: it was cut off and is not in the history');
    expect(lastFrame()).not.toContain('working…');
    expect(lastFrame()).toContain('Ask, or type /help');
  });

  it('#12.5 lines typed while a turn runs are shown as queued and run afterwards, in order', async () => {
    const provider = new GatedProvider();
    cli = await buildSession(
      { settings: [], yolo: false, workspace: dirs.workspace },
      { env: dirs.env, interactive: true, createProvider: () => provider },
    );
    const { lastFrame, type } = mount(cli);
    await type('first\r');
    await vi.waitFor(() => expect(lastFrame()).toContain('working… (Ctrl-C to cancel)'));
    await type('second\r');
    await type('third\r');
    await vi.waitFor(() => expect(lastFrame()).toContain('queued: second'));
    expect(lastFrame()).toContain('queued: third');
    provider.open();
    await vi.waitFor(() => expect(lastFrame()).toContain('reply 3'));
    const frame = lastFrame() ?? '';
    expect(frame.indexOf('> second')).toBeLessThan(frame.indexOf('reply 2'));
    expect(frame.indexOf('reply 2')).toBeLessThan(frame.indexOf('> third'));
    expect(frame).not.toContain('queued:');
  });

  it('#13.2 a retry wait shows its reason, attempt and countdown; Ctrl-C cancels it', async () => {
    cli = await buildSession(
      { settings: [], yolo: false, workspace: dirs.workspace },
      { env: dirs.env, interactive: true, createProvider: () => new RetryingProvider() },
    );
    const { lastFrame, type } = mount(cli);
    await type('hello\r');
    await vi.waitFor(() =>
      expect(lastFrame()).toMatch(/rate limited — retry 2\/4 in [23] s \(Ctrl-C to cancel\)/),
    );
    expect(lastFrame()).not.toContain('working…');
    await type('\u0003');
    await vi.waitFor(() => expect(lastFrame()).toContain('Turn cancelled; the history keeps'));
    expect(lastFrame()).not.toContain('rate limited');
  });

  it('/quit leaves the app', async () => {
    const { cli: session } = await makeTestSession({ dirs });
    const { type, controller } = mount(session);
    await type('/quit\r');
    await vi.waitFor(() => expect(controller.getState().quit).toBe(true));
  });
});
