/** Small helpers for provider tests: a sleep that records instead of waiting, and stream collectors. */
import type { ProviderChunk } from '../../providers/IProvider.js';
import type { Sleep } from '../../providers/streamWithRetry.js';

export interface RecordingSleep {
  readonly sleep: Sleep;
  /** Every delay asked for, in ms, in order. */
  readonly delays: number[];
}

/** A Sleep that records each delay and resolves on the next tick (still honouring abort). */
export function recordingSleep(): RecordingSleep {
  const delays: number[] = [];
  const sleep: Sleep = (ms, signal) => {
    delays.push(ms);
    if (signal?.aborted === true) return Promise.reject(signal.reason as Error);
    return Promise.resolve();
  };
  return { sleep, delays };
}

export async function collectChunks(
  stream: AsyncIterable<ProviderChunk>,
): Promise<ProviderChunk[]> {
  const chunks: ProviderChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

/** Collects until the stream throws; returns what arrived and the error (undefined if none). */
export async function collectUntilError(
  stream: AsyncIterable<ProviderChunk>,
): Promise<{ chunks: ProviderChunk[]; error: unknown }> {
  const chunks: ProviderChunk[] = [];
  try {
    for await (const chunk of stream) chunks.push(chunk);
  } catch (error) {
    return { chunks, error };
  }
  return { chunks, error: undefined };
}

/** What `fn` throws, as `{code, message}`; fails the test when it does not throw. */
export function thrownBy(fn: () => unknown): { readonly code?: unknown; readonly message: string } {
  try {
    fn();
  } catch (error) {
    return error instanceof Error ? error : { message: String(error) };
  }
  throw new Error('expected the function to throw');
}

/** The text of all text deltas, joined. */
export function streamedText(chunks: readonly ProviderChunk[]): string {
  return chunks
    .flatMap((c) => c.content.blocks)
    .map((b) => (b.type === 'text' ? b.text : ''))
    .join('');
}
