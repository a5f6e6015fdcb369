import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ORACLE_DIR = import.meta.dirname;
const SRC = path.resolve(ORACLE_DIR, '../..');
/** Folders holding the classifiers and the compression code the oracles grade. */
const FORBIDDEN = ['core/compression', 'proxy', 'shell'].map((dir) => path.join(SRC, dir));

/** Every module specifier in `source`: static imports and re-exports, `import()`, `require()`. */
function moduleSpecifiers(source: string): string[] {
  const patterns = [
    /\b(?:import|export)\s[^'"]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((m) => m[1] ?? ''));
}

/** The specifiers of `source` (the text of `file`) that reach a forbidden folder. */
function forbiddenImports(file: string, source = readFileSync(file, 'utf8')): string[] {
  return moduleSpecifiers(source).filter((specifier) => {
    if (!specifier.startsWith('.')) {
      return /(^|\/)(core\/compression|proxy|shell)(\/|$)/.test(specifier);
    }
    const target = path.resolve(path.dirname(file), specifier);
    return FORBIDDEN.some((dir) => target === dir || target.startsWith(`${dir}${path.sep}`));
  });
}

function modulesIn(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => path.join(dir, file));
}

describe('#12 independent oracle', () => {
  /** Each oracle's folder, the issue that made it, and how many modules it has at least. */
  const ORACLES = [
    ['#12', 'oracle', 6],
    ['#25.3', 'grounding', 5],
    ['#33.5', 'intent', 11],
  ] as const;

  it.each(ORACLES)(
    '%s no module under replay/%s/ imports from core/compression/, proxy/ or shell/',
    (_issue, folder, atLeast) => {
      const modules = modulesIn(path.resolve(ORACLE_DIR, '..', folder));
      expect(modules.length).toBeGreaterThanOrEqual(atLeast);
      const offending = modules.flatMap((file) =>
        forbiddenImports(file).map((specifier) => `${path.basename(file)} → ${specifier}`),
      );
      expect(offending).toEqual([]);
    },
  );

  it('#12 the scan sees every form of import', () => {
    const source = [
      "import { a } from '../../core/compression/densityVocabulary.js';",
      "import type { B } from '../../shell/classifyShellCommand.js';",
      "export { c } from '../../core/compression/density/x.js';",
      "import '../../shell/side.js';",
      "const d = await import('../../core/compression/y.js');",
    ].join('\n');
    expect(moduleSpecifiers(source)).toHaveLength(5);
  });

  it('#33.5 an import from proxy/ is forbidden; one from a sibling oracle is not', () => {
    const file = path.join(SRC, 'replay/intent/example.ts');
    const source = [
      "import { a } from '../../proxy/budget/clientTaskList.js';",
      "import { b } from '../grounding/groundingText.js';",
      "import { c } from '../../services/history/IContent.js';",
    ].join('\n');
    expect(forbiddenImports(file, source)).toEqual(['../../proxy/budget/clientTaskList.js']);
  });
});
