/**
 * What one importer run collects besides the history: skipped records with their location and
 * reason, ignored non-conversation records counted by reason, and session facts (id, working
 * directory, model). `build` freezes it all into an `ImportedSession`.
 */
import { ContentAccumulator } from './ContentAccumulator.js';
import { computeSessionStats } from './sessionStats.js';
import type {
  ImportedSession,
  RecordedCalls,
  RecordLocation,
  SessionRole,
  SkippedRecord,
  TranscriptFormat,
} from './types.js';

/** What every importer is told about its input. */
export interface ImportSource {
  /** The file name used in locations and errors (need not exist for in-memory tests). */
  readonly file: string;
  /** Keep recorded reasoning as thinking blocks (default: the importer's, see ImportOptions). */
  readonly includeThinking?: boolean;
}

/** How `ignored` names records of a type the importer does not know (`ignoreUnknown`). */
export const UNKNOWN_RECORD_PREFIX = 'unknown ';

export class SessionBuilder {
  readonly content: ContentAccumulator;
  private readonly skipped: SkippedRecord[] = [];
  private readonly ignored = new Map<string, number>();
  private readonly recordedReplies = new Set<string>();
  private recordedModelCalls: number | undefined;
  private recordedToolCalls = 0;
  sessionId: string | undefined;
  workspaceRoot: string | undefined;
  model: string | undefined;
  /** What the file is to its client (set by importers that can tell). */
  role: SessionRole = 'session';

  constructor(
    private readonly source: ImportSource,
    private readonly format: TranscriptFormat,
    private readonly sessionIndex = 0,
  ) {
    this.content = new ContentAccumulator(source.includeThinking ?? false);
  }

  /** A malformed or unusable record, left out. */
  skip(location: RecordLocation, reason: string): void {
    this.skipped.push({ ...location, reason });
  }

  /** A tool result (or observation) that answers no call of the session, left out. */
  skipOrphanResult(location: RecordLocation, reason: string): void {
    this.skipped.push({ ...location, reason, kind: 'orphan-result' });
  }

  /** A record of a type the importer does not know, counted as `unknown <what>`. */
  ignoreUnknown(what: string): void {
    this.ignore(`${UNKNOWN_RECORD_PREFIX}${what}`);
  }

  /** A record that is not conversation (progress, snapshot, system prompt…), counted by reason. */
  ignore(reason: string, count = 1): void {
    this.ignored.set(reason, (this.ignored.get(reason) ?? 0) + count);
  }

  /** Declares that this importer counts what the file holds: `recorded` is set, from 0. */
  countRecorded(): void {
    this.recordedModelCalls ??= 0;
  }

  /**
   * Counts a model reply the file holds, before any mapping (replies sharing `groupKey` count once).
   * An importer that counts lets `checkImport` compare what it read with what it imported.
   */
  recordModelCall(groupKey?: string): void {
    if (groupKey !== undefined) {
      if (this.recordedReplies.has(groupKey)) return;
      this.recordedReplies.add(groupKey);
    }
    this.recordedModelCalls = (this.recordedModelCalls ?? 0) + 1;
  }

  /** Counts tool calls the file holds, before any mapping (see `recordModelCall`). */
  recordToolCalls(count: number): void {
    this.recordedModelCalls ??= 0;
    this.recordedToolCalls += count;
  }

  /** Adds calls the file holds, counted by a separate counter over its raw records. */
  addRecorded(calls: RecordedCalls): void {
    this.recordedModelCalls = (this.recordedModelCalls ?? 0) + calls.modelCalls;
    this.recordedToolCalls += calls.toolCalls;
  }

  /** Sets a session fact the first time a non-empty value is seen. */
  noteFacts(facts: { sessionId?: unknown; workspaceRoot?: unknown; model?: unknown }): void {
    if (this.sessionId === undefined && isText(facts.sessionId)) this.sessionId = facts.sessionId;
    if (this.workspaceRoot === undefined && isText(facts.workspaceRoot)) {
      this.workspaceRoot = facts.workspaceRoot;
    }
    if (this.model === undefined && isText(facts.model)) this.model = facts.model;
  }

  build(): ImportedSession {
    const contents = this.content.build();
    return {
      file: this.source.file,
      format: this.format,
      sessionIndex: this.sessionIndex,
      ...(this.role === 'session' ? {} : { role: this.role }),
      ...(this.sessionId === undefined ? {} : { sessionId: this.sessionId }),
      ...(this.workspaceRoot === undefined ? {} : { workspaceRoot: this.workspaceRoot }),
      ...(this.model === undefined ? {} : { model: this.model }),
      contents,
      skipped: [...this.skipped],
      ignored: Object.fromEntries(this.ignored),
      ...(this.recordedModelCalls === undefined
        ? {}
        : {
            recorded: {
              modelCalls: this.recordedModelCalls,
              toolCalls: this.recordedToolCalls,
            },
          }),
      stats: computeSessionStats(contents),
    };
  }
}

function isText(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}
