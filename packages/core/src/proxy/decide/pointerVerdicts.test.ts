import { describe, expect, it } from 'vitest';
import { readAnthropicRequest } from '../wire/anthropicHistory.js';
import { parseJsonSpans } from '../wire/jsonSpans.js';
import { anthropicBody } from '../test-utils/wireRequests.js';
import {
  conversationSnapshot,
  decodeSnapshot,
  encodeSnapshot,
  restoreConversation,
} from '../http/conversationSnapshot.js';
import { newConversation } from './conversationStore.js';
import { MAX_VERDICTS, PointerVerdicts } from './pointerVerdicts.js';
import { pointerVerdictAt, recallEntryAt } from './proxyPointer.js';

/** A request whose one tool result is a read of `lines` distinct lines (text unique per `tag`). */
function readRequest(tag: string, lines: number) {
  const content = Array.from(
    { length: lines },
    (_, i) => `${i + 1}\texport const ${tag}${i} = ${i};`,
  ).join('\n');
  const body = anthropicBody([
    { role: 'user', content: [{ type: 'text', text: 'look' }] },
    {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'r1', name: 'Read', input: { file_path: '/w/a.ts' } }],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'r1', content }] },
  ]);
  const read = readAnthropicRequest(body, parseJsonSpans(body));
  if (read.kind !== 'history') throw new Error('no history');
  const site = read.wire.sites[0];
  if (site === undefined) throw new Error('no site');
  return { wire: read.wire, site };
}

describe('#36.1 pointer verdicts in the shared state', () => {
  it('#36.1 a verdict reached elsewhere is taken as it is: no token is counted for it', () => {
    // Weighing this read gives 'f' (its specifics fit, the pointer is far shorter).
    const weighed = readRequest('weighed', 200);
    expect(pointerVerdictAt(weighed.wire, weighed.site).verdict).toBe('f');
    // Another read, never weighed in this process, with a verdict another replica carried: taken.
    const carried = readRequest('carried', 200);
    const id = recallEntryAt(carried.wire, carried.site).id;
    expect(pointerVerdictAt(carried.wire, carried.site, new Map([[id, 'n']])).verdict).toBe('n');
  });

  it('#36.1 the verdicts ride in the snapshot and come back from it; bounded, oldest first out', () => {
    const state = newConversation('c');
    state.pointerVerdicts.set('r0123456789', 'f');
    state.pointerVerdicts.set('rabcdefabcd', 'n');
    const snapshot = decodeSnapshot(encodeSnapshot(conversationSnapshot(state)));
    expect(snapshot.pointerVerdicts).toEqual(['r0123456789:f', 'rabcdefabcd:n']);
    const restored = restoreConversation('c', snapshot);
    expect([...restored.pointerVerdicts.known]).toEqual([
      ['r0123456789', 'f'],
      ['rabcdefabcd', 'n'],
    ]);
    // A malformed entry is skipped, not an error.
    expect([...PointerVerdicts.restore(['bad', 'r1:x', 'r2:b']).known]).toEqual([['r2', 'b']]);
    const many = new PointerVerdicts();
    for (let i = 0; i <= MAX_VERDICTS; i++) many.set(`r${i}`, 'b');
    expect(many.known.size).toBe(MAX_VERDICTS);
    expect(many.known.has('r0')).toBe(false);
    expect(many.known.has(`r${MAX_VERDICTS}`)).toBe(true);
  });
});
