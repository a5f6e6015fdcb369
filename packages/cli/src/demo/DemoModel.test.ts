import { describe, expect, it } from 'vitest';
import type { GenerateRequest, IContent, ProviderChunk } from '@dense/core';
import { DemoModel } from './DemoModel.js';
import { DemoScriptError } from './DemoScriptError.js';
import { read, runFailingTests, step, turn } from './script/scriptBuilders.js';

const request: GenerateRequest = { contents: [] };

async function reply(model: DemoModel): Promise<IContent['blocks']> {
  const chunks: ProviderChunk[] = [];
  for await (const chunk of model.generate(request)) chunks.push(chunk);
  return chunks.flatMap((chunk) => chunk.content.blocks);
}

const twoSteps = turn(
  'Look.',
  'Done.',
  step('Reading.', read('a.js'), read('b.js')),
  step(undefined, runFailingTests),
);

describe('DemoModel', () => {
  it('answers with the turn’s steps in order, then its final reply', async () => {
    const model = new DemoModel();
    model.startTurn(3, twoSteps);
    expect(await reply(model)).toEqual([
      { type: 'text', text: 'Reading.' },
      { type: 'tool_call', id: 't3-s1-c1', name: 'read_file', parameters: { file_path: 'a.js' } },
      { type: 'tool_call', id: 't3-s1-c2', name: 'read_file', parameters: { file_path: 'b.js' } },
    ]);
    expect(await reply(model)).toEqual([
      {
        type: 'tool_call',
        id: 't3-s2-c1',
        name: 'run_shell_command',
        parameters: { command: 'node test/run.js' },
      },
    ]);
    expect(await reply(model)).toEqual([{ type: 'text', text: 'Done.' }]);
    expect(model.pending).toBe(0);
    expect(model.calls).toBe(3);
  });

  it('knows which scripted call is behind each call id', () => {
    const model = new DemoModel();
    model.startTurn(3, twoSteps);
    expect(model.expectation('t3-s2-c1')?.expectError).toBe(true);
    expect(model.expectation('t3-s1-c1')?.expectError).toBeUndefined();
    expect(model.expectation('t9-s1-c1')).toBeUndefined();
  });

  it('lets the runner measure every request before it answers', async () => {
    const seen: GenerateRequest[] = [];
    const model = new DemoModel({ onRequest: (r) => void seen.push(r) });
    model.startTurn(1, turn('Hi', 'Hello'));
    await reply(model);
    expect(seen).toEqual([request]);
  });

  it('fails with DemoScriptError when asked for more replies than the turn has', async () => {
    const model = new DemoModel();
    model.startTurn(5, turn('Hi', 'Hello'));
    await reply(model);
    await expect(reply(model)).rejects.toBeInstanceOf(DemoScriptError);
    await expect(reply(model)).rejects.toThrow(/turn 5/);
  });

  it('refuses a new turn while replies of the previous one are unused', () => {
    const model = new DemoModel();
    model.startTurn(1, twoSteps);
    expect(() => model.startTurn(2, twoSteps)).toThrow(DemoScriptError);
  });
});
