import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { optimizeDensity } from '../../core/compression/density/optimize/optimizeDensity.js';
import { toAnthropicMessages } from '../../providers/anthropicConversion.js';
import type { IContent } from '../../services/history/IContent.js';
import { human, toolRoundTrip } from '../../test-utils/historyBuilders.js';
import { readAnthropicRequest } from '../wire/anthropicHistory.js';
import { parseJsonSpans } from '../wire/jsonSpans.js';
import { planProxyEdits, PROXY_DENSITY_CONFIG } from './planProxyEdits.js';

const PATH = fc.constantFrom('/w/a.ts', '/w/b.ts', '/w/c.ts');
const BODY = 'x'.repeat(200);

type Op =
  | { readonly kind: 'read' | 'cat' | 'write'; readonly path: string }
  | { readonly kind: 'edit'; readonly path: string; readonly fails: boolean };

const OP: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constantFrom('read', 'cat', 'write'), path: PATH }),
  fc.record({ kind: fc.constant('edit'), path: PATH, fails: fc.boolean() }),
);

function history(ops: readonly Op[]): IContent[] {
  const entries: IContent[] = [human('go')];
  ops.forEach((op, index) => {
    const id = `call_${index}`;
    switch (op.kind) {
      case 'read':
        entries.push(
          ...toolRoundTrip(id, 'read_file', { file_path: op.path }, `${op.path}\n${BODY}`),
        );
        break;
      case 'cat':
        entries.push(
          ...toolRoundTrip(id, 'run_shell_command', { command: `cat ${op.path}` }, BODY),
        );
        break;
      case 'write':
        entries.push(
          ...toolRoundTrip(id, 'write_file', { file_path: op.path, content: 'n' }, 'ok'),
        );
        break;
      case 'edit':
        entries.push(
          ...toolRoundTrip(
            id,
            'replace',
            { file_path: op.path, old_string: 'a', new_string: 'b' },
            op.fails ? '' : 'ok',
            op.fails ? 'no match' : undefined,
          ),
        );
        break;
    }
  });
  return entries;
}

/** Call ids whose responses the CLI's density step removes from its own history. */
function cliDecisions(entries: readonly IContent[]): string[] {
  const result = optimizeDensity(entries, PROXY_DENSITY_CONFIG);
  const ids = new Set<string>();
  const responses = (entry: IContent | undefined) =>
    (entry?.blocks ?? []).flatMap((block) => (block.type === 'tool_response' ? [block] : []));
  for (const index of result.removals) for (const r of responses(entries[index])) ids.add(r.callId);
  for (const [index, next] of result.replacements) {
    const kept = new Set(next.blocks);
    for (const r of responses(entries[index])) if (!kept.has(r)) ids.add(r.callId);
  }
  return [...ids].sort();
}

function proxyDecisions(entries: readonly IContent[]): string[] {
  const text = JSON.stringify({ model: 'm', messages: toAnthropicMessages(entries) });
  const outcome = readAnthropicRequest(text, parseJsonSpans(text));
  if (outcome.kind !== 'history') throw new Error(outcome.reason);
  return planProxyEdits(outcome.wire)
    .map((site) => site.callId)
    .sort();
}

describe('proxy and CLI density decisions', () => {
  test('#15 a read and a cat made stale by later writes are pruned by both', () => {
    const entries = history([
      { kind: 'read', path: '/w/a.ts' },
      { kind: 'cat', path: '/w/b.ts' },
      { kind: 'edit', path: '/w/a.ts', fails: false },
      { kind: 'write', path: '/w/b.ts' },
    ]);
    expect(proxyDecisions(entries)).toEqual(['call_0', 'call_1']);
    expect(cliDecisions(entries)).toEqual(['call_0', 'call_1']);
  });

  test.prop([fc.array(OP, { maxLength: 14 })], { numRuns: 150 })(
    '#15 for the same history the proxy prunes exactly the results the CLI prunes',
    (ops) => {
      const entries = history(ops);
      expect(proxyDecisions(entries)).toEqual(cliDecisions(entries));
    },
  );
});
