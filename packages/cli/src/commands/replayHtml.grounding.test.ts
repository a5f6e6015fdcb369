import { describe, expect, it } from 'vitest';
import type { ReplaySessionReport } from '@dense/core';
import { replayReport } from '../test-utils/replayReport.js';
import { renderReplayHtml } from './replayHtml.js';

const zero = { specifics: 0, visible: 0, recallable: 0, hidden: 0 };
const byKind = {
  path: zero,
  'line-ref': zero,
  'test-name': zero,
  error: zero,
  identifier: zero,
  number: zero,
};

function report(strategy: 'none' | 'mask-10-turns', hidden: number): ReplaySessionReport {
  return replayReport({
    strategy,
    grounding: {
      specifics: 4,
      visible: 4 - hidden,
      recallable: 0,
      hidden,
      byKind,
      examples:
        hidden === 0
          ? []
          : [{ kind: 'identifier', text: 'loadShardIndex', verdict: 'hidden', at: 8, origin: 4 }],
    },
    workRedone: { reacquired: 1, redone: hidden, keptInContext: 1 - hidden },
  });
}

describe('#25.3 replay HTML report: grounding', () => {
  it('#25.3 a grounding table per policy and the hidden specifics as examples', () => {
    const html = renderReplayHtml({
      target: '/runs',
      contextLimit: 128_000,
      policies: ['none', 'mask-10-turns'],
      runs: {
        none: [{ report: report('none', 0), series: [50, 60] }],
        'mask-10-turns': [{ report: report('mask-10-turns', 1), series: [50, 40] }],
      },
    });
    expect(html).toContain('<h2>Grounding: what the agent used next</h2>');
    expect(html).toMatch(
      /<th scope="row">mask-10-turns<\/th><td>4<\/td><td>75\.0%<\/td><td>0<\/td><td>1<\/td>/,
    );
    expect(html).toContain('<td>loadShardIndex</td><td>hidden</td>');
  });
});
