/**
 * `POST <proxy>/dense/statusline` with Claude Code's status line JSON, within a deadline: resolves
 * to the proxy's line, or '' when no proxy answers in time, the answer is not 200 or it is larger
 * than `maxBytes`. Never throws.
 */
import { request } from 'node:http';

export interface PostStatusLineOptions {
  /** Whole request, connect to last byte (ms). */
  readonly timeoutMs: number;
  readonly maxBytes?: number;
  /** The user's Dense token, for a gateway (`x-dense-token`). */
  readonly token?: string;
}

const MAX_BYTES = 64 * 1024;

export function postStatusLine(
  baseUrl: string,
  input: string,
  options: PostStatusLineOptions,
): Promise<string> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (line: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(line);
    };
    const headers = {
      'content-type': 'application/json',
      ...(options.token === undefined ? {} : { 'x-dense-token': options.token }),
    };
    const target = new URL('/dense/statusline', baseUrl);
    const req = request(target, { method: 'POST', headers }, (res) => {
      if (res.statusCode !== 200) return done('');
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > (options.maxBytes ?? MAX_BYTES)) done('');
        else chunks.push(chunk);
      });
      res.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
      res.on('error', () => done(''));
    });
    const timer = setTimeout(() => done(''), options.timeoutMs);
    req.on('error', () => done(''));
    req.end(input);
  });
}
