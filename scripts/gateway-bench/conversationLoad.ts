/**
 * The gateway bench's main phase: `conversations` synthetic conversations at once, each growing
 * turn by turn; every turn's request is sent to each side in turn (a random order per turn, so no
 * side is always first), then the conversation waits a think time (the model's answer and the
 * tools' run, which the mock upstream does not take) before its next turn. Conversations start at
 * random offsets within one think time.
 */
import { seededRandom } from '../../packages/core/src/test-utils/seededRandom.js';
import { send, type Sample } from './benchClient.js';
import type { BenchSide } from './benchSides.js';
import type { MockUpstream } from './mockUpstream.js';
import { SyntheticConversation } from './SyntheticConversation.js';

export interface ConversationLoadOptions {
  readonly sides: readonly BenchSide[];
  readonly upstream: MockUpstream;
  readonly conversations: number;
  readonly turns: number;
  readonly turnTokens: number;
  /** Mean wait between a turn's last reply and the next turn (uniform, ± 50%). */
  readonly thinkMs: number;
  /** Session ids are `<sessionPrefix><n>`. */
  readonly sessionPrefix: string;
  readonly seed: number;
  readonly progress?: (line: string) => void;
}

export interface ConversationLoadResult {
  readonly samples: readonly Sample[];
  /** Each conversation's last body, in bytes. */
  readonly finalBytes: readonly number[];
  readonly wallMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

export async function runConversationLoad(
  options: ConversationLoadOptions,
): Promise<ConversationLoadResult> {
  const random = seededRandom(options.seed);
  const samples: Sample[] = [];
  const finalBytes: number[] = [];
  let turnsDone = 0;
  const total = options.conversations * options.turns;
  const started = Date.now();
  const think = () => options.thinkMs * (0.5 + random());
  const one = async (index: number) => {
    const conversation = new SyntheticConversation({
      seed: options.seed * 1_000 + index,
      sessionId: `${options.sessionPrefix}${index}`,
      turnTokens: options.turnTokens,
    });
    await sleep(random() * options.thinkMs);
    for (let turn = 0; turn < options.turns; turn++) {
      const body = conversation.next();
      for (const side of shuffled(options.sides, random)) {
        const headers = side.headers(conversation.sessionId, index);
        const sessionId = conversation.sessionId;
        samples.push(await send({ side, upstream: options.upstream, sessionId, body, headers }));
      }
      turnsDone++;
      if (turnsDone % Math.max(1, Math.round(total / 10)) === 0)
        options.progress?.(
          `  ${turnsDone}/${total} turns (${((Date.now() - started) / 1000).toFixed(0)} s)`,
        );
      if (turn < options.turns - 1) await sleep(think());
    }
    finalBytes[index] = conversation.bytes;
  };
  await Promise.all(Array.from({ length: options.conversations }, (_, index) => one(index)));
  return { samples, finalBytes, wallMs: Date.now() - started };
}
