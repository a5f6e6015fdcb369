import { describe, expect, it } from 'vitest';
import { human, toolCall, toolResult } from '../test-utils/historyBuilders.js';
import { EMPTY_DENSITY_METADATA } from '../core/compression/types.js';
import { PRUNED_POINTER } from '../core/compression/densityVocabulary.js';
import { attributeDensityTokens } from './attributeDensityTokens.js';
import { countTokensFromScratch } from '../services/history/HistoryService.js';
import type { IContent } from '../services/history/IContent.js';

const estimate = (contents: readonly IContent[]) =>
  countTokensFromScratch(contents, { countText: (t) => t.length });

describe('attributeDensityTokens', () => {
  it('attributes removals to read→write, shrunk human text to dedup, pointered results to recency', async () => {
    const history = [
      human('see --- a.ts --- AAAAAAAA'),
      toolCall({ id: 'r', name: 'read_file', parameters: { file_path: 'a.ts' } }),
      toolResult({ id: 'r', name: 'read_file', result: 'stale content' }),
      toolResult([
        { id: 's1', name: 'run_shell_command', result: 'long shell output' },
        { id: 'r2', name: 'read_file', result: 'another stale read' },
      ]),
    ];
    const shrunk = human('see [removed]');
    const mixed: IContent = {
      speaker: 'tool',
      blocks: [
        {
          type: 'tool_response',
          callId: 's1',
          toolName: 'run_shell_command',
          result: PRUNED_POINTER,
        },
      ],
    };
    const result = {
      removals: [1, 2],
      replacements: new Map([
        [0, shrunk],
        [3, mixed],
      ]),
      metadata: EMPTY_DENSITY_METADATA,
    };
    const tokens = await attributeDensityTokens(history, result, estimate);
    const total = (await estimate(history)) - (await estimate([shrunk, mixed]));
    expect(tokens.dedup).toBe((await estimate([history[0]!])) - (await estimate([shrunk])));
    expect(tokens.readWrite).toBe(
      (await estimate([history[1]!, history[2]!])) +
        (await estimate([{ speaker: 'tool', blocks: [history[3]!.blocks[1]!] }])),
    );
    expect(tokens.readWrite + tokens.dedup + tokens.recency).toBe(total);
  });

  it('#12.3 tells apart tool blocks that share a reused id', async () => {
    const history = [
      toolResult([
        { id: 'call_1', name: 'read_file', result: 'stale read content' },
        { id: 'call_1', name: 'run_shell_command', result: 'long shell output' },
      ]),
    ];
    const after: IContent = {
      speaker: 'tool',
      blocks: [
        {
          type: 'tool_response',
          callId: 'call_1',
          toolName: 'run_shell_command',
          result: PRUNED_POINTER,
        },
      ],
    };
    const result = {
      removals: [],
      replacements: new Map([[0, after]]),
      metadata: EMPTY_DENSITY_METADATA,
    };
    const tokens = await attributeDensityTokens(history, result, estimate);
    expect(tokens.readWrite).toBe(
      await estimate([{ speaker: 'tool', blocks: [history[0]!.blocks[0]!] }]),
    );
    expect(tokens.recency).toBe(
      (await estimate(history)) - (await estimate([after])) - tokens.readWrite,
    );
  });
});
