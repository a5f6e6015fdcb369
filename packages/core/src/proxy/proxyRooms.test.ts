import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The proxy's rooms from the top down (docs/proxy.md, "Where the code lives"): a module imports
 * its own room and the rooms below it, never one above.
 */
const ROOMS = ['http', 'meter', 'densify', 'decide', 'budget', 'splice', 'wire', 'images'];

const PROXY = path.dirname(fileURLToPath(import.meta.url));

interface RoomImport {
  readonly from: string;
  readonly to: string;
}

/** Imports that climb: from a room to a room above it. */
function upwardImports(imports: readonly RoomImport[]): readonly RoomImport[] {
  const roomOf = (file: string): number => ROOMS.indexOf(file.split('/')[0] ?? '');
  return imports.filter(({ from, to }) => {
    const a = roomOf(from);
    const b = roomOf(to);
    return a !== -1 && b !== -1 && b < a;
  });
}

function isProduct(file: string): boolean {
  return file.endsWith('.ts') && !/\.(test|bench)\.ts$/.test(file);
}

/** Every product module under a room, proxy-relative. */
function roomModules(): readonly string[] {
  return ROOMS.flatMap((room) =>
    readdirSync(path.join(PROXY, room))
      .filter(isProduct)
      .map((file) => `${room}/${file}`),
  );
}

/** The proxy-relative targets of a module's relative imports that stay inside the proxy. */
function importsOf(file: string): readonly string[] {
  const text = readFileSync(path.join(PROXY, file), 'utf8');
  const targets: string[] = [];
  for (const match of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)\.js'/g)) {
    const target = path.relative(
      PROXY,
      path.resolve(path.dirname(path.join(PROXY, file)), match[1] ?? ''),
    );
    if (!target.startsWith('..')) targets.push(target);
  }
  return targets;
}

describe('#37.4 the proxy rooms follow the request', () => {
  it('#37.4 no module imports a room above its own', () => {
    const imports = roomModules().flatMap((from) => importsOf(from).map((to) => ({ from, to })));
    expect(imports.length).toBeGreaterThan(100);
    expect(upwardImports(imports)).toEqual([]);
  });

  it('#37.4 an import from a lower room to a higher one is reported', () => {
    expect(
      upwardImports([
        { from: 'splice/spliceEdits.ts', to: 'decide/proxyPointer' },
        { from: 'decide/proxyPointer.ts', to: 'budget/outputSpecifics' },
      ]),
    ).toEqual([{ from: 'splice/spliceEdits.ts', to: 'decide/proxyPointer' }]);
  });

  it('#37.4 every proxy module lives in a room (only the entry point and shared test helpers sit outside)', () => {
    const outside = readdirSync(PROXY, { withFileTypes: true })
      .filter((entry) =>
        entry.isDirectory()
          ? !ROOMS.includes(entry.name) && entry.name !== 'test-utils'
          : isProduct(entry.name) && entry.name !== 'index.ts',
      )
      .map((entry) => entry.name);
    expect(outside).toEqual([]);
  });
});
