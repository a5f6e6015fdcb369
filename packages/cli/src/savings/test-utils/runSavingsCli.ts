/** `dense savings` in tests: a run through `main` with only this subcommand, output captured. */
import { savingsCommand } from '../../commands/savings.js';
import { main } from '../../main.js';
import { captureIO } from '../../test-utils/captureIO.js';

export async function runSavingsCli(
  cwd: string,
  env: NodeJS.ProcessEnv,
  argv: readonly string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { io, out } = captureIO(cwd, env);
  const code = await main({ argv: ['savings', ...argv], io, subcommands: [savingsCommand] });
  return { code, ...out };
}
