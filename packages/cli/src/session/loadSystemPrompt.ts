/**
 * The agent's system prompt: `system.md` from the user's prompts directory when they have one,
 * else core's shipped default, with `{{workspace_root}}` and `{{date}}` filled in.
 */
import { DEFAULT_PROMPTS_DIR, type FilePromptResolver } from '@dense/core';

export const SYSTEM_PROMPT_FILE = 'system.md';

export interface SystemPromptValues {
  readonly workspaceRoot: string;
  readonly date: string;
}

export function fillSystemPrompt(template: string, values: SystemPromptValues): string {
  return template
    .replaceAll('{{workspace_root}}', values.workspaceRoot)
    .replaceAll('{{date}}', values.date);
}

/** Throws PromptFileError when neither an override nor the default can be read. */
export async function loadSystemPrompt(
  resolver: FilePromptResolver,
  values: SystemPromptValues,
  defaultsDir: string = DEFAULT_PROMPTS_DIR,
): Promise<string> {
  const template = await resolver.resolveFile(defaultsDir, SYSTEM_PROMPT_FILE, {});
  return fillSystemPrompt(template, values);
}
