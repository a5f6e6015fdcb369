/**
 * The text of a streamed reply as the client reads it: the text deltas of an Anthropic Messages
 * event stream (`content_block_delta` / `text_delta`) or of a Responses one
 * (`response.output_text.delta`), in order. The bench reads with it what `dense proxy` answered
 * to a client's compaction request: the summary that client then keeps. Pure.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function parsed(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}

function deltaText(event: unknown): string {
  if (!isObject(event)) return '';
  if (event.type === 'response.output_text.delta' && typeof event.delta === 'string') {
    return event.delta;
  }
  const delta = event.delta;
  if (event.type === 'content_block_delta' && isObject(delta) && delta.type === 'text_delta') {
    return typeof delta.text === 'string' ? delta.text : '';
  }
  return '';
}

/** The reply's text from the chunks of its event stream ('' when it carries none). */
export function replyText(chunks: readonly string[]): string {
  return chunks
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => deltaText(parsed(line.slice('data:'.length).trim())))
    .join('');
}
