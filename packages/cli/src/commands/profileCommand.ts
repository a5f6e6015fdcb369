/**
 * `/profile save|load|list|delete <name>`. A profile holds the settings that differ from their
 * defaults plus the provider, model and base URL. Loading is all or nothing: a broken profile (or
 * one whose provider cannot be built) shows the error and keeps the current settings and provider.
 */
import { errorMessage, formatSettingValue, type EphemeralSettings } from '@dense/core';
import type { CliSession } from '../session/CliSession.js';
import { chooseProvider } from '../session/ProviderHolder.js';
import { errorLine, lines, type CommandOutput, type SlashCommand } from './types.js';

const SUBCOMMANDS = ['save', 'load', 'list', 'delete'] as const;

function settingsSummary(settings: EphemeralSettings): string {
  const entries = Object.entries(settings);
  if (entries.length === 0) return 'no settings (all defaults)';
  return entries.map(([key, value]) => `${key}=${formatSettingValue(value)}`).join(', ');
}

async function save(cli: CliSession, name: string): Promise<CommandOutput> {
  const settings = cli.settings.snapshotForProfile();
  const { provider, model, baseUrl } = cli.providers.config;
  const file = await cli.profiles.save(name, {
    provider,
    model,
    ...(baseUrl === undefined ? {} : { baseUrl }),
    settings,
  });
  cli.activeProfile = name;
  return lines(
    { text: `Saved profile '${name}' to ${file}`, tone: 'success' },
    { text: `  ${provider}/${model}; ${settingsSummary(settings)}`, tone: 'dim' },
  );
}

async function load(cli: CliSession, name: string): Promise<CommandOutput> {
  const profile = await cli.profiles.load(name);
  const choice = chooseProvider({}, profile);
  const current = cli.providers.config;
  const same =
    choice.provider === current.provider &&
    (choice.model ?? current.model) === current.model &&
    choice.baseUrl === current.baseUrl;
  const provider = same ? undefined : cli.providers.prepare(choice);
  cli.settings.replaceProfileLayer(profile.settings);
  if (provider) cli.providers.commit(choice, provider);
  cli.activeProfile = name;
  return lines(
    { text: `Loaded profile '${name}' (session settings were reset to it).`, tone: 'success' },
    {
      text: `  ${cli.providers.config.provider}/${cli.providers.config.model}; ${settingsSummary(profile.settings)}`,
      tone: 'dim',
    },
  );
}

async function list(cli: CliSession): Promise<CommandOutput> {
  const names = await cli.profiles.list();
  if (names.length === 0) {
    return lines({
      text: 'No saved profiles yet. Save one with /profile save <name>.',
      tone: 'dim',
    });
  }
  return lines(
    { text: 'Profiles:', tone: 'heading' },
    ...names.map((name) => `  ${name}${name === cli.activeProfile ? '  (active)' : ''}`),
  );
}

async function remove(cli: CliSession, name: string): Promise<CommandOutput> {
  await cli.profiles.delete(name);
  if (cli.activeProfile === name) cli.activeProfile = undefined;
  return lines({ text: `Deleted profile '${name}'.`, tone: 'success' });
}

async function dispatch(
  cli: CliSession,
  sub: string,
  name: string | undefined,
): Promise<CommandOutput> {
  if (sub === 'list') return list(cli);
  if (name === undefined) return errorLine(`Usage: /profile ${sub} <name>`);
  if (sub === 'save') return save(cli, name);
  if (sub === 'load') return load(cli, name);
  return remove(cli, name);
}

export const profileCommand: SlashCommand = {
  name: 'profile',
  usage: [
    '/profile save <name>',
    '/profile load <name>',
    '/profile list',
    '/profile delete <name>',
  ],
  summary: 'Save, load, list or delete settings profiles',
  async run(args, { cli }) {
    const [sub, name, extra] = args
      .trim()
      .split(/\s+/)
      .filter((word) => word !== '');
    if (
      sub === undefined ||
      !(SUBCOMMANDS as readonly string[]).includes(sub) ||
      extra !== undefined
    ) {
      return errorLine('Usage: /profile save|load|delete <name>, or /profile list');
    }
    try {
      return await dispatch(cli, sub, name);
    } catch (error) {
      const kept = sub === 'load' ? ' Current settings are unchanged.' : '';
      return errorLine(`${errorMessage(error)}${kept}`);
    }
  },
  complete(args, context) {
    const words = args.split(/\s+/);
    if (words.length <= 1) return SUBCOMMANDS;
    if (
      words.length === 2 &&
      (words[0] === 'load' || words[0] === 'delete' || words[0] === 'save')
    ) {
      return context.profileNames;
    }
    return [];
  },
};
