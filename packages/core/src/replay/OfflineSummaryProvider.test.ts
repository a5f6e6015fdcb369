import { describe, expect, it } from 'vitest';
import { buildSummaryRequest } from '../core/compression/summaryRequest.js';
import { collectReplyText } from '../core/compression/generateSummary.js';
import { human } from '../test-utils/historyBuilders.js';
import { buildOfflineSnapshot } from './offlineSnapshot.js';
import { OfflineSummaryProvider } from './OfflineSummaryProvider.js';

describe('OfflineSummaryProvider', () => {
  it('answers with the offline snapshot of the request and counts its summaries', async () => {
    const request = buildSummaryRequest({
      compressionPrompt: 'ignored',
      entries: [human('Fix the parser')],
    });
    const provider = new OfflineSummaryProvider();
    const text = await collectReplyText(provider.generate(request));
    const rendered = request.contents
      .flatMap((e) => e.blocks.map((b) => (b.type === 'text' ? b.text : '')))
      .join('\n');
    expect(text).toBe(buildOfflineSnapshot(rendered));
    expect(text).toContain('Fix the parser');
    expect(provider.summaries).toBe(1);
  });
});
