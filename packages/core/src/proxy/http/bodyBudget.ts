/**
 * A bound on the memory the proxy's requests hold at once: chat bodies are read whole (density
 * needs them), so without one, many large requests in parallel take memory without limit. A
 * request holds more than its body while it is processed — the body, its JSON parse, the decoded
 * text and the copy that goes upstream — so each body byte is charged `memoryPerBodyByte` bytes
 * (`MEMORY_PER_BODY_BYTE`, measured). A request that would pass the bound is answered 503 with
 * `retry-after` instead of being read; a body of the largest size allowed always fits alone.
 */

/**
 * Bytes of memory a request holds per body byte while the proxy processes it: the body (1) plus
 * the peak RSS growth of `densifyRequest` on it and the sent copy, 3.8–4.1 × the body on 16 and
 * 32 MB Claude Code-shaped bodies, with and without a compaction (process VmHWM, Node 20).
 * Rounded up to 5.
 */
export const MEMORY_PER_BODY_BYTE = 5;

export interface BodyBudgetOptions {
  /** Memory charged per body byte (default `MEMORY_PER_BODY_BYTE`). */
  readonly memoryPerBodyByte?: number;
  /**
   * The largest body the proxy accepts (its 413 limit): the bound is raised so that one such
   * body fits alone. Default: `limitBytes`, as when the bound counted body bytes only.
   */
  readonly maxBodyBytes?: number;
}

export class BodyBudget {
  /** Memory held, in bytes. */
  private held = 0;
  private readonly perByte: number;
  /** The bound on memory held, in bytes. */
  readonly memoryLimitBytes: number;

  /** `limitBytes`: the memory requests may hold at once (raised for one body of the largest size). */
  constructor(
    readonly limitBytes: number,
    options: BodyBudgetOptions = {},
  ) {
    this.perByte = options.memoryPerBodyByte ?? MEMORY_PER_BODY_BYTE;
    const largest = (options.maxBodyBytes ?? limitBytes) * this.perByte;
    this.memoryLimitBytes = Math.max(limitBytes, largest);
  }

  /** Memory held now, in bytes. */
  get heldBytes(): number {
    return this.held;
  }

  /** Takes the memory of `bytes` body bytes when it fits; false (and nothing taken) when not. */
  tryTake(bytes: number): boolean {
    const memory = bytes * this.perByte;
    if (this.held + memory > this.memoryLimitBytes) return false;
    this.held += memory;
    return true;
  }

  /** Gives back the memory of `bytes` body bytes taken before. */
  give(bytes: number): void {
    this.held = Math.max(0, this.held - bytes * this.perByte);
  }
}
