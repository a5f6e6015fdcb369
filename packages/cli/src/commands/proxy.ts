/**
 * `dense proxy`: runs the density proxy in front of Claude Code, Codex or any OpenAI-compatible
 * agent until SIGINT/SIGTERM, then prints the summary table. One line per request on stderr.
 */
import type { Argv } from 'yargs';
import {
  DEFAULT_ANTHROPIC_UPSTREAM,
  DEFAULT_OPENAI_UPSTREAM,
  DEFAULT_PRESSURE_TOKENS,
  formatSummary,
  startProxyServer,
  type ProxyServerOptions,
} from '@dense/core';
import type { CliIO, CliSubcommand } from '../args/CliSubcommand.js';
import { EXIT } from '../cliErrors.js';
import { recallArchiveFor } from './recall.js';
import { openProxyGateway } from './proxyGateway.js';

export const DEFAULT_PROXY_PORT = 8787;

class ProxyUsageError extends Error {}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

const shown = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value);

function upstream(value: unknown, flag: string, fallback: string): string {
  const text = value === undefined ? fallback : shown(value);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ProxyUsageError(`${flag} must be an http(s) URL, got '${text}'.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ProxyUsageError(`${flag} must be an http(s) URL, got '${text}'.`);
  }
  return text;
}

function positiveNumber(value: unknown, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0) {
    throw new ProxyUsageError(`${flag} must be a non-negative number, got '${shown(value)}'.`);
  }
  return number;
}

/** `--working-budget` / `DENSE_WORKING_BUDGET`: tokens, `auto` (from the model) or `off`. */
function workingBudget(value: unknown): number | 'off' | undefined {
  if (value === undefined || value === '' || value === 'auto') return undefined;
  if (value === 'off' || value === false) return 'off';
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1_000) {
    throw new ProxyUsageError(
      `--working-budget must be 'auto', 'off' or a whole number of tokens (at least 1000), got '${shown(value)}'.`,
    );
  }
  return number;
}

export function parseProxyArgs(
  args: Readonly<Record<string, unknown>>,
  env: NodeJS.ProcessEnv,
): ProxyServerOptions {
  const port = positiveNumber(args.port, '--port', DEFAULT_PROXY_PORT);
  if (!Number.isInteger(port) || port > 65_535) {
    throw new ProxyUsageError(`--port must be an integer from 0 to 65535, got '${port}'.`);
  }
  const maxBodyMb = positiveNumber(args['max-body-mb'], '--max-body-mb', 32);
  const inFlightMb = positiveNumber(args['max-in-flight-mb'], '--max-in-flight-mb', 256);
  return {
    host: typeof args.host === 'string' ? args.host : '127.0.0.1',
    port,
    anthropicUpstream: upstream(
      args['anthropic-upstream'],
      '--anthropic-upstream',
      DEFAULT_ANTHROPIC_UPSTREAM,
    ),
    openaiUpstream: upstream(args['openai-upstream'], '--openai-upstream', DEFAULT_OPENAI_UPSTREAM),
    maxBodyBytes: Math.round(maxBodyMb * 1024 * 1024),
    maxBytesInFlight: Math.round(inFlightMb * 1024 * 1024),
    pressureTokens: positiveNumber(
      args['pressure-tokens'],
      '--pressure-tokens',
      DEFAULT_PRESSURE_TOKENS,
    ),
    workingBudget: workingBudget(args['working-budget'] ?? env.DENSE_WORKING_BUDGET),
    answerCompaction: args['answer-compaction'] !== false,
    entryReplies: args['entry-replies'] !== false,
    repeatedLinesReplies: args['repeated-lines'] !== false,
    ...(typeof args.record === 'string' ? { recordDir: args.record } : {}),
    color: env.NO_COLOR === undefined || env.NO_COLOR === '',
  };
}

/**
 * How to point each client at the proxy. Codex reads its base URL only from its own config (it
 * ignores `OPENAI_BASE_URL`), so its line defines a model provider on the command line.
 */
export function proxyBanner(url: string): string {
  const codexProvider = `model_providers.dense={name="dense",base_url="${url}/v1",env_key="OPENAI_API_KEY",wire_api="responses"}`;
  return (
    `dense proxy listening on ${url}\n` +
    `  Claude Code: ANTHROPIC_BASE_URL=${url} claude\n` +
    `  Codex:       codex -c model_provider=dense -c '${codexProvider}'\n` +
    `  others:      OPENAI_BASE_URL=${url}/v1\n`
  );
}

/** `--state`, `--admin`, `--state-timeout-ms`: how this proxy serves a team. */
export interface GatewayArgs {
  readonly state?: string;
  readonly admins?: readonly string[];
  readonly stateTimeoutMs?: number;
}

export function parseGatewayArgs(args: Readonly<Record<string, unknown>>): GatewayArgs {
  const admins = ([] as unknown[]).concat(args.admin ?? []).map(shown);
  const timeout = args['state-timeout-ms'];
  return {
    ...(typeof args.state === 'string' ? { state: args.state } : {}),
    admins,
    ...(timeout === undefined
      ? {}
      : { stateTimeoutMs: positiveNumber(timeout, '--state-timeout-ms', 250) }),
  };
}

/** Runs until `stop` resolves; the summary goes to stderr. */
export async function runProxy(
  options: ProxyServerOptions,
  io: CliIO,
  stop: Promise<unknown>,
  gatewayArgs: GatewayArgs = {},
): Promise<number> {
  const log = (line: string) => io.stderr.write(`${line}\n`);
  const color = options.color === true && io.stderr.isTTY === true;
  const gateway = await openProxyGateway({
    state: gatewayArgs.state,
    admins: gatewayArgs.admins ?? [],
    stateTimeoutMs: gatewayArgs.stateTimeoutMs,
    env: io.env,
    log,
  });
  const recall = options.recall ?? gateway.options.recall ?? recallArchiveFor(io.env);
  const server = await startProxyServer({ ...gateway.options, ...options, log, color, recall });
  if (!LOOPBACK.has(options.host ?? '127.0.0.1')) {
    log(
      `dense proxy: listening on ${options.host ?? ''}: every request needs a Dense token (dense token create <user>)`,
    );
  }
  log(`dense proxy: conversation state and tokens are kept in ${gateway.where}`);
  if (options.recordDir !== undefined) {
    log(`dense proxy: recording requests (credentials redacted) to ${options.recordDir}`);
  }
  log(`dense proxy: pointed results are kept for \`dense recall <id>\` in ${recall.dir}`);
  io.stdout.write(proxyBanner(server.url));
  await stop;
  await server.close();
  await gateway.close();
  log(formatSummary(server.stats.toJSON()));
  return EXIT.ok;
}

