/**
 * The deterministic, offline stand-in for the summarizing model of the LLM strategies, used by
 * the replay benchmark and the demo: it answers a summary request (the history rendered as text)
 * with the `<state_snapshot>` of `buildOfflineSnapshot`. Never touches the network; every output
 * that may use it says so.
 */
import { textBlock } from '../services/history/IContent.js';
import type { GenerateRequest, IProvider, ProviderChunk } from '../providers/IProvider.js';
import { buildOfflineSnapshot } from './offlineSnapshot.js';

/** How outputs label summaries written by this provider. */
export const OFFLINE_SUMMARIZER_LABEL =
  'offline summarizer (deterministic, no LLM: requests, files touched, commands and errors of the summarized history)';

function requestText(request: GenerateRequest): string {
  return request.contents
    .filter((entry) => entry.speaker === 'human')
    .flatMap((entry) => entry.blocks.map((block) => (block.type === 'text' ? block.text : '')))
    .join('\n');
}

export class OfflineSummaryProvider implements IProvider {
  readonly name = 'offline-summarizer';
  readonly model = 'state-snapshot-v2';
  private calls = 0;

  /** Summaries written so far. */
  get summaries(): number {
    return this.calls;
  }

  // eslint-disable-next-line @typescript-eslint/require-await -- the IProvider contract is async
  async *generate(request: GenerateRequest): AsyncIterable<ProviderChunk> {
    this.calls++;
    yield {
      content: { speaker: 'ai', blocks: [textBlock(buildOfflineSnapshot(requestText(request)))] },
    };
  }
}
