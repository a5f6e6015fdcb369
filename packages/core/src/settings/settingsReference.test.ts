import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { renderSettingsReference } from './settingsReference.js';

const DOC = fileURLToPath(new URL('../../../../docs/settings.md', import.meta.url));

describe('settings reference (docs/settings.md)', () => {
  it('#23.5 docs/settings.md is the registry rendered (run `npm run docs:settings` after a change)', async () => {
    const options = await prettier.resolveConfig(DOC);
    const expected = await prettier.format(renderSettingsReference(), {
      ...options,
      filepath: DOC,
    });
    expect(readFileSync(DOC, 'utf8')).toBe(expected);
  });

  it('#23.5 renders key, type, default, range and description of a setting', () => {
    const text = renderSettingsReference([
      {
        key: 'a.b',
        category: 'cli-behavior',
        description: 'A | B',
        type: 'number',
        default: 0.5,
        range: { min: 0, minExclusive: true, max: 1 },
        persistToProfile: true,
      },
      {
        key: 'c',
        category: 'ui',
        description: 'Mode',
        type: 'enum',
        enumValues: ['x', 'y'],
        default: 'x',
        persistToProfile: false,
      },
    ]);
    expect(text).toContain('| `a.b` | number | `0.5` | > 0, ≤ 1 | saved | A \\| B |');
    expect(text).toContain('| `c` | enum | `x` | `x`, `y` |  | Mode |');
  });
});
