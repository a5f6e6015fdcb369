import { describe, expect, it } from 'vitest';
import { COMPRESSION_STRATEGIES } from '../core/compression/types.js';
import {
  formatSettingValue,
  parseSettingValue,
  validateSettingValue,
} from './parseSettingValue.js';
import { getSettingSpec, SETTINGS_REGISTRY } from './settingsRegistry.js';

function parsed(key: string, raw: string): unknown {
  const result = parseSettingValue(key, raw);
  if (!result.ok) throw result.error;
  return result.value;
}

function errorOf(key: string, raw: string) {
  const result = parseSettingValue(key, raw);
  if (result.ok) throw new Error(`expected ${key}=${raw} to be rejected`);
  return result.error;
}

describe('settings registry', () => {
  it.each([
    ['compression.density.readWritePruning', 'boolean', true],
    ['compression.density.fileDedupe', 'boolean', true],
    ['compression.density.recencyPruning', 'boolean', false],
    ['compression.density.recencyRetention', 'number', 3],
  ] as const)(
    'REQ-HD-009.1-4 %s is a %s defaulting to %s, cli-behavior, persisted',
    (key, type, value) => {
      const spec = getSettingSpec(key);
      expect(spec).toMatchObject({
        type,
        default: value,
        category: 'cli-behavior',
        persistToProfile: true,
      });
    },
  );

  it('REQ-HD-004.4 compression.strategy offers every strategy, high-density included', () => {
    const spec = getSettingSpec('compression.strategy');
    expect(spec.type === 'enum' && spec.enumValues).toEqual([...COMPRESSION_STRATEGIES]);
    expect(COMPRESSION_STRATEGIES).toContain('high-density');
  });

  it('has the compression tuning settings with their documented defaults', () => {
    expect(getSettingSpec('compression.preserveThreshold').default).toBe(0.4);
    expect(getSettingSpec('compression.topPreserveThreshold').default).toBe(0.2);
    expect(getSettingSpec('compression.density.compressHeadroom').default).toBe(0.6);
    expect(getSettingSpec('compression-threshold').default).toBeUndefined();
    expect(getSettingSpec('context-limit').default).toBeUndefined();
  });

  it('every key is unique and every description is non-empty', () => {
    const keys = SETTINGS_REGISTRY.map((s) => s.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const spec of SETTINGS_REGISTRY) expect(spec.description.length).toBeGreaterThan(10);
  });
});

describe('parseSettingValue', () => {
  it('parses booleans in the words people type', () => {
    for (const word of ['true', 'on', 'yes', '1', 'TRUE'])
      expect(parsed('compression.density.fileDedupe', word)).toBe(true);
    for (const word of ['false', 'off', 'no', '0'])
      expect(parsed('compression.density.fileDedupe', word)).toBe(false);
  });

  it('parses numbers, enums and strings', () => {
    expect(parsed('compression-threshold', '0.7')).toBe(0.7);
    expect(parsed('context-limit', ' 32000 ')).toBe(32000);
    expect(parsed('compression.strategy', 'high-density')).toBe('high-density');
    expect(parsed('compression.profile', 'cheap')).toBe('cheap');
  });

  it('#35.1 the working budget takes tokens, a share of the window, or off (0)', () => {
    expect(parsed('compression.density.workingBudget', '60000')).toBe(60_000);
    expect(parsed('compression.density.workingBudget', '0.5')).toBe(0.5);
    for (const word of ['off', 'OFF', ' off ', '0']) {
      expect(parsed('compression.density.workingBudget', word)).toBe(0);
    }
    expect(errorOf('compression.density.workingBudget', '-1').code).toBe('SETTING_OUT_OF_RANGE');
    const wrong = errorOf('compression.density.workingBudget', 'half');
    expect(wrong.code).toBe('SETTING_WRONG_TYPE');
    expect(wrong.message).toContain("or 'off'");
    // Only the setting that names the word takes it.
    expect(errorOf('compression.density.recencyRetention', 'off').code).toBe('SETTING_WRONG_TYPE');
  });

  it('an unknown key names the closest valid keys', () => {
    const error = errorOf('compression.density.recencyRetension', '3');
    expect(error.code).toBe('SETTING_UNKNOWN_KEY');
    expect(error.message).toContain("'compression.density.recencyRetention'");
  });

  it('an unknown key with nothing close points to the list', () => {
    expect(errorOf('zzzzzzzz', '1').message).toContain('/set');
  });

  it('#12.9 numbers are plain decimals: 0x3, 0b11 and 1_000 are refused with the expected form', () => {
    for (const raw of ['0x3', '0b11', '0o7', '1_000', '']) {
      const result = parseSettingValue('compression.density.recencyRetention', raw);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.code).toBe('SETTING_WRONG_TYPE');
    }
    expect(parsed('compression.density.recencyRetention', ' 3 ')).toBe(3);
    expect(parsed('compression-threshold', '.5')).toBe(0.5);
    expect(parsed('context-limit', '1e6')).toBe(1_000_000);
  });

  it('#12.9 context-limit below 1000 tokens is refused', () => {
    const result = parseSettingValue('context-limit', '10');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('SETTING_OUT_OF_RANGE');
      expect(result.error.message).toContain('1000');
    }
  });

  it('rejects the wrong type with the expected type in the message', () => {
    const error = errorOf('compression.density.recencyPruning', 'maybe');
    expect(error.code).toBe('SETTING_WRONG_TYPE');
    expect(error.message).toContain('true or false');
    expect(errorOf('context-limit', 'lots').message).toContain('an integer ≥ 1');
  });

  it('rejects out-of-range values: retention must be an integer ≥ 1, fractions in (0, 1]', () => {
    expect(errorOf('compression.density.recencyRetention', '0').code).toBe('SETTING_OUT_OF_RANGE');
    expect(errorOf('compression.density.recencyRetention', '-2').code).toBe('SETTING_OUT_OF_RANGE');
    expect(errorOf('compression.density.recencyRetention', '2.5').code).toBe(
      'SETTING_OUT_OF_RANGE',
    );
    expect(errorOf('compression-threshold', '0').code).toBe('SETTING_OUT_OF_RANGE');
    expect(errorOf('compression-threshold', '1.2').message).toContain('(0, 1]');
    expect(parsed('compression-threshold', '1')).toBe(1);
  });

  it('rejects an enum value outside the list, naming the valid ones', () => {
    const error = errorOf('compression.strategy', 'medium-density');
    expect(error.code).toBe('SETTING_NOT_IN_ENUM');
    expect(error.message).toContain('high-density');
  });

  it('validateSettingValue does not coerce: a profile storing "true" for a boolean is wrong', () => {
    const result = validateSettingValue('compression.density.fileDedupe', 'true');
    expect(result.ok).toBe(false);
    expect(validateSettingValue('compression.density.fileDedupe', false)).toMatchObject({
      ok: true,
      value: false,
    });
  });

  it('formats values as a person would type them back', () => {
    expect(formatSettingValue(undefined)).toBe('(unset)');
    expect(formatSettingValue('x')).toBe('x');
    expect(formatSettingValue(0.5)).toBe('0.5');
  });
});
