/**
 * What `dense proxy` adds to serve a team: users' tokens, the per-user timeline behind
 * `/dense/stats` and `/dense/dashboard`, and with `--state redis://…` (or env `DENSE_STATE`) the
 * conversations' state, the tokens and the team's counters shared with every other replica on
 * that Redis. Without a state URL everything stays in this process and its data directory.
 */
import {
  CachedTokenStore,
  connectRedis,
  defaultTokenFile,
  errorMessage,
  FileTokenStore,
  parseStateUrl,
  RedisRecallArchive,
  RedisConversations,
  RedisStats,
  RedisTokenStore,
  shownStateUrl,
  StatsTimeline,
  type ProxyServerOptions,
} from '@dense/core';

/** Seconds between two pushes of this replica's counters to the shared store. */
export const STATS_PUSH_MS = 5_000;

export interface ProxyGateway {
  readonly options: Pick<
    ProxyServerOptions,
    'shared' | 'tokens' | 'timeline' | 'teamTimeline' | 'admins' | 'recall' | 'userRecall'
  >;
  /** Where the state and tokens are, for the start-up lines. */
  readonly where: string;
  close(): Promise<void>;
}

export async function openProxyGateway(input: {
  readonly state: string | undefined;
  readonly admins: readonly string[];
  readonly stateTimeoutMs: number | undefined;
  readonly env: NodeJS.ProcessEnv;
  readonly log: (line: string) => void;
}): Promise<ProxyGateway> {
  const timeline = new StatsTimeline();
  const state = input.state ?? input.env.DENSE_STATE;
  if (state === undefined || state.trim() === '') {
    const file = defaultTokenFile(input.env);
    return {
      options: { tokens: new FileTokenStore({ file }), timeline, admins: input.admins },
      where: `this process (tokens in ${file})`,
      close: () => Promise.resolve(),
    };
  }
  const url = parseStateUrl(state.trim());
  const client = await connectRedis(url, { log: input.log });
  const stats = new RedisStats({ client });
  const push = setInterval(() => {
    void stats.push(timeline.drainDelta());
  }, STATS_PUSH_MS);
  push.unref();
  // One archive per user on the same Redis client: a request's originals ride in its state save,
  // and every replica recalls the same originals.
  const archive = (root: string) => new RedisRecallArchive({ client, root });
  // A live token's user is remembered 30 s and renewed beside requests, and every live token is
  // listed at start and every 15 s (one HGETALL, off the requests' path): no lookup on the path.
  const tokens = new CachedTokenStore(new RedisTokenStore({ client }));
  const stopPriming = tokens.keepPrimed((error) => {
    input.log(
      `dense proxy: could not list the tokens (${errorMessage(error)}); each is looked up on its next request`,
    );
  });
  return {
    options: {
      shared: new RedisConversations({
        client,
        log: input.log,
        ...(input.stateTimeoutMs === undefined ? {} : { timeoutMs: input.stateTimeoutMs }),
      }),
      tokens,
      timeline,
      teamTimeline: () => stats.timeline(),
      admins: input.admins,
      recall: archive('dense:recall:local'),
      userRecall: (user) => archive(`dense:recall:u:${encodeURIComponent(user)}`),
    },
    where: shownStateUrl(url),
    close: async () => {
      clearInterval(push);
      stopPriming();
      await stats.push(timeline.drainDelta());
      await client.close().catch(() => undefined);
    },
  };
}
