/**
 * The summarizer provider of the offline demo: answers every summary request with a
 * deterministic `<state_snapshot>` built from the request itself — no model, no network.
 */
import { textBlock, type GenerateRequest, type IProvider, type ProviderChunk } from '@dense/core';
import { buildOfflineSnapshot } from './offlineSnapshot.js';

export const OFFLINE_SUMMARIZER_LABEL = 'offline summarizer';

export class OfflineSummarizer implements IProvider {
  readonly name = 'offline-summarizer';
  readonly model = 'deterministic-snapshot';
  /** Summary requests answered so far. */
  calls = 0;

  // eslint-disable-next-line @typescript-eslint/require-await -- an async generator is the IProvider shape
  async *generate(request: GenerateRequest): AsyncIterable<ProviderChunk> {
    this.calls++;
    const text = request.contents
      .flatMap((entry) => entry.blocks)
      .map((block) => (block.type === 'text' ? block.text : ''))
      .join('\n');
    yield { content: { speaker: 'ai', blocks: [textBlock(buildOfflineSnapshot(text))] } };
  }
}
