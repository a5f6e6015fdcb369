/**
 * `/set`: list every setting, show one (description, type, default, current value and where it
 * came from), set one for this session, or unset one. Values go through core's one parser, so an
 * invalid key or value gets the parser's message and changes nothing.
 */
import {
  describeRange,
  formatSettingValue,
  getSettingDefault,
  getSettingSpec,
  resolveSettingKey,
  SETTINGS_REGISTRY,
  SettingError,
  type SettingKey,
  type SettingSource,
  type SettingSpec,
  type SettingsService,
} from '@dense/core';
import {
  errorLine,
  lines,
  type CommandOutput,
  type OutputLine,
  type SlashCommand,
} from './types.js';

const SOURCE_WORDS: Record<SettingSource, string> = {
  default: 'default',
  profile: 'from profile',
  session: 'set this session',
};

export function describeSettingType(spec: SettingSpec): string {
  switch (spec.type) {
    case 'boolean':
      return 'boolean (true/false)';
    case 'number':
      return describeRange(spec.range);
    case 'string':
      return 'text';
    case 'enum':
      return `one of ${spec.enumValues.join(', ')}`;
  }
}

function sourceWord(
  settings: SettingsService,
  key: SettingKey,
  profile: string | undefined,
): string {
  const source = settings.getSource(key);
  return source === 'profile' && profile !== undefined
    ? `from profile '${profile}'`
    : SOURCE_WORDS[source];
}

function listAll(settings: SettingsService, profile: string | undefined): CommandOutput {
  const width = Math.max(...SETTINGS_REGISTRY.map((spec) => spec.key.length));
  const rows: OutputLine[] = SETTINGS_REGISTRY.map((spec) => {
    const value = formatSettingValue(settings.get(spec.key));
    const source = settings.getSource(spec.key);
    return {
      text: `${spec.key.padEnd(width)}  ${value}${source === 'default' ? '' : `  (${sourceWord(settings, spec.key, profile)})`}`,
      tone: source === 'default' ? 'normal' : 'info',
    };
  });
  return lines(
    { text: 'Settings (/set <key> for details, /set <key> <value> to change):', tone: 'heading' },
    ...rows,
  );
}

function showOne(
  settings: SettingsService,
  key: SettingKey,
  profile: string | undefined,
): CommandOutput {
  const spec = getSettingSpec(key);
  return lines(
    { text: key, tone: 'heading' },
    `  ${spec.description}`,
    `  type:    ${describeSettingType(spec)}`,
    `  default: ${formatSettingValue(getSettingDefault(key))}`,
    `  current: ${formatSettingValue(settings.get(key))} (${sourceWord(settings, key, profile)})`,
  );
}

function unsetOne(settings: SettingsService, rawKey: string): CommandOutput {
  const key = resolveSettingKey(rawKey);
  if (key instanceof SettingError) return errorLine(key.message);
  settings.unset(key);
  return lines({
    text: `${key} is back to its default (${formatSettingValue(settings.get(key))}) for this session.`,
    tone: 'success',
  });
}

function setOne(settings: SettingsService, rawKey: string, raw: string): CommandOutput {
  const result = settings.setFromString(rawKey, raw);
  if (!result.ok) return errorLine(result.error.message);
  return lines(
    {
      text: `${result.key} = ${formatSettingValue(result.value)} (this session only)`,
      tone: 'success',
    },
    { text: 'To keep it, save a profile: /profile save <name>', tone: 'dim' },
  );
}

function completeValues(key: string): readonly string[] {
  const resolved = resolveSettingKey(key);
  if (resolved instanceof SettingError) return [];
  const spec = getSettingSpec(resolved);
  if (spec.type === 'enum') return spec.enumValues;
  if (spec.type === 'boolean') return ['true', 'false'];
  return [];
}

export const setCommand: SlashCommand = {
  name: 'set',
  usage: ['/set', '/set <key>', '/set <key> <value>', '/set unset <key>'],
  summary: 'Show or change settings for this session',
  run(args, { cli }) {
    const [first, ...rest] = args
      .trim()
      .split(/\s+/)
      .filter((word) => word !== '');
    const profile = cli.activeProfile;
    if (first === undefined) return Promise.resolve(listAll(cli.settings, profile));
    if (first === 'unset') {
      const [key, extra] = rest;
      if (key === undefined || extra !== undefined)
        return Promise.resolve(errorLine('Usage: /set unset <key>'));
      return Promise.resolve(unsetOne(cli.settings, key));
    }
    if (rest.length === 0) {
      const key = resolveSettingKey(first);
      if (key instanceof SettingError) return Promise.resolve(errorLine(key.message));
      return Promise.resolve(showOne(cli.settings, key, profile));
    }
    return Promise.resolve(setOne(cli.settings, first, rest.join(' ')));
  },
  complete(args) {
    const words = args.split(/\s+/);
    const keys = SETTINGS_REGISTRY.map((spec) => spec.key);
    if (words.length <= 1) return ['unset', ...keys];
    if (words.length === 2 && words[0] === 'unset') return keys;
    if (words.length === 2) return completeValues(words[0] ?? '');
    return [];
  },
};
