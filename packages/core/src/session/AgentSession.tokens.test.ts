/**
 * A tool output on its way in is measured against the output cap, weighed against a reply at
 * entry, and counted in the history: the session tokenizes its text once.
 */
import { describe, expect, it } from 'vitest';
import { ScriptedProvider } from '../test-utils/ScriptedProvider.js';
import { staticPromptResolver } from '../test-utils/compressionContext.js';
import { SettingsService } from '../settings/SettingsService.js';
import type { ToolExecutor } from '../core/chatTypes.js';
import { countO200kTokens, type TokenCounter } from '../services/history/TokenCounter.js';
import { AgentSession } from './AgentSession.js';

/** Words, so the output is far fewer tokens than bytes: over the cap in bytes, within it in tokens. */
const OUTPUT = Array.from({ length: 120 }, (_, i) => `row ${i} of the listing is fine`).join('\n');

const tools: ToolExecutor = {
  schemas: () => [],
  execute: (call) =>
    Promise.resolve({
      type: 'tool_response',
      callId: call.id,
      toolName: call.name,
      result: OUTPUT,
    }),
};

function countingSession(provider: ScriptedProvider) {
  const texts: string[] = [];
  const tokenCounter: TokenCounter = {
    countText: (text) => {
      texts.push(text);
      return countO200kTokens(text);
    },
  };
  // Cap: 0.1 × 20,000 = 2,000 tokens, below the output's ~4,000 bytes, above its tokens.
  const agent = new AgentSession({
    settings: new SettingsService({
      session: {
        'compression.strategy': 'high-density',
        'context-limit': 20_000,
        'compression.toolOutputCap': 0.1,
      },
    }),
    workspaceRoot: '/ws',
    provider: () => provider,
    tools,
    promptResolver: staticPromptResolver(),
    promptBaseDir: '/prompts',
    tokenCounter,
  });
  return { agent, counted: () => texts.filter((text) => text === OUTPUT).length };
}

describe('AgentSession: a tool output is tokenized once on its way in', () => {
  it('#22.18 an output within the cap (counted for the cap) enters the history without a second count', async () => {
    const provider = new ScriptedProvider([
      { toolCalls: [{ id: 'c1', name: 'run_shell_command' }] },
      { text: 'Done.' },
    ]);
    const { agent, counted } = countingSession(provider);
    await agent.sendMessage('List it.');
    expect(agent.history.getRawHistory().some((e) => JSON.stringify(e).includes('row 119'))).toBe(
      true,
    );
    expect(counted()).toBe(1);
  });

  it('#22.18 an output repeated in the next call (cap, reply at entry, history) is tokenized once', async () => {
    const provider = new ScriptedProvider([
      { toolCalls: [{ id: 'c1', name: 'run_shell_command' }] },
      { toolCalls: [{ id: 'c2', name: 'run_shell_command' }] },
      { text: 'Done.' },
    ]);
    const { agent, counted } = countingSession(provider);
    await agent.sendMessage('List it twice.');
    expect(JSON.stringify(provider.requests.at(-1)?.contents)).toContain('same output as call c1');
    expect(counted()).toBe(1);
  });
});
