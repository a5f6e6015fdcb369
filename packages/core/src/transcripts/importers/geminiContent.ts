/**
 * gemini-cli `/chat share file.json` (the raw `Content[]` history) → IContent[]. Calls carry no id
 * in this format, so each is linked to the response that answers it in the next content (by id when
 * present, otherwise by name in order) and takes the response's id, or a stable synthesized one.
 * `convertGeminiTurns` is shared with the markdown importer, which parses into the same turns.
 */
import { type ContentBlock } from '../../services/history/IContent.js';
import {
  asCall,
  findGeminiWorkspaceRoot,
  geminiCallBlock,
  modelTextBlock,
  responsesFromParts,
  userMessage,
  type GeminiCall,
  type GeminiResponse,
} from '../geminiParts.js';
import { countGeminiContentCalls } from '../recordedCalls.js';
import { SessionBuilder, type ImportSource } from '../SessionBuilder.js';
import { TranscriptError } from '../TranscriptError.js';
import { isParams } from '../toolAliases.js';
import type { ImportedSession, RecordLocation } from '../types.js';

export interface GeminiTurn {
  readonly role: string;
  readonly parts: readonly unknown[];
  readonly location: RecordLocation;
}

/**
 * For each call of a model turn: its id and the index of the response in the next turn that answers
 * it (-1 if none). Responses match by id first, then by name in order.
 */
function pairCalls(
  calls: readonly GeminiCall[],
  responses: readonly GeminiResponse[],
  turn: number,
): { id: string; response: number }[] {
  const used = new Set<number>();
  return calls.map((call, k) => {
    const free = (i: number): boolean => !used.has(i);
    let match =
      call.id === undefined ? -1 : responses.findIndex((r, i) => free(i) && r.id === call.id);
    if (match === -1) match = responses.findIndex((r, i) => free(i) && r.name === call.name);
    if (match !== -1) used.add(match);
    return { id: call.id ?? responses[match]?.id ?? `gemini-${turn}-${k}`, response: match };
  });
}

class TurnConverter {
  /** `${turn}:${response}` → the id of the call it answers. */
  private readonly answers = new Map<string, string>();

  constructor(
    private readonly turns: readonly GeminiTurn[],
    private readonly builder: SessionBuilder,
  ) {}

  run(): void {
    this.turns.forEach((turn, i) =>
      turn.role === 'model' ? this.model(turn, i) : this.user(turn, i),
    );
  }

  private model(turn: GeminiTurn, index: number): void {
    const blocks: ContentBlock[] = [];
    const calls: { call: GeminiCall; at: number }[] = [];
    for (const part of turn.parts) {
      if (!isParams(part)) continue;
      const call = asCall(part.functionCall);
      if (call) {
        calls.push({ call, at: blocks.length });
        blocks.push({ type: 'text', text: '' });
      } else {
        const block = modelTextBlock(part);
        if (block) blocks.push(block);
      }
    }
    const next = this.turns[index + 1];
    const responses = next?.role === 'user' ? responsesFromParts(next.parts).responses : [];
    const pairs = pairCalls(
      calls.map((c) => c.call),
      responses,
      index,
    );
    calls.forEach(({ call, at }, k) => {
      const pair = pairs[k] ?? { id: `gemini-${index}-${k}`, response: -1 };
      blocks[at] = geminiCallBlock(call, pair.id);
      if (pair.response !== -1) this.answers.set(`${index + 1}:${pair.response}`, pair.id);
    });
    this.builder.content.ai(blocks);
  }

  private user(turn: GeminiTurn, index: number): void {
    const { responses, leadingText } = responsesFromParts(turn.parts);
    responses.forEach((response, i) => {
      const callId = this.answers.get(`${index}:${i}`) ?? response.id ?? '';
      const recorded = this.builder.content.toolResponse({
        callId,
        result: response.result,
        ...(response.error === undefined ? {} : { error: response.error }),
      });
      if (!recorded)
        this.builder.skip(
          turn.location,
          `functionResponse '${response.name}' answers no recorded call`,
        );
    });
    if (leadingText.trim() === '') return;
    if (index === 0)
      this.builder.noteFacts({ workspaceRoot: findGeminiWorkspaceRoot(leadingText) });
    const message = userMessage(leadingText);
    this.builder.content.human(message.text, message.metadata);
  }
}

/** Adds gemini turns (role + parts) to a session. */
export function convertGeminiTurns(turns: readonly GeminiTurn[], builder: SessionBuilder): void {
  new TurnConverter(turns, builder).run();
}

/** Imports a parsed `/chat share` JSON document (`Content[]`). */
export function importGeminiContent(document: unknown, source: ImportSource): ImportedSession {
  if (!Array.isArray(document)) {
    throw new TranscriptError(
      'TRANSCRIPT_INVALID_STRUCTURE',
      `${source.file}: expected a JSON array of gemini Content objects ({role, parts}).`,
      source.file,
      { path: '$' },
    );
  }
  const builder = new SessionBuilder(source, 'gemini-cli-content');
  builder.addRecorded(countGeminiContentCalls(document));
  const turns: GeminiTurn[] = [];
  document.forEach((content: unknown, i) => {
    const location = { path: `$[${i}]` };
    if (!isParams(content) || !Array.isArray(content.parts) || typeof content.role !== 'string') {
      builder.skip(location, 'expected a Content object with a string role and a parts array');
    } else turns.push({ role: content.role, parts: content.parts, location });
  });
  convertGeminiTurns(turns, builder);
  return builder.build();
}
