/**
 * OpenHands sessions → IContent[]: an event stream saved as one JSON array (`openhands-events`), or
 * an evaluation / resolver `output.jsonl` with one session per line (`openhands-output`, streamed).
 */
import { jsonObjectLines, type LineSource } from '../lineSource.js';
import { convertOpenHandsEvents } from '../openHandsEvents.js';
import { countOpenHandsCalls } from '../recordedCalls.js';
import { SessionBuilder, type ImportSource } from '../SessionBuilder.js';
import { TranscriptError } from '../TranscriptError.js';
import { isParams } from '../toolAliases.js';
import type { ImportedSession } from '../types.js';

/** Imports a parsed event array. */
export function importOpenHandsEvents(document: unknown, source: ImportSource): ImportedSession {
  if (!Array.isArray(document)) {
    throw new TranscriptError(
      'TRANSCRIPT_INVALID_STRUCTURE',
      `${source.file}: expected a JSON array of OpenHands events.`,
      source.file,
      { path: '$' },
    );
  }
  const builder = new SessionBuilder(source, 'openhands-events');
  builder.addRecorded(countOpenHandsCalls(document));
  convertOpenHandsEvents(document, builder, '$');
  return builder.build();
}

/** One session per `output.jsonl` line (`{instance_id, history, metadata, …}`); bad lines are reported. */
export async function importOpenHandsOutput(
  lines: LineSource,
  source: ImportSource,
): Promise<{ sessions: ImportedSession[]; invalidLines: { line: number; reason: string }[] }> {
  const sessions: ImportedSession[] = [];
  const invalidLines: { line: number; reason: string }[] = [];
  for await (const parsed of jsonObjectLines(lines)) {
    if (parsed.kind === 'invalid' || !Array.isArray(parsed.value.history)) {
      invalidLines.push({
        line: parsed.line,
        reason:
          parsed.kind === 'invalid' ? parsed.reason : 'expected an object with a history array',
      });
      continue;
    }
    const record = parsed.value;
    const builder = new SessionBuilder(source, 'openhands-output', sessions.length);
    const metadata = isParams(record.metadata) ? record.metadata : {};
    const llm = isParams(metadata.llm_config) ? metadata.llm_config : {};
    const issue = isParams(record.issue) ? record.issue : {};
    builder.noteFacts({
      sessionId:
        record.instance_id ?? (typeof issue.number === 'number' ? String(issue.number) : undefined),
      model: llm.model,
    });
    const history = record.history as unknown[];
    builder.addRecorded(countOpenHandsCalls(history));
    convertOpenHandsEvents(history, builder, `line ${parsed.line}: $.history`);
    sessions.push(builder.build());
  }
  return { sessions, invalidLines };
}
