import { describe, expect, it } from 'vitest';
import { PackError, publishedManifests, type WorkspaceManifest } from './publishedManifests.js';

const core: WorkspaceManifest = {
  name: '@dense/core',
  version: '0.1.0',
  dependencies: { zod: '4.6.7', openai: '6.49.0' },
};
const cli: WorkspaceManifest = {
  name: '@dense/cli',
  version: '0.1.0',
  bin: { dense: './dist/index.js' },
  scripts: { prepack: 'exit 1' },
  dependencies: { yargs: '18.2.0', '@dense/core': '0.1.0' },
  bundleDependencies: ['@dense/core'],
  devDependencies: { 'node-pty': '1.1.0' },
};

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof PackError) return error.code;
    throw error;
  }
  return undefined;
}

describe('publishedManifests', () => {
  it("#24.7 the CLI declares core's dependencies and bundles core; the bundled core declares none", () => {
    const published = publishedManifests(cli, core);
    expect(published.cli).toEqual({
      name: '@dense/cli',
      version: '0.1.0',
      bin: { dense: './dist/index.js' },
      dependencies: {
        '@dense/core': '0.1.0',
        openai: '6.49.0',
        yargs: '18.2.0',
        zod: '4.6.7',
      },
      bundleDependencies: ['@dense/core'],
    });
    expect(published.core).toEqual({ name: '@dense/core', version: '0.1.0' });
  });

  it('#24.7 a package pinned at two versions, or another core version, is a DEPENDENCY_CONFLICT', () => {
    const zodElsewhere = { ...cli, dependencies: { ...cli.dependencies, zod: '4.0.0' } };
    expect(codeOf(() => publishedManifests(zodElsewhere, core))).toBe('DEPENDENCY_CONFLICT');
    expect(codeOf(() => publishedManifests(cli, { ...core, version: '0.2.0' }))).toBe(
      'DEPENDENCY_CONFLICT',
    );
  });

  it('#24.7 a CLI that does not bundle core is NOT_BUNDLED', () => {
    const { bundleDependencies: _bundled, ...unbundled } = cli;
    expect(codeOf(() => publishedManifests(unbundled, core))).toBe('NOT_BUNDLED');
  });
});
