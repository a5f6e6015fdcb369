import fc from 'fast-check';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  findFileInclusions,
  isReadTool,
  isWriteTool,
  PRUNED_POINTER,
} from './densityVocabulary.js';
import { HighDensityStrategy } from './HighDensityStrategy.js';
import type { DensityConfig, DensityResult } from './types.js';
import type {
  IContent,
  ToolCallBlock,
  ToolResponseBlock,
} from '../../services/history/IContent.js';
import { validateDensityResult } from '../../services/history/validateDensityResult.js';
import { applyDensityResultToArray } from './density/optimize/applyDensityResultToArray.js';
import { effectiveRetention } from './density/optimize/recencyPruning.js';
import { deepFreeze } from './density/test-utils/deepFreeze.js';
import {
  densityConfigArb,
  historyArb,
  TEST_ROOT,
} from './density/test-utils/densityArbitraries.js';

const RUNS = { numRuns: 300 };
const strategy = new HighDensityStrategy();

interface Located<T> {
  readonly entry: number;
  readonly block: T;
}
function calls(history: readonly IContent[]): Located<ToolCallBlock>[] {
  return history.flatMap((e, entry) =>
    e.blocks.flatMap((block) => (block.type === 'tool_call' ? [{ entry, block }] : [])),
  );
}
function responses(history: readonly IContent[]): Located<ToolResponseBlock>[] {
  return history.flatMap((e, entry) =>
    e.blocks.flatMap((block) => (block.type === 'tool_response' ? [{ entry, block }] : [])),
  );
}
const resolve = (p: string) => path.resolve(TEST_ROOT, p);

/** Every path a call's parameters mention, resolved (deliberately broader than the strategy). */
function mentionedPaths(params: unknown): string[] {
  if (typeof params !== 'object' || params === null) return [];
  const record = params as Record<string, unknown>;
  const values = [record.file_path, record.absolute_path, record.path];
  if (Array.isArray(record.paths)) values.push(...(record.paths as unknown[]));
  return values.filter((v): v is string => typeof v === 'string' && v !== '').map(resolve);
}

/** The single path of a `{ key: path }` parameter object, if that is all it is. */
function soloPath(params: unknown): string | undefined {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return undefined;
  const entries = Object.entries(params);
  const [key, value] = entries[0] ?? [];
  if (entries.length !== 1 || typeof value !== 'string' || value === '') return undefined;
  return ['file_path', 'absolute_path', 'path'].includes(key as string)
    ? resolve(value)
    : undefined;
}

function run(history: IContent[], config: DensityConfig) {
  const result = strategy.optimize(deepFreeze(history), config);
  return { result, after: applyDensityResultToArray(history, result) };
}

const isEmpty = (r: DensityResult) => r.removals.length === 0 && r.replacements.size === 0;
const count = (text: string, needle: string) => text.split(needle).length - 1;
const allText = (history: readonly IContent[]) =>
  history.map((e) => e.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('')).join('');

