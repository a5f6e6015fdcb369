/** What each provider puts in its request besides the history (no HTTP: the body builders). */
import { describe, expect, it } from 'vitest';
import { ai, human } from '../test-utils/historyBuilders.js';
import { AnthropicProvider, DEFAULT_ANTHROPIC_MAX_OUTPUT } from './AnthropicProvider.js';
import { GeminiProvider } from './GeminiProvider.js';
import { OpenAIProvider } from './OpenAIProvider.js';

const tools = [
  { name: 'ls', description: 'List files', parameters: { type: 'object', properties: {} } },
];

describe('OpenAIProvider.buildParams', () => {
  it('asks for usage in the stream and uses max_completion_tokens on api.openai.com', () => {
    const body = new OpenAIProvider({ model: 'gpt-5.4', apiKey: 'k' }).buildParams({
      contents: [human('hi')],
      tools,
      maxOutputTokens: 500,
      temperature: 0.2,
    });
    expect(body).toMatchObject({
      model: 'gpt-5.4',
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: 500,
      temperature: 0.2,
      tools: [{ type: 'function', function: { name: 'ls' } }],
    });
    expect(body).not.toHaveProperty('max_tokens');
  });

  it('uses max_tokens for other OpenAI-compatible servers, and the request model over the default', () => {
    const provider = new OpenAIProvider({
      model: 'llama3',
      apiKey: 'k',
      baseUrl: 'http://127.0.0.1:11434/v1',
    });
    const body = provider.buildParams({
      contents: [human('hi')],
      maxOutputTokens: 64,
      model: 'qwen3',
    });
    expect(body).toMatchObject({ model: 'qwen3', max_tokens: 64 });
    expect(body).not.toHaveProperty('max_completion_tokens');
    expect(body).not.toHaveProperty('tools');
  });
});

describe('AnthropicProvider.buildParams', () => {
  it('always sets max_tokens: the request value, else the default capped by the model maximum', () => {
    const provider = new AnthropicProvider({ model: 'claude-sonnet-5', apiKey: 'k' });
    expect(provider.buildParams({ contents: [human('hi')] }).max_tokens).toBe(
      DEFAULT_ANTHROPIC_MAX_OUTPUT,
    );
    expect(provider.buildParams({ contents: [human('hi')], maxOutputTokens: 99 }).max_tokens).toBe(
      99,
    );
  });

  it('sends the system prompt as `system` and tools with input_schema; marks the prompt for caching', () => {
    const body = new AnthropicProvider({ model: 'claude-opus-5', apiKey: 'k' }).buildParams({
      contents: [human('hi')],
      systemPrompt: 'You are Dense.',
      tools,
    });
    expect(body).toMatchObject({
      // A breakpoint after tools + system, and the automatic one on the last block (#14).
      system: [{ type: 'text', text: 'You are Dense.', cache_control: { type: 'ephemeral' } }],
      cache_control: { type: 'ephemeral' },
      stream: true,
      tools: [{ name: 'ls', input_schema: { type: 'object' } }],
    });
    expect(JSON.stringify(body.messages)).not.toContain('You are Dense.');
  });
});

describe('AnthropicProvider cache anchors', () => {
  it('#14.3 the request carries the cache anchors: at most four breakpoints in all', () => {
    const entries = [human('a'), ai('b'), human('c'), ai('d'), human('e')];
    const body = new AnthropicProvider({ model: 'claude-opus-5', apiKey: 'k' }).buildParams({
      contents: entries,
      systemPrompt: 'You are Dense.',
      cacheAnchors: [entries[1]!, entries[3]!],
    });
    const json = JSON.stringify(body);
    expect(json.split('cache_control').length - 1).toBe(4);
    expect(body.messages[1]?.content).toEqual([
      { type: 'text', text: 'b', cache_control: { type: 'ephemeral' } },
    ]);
  });
});

describe('GeminiProvider.buildParams', () => {
  it('puts the system prompt, tools and limits in config', () => {
    const params = new GeminiProvider({ model: 'gemini-3.1-pro-preview', apiKey: 'k' }).buildParams(
      {
        contents: [human('hi')],
        systemPrompt: 'sys',
        tools,
        maxOutputTokens: 1000,
        temperature: 0,
      },
    );
    expect(params).toMatchObject({
      model: 'gemini-3.1-pro-preview',
      config: {
        systemInstruction: 'sys',
        maxOutputTokens: 1000,
        temperature: 0,
        tools: [{ functionDeclarations: [{ name: 'ls' }] }],
      },
    });
  });
});
