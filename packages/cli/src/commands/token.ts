/**
 * `dense token create <user> | list | revoke <id|user>`: the users of a shared `dense proxy`.
 * A new token is printed once on stdout and kept only as its SHA-256; listings show the user, the
 * token's id and when it was created, never a token. Tokens live in Redis with `--state redis://…`
 * (or env `DENSE_STATE`), else in a file under Dense's data directory. Exit codes: 0 done, 1 the
 * store failed or nothing matched `revoke`, 2 bad usage.
 */
import type { Argv } from 'yargs';
import {
  errorMessage,
  openTokenStore,
  TokenStoreError,
  type OpenedTokenStore,
  type TokenRecord,
} from '@dense/core';
import type { CliIO, CliSubcommand } from '../args/CliSubcommand.js';
import { EXIT } from '../cliErrors.js';

export const TOKEN_ACTIONS = ['create', 'list', 'revoke'] as const;
type TokenAction = (typeof TOKEN_ACTIONS)[number];

const USAGE_CODES = new Set(['TOKEN_USER_INVALID', 'TOKEN_STATE_URL_INVALID']);

class TokenUsageError extends Error {}

function isAction(value: unknown): value is TokenAction {
  return TOKEN_ACTIONS.some((action) => action === value);
}

function target(args: Readonly<Record<string, unknown>>, action: TokenAction): string {
  const value = args.target;
  const text = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  if (text === '') {
    const what = action === 'create' ? '<user>' : '<id|user>';
    throw new TokenUsageError(`dense token ${action} needs ${what}.`);
  }
  return text;
}

/** One line per token: user, id, creation time, in aligned columns. */
export function formatTokenList(records: readonly TokenRecord[]): string {
  if (records.length === 0) return '';
  const rows = [['USER', 'ID', 'CREATED'], ...records.map((r) => [r.user, r.id, r.createdAt])];
  const width = Math.max(...rows.map((row) => row[0]?.length ?? 0));
  return rows
    .map(([user = '', id = '', created = '']) => `${user.padEnd(width)}  ${id}  ${created}\n`)
    .join('');
}

async function runAction(
  action: TokenAction,
  args: Readonly<Record<string, unknown>>,
  opened: OpenedTokenStore,
  io: CliIO,
): Promise<number> {
  switch (action) {
    case 'create': {
      const { token, record } = await opened.store.create(target(args, action));
      io.stdout.write(`${token}\n`);
      io.stderr.write(
        `dense token: ${record.id} for ${record.user}, kept as a hash in ${opened.where}; the token is shown only now\n`,
      );
      return EXIT.ok;
    }
    case 'list': {
      const records = await opened.store.list();
      io.stdout.write(formatTokenList(records));
      if (records.length === 0) io.stderr.write(`dense token: no tokens in ${opened.where}\n`);
      return EXIT.ok;
    }
    case 'revoke': {
      const name = target(args, action);
      const revoked = await opened.store.revoke(name);
      for (const record of revoked) io.stdout.write(`revoked ${record.id} (${record.user})\n`);
      if (revoked.length > 0) return EXIT.ok;
      io.stderr.write(`dense token: no token id or user '${name}' in ${opened.where}\n`);
      return EXIT.failed;
    }
  }
}

/** Runs one `dense token` action; errors become one line on stderr and an exit code. */
export async function runToken(
  args: Readonly<Record<string, unknown>>,
  io: CliIO,
): Promise<number> {
  let opened: OpenedTokenStore | undefined;
  try {
    const action = args.action;
    if (!isAction(action)) {
      throw new TokenUsageError(`dense token takes ${TOKEN_ACTIONS.join(', ')}.`);
    }
    const state = typeof args.state === 'string' ? args.state : undefined;
    opened = await openTokenStore({ state, env: io.env });
    return await runAction(action, args, opened, io);
  } catch (error) {
    const usage =
      error instanceof TokenUsageError ||
      (error instanceof TokenStoreError && USAGE_CODES.has(error.code));
    io.stderr.write(`dense token: ${errorMessage(error).split('\n')[0] ?? ''}\n`);
    return usage ? EXIT.usage : EXIT.failed;
  } finally {
    await opened?.close();
  }
}

export const tokenCommand: CliSubcommand = {
  command: 'token <action> [target]',
  describe: 'Create, list or revoke the user tokens of a shared dense proxy',
  builder: (yargs: Argv) =>
    yargs
      .positional('action', {
        choices: TOKEN_ACTIONS,
        describe: 'create <user> | list | revoke <id|user>',
      })
      .positional('target', {
        type: 'string',
        describe: 'The user (create), or a token id or user (revoke)',
      })
      .option('state', {
        type: 'string',
        requiresArg: true,
        describe:
          'Keep the tokens in this Redis (redis://…); env DENSE_STATE; default: a file under the Dense data directory',
      })
      .epilogue(
        'The token is printed once and stored only as its SHA-256. A client sends it in the ' +
          "'x-dense-token' header or in the base URL as http://<gateway>/t/<token>.",
      ),
  run: runToken,
};
