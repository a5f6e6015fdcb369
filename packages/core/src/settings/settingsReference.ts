/**
 * The settings reference (`docs/settings.md`) rendered from the registry: key, type, default,
 * range and description of every setting, so the document cannot drift from the code. The test
 * beside it fails when the checked-in document differs; `npm run docs:settings` rewrites it.
 */
import type { NumericRange, SettingSpec } from './settingSpec.js';
import { SETTINGS_REGISTRY } from './settingsRegistry.js';

const HEADER = [
  '# Settings',
  '',
  'Generated from the settings registry (`packages/core/src/settings`) by `npm run docs:settings`;',
  'a test fails when this file differs from the registry. Set a value for the session with',
  '`/set <key> <value>`, on the command line with `--set <key>=<value>`, and save it with',
  '`/profile save` (settings marked "saved" in the last column).',
  '',
  '| key | type | default | allowed | saved | what it does |',
  '| --- | --- | --- | --- | --- | --- |',
];

function rangeText(range: NumericRange | undefined): string {
  if (!range) return 'any number';
  const parts: string[] = [];
  if (range.integer) parts.push('integer');
  if (range.min !== undefined) parts.push(`${range.minExclusive ? '>' : '≥'} ${range.min}`);
  if (range.max !== undefined) parts.push(`≤ ${range.max}`);
  if (range.typedMin !== undefined) parts.push(`typed ≥ ${range.typedMin}`);
  return parts.length > 0 ? parts.join(', ') : 'any number';
}

function allowedText(spec: SettingSpec): string {
  switch (spec.type) {
    case 'boolean':
      return '`true`, `false`';
    case 'number': {
      const words = Object.entries(spec.words ?? {}).map(
        ([word, value]) => `\`${word}\` (= ${value})`,
      );
      return [rangeText(spec.range), ...words].join(', ');
    }
    case 'string':
      return 'text';
    case 'enum':
      return spec.enumValues.map((value) => `\`${value}\``).join(', ');
    default: {
      const unreachable: never = spec;
      return unreachable;
    }
  }
}

function defaultText(spec: SettingSpec): string {
  return spec.default === undefined ? '(unset)' : `\`${String(spec.default)}\``;
}

const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** The whole reference document, ending in a newline. */
export function renderSettingsReference(specs: readonly SettingSpec[] = SETTINGS_REGISTRY): string {
  const rows = specs.map((spec) =>
    [
      `\`${spec.key}\``,
      spec.type,
      defaultText(spec),
      allowedText(spec),
      spec.persistToProfile ? 'saved' : '',
      spec.description,
    ]
      .map(cell)
      .join(' | '),
  );
  return [...HEADER, ...rows.map((row) => `| ${row} |`), ''].join('\n');
}
