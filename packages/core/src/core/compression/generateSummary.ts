/**
 * The one LLM call of the summarizing strategies: resolve the summarizer and the prompt, send the
 * request, collect the streamed text. Errors from the provider or the prompt lookup propagate
 * unchanged (REQ-HD-013.4: no fallback); an empty answer is an `EmptySummaryError`.
 */
import type { IContent } from '../../services/history/IContent.js';
import type { ProviderChunk } from '../../providers/IProvider.js';
import { COMPRESSION_PROMPT_FILE } from '../prompts.js';
import { EmptySummaryError } from './compressionErrors.js';
import { buildSummaryRequest } from './summaryRequest.js';
import type { CompressionContext, CompressionStrategyName } from './types.js';

/** The text of a streamed reply: its text blocks concatenated (thinking and tool calls ignored). */
export async function collectReplyText(stream: AsyncIterable<ProviderChunk>): Promise<string> {
  let text = '';
  for await (const chunk of stream) {
    for (const block of chunk.content.blocks) {
      if (block.type === 'text') text += block.text;
    }
  }
  return text;
}

const OPEN = '<state_snapshot>';
const CLOSE = '</state_snapshot>';

/**
 * The `<state_snapshot>` element of a reply (from its first opening to its last closing tag),
 * dropping whatever the model wrote around it (preambles, code fences, scratch notes); the whole
 * trimmed reply when it has no complete element.
 */
export function extractStateSnapshot(reply: string): string {
  const start = reply.indexOf(OPEN);
  const end = reply.lastIndexOf(CLOSE);
  if (start === -1 || end < start) return reply.trim();
  return reply.slice(start, end + CLOSE.length);
}

export interface GenerateSummaryInput {
  readonly context: CompressionContext;
  readonly strategy: CompressionStrategyName;
  /** The entries to summarize. */
  readonly entries: readonly IContent[];
}

/**
 * Asks the compression profile's provider (`compression.profile`, else the active one) for a
 * `<state_snapshot>` of `entries`, with the resolved compression.md as the system prompt and
 * the context's active todos appended. Returns the `<state_snapshot>` element of the reply, or
 * the whole trimmed reply (with a warning logged) when it has none.
 */
export async function generateSummary(input: GenerateSummaryInput): Promise<string> {
  const { context, strategy } = input;
  const provider = context.resolveProvider(context.settings['compression.profile']);
  const compressionPrompt = await context.promptResolver.resolveFile(
    context.promptBaseDir,
    COMPRESSION_PROMPT_FILE,
    context.promptContext,
  );
  const request = buildSummaryRequest({
    compressionPrompt,
    entries: input.entries,
    ...(context.activeTodos === undefined ? {} : { activeTodos: context.activeTodos }),
  });
  const summary = extractStateSnapshot(await collectReplyText(provider.generate(request)));
  if (summary === '') throw new EmptySummaryError(strategy, provider.name, provider.model);
  if (!summary.startsWith(OPEN)) {
    context.logger.warn('compression summary lacks a <state_snapshot> element; kept as written', {
      strategy,
      provider: provider.name,
      model: provider.model,
    });
  }
  return summary;
}
