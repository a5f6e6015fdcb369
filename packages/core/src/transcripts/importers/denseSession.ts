/**
 * Dense's own session JSONL → IContent[] (see sessionFormat.ts). Content lines are taken as
 * recorded, entry by entry; event lines are ignored; bad lines are skipped with their line number. A header with a
 * version this build does not know is an error, since its lines may mean something else.
 */
import type { LineSource } from '../lineSource.js';
import { countDenseSessionLine } from '../recordedCalls.js';
import { SessionBuilder, type ImportSource } from '../SessionBuilder.js';
import { SESSION_FORMAT_VERSION, readSessionLine } from '../sessionFormat.js';
import { TranscriptError } from '../TranscriptError.js';
import type { ImportedSession } from '../types.js';

/** Imports a Dense session recording. */
export async function importDenseSession(
  lines: LineSource,
  source: ImportSource,
): Promise<ImportedSession> {
  const builder = new SessionBuilder(source, 'dense-session');
  builder.countRecorded();
  let line = 0;
  for await (const raw of lines) {
    line += 1;
    if (raw.trim() === '') continue;
    const { json, parsed } = readSessionLine(raw);
    builder.addRecorded(countDenseSessionLine(json));
    switch (parsed.kind) {
      case 'session':
        if (parsed.version !== SESSION_FORMAT_VERSION) {
          throw new TranscriptError(
            'TRANSCRIPT_UNSUPPORTED_VERSION',
            `${source.file}:${line}: session format version ${parsed.version} is not supported (expected ${SESSION_FORMAT_VERSION}); update dense to read it.`,
            source.file,
            { line },
          );
        }
        if (line !== 1) builder.skip({ line }, 'session header after line 1');
        builder.noteFacts({
          sessionId: parsed.header.sessionId,
          workspaceRoot: parsed.header.workspaceRoot,
          model: parsed.header.model,
        });
        break;
      case 'content':
        builder.content.append(parsed.content);
        break;
      case 'event':
        builder.ignore('event line');
        break;
      case 'invalid':
        builder.skip({ line }, parsed.reason);
        break;
    }
  }
  return builder.build();
}
