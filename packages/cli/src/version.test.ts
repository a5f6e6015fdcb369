import { describe, expect, it } from 'vitest';
import { cliVersion } from './version.js';

describe('cliVersion', () => {
  it('reads a semver version from the package manifest', () => {
    expect(cliVersion()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