function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
}

export const proxyCommand: CliSubcommand = {
  command: 'proxy',
  describe: 'Run a local proxy that gives Claude Code / Codex high-density context',
  builder: (yargs: Argv) =>
    yargs
      .option('port', { type: 'number', describe: `Port (default ${DEFAULT_PROXY_PORT})` })
      .option('host', {
        type: 'string',
        describe: 'Address to listen on (default 127.0.0.1; anything else is reachable by others)',
      })
      .option('anthropic-upstream', { type: 'string', describe: 'Anthropic API base URL' })
      .option('openai-upstream', { type: 'string', describe: 'OpenAI API base URL' })
      .option('record', {
        type: 'string',
        describe:
          'Write each request (credentials redacted) into this directory, after any earlier run',
      })
      .option('max-body-mb', { type: 'number', describe: 'Largest request body (default 32)' })
      .option('max-in-flight-mb', {
        type: 'number',
        describe: 'Request bodies held at once before answering 503 (default 256)',
      })
      .option('pressure-tokens', {
        type: 'number',
        describe: `Send every prunable edit at once above this many tokens (default ${DEFAULT_PRESSURE_TOKENS})`,
      })
      .option('working-budget', {
        type: 'string',
        describe:
          "Keep each conversation's prompt under this many tokens: a number, 'auto' (default: from the model and the client's compaction threshold) or 'off'; env DENSE_WORKING_BUDGET",
      })
      .option('answer-compaction', {
        type: 'boolean',
        describe:
          "Answer the client's own compaction request with Dense's summary instead of forwarding it (default true; --no-answer-compaction forwards it)",
      })
      .option('entry-replies', {
        type: 'boolean',
        describe:
          'Send a new tool result that repeats one still in context as a short reply naming it (default true; --no-entry-replies sends every result as it is)',
      })
      .option('state', {
        type: 'string',
        describe:
          'Share conversation state, tokens and team counters with other replicas on this Redis (redis://host:port); env DENSE_STATE. Default: this process',
      })
      .option('admin', {
        type: 'string',
        array: true,
        describe:
          'A user who sees the whole team on /dense/stats and /dense/dashboard (repeatable)',
      })
      .option('state-timeout-ms', {
        type: 'number',
        describe:
          'How long a request waits for the shared state before it goes out unchanged (default 250)',
      })
      .option('repeated-lines', {
        type: 'boolean',
        describe:
          'Send long runs of lines a new result repeats from an earlier one as markers naming it (default true; --no-repeated-lines sends them as they are)',
      }),
  async run(args, io) {
    try {
      const options = parseProxyArgs(args, io.env);
      return await runProxy(options, io, untilSignal(), parseGatewayArgs(args));
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      io.stderr.write(`dense proxy: ${error.message.split('\n')[0] ?? ''}\n`);
      return error instanceof ProxyUsageError ? EXIT.usage : EXIT.failed;
    }
  },
};
