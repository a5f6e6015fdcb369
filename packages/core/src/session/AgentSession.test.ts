import { describe, expect, it } from 'vitest';
import { ScriptedProvider } from '../test-utils/ScriptedProvider.js';
import { staticPromptResolver } from '../test-utils/compressionContext.js';
import { SettingsService } from '../settings/SettingsService.js';
import type { ToolExecutor } from '../core/chatTypes.js';
import { EMPTY_DENSITY_METADATA, type CompressionStrategy } from '../core/compression/types.js';
import type { IContent } from '../services/history/IContent.js';
import { AgentSession } from './AgentSession.js';

const tools: ToolExecutor = {
  schemas: () => [],
  execute: (call) =>
    Promise.resolve({
      type: 'tool_response',
      callId: call.id,
      toolName: call.name,
      result: `output of ${call.name} `.repeat(20),
    }),
};

/** Once the model has answered in text, removes the read_file call and response entries before it. */
const dropReads: CompressionStrategy = {
  name: 'high-density',
  requiresLLM: false,
  trigger: { mode: 'continuous', defaultThreshold: 0.85 },
  optimize: (history: readonly IContent[]) => {
    const removals: number[] = [];
    const last = history.at(-1);
    if (last?.speaker !== 'ai' || last.blocks.some((b) => b.type === 'tool_call')) {
      return { removals, replacements: new Map(), metadata: EMPTY_DENSITY_METADATA };
    }
    history.forEach((entry, i) => {
      const isRead = entry.blocks.some(
        (b) =>
          (b.type === 'tool_call' ? b.name : b.type === 'tool_response' ? b.toolName : '') ===
          'read_file',
      );
      if (isRead && i < history.length - 1) removals.push(i);
    });
    return {
      removals,
      replacements: new Map(),
      metadata: { ...EMPTY_DENSITY_METADATA, readWrite: removals.length / 2 },
    };
  },
  compress: () => Promise.reject(new Error('not under test')),
};

function session(provider: ScriptedProvider, strategy?: CompressionStrategy) {
  const settings = new SettingsService({
    session: { 'compression.strategy': 'high-density', 'context-limit': 100_000 },
  });
  return new AgentSession({
    settings,
    workspaceRoot: '/ws',
    provider: () => provider,
    tools,
    promptResolver: staticPromptResolver(),
    promptBaseDir: '/prompts',
    sessionId: 'fixed',
    ...(strategy ? { resolveStrategy: () => strategy } : {}),
  });
}

describe('AgentSession', () => {
  it("#23.6 content enters through the strategy's entry methods, whatever its name", async () => {
    const provider = new ScriptedProvider([
      { toolCalls: [{ id: 'a', name: 'grep' }] },
      { text: 'done' },
    ]);
    const entering: CompressionStrategy = {
      name: 'one-shot',
      requiresLLM: false,
      trigger: { mode: 'threshold', defaultThreshold: 0.85 },
      toolResultAtEntry: (_call, response) => [{ ...response, result: 'same as before' }],
      userMessageAtEntry: (message) => ({ ...message, blocks: [{ type: 'text', text: 'noted' }] }),
      compress: () => Promise.reject(new Error('not under test')),
    };
    const s = session(provider, entering);
    await s.sendMessage('search please');
    const blocks = s.history.getRawHistory().flatMap((entry) => entry.blocks);
    expect(blocks).toContainEqual(expect.objectContaining({ type: 'text', text: 'noted' }));
    expect(blocks).toContainEqual(
      expect.objectContaining({ type: 'tool_response', result: 'same as before' }),
    );
  });

  it('runs turns and reports the context by speaker and tool', async () => {
    const provider = new ScriptedProvider([
      { toolCalls: [{ id: 'a', name: 'grep' }] },
      { text: 'done' },
    ]);
    const { optimize: _omit, ...withoutOptimize } = dropReads;
    const s = session(provider, withoutOptimize);
    await s.sendMessage('search please');
    const report = await s.contextReport();
    expect(report.strategy).toBe('high-density');
    expect(report.threshold).toBe(0.85);
    expect(report.contextLimit).toBe(100_000);
    expect(report.breakdown.entries).toBe(4);
    expect(report.breakdown.totalTokens).toBe(
      report.breakdown.bySpeaker.human +
        report.breakdown.bySpeaker.ai +
        report.breakdown.bySpeaker.tool,
    );
    expect(report.breakdown.byTool.grep).toBeGreaterThan(report.breakdown.bySpeaker.tool - 1);
  });

  it('accumulates what density reclaimed across turns', async () => {
    const provider = new ScriptedProvider([
      { toolCalls: [{ id: 'r1', name: 'read_file' }] },
      { text: 'read it' },
      { text: 'ok' },
    ]);
    const s = session(provider, dropReads);
    await s.sendMessage('read');
    await s.sendMessage('again');
    const report = await s.contextReport();
    expect(report.density.readWrite.count).toBe(1);
    expect(report.density.readWrite.tokens).toBeGreaterThan(20);
    expect(report.reclaimedTokens).toBe(report.density.readWrite.tokens);
    expect(report.density.edits).toBe(1);
    // #14.5 the model calls after the edit did not re-send what it removed
    const cache = report.densityCache;
    expect(cache?.modelCalls).toBe(3);
    expect(cache?.notSentTokens).toBeGreaterThanOrEqual(report.reclaimedTokens);
    expect(cache?.provider).toBe('anthropic');
    expect(cache?.net).toBe(cache?.netWeightedTokens.anthropic);
  });

  it('continueStream runs the model without a new user message', async () => {
    const provider = new ScriptedProvider([{ text: 'first' }, { text: 'second' }]);
    const s = session(provider);
    await s.sendMessage('hi');
    const stream = s.chat.continueStream();
    let next = await stream.next();
    while (!next.done) next = await stream.next();
    expect(next.value.text).toBe('second');
    expect(s.history.getRawHistory().map((e) => e.speaker)).toEqual(['human', 'ai', 'ai']);
  });

  it('clear forgets the conversation but keeps settings', async () => {
    const s = session(new ScriptedProvider([{ text: 'x' }]));
    await s.sendMessage('hi');
    s.clear();
    expect(s.history.length).toBe(0);
    expect(s.settings.get('compression.strategy')).toBe('high-density');
  });
});
