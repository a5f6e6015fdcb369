/**
 * The recall store backed by the session's JSONL recording: every original entry the
 * turn loop added is a content line there, so an id resolves after a resume too. Headless: the
 * file is read through `readText`, which the CLI points at its recording.
 */
import { errorMessage } from '../../utils/errors.js';
import { parseSessionLine } from '../../transcripts/sessionFormat.js';
import {
  RecallIndex,
  unknownIdMessage,
  type RecallLookup,
  type RecallStore,
} from './RecallStore.js';

export interface RecordingRecallStoreOptions {
  /** Where the recording is, for messages. */
  readonly file: string;
  /** The recording's text; `undefined` when there is no recording (yet). May throw. */
  readonly readText: () => Promise<string | undefined>;
}

export class RecordingRecallStore implements RecallStore {
  private cached:
    { readonly text: string; readonly index: RecallIndex; readonly bad: number } | undefined;

  constructor(private readonly options: RecordingRecallStoreOptions) {}

  async lookup(id: string): Promise<RecallLookup> {
    let text: string | undefined;
    try {
      text = await this.options.readText();
    } catch (error) {
      return {
        kind: 'unavailable',
        message: `The session recording ${this.options.file} could not be read (${errorMessage(error)}), so nothing can be recalled from it. Re-run the tool if you need the content.`,
      };
    }
    if (text === undefined) {
      return {
        kind: 'unavailable',
        message: `This session is not recorded (no ${this.options.file}), so recall has no store to read from.`,
      };
    }
    const { index, bad } = this.indexOf(text);
    const content = index.get(id);
    if (content !== undefined) return { kind: 'found', content };
    if (bad > 0) {
      return {
        kind: 'corrupt',
        message: `${unknownIdMessage(id)} The recording ${this.options.file} has ${bad} unreadable line(s); the original may have been in one of them.`,
      };
    }
    return { kind: 'unknown-id', message: unknownIdMessage(id) };
  }

  /** Indexes the recording once per distinct text (it only grows while the session runs). */
  private indexOf(text: string): { readonly index: RecallIndex; readonly bad: number } {
    if (this.cached?.text === text) return this.cached;
    const index = new RecallIndex();
    let bad = 0;
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      const parsed = parseSessionLine(line);
      if (parsed.kind === 'content') index.add(parsed.content);
      else if (parsed.kind === 'invalid') bad++;
    }
    this.cached = { text, index, bad };
    return this.cached;
  }
}
