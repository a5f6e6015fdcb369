/**
 * What an image in a request costs in prompt tokens, by each provider's own rule: the one place
 * these numbers live. Every meter and decision that sizes a request counts an image by this, never
 * its base64 as text (a 600 KB screenshot is ~1,400 tokens, not ~150,000).
 *
 * Anthropic (vision docs, "Evaluate image size"): an image whose long edge passes 1,568 px, or whose
 * size passes ~1.15 megapixels (the docs' largest unresized sizes, e.g. 1092×1092, 784×1568), is
 * scaled down to fit both; it then costs about width × height / 750 tokens, so at most ~1,600.
 * OpenAI (vision docs, "Calculating costs"): `detail: low` costs 85; otherwise the image is fitted
 * into 2048×2048, then scaled so its shortest side is at most 768, and costs 85 + 170 per 512-px
 * tile it covers.
 */
import type { ImageSize } from './imageDimensions.js';

export const ANTHROPIC_MAX_EDGE = 1568;
/** 1092 × 1092: the largest square Anthropic leaves unscaled. */
export const ANTHROPIC_MAX_PIXELS = 1092 * 1092;
export const ANTHROPIC_PIXELS_PER_TOKEN = 750;
/** An Anthropic image whose size cannot be read: the most any image costs there. */
export const ANTHROPIC_UNKNOWN_IMAGE_TOKENS = 1_600;

export const OPENAI_BASE_TOKENS = 85;
export const OPENAI_TILE_TOKENS = 170;
const OPENAI_TILE = 512;
const OPENAI_FIT = 2048;
const OPENAI_SHORT_SIDE = 768;
/**
 * An OpenAI image (high or auto detail) whose size cannot be read: a 2048×768 or larger fit, the
 * most a high-detail image costs (6 tiles).
 */
export const OPENAI_UNKNOWN_IMAGE_TOKENS = OPENAI_BASE_TOKENS + 6 * OPENAI_TILE_TOKENS;

export type ImageTokenRule = 'anthropic' | 'openai';

export interface ImageCostInput {
  readonly rule: ImageTokenRule;
  /** Undefined: the header could not be read. */
  readonly size: ImageSize | undefined;
  /** OpenAI's `detail` (`low`, `high`, `auto`); ignored by Anthropic. */
  readonly detail?: string | undefined;
}

function anthropicTokens(size: ImageSize | undefined): number {
  if (size === undefined) return ANTHROPIC_UNKNOWN_IMAGE_TOKENS;
  const edge = Math.min(1, ANTHROPIC_MAX_EDGE / Math.max(size.width, size.height));
  const area = Math.min(1, Math.sqrt(ANTHROPIC_MAX_PIXELS / (size.width * size.height)));
  const scale = Math.min(edge, area);
  const pixels = Math.floor(size.width * scale) * Math.floor(size.height * scale);
  return Math.max(1, Math.ceil(pixels / ANTHROPIC_PIXELS_PER_TOKEN));
}

function openaiTokens(size: ImageSize | undefined, detail: string | undefined): number {
  if (detail === 'low') return OPENAI_BASE_TOKENS;
  if (size === undefined) return OPENAI_UNKNOWN_IMAGE_TOKENS;
  const fit = Math.min(1, OPENAI_FIT / Math.max(size.width, size.height));
  let width = size.width * fit;
  let height = size.height * fit;
  const short = Math.min(1, OPENAI_SHORT_SIDE / Math.min(width, height));
  width *= short;
  height *= short;
  const tiles = Math.ceil(width / OPENAI_TILE) * Math.ceil(height / OPENAI_TILE);
  return OPENAI_BASE_TOKENS + OPENAI_TILE_TOKENS * tiles;
}

/** Prompt tokens of one image under `rule`. */
export function imageTokens(input: ImageCostInput): number {
  return input.rule === 'anthropic'
    ? anthropicTokens(input.size)
    : openaiTokens(input.size, input.detail);
}
