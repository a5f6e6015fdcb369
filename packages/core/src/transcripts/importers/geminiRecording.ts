/**
 * gemini-cli chat recording (`~/.gemini/tmp/<hash>/chats/session-*.json`) → IContent[]. A `gemini`
 * message holds the reply and its tool calls with their results; the results become tool entries
 * (status `error`/`cancelled` or an `error` response → error). Thought summaries become thinking
 * blocks; info/error/warning messages are UI notices and are ignored.
 */
import {
  textBlock,
  type ContentBlock,
  type ContentMetadata,
} from '../../services/history/IContent.js';
import {
  geminiCallBlock,
  asCall,
  partsText,
  responsesFromParts,
  userMessage,
} from '../geminiParts.js';
import { inferWorkspaceRoot } from '../inferWorkspaceRoot.js';
import { countGeminiRecordingCalls } from '../recordedCalls.js';
import { SessionBuilder, type ImportSource } from '../SessionBuilder.js';
import { TranscriptError } from '../TranscriptError.js';
import { isParams } from '../toolAliases.js';
import { recordedTime } from '../jsonValues.js';
import type { ImportedSession } from '../types.js';

type Json = Readonly<Record<string, unknown>>;

function thoughtBlocks(thoughts: unknown): ContentBlock[] {
  return (Array.isArray(thoughts) ? thoughts : []).flatMap((thought): ContentBlock[] => {
    if (!isParams(thought)) return [];
    const subject = typeof thought.subject === 'string' ? thought.subject : '';
    const description = typeof thought.description === 'string' ? thought.description : '';
    return [{ type: 'thinking', thought: [subject, description].filter(Boolean).join('\n') }];
  });
}

function toolCallsOf(
  message: Json,
  path: string,
  builder: SessionBuilder,
): { call: Json; id: string }[] {
  return (Array.isArray(message.toolCalls) ? message.toolCalls : []).flatMap((call: unknown, k) => {
    if (!isParams(call) || typeof call.name !== 'string') {
      builder.skip({ path: `${path}.toolCalls[${k}]` }, 'expected a tool call with a name');
      return [];
    }
    return [{ call, id: typeof call.id === 'string' ? call.id : `${path}.toolCalls[${k}]` }];
  });
}

/** The reply's model and recorded time (the replay prices cache gaps with it). */
function aiMetadata(message: Json): { metadata?: ContentMetadata } {
  const timestamp = recordedTime(message.timestamp);
  const metadata = {
    ...(typeof message.model === 'string' ? { model: message.model } : {}),
    ...(timestamp === undefined ? {} : { timestamp }),
  };
  return Object.keys(metadata).length === 0 ? {} : { metadata };
}

function onGemini(message: Json, path: string, builder: SessionBuilder): void {
  builder.noteFacts({ model: message.model });
  const calls = toolCallsOf(message, path, builder);
  const blocks: ContentBlock[] = [
    ...thoughtBlocks(message.thoughts),
    textBlock(partsText(message.content)),
  ];
  for (const { call, id } of calls) {
    const parsed = asCall({ name: call.name, args: call.args ?? {} });
    if (parsed) blocks.push(geminiCallBlock(parsed, id));
  }
  builder.content.ai(blocks, aiMetadata(message));
  for (const { call, id } of calls) {
    const parts = Array.isArray(call.result) ? call.result : [];
    const response = responsesFromParts(parts).responses[0];
    const failed = call.status === 'error' || call.status === 'cancelled';
    const text = response?.error ?? response?.result ?? partsText(call.resultDisplay);
    builder.content.toolResponse(
      response?.error !== undefined || failed
        ? { callId: id, result: '', error: text }
        : { callId: id, result: text },
    );
  }
}

/** Imports a parsed chat recording (`{sessionId, projectHash, messages: [...]}`). */
export function importGeminiRecording(document: unknown, source: ImportSource): ImportedSession {
  if (!isParams(document) || !Array.isArray(document.messages)) {
    throw new TranscriptError(
      'TRANSCRIPT_INVALID_STRUCTURE',
      `${source.file}: expected a gemini-cli chat recording object with a messages array.`,
      source.file,
      { path: '$.messages' },
    );
  }
  const builder = new SessionBuilder(source, 'gemini-cli-recording');
  builder.noteFacts({ sessionId: document.sessionId });
  builder.addRecorded(countGeminiRecordingCalls(document.messages));
  document.messages.forEach((message: unknown, i) => {
    const path = `$.messages[${i}]`;
    if (!isParams(message)) builder.skip({ path }, 'expected a message object');
    else if (message.type === 'user') {
      const user = userMessage(partsText(message.content));
      builder.content.human(user.text, user.metadata);
    } else if (message.type === 'gemini') onGemini(message, path, builder);
    else builder.ignore(`${String(message.type)} message`);
  });
  const session = builder.build();
  const root = inferWorkspaceRoot(session.contents);
  return root === undefined ? session : { ...session, workspaceRoot: root };
}
