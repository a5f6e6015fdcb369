/**
 * Runs the mock LLM server as a process for CLI end-to-end tests and demos:
 * `node dist/test-utils/mockServer/cli.js --port 0 --script replies.json`. Prints the listening
 * URL as the first stdout line, serves until SIGINT/SIGTERM. Script format: docs/providers.md.
 */
import { readFileSync } from 'node:fs';
import { mockScriptSchema, type MockScript } from './mockScript.js';
import { startMockServer } from './startMockServer.js';

const USAGE = 'usage: node cli.js [--port N] [--script file.json]';

interface CliArgs {
  readonly port: number;
  readonly scriptFile: string | undefined;
}

function parseArgs(argv: readonly string[]): CliArgs {
  let port = 0;
  let scriptFile: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = argv[i + 1];
    if (arg === '--help' || arg === '-h') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    } else if (arg === '--port' && value !== undefined) {
      port = Number(value);
      i++;
      if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`invalid --port '${value}'`);
    } else if (arg === '--script' && value !== undefined) {
      scriptFile = value;
      i++;
    } else {
      fail(`unknown or incomplete argument '${arg ?? ''}'`);
    }
  }
  return { port, scriptFile };
}

function fail(message: string): never {
  process.stderr.write(`mock server: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function loadScript(file: string | undefined): MockScript {
  if (file === undefined) return { replies: [] };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    fail(`cannot read script ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    fail(`script ${file} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = mockScriptSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    fail(`script ${file} is invalid at '${issue?.path.join('.') ?? ''}': ${issue?.message ?? ''}`);
  }
  return json as MockScript;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const script = loadScript(args.scriptFile);
  const server = await startMockServer({
    script: script.replies,
    ...(script.fallback === undefined ? {} : { fallback: script.fallback }),
    port: args.port,
  });
  process.stdout.write(`${server.url}\n`);
  const stop = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`mock server: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
