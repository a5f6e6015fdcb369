import { describe, expect, it } from 'vitest';
import { compressionSettingsFrom } from './CompressionSettings.js';
import { HighDensityStrategy } from './HighDensityStrategy.js';
import { makeCompressionContext } from '../../test-utils/compressionContext.js';
import { human, readFile, toolRoundTrip } from '../../test-utils/historyBuilders.js';
import { charEstimateTokenCounter } from '../../services/history/TokenCounter.js';
import type { IContent, ToolResponseBlock } from '../../services/history/IContent.js';
import type { SettingsReader } from '../../settings/SettingsReader.js';
import { SettingsService } from '../../settings/SettingsService.js';
import {
  getSettingDefault,
  type EphemeralSettings,
  type SettingKey,
  type SettingRead,
} from '../../settings/settingsRegistry.js';

/** A fake that answers the keys a test sets; every other key is its registry default. */
function fakeReader(values: EphemeralSettings): SettingsReader {
  return {
    get: <K extends SettingKey>(key: K) =>
      (values[key] ?? getSettingDefault(key)) as SettingRead<K>,
  };
}

const big = (label: string) =>
  Array.from({ length: 120 }, (_, i) => `${label} line ${i}: some file content here`).join('\n');

/** A small head, then a preserved tail of large results that alone is over the target. */
function tailHeavy(): IContent[] {
  return [
    human('go'),
    ...toolRoundTrip('h1', 'run_shell_command', { command: 'pwd' }, '/workspace'),
    human('now the files'),
    ...readFile('t1', '/workspace/a.ts', big('a')),
    ...toolRoundTrip('t2', 'run_shell_command', { command: 'npm test' }, big('test')),
    ...readFile('t3', '/workspace/b.ts', big('b')),
    ...readFile('t4', '/workspace/c.ts', big('c')),
  ];
}

const resultOf = (history: readonly IContent[], callId: string) =>
  history
    .flatMap((e) => e.blocks)
    .find((b): b is ToolResponseBlock => b.type === 'tool_response' && b.callId === callId)?.result;

describe('compressionSettingsFrom', () => {
  it('#23.5 every key strategies read is in the snapshot with its registry default', () => {
    // Written out here, not taken from STRATEGY_SETTING_KEYS: a key dropped from the snapshot's
    // list must fail this test.
    const read: readonly SettingKey[] = [
      'compression-threshold',
      'compression.profile',
      'compression.preserveThreshold',
      'compression.topPreserveThreshold',
      'compression.density.compressHeadroom',
      'compression.density.pointerStyle',
      'compression.density.shellFileOps',
      'compression.density.workingBudget',
      'compression.artifactTrail',
    ];
    const snapshot: Readonly<Record<string, unknown>> = compressionSettingsFrom(
      new SettingsService(),
      50_000,
    );
    expect(Object.keys(snapshot).sort()).toEqual([...read, 'contextLimit'].sort());
    for (const key of read) expect(snapshot[key], key).toBe(getSettingDefault(key));
    expect(snapshot.contextLimit).toBe(50_000);
  });

  it('#23.5 the snapshot is read-only and does not follow later changes', () => {
    const settings = new SettingsService();
    const snapshot = compressionSettingsFrom(settings, 50_000);
    settings.set('compression.preserveThreshold', 0.7);
    expect(snapshot['compression.preserveThreshold']).toBe(0.4);
    expect(Object.isFrozen(snapshot)).toBe(true);
    expect(compressionSettingsFrom(settings, 1)['compression.preserveThreshold']).toBe(0.7);
  });

  it("#23.5 a fake that does not set the pointer style gets the registry's 'recall', not 'spec'", async () => {
    const history = tailHeavy();
    const limit = 6_000;
    const reader = fakeReader({
      'compression.preserveThreshold': 0.8,
      'compression.artifactTrail': false,
      'compression.density.workingBudget': 0,
    });
    const settings = compressionSettingsFrom(reader, limit);
    expect(settings['compression.density.pointerStyle']).toBe('recall');
    const context = {
      ...(await makeCompressionContext({ history, tokenCounter: charEstimateTokenCounter })),
      settings,
    };
    const result = await new HighDensityStrategy().compress(context);
    if (result.kind !== 'applied') throw new Error(`noop: ${result.reason}`);
    // Recall mode summarizes the oldest tail result down to the target; 'spec' kept the tail whole.
    expect(String(resultOf(result.newHistory, 't1'))).toMatch(/; recall id r[0-9a-f]{10}\]$/);
    expect(resultOf(result.newHistory, 't4')).toBe(big('c'));
    const spec = compressionSettingsFrom(
      fakeReader({
        'compression.preserveThreshold': 0.8,
        'compression.artifactTrail': false,
        'compression.density.pointerStyle': 'spec',
        'compression.density.workingBudget': 0,
      }),
      limit,
    );
    const literal = await new HighDensityStrategy().compress({ ...context, settings: spec });
    expect(resultOf(literal.newHistory, 't1')).toBe(big('a'));
  });
});
