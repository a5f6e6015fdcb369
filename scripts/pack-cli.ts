/**
 * `npm run pack:cli [-- --out <dir>]`: writes the CLI tarball (core bundled) that one
 * `npm install -g <tarball>` turns into a working `dense`; prints its path. See pack/packCli.ts.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packCli } from './pack/packCli.js';
import { PackError } from './pack/publishedManifests.js';

const USAGE = 'usage: npm run pack:cli [-- --out <dir>]';

function outDir(argv: readonly string[]): string {
  if (argv.length === 0) return process.cwd();
  const [flag, value] = argv;
  if (flag === '--out' && value !== undefined && argv.length === 2) return path.resolve(value);
  process.stderr.write(`pack-cli: unexpected arguments '${argv.join(' ')}'\n${USAGE}\n`);
  process.exit(2);
}

try {
  const packed = await packCli({
    repoRoot: fileURLToPath(new URL('..', import.meta.url)),
    outDir: outDir(process.argv.slice(2)),
  });
  process.stdout.write(`${packed.tarball}\n`);
} catch (error) {
  if (!(error instanceof PackError)) throw error;
  process.stderr.write(`pack-cli: ${error.code}: ${error.message}\n`);
  process.exit(1);
}
