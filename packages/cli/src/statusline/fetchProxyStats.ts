/**
 * `GET <proxy>/dense/stats` within a deadline: resolves to the parsed JSON, or undefined when no
 * proxy answers in time, the answer is not 200 JSON or it is larger than `maxBytes`. Never throws.
 */
import { request } from 'node:http';

export interface FetchStatsOptions {
  /** Whole request, connect to last byte (ms). */
  readonly timeoutMs: number;
  readonly maxBytes?: number;
  /** The user's Dense token, for a gateway (`x-dense-token`). */
  readonly token?: string;
}

const MAX_BYTES = 8 * 1024 * 1024;

export function fetchProxyStats(baseUrl: string, options: FetchStatsOptions): Promise<unknown> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (value: unknown): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(value);
    };
    const headers = options.token === undefined ? {} : { 'x-dense-token': options.token };
    const req = request(new URL('/dense/stats', baseUrl), { method: 'GET', headers }, (res) => {
      if (res.statusCode !== 200) return done(undefined);
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > (options.maxBytes ?? MAX_BYTES)) done(undefined);
        else chunks.push(chunk);
      });
      res.on('end', () => {
        try {
          done(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
        } catch {
          done(undefined);
        }
      });
      res.on('error', () => done(undefined));
    });
    const timer = setTimeout(() => done(undefined), options.timeoutMs);
    req.on('error', () => done(undefined));
    req.end();
  });
}
