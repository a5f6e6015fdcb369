/**
 * The working budget measures a request in characters at a calibrated tokens-per-character rate;
 * a base64 image would count as its characters (a 600 KB screenshot as ~150,000 tokens). This
 * gives, per turn, what its images change that count by: each counted as the characters its
 * provider-rule tokens (`imageTokens`) stand for at that rate. Also the calibration itself with
 * the sent request's images taken out of both sides. Pure.
 */
import type { TextSlices } from '../../utils/TextSlices.js';
import {
  imageCharDelta,
  imageLoadsOf,
  requestImages,
  NO_IMAGES,
  type ImageLoad,
} from './requestImages.js';

interface Span {
  readonly start: number;
  readonly end: number;
}

export interface TurnImageInput {
  /** The request text the spans index. */
  readonly text: TextSlices;
  /** Each wire message's span, in order. */
  readonly spans: readonly Span[];
  /** Index of each turn's first message, ascending; a turn runs to the next one's first. */
  readonly turnFirsts: readonly number[];
  readonly tokensPerChar: number;
}

/**
 * Per turn, the characters to add to its character count (negative: a turn holding an image counts
 * less than its base64); all zeros when the request holds no base64 image.
 */
export function turnImageCharDeltas(input: TurnImageInput): number[] {
  const deltas = input.turnFirsts.map(() => 0);
  const images = requestImages(input.text);
  if (images.length === 0) return deltas;
  const loads = imageLoadsOf(images, input.spans);
  input.turnFirsts.forEach((first, turn) => {
    const end = input.turnFirsts[turn + 1] ?? loads.length;
    for (let item = first; item < end; item++) {
      deltas[turn] =
        (deltas[turn] ?? 0) + imageCharDelta(loads[item] ?? NO_IMAGES, input.tokensPerChar);
    }
  });
  return deltas;
}

/** `chars` with `deltas` added, turn by turn (never below 0). */
export function withImageDeltas(chars: readonly number[], deltas: readonly number[]): number[] {
  return chars.map((count, turn) => Math.max(0, count + (deltas[turn] ?? 0)));
}

/**
 * Reported prompt tokens per character of the sent request's text, its images taken out of both
 * the tokens and the characters (else one screenshot makes every later text estimate ~10× low).
 * Undefined when nothing is left to calibrate on.
 */
export function textTokensPerChar(input: {
  readonly promptTokens: number;
  readonly sentChars: number;
  readonly sentImages?: ImageLoad;
}): number | undefined {
  const images = input.sentImages ?? NO_IMAGES;
  const tokens = input.promptTokens - images.tokens;
  const chars = input.sentChars - images.chars;
  return tokens > 0 && chars > 0 ? tokens / chars : undefined;
}
