/**
 * The parts of a client's request a transcript does not record: its system prompt and tool
 * definitions. The bench sends synthetic stand-ins of a realistic size (the recorded Claude Code
 * sessions read ~28k tokens from the cache on their first call after a compaction, system, tools
 * and project instructions together) so the fixed prefix weighs in the totals as it does for the
 * real client. The text is generated filler; only its size matters.
 */

/** Claude Code 2.1's tool list (names only; the definitions are filler). */
export const CLAUDE_CODE_TOOLS = [
  'Agent',
  'Bash',
  'Edit',
  'Glob',
  'Grep',
  'ListAgents',
  'Read',
  'ReportFindings',
  'ScheduleWakeup',
  'Skill',
  'ToolSearch',
  'Workflow',
  'DeferredToolPlaceholder',
  'Write',
] as const;

/** Roughly `tokens` o200k tokens of deterministic filler (one short sentence is ~10 tokens). */
export function fillerText(label: string, tokens: number): string {
  const sentences: string[] = [];
  for (let i = 0; i < Math.ceil(tokens / 10); i++) {
    sentences.push(`${label} rule ${i} keeps the stand-in prompt sized.`);
  }
  return sentences.join(' ');
}

export interface PrefixSizes {
  /** Tokens of the system prompt (three blocks, the last two with breakpoints). */
  readonly systemTokens: number;
  /** Tokens of all tool definitions together. */
  readonly toolTokens: number;
}

export const DEFAULT_PREFIX: PrefixSizes = { systemTokens: 6_000, toolTokens: 14_000 };

type Json = Record<string, unknown>;

/** Claude Code's system blocks: breakpoints on blocks 2 and 3, none on the tools. */
export function claudeSystem(sizes: PrefixSizes): Json[] {
  const ephemeral = { type: 'ephemeral' };
  return [
    { type: 'text', text: 'You are a coding agent (bench stand-in for the client prompt).' },
    { type: 'text', text: fillerText('identity', 200), cache_control: ephemeral },
    {
      type: 'text',
      text: fillerText('system', Math.max(0, sizes.systemTokens - 200)),
      cache_control: ephemeral,
    },
  ];
}

export function claudeTools(sizes: PrefixSizes): Json[] {
  const each = Math.floor(sizes.toolTokens / CLAUDE_CODE_TOOLS.length);
  return CLAUDE_CODE_TOOLS.map((name) => ({
    name,
    description: fillerText(name, each),
    input_schema: { type: 'object', properties: {} },
  }));
}

/** Codex sends its instructions in one field and no breakpoints. */
export function codexInstructions(sizes: PrefixSizes): string {
  return fillerText('instructions', sizes.systemTokens + sizes.toolTokens);
}
