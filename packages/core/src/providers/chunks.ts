/** Builders for the ProviderChunk shapes every provider yields, so all three stream alike. */
import { randomUUID } from 'node:crypto';
import { textBlock, toolCallBlock, type UsageStats } from '../services/history/IContent.js';
import type { ProviderChunk } from './IProvider.js';

export function textChunk(text: string): ProviderChunk {
  return { content: { speaker: 'ai', blocks: [textBlock(text)] } };
}

export function thinkingChunk(thought: string, signature?: string): ProviderChunk {
  const block =
    signature === undefined
      ? { type: 'thinking' as const, thought }
      : { type: 'thinking' as const, thought, signature };
  return { content: { speaker: 'ai', blocks: [block] } };
}

export function toolCallChunk(id: string, name: string, parameters: unknown): ProviderChunk {
  return { content: { speaker: 'ai', blocks: [toolCallBlock(id, name, parameters)] } };
}

export function usageChunk(usage: UsageStats): ProviderChunk {
  return { content: { speaker: 'ai', blocks: [] }, usage };
}

/** Builds UsageStats, leaving `cachedTokens` out when the API did not report it. */
export function makeUsage(input: {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly totalTokens?: number;
  readonly cachedTokens?: number | undefined;
}): UsageStats {
  const base = {
    promptTokens: input.promptTokens,
    completionTokens: input.completionTokens,
    totalTokens: input.totalTokens ?? input.promptTokens + input.completionTokens,
  };
  return input.cachedTokens === undefined ? base : { ...base, cachedTokens: input.cachedTokens };
}

/** Makes ids for tool calls the API did not name (Gemini). */
export type IdFactory = () => string;

export const defaultIdFactory: IdFactory = () => `call_${randomUUID().replace(/-/g, '')}`;
