import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IContent } from '../history/IContent.js';
import { applyDensityResultToArray } from '../../core/compression/density/optimize/applyDensityResultToArray.js';
import { optimizeDensity } from '../../core/compression/density/optimize/optimizeDensity.js';
import { summarizeHead } from '../../core/compression/density/compress/compressionPlan.js';
import { formatFileInclusion } from '../../core/compression/densityVocabulary.js';
import { human, toolRoundTrip } from '../../test-utils/historyBuilders.js';
import {
  serializeSessionContent,
  serializeSessionHeader,
} from '../../transcripts/sessionFormat.js';
import { InMemoryRecallStore } from './RecallStore.js';
import { RecordingRecallStore } from './RecordingRecallStore.js';

const ID = /recall id (r[0-9a-f]{10})/g;

type Step =
  | { kind: 'read'; file: number; body: string }
  | { kind: 'write'; file: number }
  | { kind: 'shell'; body: string }
  | { kind: 'json'; value: { lines: string[]; n: number } }
  | { kind: 'include'; file: number; body: string };

const body = fc.string({ unit: 'grapheme', minLength: 0, maxLength: 300 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('read' as const), file: fc.nat(3), body }),
  fc.record({ kind: fc.constant('write' as const), file: fc.nat(3) }),
  fc.record({ kind: fc.constant('shell' as const), body }),
  fc.record({
    kind: fc.constant('json' as const),
    value: fc.record({ lines: fc.array(body, { maxLength: 3 }), n: fc.integer() }),
  }),
  fc.record({ kind: fc.constant('include' as const), file: fc.nat(3), body }),
);

function build(steps: readonly Step[]): IContent[] {
  const history: IContent[] = [human('start')];
  steps.forEach((s, i) => {
    const id = `c${i % 7}`; // call ids are reused: recall ids must still be distinct per original
    const file = `src/f${'file' in s ? s.file : 0}.ts`;
    if (s.kind === 'read') {
      history.push(...toolRoundTrip(id, 'read_file', { file_path: file }, `${s.body}\nx${i}`));
    } else if (s.kind === 'write') {
      history.push(
        ...toolRoundTrip(id, 'write_file', { file_path: file, content: 'y' }, 'Wrote file.'),
      );
    } else if (s.kind === 'shell') {
      history.push(
        ...toolRoundTrip(id, 'run_shell_command', { command: 'ls' }, `${s.body}${'z'.repeat(120)}`),
      );
    } else if (s.kind === 'json') {
      history.push(
        ...toolRoundTrip(id, 'grep', { pattern: 'a' }, { ...s.value, pad: 'p'.repeat(150) }),
      );
    } else {
      history.push(human(`see\n${formatFileInclusion(file, `${s.body}\n${'q'.repeat(200)}`)}`));
    }
  });
  return history;
}

/** Every original the session recorded, by the text recall must return. */
function originalsOf(history: readonly IContent[]): Set<string> {
  const texts = new Set<string>();
  for (const entry of history) {
    for (const block of entry.blocks) {
      if (block.type === 'tool_response') {
        texts.add(typeof block.result === 'string' ? block.result : JSON.stringify(block.result));
      }
      if (block.type === 'text') texts.add(block.text);
    }
  }
  return texts;
}

function prunedView(history: readonly IContent[]): IContent[] {
  const config = {
    readWritePruning: true,
    fileDedupe: true,
    recencyPruning: true,
    recencyRetention: 1,
    workspaceRoot: '/ws',
    pointerStyle: 'recall' as const,
  };
  const density = applyDensityResultToArray(history, optimizeDensity(history, config));
  const tailStart = Math.floor(density.length / 2);
  const { head } = summarizeHead(density, tailStart, '/ws', 'recall');
  return [...head, ...density.slice(tailStart)];
}

function recording(history: readonly IContent[]): string {
  const header = serializeSessionHeader({
    sessionId: 's',
    startedAt: '2026-01-01T00:00:00.000Z',
    workspaceRoot: '/ws',
    provider: 'p',
    model: 'm',
  });
  return header + history.map(serializeSessionContent).join('');
}

describe('recall (issue #11.1)', () => {
  it('#11.1 returns byte-identical originals for every stale read, cut inclusion, recency pointer and summary line, from memory and from the recording', async () => {
    const kinds = { stale: 0, old: 0, inclusion: 0, summary: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        const history = build(steps);
        const view = prunedView(history);
        const json = JSON.stringify(view);
        const ids = new Set([...json.matchAll(ID)].map((m) => m[1] as string));
        kinds.stale += json.split('(stale: file rewritten later)').length - 1;
        kinds.old += json.split('(old result)').length - 1;
        kinds.inclusion += json.split('[Earlier copy of').length - 1;
        kinds.summary += json.split('; recall id').length - 1;
        const memory = new InMemoryRecallStore();
        for (const entry of history) memory.record(entry);
        const text = recording(history);
        const fromFile = new RecordingRecallStore({
          file: 's.jsonl',
          readText: () => Promise.resolve(text),
        });
        const originals = originalsOf(history);
        for (const id of ids) {
          const a = await memory.lookup(id);
          const b = await fromFile.lookup(id);
          if (a.kind !== 'found' || b.kind !== 'found') throw new Error(`${id} not found`);
          expect(b.content).toBe(a.content);
          const inText = [...originals].some((o) => o === a.content || o.includes(a.content));
          expect(inText).toBe(true);
        }
      }),
      { numRuns: 100 },
    );
    // Every kind of pointer was exercised.
    expect(Math.min(...Object.values(kinds))).toBeGreaterThan(0);
  });

  it('#11.1 a recall id survives a resume: the recording re-read gives the same content', async () => {
    const history = build([
      { kind: 'read', file: 1, body: 'old body' },
      { kind: 'write', file: 1 },
      { kind: 'read', file: 1, body: 'new body' },
    ]);
    const view = prunedView(history);
    const [id] = [...JSON.stringify(view).matchAll(ID)].map((m) => m[1] as string);
    expect(id).toBeDefined();
    const resumedText = recording(JSON.parse(JSON.stringify(history)) as IContent[]);
    const store = new RecordingRecallStore({
      file: 's.jsonl',
      readText: () => Promise.resolve(resumedText),
    });
    expect(await store.lookup(id as string)).toEqual({ kind: 'found', content: 'old body\nx0' });
  });
});

describe('recallableTotals (issue #11, for /context)', () => {
  it('#11.1 counts distinct recall ids the history names, and the entries naming them', async () => {
    const { recallableTotals } = await import('../../session/ContextStats.js');
    const history = build([
      { kind: 'read', file: 1, body: 'old' },
      { kind: 'write', file: 1 },
      { kind: 'read', file: 1, body: 'new' },
    ]);
    expect(recallableTotals(history)).toEqual({ ids: 0, entries: 0 });
    expect(recallableTotals(prunedView(history)).ids).toBeGreaterThan(0);
  });
});
