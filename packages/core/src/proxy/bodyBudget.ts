/**
 * A bound on the request bytes the proxy holds at once: chat bodies are read whole (density needs
 * them), so without one, many large requests in parallel take memory without limit. A request
 * that would pass the bound is answered 503 with `retry-after` instead of being read.
 */

export class BodyBudget {
  private held = 0;

  constructor(readonly limitBytes: number) {}

  get heldBytes(): number {
    return this.held;
  }

  /** Takes `bytes` when they fit; false (and nothing taken) when they do not. */
  tryTake(bytes: number): boolean {
    if (this.held + bytes > this.limitBytes) return false;
    this.held += bytes;
    return true;
  }

  give(bytes: number): void {
    this.held = Math.max(0, this.held - bytes);
  }
}
