/**
 * The prompt tokens of a request as the client sent it, estimated from the tokens the provider
 * reported for the request as forwarded: the text part scaled by the client's bytes over the bytes
 * forwarded, each image counted by its provider's rule (`imageTokens`), never its base64 as text.
 * A request forwarded unchanged is what was reported. The one estimate every meter and decision
 * about the client's side uses (pass-through cost, the client's context).
 */
import { NO_IMAGES, type ImageLoad } from './requestImages.js';

export interface ClientPromptInput {
  /** Prompt tokens the provider reported for the request as forwarded. */
  readonly sentPromptTokens: number;
  /** Bytes the client sent and bytes forwarded upstream. */
  readonly originalBytes: number;
  readonly sentBytes: number;
  /** The base64 images of each side (`bodyImageLoad`); absent: none. */
  readonly originalImages?: ImageLoad;
  readonly sentImages?: ImageLoad;
}

export function clientPromptTokens(input: ClientPromptInput): number {
  const { sentPromptTokens, originalBytes, sentBytes } = input;
  if (originalBytes === sentBytes || sentBytes <= 0) return sentPromptTokens;
  const original = input.originalImages ?? NO_IMAGES;
  const sent = input.sentImages ?? NO_IMAGES;
  const sentText = sentBytes - sent.chars;
  const originalText = Math.max(0, originalBytes - original.chars);
  const textTokens = Math.max(0, sentPromptTokens - sent.tokens);
  const scaled = sentText > 0 ? (textTokens * originalText) / sentText : originalText / 4;
  return Math.round(scaled) + original.tokens;
}
