import { describe, expect, it } from 'vitest';
import { EntryReplyDecisions } from './entryReplyDecisions.js';
import type { ResultSite } from '../wire/wireHistory.js';

const site = (messageIndex: number, blockIndex = 0): ResultSite => ({
  callId: `c${messageIndex}.${blockIndex}`,
  messageIndex,
  blockIndex,
  start: messageIndex * 100 + blockIndex,
  end: messageIndex * 100 + blockIndex + 1,
});
const reply = { referent: 'c0', text: 'same output' };
const where = (sites: readonly ResultSite[]) =>
  sites.map((s) => `${s.messageIndex}:${s.blockIndex}`);

describe('entry reply decisions', () => {
  it('#24.3 a request walks the old results decided as replies and its new results only, in request order', () => {
    const sites = [site(1), site(3), site(3, 1), site(5), site(7), site(9), site(9, 2)];
    const decisions = new EntryReplyDecisions();
    decisions.set('3:1', { recallId: 'a', reply });
    decisions.set('1:0', { recallId: 'b', reply });
    decisions.set('5:0', { recallId: 'c' });
    decisions.set('4:0', { recallId: 'd', reply });
    const { walk, gone } = decisions.sitesToWalk(sites, 8);
    expect(where(walk)).toEqual(['1:0', '3:1', '9:0', '9:2']);
    expect(gone).toEqual(['4:0']);
    // A reply demoted to the original is no longer walked once old.
    decisions.set('3:1', { recallId: 'a' });
    expect(where(decisions.sitesToWalk(sites, 8).walk)).toEqual(['1:0', '9:0', '9:2']);
  });

  it('#24.3 the decisions are pruned to the results of the request once they outnumber them', () => {
    const decisions = new EntryReplyDecisions();
    for (let m = 0; m < 10; m++) decisions.set(`${m}:0`, { recallId: `r${m}`, reply });
    decisions.prune([site(0), site(1), site(2)]);
    expect(decisions.size).toBe(3);
    expect(decisions.get('9:0')).toBeUndefined();
    expect(decisions.get('2:0')?.recallId).toBe('r2');
    expect(where(decisions.sitesToWalk([site(0), site(1), site(2)], 5).walk)).toEqual([
      '0:0',
      '1:0',
      '2:0',
    ]);
  });
});
