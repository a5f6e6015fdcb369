/**
 * Deterministic synthetic agent sessions for benchmarks: a seeded mix of file reads, edits (some
 * failing), shell runs, searches, `@` inclusions and chat, averaging about 400 bytes per entry.
 */
import { formatFileInclusions } from '../../densityVocabulary.js';
import {
  textBlock,
  toolCallBlock,
  toolResponseBlock,
  type IContent,
} from '../../../../services/history/IContent.js';
import { seededRandom } from '../../../../test-utils/seededRandom.js';

function fileText(path: string, version: number, lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(`  const v${i} = load('${path}', ${version}); // ${i}`);
  return out.join('\n');
}

interface Session {
  readonly history: IContent[];
  readonly next: () => number;
  id: number;
  readonly versions: Map<string, number>;
}

function roundTrip(s: Session, name: string, parameters: unknown, result: string, error?: string) {
  const id = `call-${s.id++}`;
  s.history.push({ speaker: 'ai', blocks: [toolCallBlock(id, name, parameters)] });
  s.history.push({
    speaker: 'tool',
    blocks: [
      toolResponseBlock({
        callId: id,
        toolName: name,
        result,
        ...(error === undefined ? {} : { error }),
      }),
    ],
  });
}

function step(s: Session, files: readonly string[]): void {
  const roll = s.next();
  const file = files[Math.floor(s.next() * files.length)] as string;
  const version = s.versions.get(file) ?? 0;
  if (roll < 0.3) {
    roundTrip(
      s,
      'read_file',
      { file_path: file },
      fileText(file, version, 20 + Math.floor(s.next() * 36)),
    );
  } else if (roll < 0.5) {
    const failed = s.next() < 0.05;
    if (!failed) s.versions.set(file, version + 1);
    const params = { file_path: file, old_string: 'load(', new_string: 'loadCached(' };
    roundTrip(
      s,
      'replace',
      params,
      failed ? '' : 'Successfully modified file.',
      failed ? 'old_string not found' : undefined,
    );
  } else if (roll < 0.7) {
    const lines = Array.from(
      { length: 6 + Math.floor(s.next() * 10) },
      (_, i) => `PASS test ${i} (${i} ms)`,
    );
    roundTrip(
      s,
      'run_shell_command',
      { command: 'npm test' },
      `Command: npm test\nOutput: ${lines.join('\n')}\nExit Code: 0`,
    );
  } else if (roll < 0.8) {
    roundTrip(s, 'grep', { pattern: 'load' }, `Found 4 matches\n${file}:1: load\n${file}:7: load`);
  } else if (roll < 0.9) {
    s.history.push({
      speaker: 'ai',
      blocks: [textBlock(`I changed ${file}; next I will run the tests again to confirm.`)],
    });
  } else if (s.next() < 0.3) {
    const inclusion = formatFileInclusions([{ path: file, content: fileText(file, version, 10) }]);
    s.history.push({
      speaker: 'human',
      blocks: [
        textBlock(`Look at @${file}\n--- Content from referenced files ---\n${inclusion}\n`),
      ],
    });
  } else {
    s.history.push({
      speaker: 'human',
      blocks: [textBlock('Keep going, and tell me when the tests pass.')],
    });
  }
}

/** A session of exactly `entries` entries over `fileCount` files, the same for the same seed. */
export function syntheticHistory(entries: number, seed = 1, fileCount = 200): IContent[] {
  const files = Array.from({ length: fileCount }, (_, i) => `src/module${i % 20}/file${i}.ts`);
  const session: Session = { history: [], next: seededRandom(seed), id: 0, versions: new Map() };
  session.history.push({
    speaker: 'human',
    blocks: [textBlock('Refactor the loader and keep the tests green.')],
  });
  while (session.history.length < entries) step(session, files);
  const history = session.history.slice(0, entries);
  // Never end on a call without its response.
  if (history.at(-1)?.blocks.some((b) => b.type === 'tool_call')) history.pop();
  return history;
}

/** Total characters of an entry list (text, JSON parameters, results), a size measure. */
export function historyBytes(history: readonly IContent[]): number {
  let total = 0;
  for (const entry of history) {
    for (const block of entry.blocks) {
      if (block.type === 'text') total += block.text.length;
      else if (block.type === 'tool_call') total += JSON.stringify(block.parameters).length;
      else if (block.type === 'tool_response') total += String(block.result).length;
    }
  }
  return total;
}
