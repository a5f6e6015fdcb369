import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createAiMessage,
  createUserMessage,
  type IContent,
} from '../../services/history/IContent.js';
import { ai, human, toolCall, toolResult } from '../../test-utils/historyBuilders.js';
import { adjustForToolCallBoundary as fromBoundary } from './toolCallBoundary.js';
import {
  adjustForToolCallBoundary,
  DEFAULT_MAX_TOOL_TEXT_CHARS,
  elideMiddle,
  sanitizeHistoryForCompression,
} from './utils.js';

describe('utils re-exports', () => {
  it('adjustForToolCallBoundary is the id-based boundary helper', () => {
    expect(adjustForToolCallBoundary).toBe(fromBoundary);
    const history = [
      human('go'),
      toolCall({ id: 'c1', name: 'read_file' }),
      ai('waiting'),
      toolResult({ id: 'c1', name: 'read_file' }),
    ];
    // Not adjacent: the response is two entries after the call.
    expect(adjustForToolCallBoundary(history, 3)).toBe(1);
    expect(adjustForToolCallBoundary(history, 2, 'later')).toBe(4);
  });
});

describe('sanitizeHistoryForCompression', () => {
  it('renders tool calls and results as readable text with name, id and parameters', () => {
    const text = sanitizeHistoryForCompression([
      human('Please fix the bug'),
      toolCall({ id: 'c1', name: 'read_file', parameters: { file_path: 'src/a.ts' } }, 'Reading.'),
      toolResult({ id: 'c1', name: 'read_file', result: 'export const a = 1;' }),
      toolCall({ id: 'c2', name: 'replace', parameters: { file_path: 'src/a.ts' } }),
      toolResult({ id: 'c2', name: 'replace', error: 'old_string not found' }),
    ]);
    expect(text).toBe(
      [
        '[User]\nPlease fix the bug',
        '[Assistant]\nReading.\n→ Tool call read_file (id c1) with parameters: {"file_path":"src/a.ts"}',
        '[Tool]\n← Result of read_file (id c1):\nexport const a = 1;',
        '[Assistant]\n→ Tool call replace (id c2) with parameters: {"file_path":"src/a.ts"}',
        '[Tool]\n← replace (id c2) failed: old_string not found',
      ].join('\n\n'),
    );
  });

  it('renders structured results as JSON and keeps partial output of failed tools', () => {
    const text = sanitizeHistoryForCompression([
      toolResult({ id: 'c', name: 'run_shell_command', result: { exitCode: 2 }, error: 'exit 2' }),
    ]);
    expect(text).toBe('[Tool]\n← run_shell_command (id c) failed: exit 2\n{"exitCode":2}');
  });

  it('replaces media with a placeholder and never includes its data', () => {
    const media: IContent = createUserMessage('see image');
    const withImage: IContent = {
      ...media,
      blocks: [
        ...media.blocks,
        {
          type: 'media',
          mimeType: 'image/png',
          data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB',
          encoding: 'base64',
          filename: 'shot.png',
          caption: 'the error dialog',
        },
      ],
    };
    const text = sanitizeHistoryForCompression([withImage]);
    expect(text).toContain('[media image/png shot.png: the error dialog — content not included]');
    expect(text).not.toContain('iVBORw0KGgo');
  });

  it('drops thinking, skips entries left empty and renders code as a fenced block', () => {
    const thinkingOnly = createAiMessage([{ type: 'thinking', thought: 'secret plan' }]);
    const code = createAiMessage([{ type: 'code', code: 'let x = 1;', language: 'ts' }]);
    const text = sanitizeHistoryForCompression([thinkingOnly, code, ai('  ')]);
    expect(text).toBe('[Assistant]\n```ts\nlet x = 1;\n```');
  });

  it('labels an earlier summary so the summarizer knows it is one', () => {
    const summary = createUserMessage('<state_snapshot>…</state_snapshot>', { isSummary: true });
    expect(sanitizeHistoryForCompression([summary])).toMatch(
      /^\[User \(summary of earlier conversation\)\]/,
    );
  });

  it('elides the middle of very long tool results and parameters', () => {
    const long = 'a'.repeat(30) + 'MIDDLE' + 'z'.repeat(30);
    const text = sanitizeHistoryForCompression(
      [
        toolCall({ id: 'c', name: 'write_file', parameters: long }),
        toolResult({ id: 'c', name: 'write_file', result: long }),
      ],
      { maxToolTextChars: 20 },
    );
    expect(text).not.toContain('MIDDLE');
    expect(text).toContain('[… 46 characters omitted …]');
    expect(DEFAULT_MAX_TOOL_TEXT_CHARS).toBe(16_000);
  });

  it('never throws on odd parameters or results', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const text = sanitizeHistoryForCompression([
      toolCall({ id: 'c', name: 'x', parameters: circular }),
      toolResult({ id: 'c', name: 'x', result: 10n }),
      toolCall({ id: 'd', name: 'y', parameters: undefined }),
    ]);
    expect(text).toContain('with parameters: [unserializable value]');
    expect(text).toContain('← Result of x (id c):\n[unserializable value]');
  });

  it('does not mutate its input', () => {
    const history = [
      human('a'),
      toolCall({ id: 'c', name: 'x' }),
      toolResult({ id: 'c', name: 'x' }),
    ];
    const before = JSON.stringify(history);
    sanitizeHistoryForCompression(history);
    expect(JSON.stringify(history)).toBe(before);
  });
});

describe('elideMiddle', () => {
  it('keeps text within the limit and marks what it cut', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.integer({ min: 1, max: 100 }), (text, max) => {
        const out = elideMiddle(text, max);
        if (text.length <= max) return out === text;
        return (
          out.startsWith(text.slice(0, Math.ceil(max / 2))) &&
          out.endsWith(text.slice(text.length - Math.floor(max / 2))) &&
          out.includes(`[… ${text.length - max} characters omitted …]`)
        );
      }),
      { numRuns: 200 },
    );
  });
});
