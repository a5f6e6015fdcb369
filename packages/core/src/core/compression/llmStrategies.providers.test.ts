/**
 * The LLM strategies against real provider classes (each SDK) talking to the loopback mock server:
 * what reaches the wire, and what comes back into the history.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProvider } from '../../providers/createProvider.js';
import type { IProvider } from '../../providers/IProvider.js';
import { makeCompressionContext } from '../../test-utils/compressionContext.js';
import { ai, human, readFile } from '../../test-utils/historyBuilders.js';
import { mockHttpError, mockText } from '../../test-utils/mockServer/mockScript.js';
import { startMockServer, type MockServer } from '../../test-utils/mockServer/startMockServer.js';
import { FilePromptResolver } from '../../prompt-config/FilePromptResolver.js';
import { DEFAULT_PROMPTS_DIR, STATE_SNAPSHOT_SECTIONS } from '../prompts.js';
import type { IContent } from '../../services/history/IContent.js';
import { MiddleOutStrategy } from './MiddleOutStrategy.js';
import { OneShotStrategy } from './OneShotStrategy.js';

const KINDS = ['openai', 'anthropic', 'gemini'] as const;
const SNAPSHOT = '<state_snapshot><overall_goal>Ship the parser</overall_goal></state_snapshot>';

let server: MockServer;

beforeAll(async () => {
  server = await startMockServer();
});

afterAll(async () => {
  await server.close();
});

function providerFor(kind: (typeof KINDS)[number]): IProvider {
  return createProvider(
    { provider: kind, baseUrl: server.baseUrlFor(kind), model: 'test-model' },
    {},
    { retryPolicy: { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 0 } },
  );
}

function conversation(): IContent[] {
  const entries: IContent[] = [human('Write a CSV parser in src/csv.ts')];
  for (let i = 0; i < 6; i++) {
    entries.push(...readFile(`r${i}`, `src/file${i}.ts`, `export const v${i} = ${i};`));
    entries.push(ai(`Looked at file ${i}.`));
  }
  entries.push(human('Now add tests'), ai('Adding tests.'));
  return entries;
}

async function contextFor(provider: IProvider) {
  return makeCompressionContext({
    history: conversation(),
    provider,
    promptResolver: new FilePromptResolver({ userPromptsDir: '/nonexistent-dense-prompts' }),
    transcriptPath: '/state/sessions/abc.jsonl',
    activeTodos: [{ id: 't1', content: 'add tests', status: 'in_progress' }],
  });
}

/** All text the model was sent in the request body (any wire format). */
function sentText(): string {
  return JSON.stringify(server.requests.at(-1)?.body);
}

describe.each(KINDS)('LLM strategies through the %s provider and the mock server', (kind) => {
  it('middle-out sends the enriched prompt, the sanitized middle and the todos, and splices the summary in', async () => {
    server.reset();
    server.enqueue(mockText(SNAPSHOT));
    const context = await contextFor(providerFor(kind));
    const result = await new MiddleOutStrategy().compress({
      ...context,
      promptBaseDir: DEFAULT_PROMPTS_DIR,
    });
    expect(result.kind).toBe('applied');
    const sent = sentText();
    for (const section of STATE_SNAPSHOT_SECTIONS) expect(sent).toContain(`<${section}>`);
    expect(sent).toContain('src/file2.ts');
    expect(sent).toContain('add tests');
    const summary = result.newHistory.find((e) => e.metadata?.isSummary === true);
    const summaryText = JSON.stringify(summary?.blocks);
    expect(summaryText).toContain('Ship the parser');
    expect(summaryText).toContain(
      'Full pre-compression transcript available at: /state/sessions/abc.jsonl',
    );
    expect(result.newHistory.length).toBeLessThan(context.history.length);
  });

  it('one-shot summarizes everything before the tail', async () => {
    server.reset();
    server.enqueue(mockText(SNAPSHOT));
    const context = await contextFor(providerFor(kind));
    const result = await new OneShotStrategy().compress({
      ...context,
      promptBaseDir: DEFAULT_PROMPTS_DIR,
    });
    expect(result.kind).toBe('applied');
    expect(result.newHistory[0]?.metadata?.isSummary).toBe(true);
    expect(sentText()).toContain('src/file0.ts');
  });

  it('a provider failure propagates as a typed error and nothing is returned', async () => {
    server.reset();
    server.enqueue(mockHttpError(500));
    const context = await contextFor(providerFor(kind));
    await expect(
      new MiddleOutStrategy().compress({ ...context, promptBaseDir: DEFAULT_PROMPTS_DIR }),
    ).rejects.toMatchObject({ code: 'PROVIDER_HTTP_ERROR', provider: kind });
  });
});
