/**
 * The PromptResolver that reads prompt files from disk: the user's override directory first
 * (`getDensePaths().promptsDir`, e.g. `~/.config/dense/prompts/compression.md`), then the
 * shipped defaults passed in as `baseDir`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../utils/errors.js';
import { getDensePaths } from '../utils/paths.js';
import { PromptFileError } from './PromptFileError.js';
import type { PromptContext, PromptResolver } from './PromptResolver.js';

/** Reads a UTF-8 file; rejects with Node's errno error (`ENOENT` means "not here"). */
export type ReadTextFile = (filePath: string) => Promise<string>;

export interface FilePromptResolverOptions {
  /** The user's override directory. Default: `getDensePaths().promptsDir` (honours DENSE_HOME). */
  readonly userPromptsDir?: string;
  readonly readTextFile?: ReadTextFile;
}

type ReadOutcome = { readonly kind: 'found'; readonly text: string } | { readonly kind: 'missing' };

const MISSING_CODES: ReadonlySet<string> = new Set(['ENOENT', 'ENOTDIR']);

function errnoCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/** A relative path that stays inside the directory it is resolved against. */
function isContainedRelativePath(relativePath: string): boolean {
  if (relativePath.trim() === '' || path.isAbsolute(relativePath)) return false;
  const normalized = path.normalize(relativePath);
  return normalized !== '..' && !normalized.startsWith(`..${path.sep}`);
}

export class FilePromptResolver implements PromptResolver {
  readonly userPromptsDir: string;
  private readonly readTextFile: ReadTextFile;

  constructor(options: FilePromptResolverOptions = {}) {
    this.userPromptsDir = options.userPromptsDir ?? getDensePaths().promptsDir;
    this.readTextFile = options.readTextFile ?? ((filePath) => readFile(filePath, 'utf8'));
  }

  /**
   * The override's text when the user has one, else the default's. Throws `PromptFileError`:
   * `PROMPT_NOT_FOUND` (neither exists), `PROMPT_UNREADABLE` (exists but cannot be read; the
   * default is not used in its place), `PROMPT_EMPTY` (a blank file), `PROMPT_INVALID_PATH`
   * (`relativePath` is absolute or leaves the directory). `context` is accepted for future
   * per-provider prompts and not used yet.
   */
  async resolveFile(
    baseDir: string,
    relativePath: string,
    _context: Readonly<Partial<PromptContext>>,
  ): Promise<string> {
    if (!isContainedRelativePath(relativePath)) {
      throw new PromptFileError(
        'PROMPT_INVALID_PATH',
        relativePath,
        [],
        `Prompt path '${relativePath}' must be a relative path inside the prompts directory.`,
      );
    }
    const tried: string[] = [];
    for (const dir of [this.userPromptsDir, baseDir]) {
      const filePath = path.resolve(dir, relativePath);
      tried.push(filePath);
      const outcome = await this.read(filePath, relativePath, tried);
      if (outcome.kind === 'missing') continue;
      if (outcome.text.trim() === '') {
        throw new PromptFileError(
          'PROMPT_EMPTY',
          relativePath,
          tried,
          `Prompt file ${filePath} is empty. Write the prompt into it, or delete it to use the default.`,
        );
      }
      return outcome.text;
    }
    throw new PromptFileError(
      'PROMPT_NOT_FOUND',
      relativePath,
      tried,
      `Prompt '${relativePath}' was not found at ${tried.join(' or ')}. Reinstall Dense, or put ` +
        `your own ${relativePath} in ${this.userPromptsDir}.`,
    );
  }

  private async read(
    filePath: string,
    relativePath: string,
    tried: readonly string[],
  ): Promise<ReadOutcome> {
    try {
      return { kind: 'found', text: await this.readTextFile(filePath) };
    } catch (error: unknown) {
      const code = errnoCode(error);
      if (code !== undefined && MISSING_CODES.has(code)) return { kind: 'missing' };
      throw new PromptFileError(
        'PROMPT_UNREADABLE',
        relativePath,
        [...tried],
        `Cannot read prompt file ${filePath}: ${errorMessage(error)}. Fix its permissions or ` +
          'remove it.',
        { cause: error },
      );
    }
  }
}
