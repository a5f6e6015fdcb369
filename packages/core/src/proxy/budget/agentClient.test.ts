import { describe, expect, it } from 'vitest';
import { agentClient } from './agentClient.js';

describe('the client of a request', () => {
  it('#24.1 is told by the wire, and on Chat Completions by the User-Agent Qwen Code sends', () => {
    expect(agentClient({ api: 'anthropic', userAgent: undefined })).toBe('claude-code');
    expect(agentClient({ api: 'openai-responses', userAgent: 'codex_exec/0.169.0' })).toBe('codex');
    expect(agentClient({ api: 'openai-chat', userAgent: 'QwenCode/0.24.4 (linux; x64)' })).toBe(
      'qwen-code',
    );
    expect(agentClient({ api: 'openai-chat', userAgent: 'opencode/1.0' })).toBeUndefined();
    expect(agentClient({ api: 'openai-chat', userAgent: undefined })).toBeUndefined();
  });
});
