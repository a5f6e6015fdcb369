import { describe, expect, expectTypeOf, it } from 'vitest';
import { SettingsService } from '../settings/SettingsService.js';
import {
  getSettingDefault,
  SETTINGS_REGISTRY,
  type SettingKey,
} from '../settings/settingsRegistry.js';
import type { SettingSpec } from '../settings/settingSpec.js';
import { createAgentRuntimeContext, FALLBACK_CONTEXT_LIMIT } from './createAgentRuntimeContext.js';
import {
  COMPUTED_ACCESSOR_KEYS,
  EPHEMERAL_ACCESSOR_KEYS,
  type EphemeralAccessors,
  type KeysWithoutAccessor,
} from './ephemeralAccessors.js';

/** A value other than the spec's default, as a person would type it with /set. */
function otherValue(spec: SettingSpec): string {
  switch (spec.type) {
    case 'boolean':
      return String(!spec.default);
    case 'enum':
      return spec.enumValues.find((value) => value !== spec.default) ?? spec.default;
    case 'string':
      return 'mine';
    case 'number':
      return String(spec.range?.max ?? (spec.range?.typedMin ?? 1) + 1000);
  }
}

const accessorOf = new Map<string, string>(
  Object.entries({ ...EPHEMERAL_ACCESSOR_KEYS, ...COMPUTED_ACCESSOR_KEYS }).map(
    ([name, key]): [string, string] => [key, name],
  ),
);

const computedKeys: ReadonlySet<string> = new Set(Object.values(COMPUTED_ACCESSOR_KEYS));

describe('ephemeral accessors', () => {
  it('#32.5 every registry key has exactly one accessor (the type admits no key without one)', () => {
    expectTypeOf<KeysWithoutAccessor>().toBeNever();
    const names = [
      ...Object.values(EPHEMERAL_ACCESSOR_KEYS),
      ...Object.values(COMPUTED_ACCESSOR_KEYS),
    ];
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(SETTINGS_REGISTRY.map((spec) => spec.key).sort());
  });

  it('#32.5 REQ-HD-009.5 every accessor returns its registry default, then what /set gives it', () => {
    const settings = new SettingsService();
    const { ephemerals } = createAgentRuntimeContext({ settings, workspaceRoot: '/w' });
    const call = (key: string) => {
      const name = accessorOf.get(key) as keyof EphemeralAccessors;
      return (ephemerals[name] as () => unknown)();
    };
    for (const spec of SETTINGS_REGISTRY as readonly SettingSpec[]) {
      const key = spec.key as SettingKey;
      if (computedKeys.has(key)) continue;
      expect(call(key), key).toBe(getSettingDefault(key));
      const typed = otherValue(spec);
      expect(settings.setFromString(key, typed).ok, `${key} = ${typed}`).toBe(true);
      expect(String(call(key)), key).toBe(typed);
    }
  });

  it('#32.5 REQ-HD-001.10 compressionThreshold: the setting, else the named strategy default', () => {
    const settings = new SettingsService();
    const { ephemerals } = createAgentRuntimeContext({ settings, workspaceRoot: '/w' });
    expect(getSettingDefault('compression-threshold')).toBeUndefined();
    expect(ephemerals.compressionThreshold()).toBe(0.85);
    settings.setFromString('compression-threshold', '0.7');
    expect(ephemerals.compressionThreshold()).toBe(0.7);
    settings.unset('compression-threshold');
    const custom = createAgentRuntimeContext({
      settings,
      workspaceRoot: '/w',
      defaultCompressionThreshold: () => 0.5,
    });
    expect(custom.ephemerals.compressionThreshold()).toBe(0.5);
  });

  it('#32.5 contextLimit: the setting, else the model window, else the fallback; one function', () => {
    const settings = new SettingsService();
    const runtime = createAgentRuntimeContext({
      settings,
      workspaceRoot: '/w',
      modelContextLimit: 200_000,
    });
    expect(runtime.ephemerals.contextLimit()).toBe(200_000);
    settings.setFromString('context-limit', '32000');
    expect(runtime.ephemerals.contextLimit()).toBe(32_000);
    expect(runtime.contextLimit()).toBe(32_000);
    const bare = createAgentRuntimeContext({
      settings: new SettingsService(),
      workspaceRoot: '/w',
    });
    expect(bare.ephemerals.contextLimit()).toBe(FALLBACK_CONTEXT_LIMIT);
  });

  it('#32.5 accessors are typed by the registry', () => {
    expectTypeOf<EphemeralAccessors['densityReadWritePruning']>().returns.toEqualTypeOf<boolean>();
    expectTypeOf<EphemeralAccessors['densityRecencyRetention']>().returns.toEqualTypeOf<number>();
    expectTypeOf<EphemeralAccessors['compressionProfile']>().returns.toEqualTypeOf<
      string | undefined
    >();
    expectTypeOf<EphemeralAccessors['densitySchedule']>().returns.toEqualTypeOf<
      'batched' | 'immediate'
    >();
  });
});
