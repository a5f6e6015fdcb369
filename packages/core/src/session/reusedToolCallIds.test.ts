/**
 * Issue #12.3: servers that reuse tool-call ids (every call `call_1`, or the mock's numbered ids
 * when the script omits them) must not make the agent repeat a call. The mock server stands in
 * for a model that calls `read_file` until the request it receives carries the result of that
 * call, so a dropped result shows as a repeated call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolExecutor } from '../core/chatTypes.js';
import { createProvider } from '../providers/createProvider.js';
import { SettingsService } from '../settings/SettingsService.js';
import { staticPromptResolver } from '../test-utils/compressionContext.js';
import {
  startMockServer,
  type MockProviderKind,
  type MockReply,
  type MockRequest,
  type MockServer,
} from '../test-utils/mockServer/index.js';
import { AgentSession } from './AgentSession.js';

type Json = Record<string, unknown>;
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

/** Whether the newest message of the request is a tool result (else it is the user's text). */
function endsWithToolResult(kind: MockProviderKind, body: unknown): boolean {
  if (kind === 'openai') return list((body as Json).messages).at(-1)?.role === 'tool';
  if (kind === 'anthropic') {
    const last = list((body as Json).messages).at(-1);
    return list(last?.content).some((block) => block.type === 'tool_result');
  }
  const last = list((body as Json).contents).at(-1);
  return list(last?.parts).some((part) => part.functionResponse !== undefined);
}

/** The tool-call ids of the request, in order. */
function wireCallIds(kind: MockProviderKind, body: unknown): string[] {
  if (kind === 'openai') {
    return list((body as Json).messages).flatMap((m) =>
      list(m.tool_calls).map((c) => String(c.id)),
    );
  }
  if (kind === 'anthropic') {
    return list((body as Json).messages).flatMap((m) =>
      list(m.content).flatMap((b) => (b.type === 'tool_use' ? [String(b.id)] : [])),
    );
  }
  return list((body as Json).contents).flatMap((c) =>
    list(c.parts).flatMap((p) => (p.functionCall ? [String((p.functionCall as Json).id)] : [])),
  );
}

/** A model that reads the file it was asked about, then answers; `id` undefined omits ids. */
function readingModel(kind: MockProviderKind, id: string | undefined) {
  return (request: MockRequest): MockReply =>
    endsWithToolResult(kind, request.body)
      ? { kind: 'stream', text: 'done' }
      : {
          kind: 'stream',
          toolCalls: [{ ...(id === undefined ? {} : { id }), name: 'read_file', arguments: {} }],
        };
}

function countingTools(): { tools: ToolExecutor; readonly runs: () => number } {
  let runs = 0;
  const tools: ToolExecutor = {
    schemas: () => [],
    execute: (call) => {
      runs++;
      return Promise.resolve({
        type: 'tool_response',
        callId: call.id,
        toolName: call.name,
        result: `file contents, read #${runs}`,
      });
    },
  };
  return { tools, runs: () => runs };
}

const CASES: readonly [MockProviderKind, string, string | undefined][] = [
  ['openai', 'call_1', 'call_1'],
  ['openai', 'omitted: the mock numbers them call_mock_1', undefined],
  ['anthropic', 'toolu_1', 'toolu_1'],
  ['anthropic', 'omitted: the mock numbers them toolu_mock_1', undefined],
  ['gemini', 'call_1', 'call_1'],
];

describe('#12.3 reused tool-call ids in a session', () => {
  let server: MockServer;
  let respond: ((request: MockRequest) => MockReply) | undefined;
  beforeAll(async () => {
    server = await startMockServer({ respond: (request) => respond?.(request) });
  });
  afterAll(() => server.close());

  it.each(CASES)(
    '#12.3 a %s server reusing one id (%s) for every call: the agent does not repeat the call',
    async (kind, _label, id) => {
      server.reset();
      respond = readingModel(kind, id);
      const provider = createProvider(
        { provider: kind, model: 'm', apiKey: 'sk-test', baseUrl: server.baseUrlFor(kind) },
        {},
        { sleep: () => Promise.resolve(), random: () => 0.5 },
      );
      const counted = countingTools();
      const session = new AgentSession({
        settings: new SettingsService({ session: { 'context-limit': 100_000 } }),
        workspaceRoot: '/ws',
        provider: () => provider,
        tools: counted.tools,
        promptResolver: staticPromptResolver(),
        promptBaseDir: '/prompts',
        sessionId: 'fixed',
        maxModelCalls: 6,
      });
      for (const question of ['read a', 'read b', 'read c']) {
        const summary = await session.sendMessage(question);
        expect(summary).toBeDefined();
      }
      expect(counted.runs()).toBe(3);
      expect(server.requests).toHaveLength(6);
      // The last request carries all three calls and results, under ids unique in the request.
      const body = server.requests.at(-1)?.body;
      const last = JSON.stringify(body);
      const ids = wireCallIds(kind, body);
      expect(ids).toHaveLength(3);
      expect(new Set(ids).size).toBe(3);
      for (const n of [1, 2, 3]) expect(last).toContain(`file contents, read #${n}`);
    },
  );
});
