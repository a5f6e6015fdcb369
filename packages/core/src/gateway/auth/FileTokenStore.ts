/**
 * The embedded token store: one JSON file (mode 0600, replaced atomically on every change) holding
 * each token's SHA-256 and record. `userOf` rereads the file only when it changed on disk, so a
 * running proxy sees tokens created or revoked by `dense token` at its next request. Two
 * `dense token` commands changing the file at the same instant may lose one change (the shared
 * store does not have this limit).
 */
import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { errorMessage } from '../../utils/errors.js';
import { writeFileAtomic } from '../../utils/atomicWrite.js';
import { issueToken } from './issueToken.js';
import {
  byCreation,
  revokedBy,
  tokenRecordSchema,
  TokenStoreError,
  type CreatedToken,
  type TokenRecord,
  type TokenStore,
} from './TokenStore.js';
import { looksLikeToken, tokenHash } from './tokenSecret.js';

const fileEntrySchema = tokenRecordSchema.extend({ hash: z.string().regex(/^[0-9a-f]{64}$/) });
const tokenFileSchema = z.object({ version: z.literal(1), tokens: z.array(fileEntrySchema) });

type FileEntry = z.infer<typeof fileEntrySchema>;

export interface FileTokenStoreOptions {
  readonly file: string;
  readonly now?: () => number;
}

/** What identifies one version of the file on disk (an atomic replace changes the inode). */
interface FileVersion {
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

function sameVersion(a: FileVersion, b: FileVersion): boolean {
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

function recordOf(entry: FileEntry): TokenRecord {
  return { id: entry.id, user: entry.user, createdAt: entry.createdAt };
}

export class FileTokenStore implements TokenStore {
  readonly file: string;
  private readonly now: () => number;
  private cache: { version: FileVersion; users: Map<string, string> } | undefined;

  constructor(options: FileTokenStoreOptions) {
    this.file = options.file;
    this.now = options.now ?? Date.now;
  }

  async create(user: string): Promise<CreatedToken> {
    const issued = issueToken(user, this.now());
    const entries = await this.read();
    await this.write([...entries, { hash: issued.hash, ...issued.record }]);
    return { token: issued.token, record: issued.record };
  }

  async list(): Promise<readonly TokenRecord[]> {
    return (await this.read()).map(recordOf).sort(byCreation);
  }

  async revoke(idOrUser: string): Promise<readonly TokenRecord[]> {
    const entries = await this.read();
    const revoked = new Set(revokedBy(entries, idOrUser));
    if (revoked.size > 0) await this.write(entries.filter((entry) => !revoked.has(entry)));
    return [...revoked].map(recordOf).sort(byCreation);
  }

  async userOf(token: string): Promise<string | undefined> {
    if (!looksLikeToken(token)) return undefined;
    const users = await this.users();
    return users.get(tokenHash(token));
  }

  /** Hash → user, reread only when the file changed. */
  private async users(): Promise<Map<string, string>> {
    let version: FileVersion | undefined;
    try {
      const stats = await stat(this.file);
      version = {
        ino: stats.ino,
        size: stats.size,
        mtimeMs: stats.mtimeMs,
        ctimeMs: stats.ctimeMs,
      };
    } catch (error) {
      if (!isMissing(error)) throw this.unreadable(error);
    }
    if (version === undefined) return new Map();
    const cached = this.cache;
    if (cached !== undefined && sameVersion(cached.version, version)) return cached.users;
    const users = new Map((await this.read()).map((entry) => [entry.hash, entry.user]));
    this.cache = { version, users };
    return users;
  }

  private async read(): Promise<FileEntry[]> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if (isMissing(error)) return [];
      throw this.unreadable(error);
    }
    return this.parse(text);
  }

  private parse(text: string): FileEntry[] {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw this.invalid(`not JSON: ${errorMessage(error)}`, error);
    }
    const parsed = tokenFileSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where =
        issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
      throw this.invalid(`${issue?.message ?? 'unexpected shape'}${where}`, parsed.error);
    }
    return parsed.data.tokens;
  }

  private async write(entries: readonly FileEntry[]): Promise<void> {
    const content = `${JSON.stringify({ version: 1, tokens: entries }, null, 2)}\n`;
    try {
      await writeFileAtomic(this.file, content);
    } catch (error) {
      throw new TokenStoreError(
        'TOKEN_FILE_UNREADABLE',
        `the token file ${this.file} cannot be written (${errorMessage(error)})`,
        { cause: error },
      );
    }
  }

  private invalid(detail: string, cause: unknown): TokenStoreError {
    return new TokenStoreError(
      'TOKEN_FILE_INVALID',
      `the token file ${this.file} is not valid (${detail.split('\n')[0] ?? ''}): restore it, or move it away and create the tokens again with \`dense token create <user>\``,
      { cause },
    );
  }

  private unreadable(cause: unknown): TokenStoreError {
    return new TokenStoreError(
      'TOKEN_FILE_UNREADABLE',
      `the token file ${this.file} cannot be read (${errorMessage(cause)})`,
      { cause },
    );
  }
}