describe('optimize() properties', () => {
  it('indices are in bounds, distinct, and never both removed and replaced', () => {
    fc.assert(
      fc.property(historyArb, densityConfigArb, (history, config) => {
        const result = strategy.optimize(deepFreeze(history), config);
        expect(() => validateDensityResult(result, history.length)).not.toThrow();
        expect(new Set(result.removals).size).toBe(result.removals.length);
        for (const index of result.replacements.keys()) {
          expect(result.removals.includes(index)).toBe(false);
        }
      }),
      RUNS,
    );
  });

  it('never mutates its input', () => {
    fc.assert(
      fc.property(historyArb, densityConfigArb, (history, config) => {
        const snapshot = structuredClone(history);
        strategy.optimize(deepFreeze(history), config); // a write to a frozen object throws
        expect(history).toEqual(snapshot);
      }),
      RUNS,
    );
  });

  it('REQ-HD-005.7 a read with no later write to its file survives with its responses', () => {
    fc.assert(
      fc.property(historyArb, densityConfigArb, (history, config) => {
        const { after } = run(history, config);
        // With shellFileOps, any shell command may be a write: count them all (one-sided oracle).
        const writes = calls(history).filter(
          (c) =>
            isWriteTool(c.block.name) ||
            (config.shellFileOps === true && c.block.name === 'run_shell_command'),
        );
        const keptIds = new Set(calls(after).map((c) => c.block.id));
        const keptResponses = responses(after).map((r) => r.block.callId);
        for (const read of calls(history).filter((c) => isReadTool(c.block.name))) {
          const targets = new Set(mentionedPaths(read.block.parameters));
          const laterWrite = writes.some(
            (w) =>
              w.entry >= read.entry &&
              (w.block.name === 'run_shell_command' ||
                mentionedPaths(w.block.parameters).some((p) => targets.has(p))),
          );
          if (laterWrite) continue;
          expect(keptIds.has(read.block.id)).toBe(true);
          const before = responses(history).filter((r) => r.block.callId === read.block.id).length;
          expect(keptResponses.filter((id) => id === read.block.id).length).toBe(before);
        }
      }),
      RUNS,
    );
  });

  it('REQ-HD-005.6 a read is removed after a successful write of its file, kept after a failed one', () => {
    fc.assert(
      fc.property(historyArb, (history) => {
        const config = {
          readWritePruning: true,
          fileDedupe: false,
          recencyPruning: false,
          recencyRetention: 3,
          workspaceRoot: TEST_ROOT,
        };
        const { after } = run(history, config);
        const keptIds = new Set(calls(after).map((c) => c.block.id));
        const all = responses(history);
        const succeeded = (id: string) => {
          const answers = all.filter((r) => r.block.callId === id);
          return answers.length > 0 && answers.every((r) => r.block.error === undefined);
        };
        for (const read of calls(history)) {
          if (!['read_file', 'read_line_range', 'ast_read_file'].includes(read.block.name))
            continue;
          const target = soloPath(read.block.parameters);
          const answers = all.filter((r) => r.block.callId === read.block.id);
          if (target === undefined || answers.length === 0) continue;
          const readAt = Math.max(...answers.map((r) => r.entry));
          const laterWrites = calls(history).filter(
            (w) => isWriteTool(w.block.name) && w.entry > readAt && succeeded(w.block.id),
          );
          // Certainly stale: a plain `{ key: path }` write of the same file succeeded later.
          if (laterWrites.some((w) => soloPath(w.block.parameters) === target)) {
            expect(keptIds.has(read.block.id)).toBe(false);
          }
          // Certainly live: no later successful write even mentions the file.
          if (!laterWrites.some((w) => mentionedPaths(w.block.parameters).includes(target))) {
            expect(keptIds.has(read.block.id)).toBe(true);
          }
        }
      }),
      RUNS,
    );
  });

  it('never leaves a call without its responses or a response without its call', () => {
    fc.assert(
      fc.property(historyArb, densityConfigArb, (history, config) => {
        const { after } = run(history, config);
        const callsBefore = new Set(calls(history).map((c) => c.block.id));
        const answeredBefore = new Set(responses(history).map((r) => r.block.callId));
        const callsAfter = new Set(calls(after).map((c) => c.block.id));
        const answeredAfter = new Set(responses(after).map((r) => r.block.callId));
        for (const id of callsAfter) {
          if (answeredBefore.has(id)) expect(answeredAfter.has(id)).toBe(true);
        }
        for (const id of answeredAfter) {
          if (callsBefore.has(id)) expect(callsAfter.has(id)).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('REQ-HD-006.2 the latest inclusion of every file survives unchanged, unless the file may have been written after it', () => {
    fc.assert(
      fc.property(historyArb, densityConfigArb, (history, config) => {
        const { after } = run(history, config);
        const latest = (h: readonly IContent[]) => {
          const map = new Map<string, { text: string; index: number }>();
          h.forEach((entry, index) => {
            if (entry.speaker !== 'human') return;
            for (const block of entry.blocks) {
              if (block.type !== 'text') continue;
              for (const span of findFileInclusions(block.text)) {
                map.set(resolve(span.filePath), {
                  text: block.text.slice(span.start, span.end),
                  index,
                });
              }
            }
          });
          return map;
        };
        const before = latest(history);
        const kept = latest(after);
        for (const [key, { text, index }] of before) {
          if (config.readWritePruning && mayBeWrittenAfter(history, index, config)) continue;
          expect(kept.get(key)?.text).toBe(text);
        }
      }),
      RUNS,
    );
  });

  it('REQ-HD-007.1 recency keeps at least the retention of results per tool', () => {
    fc.assert(
      fc.property(historyArb, densityConfigArb, (history, config) => {
        const withRecency = { ...config, recencyPruning: true };
        const before = run(history, {
          ...config,
          recencyPruning: false,
        }).after;
        const { after } = run(history, withRecency);
        expect(after.length).toBe(before.length);
        const keep = effectiveRetention(config.recencyRetention);
        const seen = new Map<string, number>();
        const b = responses(before);
        const a = responses(after);
        expect(a.length).toBe(b.length);
        for (let i = b.length - 1; i >= 0; i--) {
          const old = b[i] as Located<ToolResponseBlock>;
          if (old.block.result === PRUNED_POINTER) continue;
          const n = (seen.get(old.block.toolName) ?? 0) + 1;
          seen.set(old.block.toolName, n);
          if (n <= keep) expect(a[i]?.block).toBe(old.block);
        }
      }),
      RUNS,
    );
  });

  it('is idempotent: optimize(apply(optimize(h))) is empty', () => {
    fc.assert(
      fc.property(historyArb, densityConfigArb, (history, config) => {
        const { after } = run(history, config);
        const again = strategy.optimize(deepFreeze(after), config);
        expect(isEmpty(again)).toBe(true);
        expect(again.metadata).toEqual({
          readWrite: 0,
          dedup: 0,
          recency: 0,
        });
      }),
      RUNS,
    );
  });

  it('REQ-HD-013.7 metadata counts equal the changes made', () => {
    fc.assert(
      fc.property(historyArb, densityConfigArb, (history, config) => {
        const { result, after } = run(history, config);
        const { readWrite, dedup, recency } = result.metadata;
        expect(readWrite).toBe(calls(history).length - calls(after).length);
        const note = '[Earlier copy of ';
        expect(dedup).toBe(count(allText(after), note) - count(allText(history), note));
        const pointed = (h: readonly IContent[]) =>
          responses(h).filter((r) => r.block.result === PRUNED_POINTER).length;
        expect(recency).toBe(pointed(after) - pointed(history));
        if (!config.readWritePruning) expect(readWrite).toBe(0);
        if (!config.fileDedupe && !config.readWritePruning) expect(dedup).toBe(0);
        if (!config.recencyPruning) expect(recency).toBe(0);
      }),
      RUNS,
    );
  });

  it('never changes a human entry except by cutting stale inclusions', () => {
    fc.assert(
      fc.property(historyArb, densityConfigArb, (history, config) => {
        const { result } = run(history, config);
        for (const index of result.removals) expect(history[index]?.speaker).not.toBe('human');
        for (const [index, entry] of result.replacements) {
          if (entry.speaker !== 'human') continue;
          expect(config.fileDedupe || config.readWritePruning).toBe(true);
          expect(allText([entry]).length).toBeLessThan(
            allText([history[index] as IContent]).length,
          );
        }
      }),
      RUNS,
    );
  });
});

/** Any call after `index` that could change a file (a write tool, a deletion, a shell command). */
function mayBeWrittenAfter(
  history: readonly IContent[],
  index: number,
  config: DensityConfig,
): boolean {
  return history
    .slice(index + 1)
    .some((entry) =>
      entry.blocks.some(
        (block) =>
          block.type === 'tool_call' &&
          (isWriteTool(block.name) ||
            block.name === 'delete_file' ||
            (config.shellFileOps === true && block.name === 'run_shell_command')),
      ),
    );
}
