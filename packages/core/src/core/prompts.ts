/**
 * The shipped prompts of core. The text lives in `prompt-config/defaults/*.md` (the one source);
 * this module only knows where that directory is and loads from it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorMessage } from '../utils/errors.js';
import { PromptFileError } from '../prompt-config/PromptFileError.js';
import { locateDefaultPromptsDir } from '../prompt-config/locateDefaultPromptsDir.js';

export const COMPRESSION_PROMPT_FILE = 'compression.md';

/** The sections of the `<state_snapshot>` the compression prompt asks for (REQ-HD-010). */
export const STATE_SNAPSHOT_SECTIONS = [
  'overall_goal',
  'key_knowledge',
  'file_system_state',
  'recent_actions',
  'current_plan',
  'task_context',
  'user_directives',
  'errors_encountered',
  'code_references',
] as const;

/**
 * The shipped defaults directory (`<@dense/core>/src/prompt-config/defaults`), found by walking
 * up from this module to the package's package.json, so it is right from `src` and from `dist`.
 * Pass it as `promptBaseDir` when building a CompressionContext.
 */
export const DEFAULT_PROMPTS_DIR: string =
  locateDefaultPromptsDir(import.meta.url) ??
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'prompt-config', 'defaults');

/**
 * The default compression prompt (compression.md from `dir`), without user overrides — the
 * strategies go through a PromptResolver instead. Throws `PromptFileError` when it is missing,
 * unreadable or empty.
 */
export function getCompressionPrompt(dir: string = DEFAULT_PROMPTS_DIR): string {
  const filePath = path.join(dir, COMPRESSION_PROMPT_FILE);
  let text: string;
  try {
    text = readFileSync(filePath, 'utf8');
  } catch (error: unknown) {
    throw new PromptFileError(
      'PROMPT_NOT_FOUND',
      COMPRESSION_PROMPT_FILE,
      [filePath],
      `Cannot read the default compression prompt at ${filePath}: ${errorMessage(error)}. ` +
        'The installation is incomplete; reinstall @dense/core.',
      { cause: error },
    );
  }
  if (text.trim() === '') {
    throw new PromptFileError(
      'PROMPT_EMPTY',
      COMPRESSION_PROMPT_FILE,
      [filePath],
      `The default compression prompt at ${filePath} is empty; reinstall @dense/core.`,
    );
  }
  return text;
}
