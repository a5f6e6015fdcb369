/**
 * The two package.json files the CLI tarball ships: the CLI's, with `@dense/core` bundled and
 * core's dependencies added to its own, and the bundled core's, without dependencies.
 *
 * npm does not fetch a bundled package's dependencies: it takes every package a bundled one depends
 * on that lands in the bundling package's node_modules as part of the bundle too, and leaves its
 * folder empty. So the CLI declares core's dependencies (the provider SDKs, zod …) and the bundled
 * core declares none; npm installs them in the CLI's node_modules, where Node finds them from
 * core's files. Scripts and dev dependencies are left out: an installed CLI needs neither.
 */

export type Dependencies = Readonly<Record<string, string>>;

/** The fields of a workspace manifest this step reads; the rest is carried over as is. */
export interface WorkspaceManifest {
  readonly name?: unknown;
  readonly version?: unknown;
  readonly dependencies?: Dependencies;
  readonly bundleDependencies?: readonly string[];
  readonly [field: string]: unknown;
}

export class PackError extends Error {
  constructor(
    readonly code: 'DEPENDENCY_CONFLICT' | 'NOT_BUNDLED' | 'NOT_BUILT' | 'PACK_FAILED',
    message: string,
  ) {
    super(message);
    this.name = 'PackError';
  }
}

/**
 * Merges core's dependencies into the CLI's. Throws `DEPENDENCY_CONFLICT` when both pin the same
 * package at different versions (one install could not satisfy both) or the CLI pins another
 * version of core than the one bundled, and `NOT_BUNDLED` when the
 * CLI does not declare core as a bundled dependency.
 */
export function publishedManifests(
  cli: WorkspaceManifest,
  core: WorkspaceManifest,
): { readonly cli: WorkspaceManifest; readonly core: WorkspaceManifest } {
  const coreName = typeof core.name === 'string' ? core.name : '';
  if (!(cli.bundleDependencies ?? []).includes(coreName)) {
    throw new PackError(
      'NOT_BUNDLED',
      `the CLI's package.json must list ${coreName} in bundleDependencies`,
    );
  }
  const dependencies: Record<string, string> = { ...cli.dependencies };
  if (dependencies[coreName] !== core.version) {
    throw new PackError(
      'DEPENDENCY_CONFLICT',
      `the CLI depends on ${coreName} ${dependencies[coreName] ?? '(none)'} but core is ${String(core.version)}`,
    );
  }
  for (const [name, version] of Object.entries(core.dependencies ?? {})) {
    const pinned = dependencies[name];
    if (pinned !== undefined && pinned !== version) {
      throw new PackError(
        'DEPENDENCY_CONFLICT',
        `${name} is ${pinned} in the CLI but ${version} in ${coreName}; pin one version in both`,
      );
    }
    dependencies[name] = version;
  }
  return {
    cli: { ...withoutDevelopmentFields(cli), dependencies: sortedByName(dependencies) },
    core: withoutDependencies(core),
  };
}

function withoutDevelopmentFields(manifest: WorkspaceManifest): WorkspaceManifest {
  const { scripts: _scripts, devDependencies: _dev, ...kept } = manifest;
  return kept;
}

function withoutDependencies(manifest: WorkspaceManifest): WorkspaceManifest {
  const { dependencies: _dependencies, ...kept } = withoutDevelopmentFields(manifest);
  return kept;
}

function sortedByName(dependencies: Dependencies): Dependencies {
  return Object.fromEntries(
    Object.entries(dependencies).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}
