/**
 * `--record DIR`: one JSON file per chat request (method, target and headers with credentials
 * redacted, the body, and the forwarded body when density changed it). Numbering continues after
 * the highest number already in the directory, and a file is only ever created, never replaced
 * (the final name is linked exclusively), so a restarted proxy or a second one on the same
 * directory never overwrites an earlier run's files.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { redactHeaders, redactUrl } from './redactCredentials.js';

export interface RecordedRequest {
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The body the client sent. */
  readonly body: Buffer;
  /** The body forwarded upstream. */
  readonly sent: Buffer;
}

const RECORD_FILE = /^(\d+)\.json$/;
const DIGITS = 5;

function isCode(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}

export class RequestRecorder {
  private next: Promise<number> | undefined;

  constructor(private readonly dir: string) {}

  /** Writes one request; resolves to the file written. May reject with the file system's error. */
  async record(request: RecordedRequest): Promise<string> {
    const entry = {
      method: request.method,
      url: request.url === undefined ? undefined : redactUrl(request.url),
      headers: redactHeaders(request.headers),
      body: request.body.toString('utf8'),
      forwarded: request.sent.equals(request.body) ? '(unchanged)' : request.sent.toString('utf8'),
    };
    const temp = path.join(
      this.dir,
      `.record.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
    );
    await mkdir(this.dir, { recursive: true });
    await writeFile(temp, JSON.stringify(entry), { encoding: 'utf8', mode: 0o600 });
    try {
      for (;;) {
        const file = path.join(this.dir, `${String(await this.take()).padStart(DIGITS, '0')}.json`);
        try {
          await link(temp, file);
          return file;
        } catch (error) {
          if (!isCode(error, 'EEXIST')) throw error;
        }
      }
    } finally {
      await rm(temp, { force: true });
    }
  }

  /** The next unused number: one more than the highest in the directory at the first record. */
  private take(): Promise<number> {
    const previous = this.next ?? this.highestRecorded();
    const taken = previous.then((n) => n + 1);
    this.next = taken;
    return taken;
  }

  private async highestRecorded(): Promise<number> {
    const names = await readdir(this.dir);
    let highest = 0;
    for (const name of names) {
      const match = RECORD_FILE.exec(name);
      if (match?.[1] !== undefined) highest = Math.max(highest, Number(match[1]));
    }
    return highest;
  }
}
