/**
 * The thinking a request's model drops from its context (`entriesWithDroppedThinking`), in
 * tokens per entry, so a replayed call is counted and priced as the provider bills it while the
 * history keeps every block. Counts each entry's thinking once (entries are immutable).
 */
import { entriesWithDroppedThinking } from '../../providers/thinkingKept.js';
import type { IContent } from '../../services/history/IContent.js';
import type { TokenCounter } from '../../services/history/TokenCounter.js';

export class DroppedThinking {
  private readonly counted = new WeakMap<IContent, number>();

  constructor(private readonly counter: TokenCounter) {}

  /**
   * Per AI entry of `contents` whose thinking `model` drops, the tokens of that thinking (empty
   * when the model keeps it all). `turnStart`: see `entriesWithDroppedThinking`.
   */
  async of(
    contents: readonly IContent[],
    model: string | undefined,
    turnStart?: number,
  ): Promise<ReadonlyMap<IContent, number>> {
    const dropped = new Map<IContent, number>();
    for (const entry of entriesWithDroppedThinking(contents, model, turnStart)) {
      dropped.set(entry, await this.tokensOf(entry));
    }
    return dropped;
  }

  private async tokensOf(entry: IContent): Promise<number> {
    const known = this.counted.get(entry);
    if (known !== undefined) return known;
    let tokens = 0;
    for (const block of entry.blocks) {
      if (block.type === 'thinking') tokens += await this.counter.countText(block.thought);
    }
    this.counted.set(entry, tokens);
    return tokens;
  }
}
