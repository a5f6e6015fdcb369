/**
 * Collects a stream's bytes within a budget: the first half of the budget from the start and the
 * last half from the end, counting what was dropped in between. Memory stays O(budget).
 */
import type { CapturedOutput } from './ShellRunner.js';

export class HeadTailBuffer {
  private readonly headLimit: number;
  private readonly tailLimit: number;
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;

  constructor(maxBytes: number) {
    this.headLimit = Math.ceil(maxBytes / 2);
    this.tailLimit = Math.floor(maxBytes / 2);
  }

  push(chunk: Uint8Array): void {
    let data = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    this.total += data.length;
    if (this.headBytes < this.headLimit) {
      const take = Math.min(this.headLimit - this.headBytes, data.length);
      this.head.push(Buffer.from(data.subarray(0, take)));
      this.headBytes += take;
      data = data.subarray(take);
    }
    if (data.length === 0 || this.tailLimit === 0) return;
    this.tail.push(Buffer.from(data));
    this.tailBytes += data.length;
    while (this.tail.length > 1 && this.tailBytes - (this.tail[0]?.length ?? 0) >= this.tailLimit) {
      this.tailBytes -= this.tail.shift()?.length ?? 0;
    }
  }

  /** The captured text; a `[… N bytes omitted …]` line marks a dropped middle. */
  result(): CapturedOutput {
    const head = Buffer.concat(this.head).toString('utf8');
    const tailAll = Buffer.concat(this.tail);
    const tail = tailAll.subarray(Math.max(0, tailAll.length - this.tailLimit));
    const omittedBytes = this.total - this.headBytes - tail.length;
    const text =
      omittedBytes > 0
        ? `${head}\n[… ${omittedBytes} bytes omitted …]\n${tail.toString('utf8')}`
        : head + tail.toString('utf8');
    return { text, totalBytes: this.total, omittedBytes };
  }
}
