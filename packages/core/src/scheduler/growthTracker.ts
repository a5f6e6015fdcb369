/**
 * How fast the history grows per model call, from the token totals at the last few sends (a
 * compression or a density edit in between shows as a drop, which is not growth).
 */
const WINDOW = 6;

export class GrowthTracker {
  private readonly totals: number[] = [];

  onSend(tokens: number): void {
    this.totals.push(tokens);
    if (this.totals.length > WINDOW) this.totals.shift();
  }

  /** Mean tokens added per call over the window (0 before two sends). */
  perCall(): number {
    let sum = 0;
    for (let i = 1; i < this.totals.length; i++) {
      sum += Math.max(0, this.totals[i]! - this.totals[i - 1]!);
    }
    return this.totals.length < 2 ? 0 : sum / (this.totals.length - 1);
  }
}
