/**
 * The context a streamed reply told the client (prompt + output tokens), read as the client reads
 * it: through the proxy it may be raised so the client compacts (`clientHistoryBound.ts`).
 */
import { UsageMeter } from '../../packages/core/src/proxy/meter/usageMeter.js';

/** Prompt + output tokens the reply's usage told; undefined when it told none. */
export function toldContext(chunks: readonly string[]): number | undefined {
  const meter = new UsageMeter(true);
  meter.push(Buffer.from(chunks.join('')));
  const usage = meter.finish();
  return usage === undefined
    ? undefined
    : usage.input + usage.cacheCreation + usage.cacheRead + usage.output;
}
