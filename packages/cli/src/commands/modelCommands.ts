/**
 * `/model [name]` and `/provider [name]`: show the current choice and the models
 * the model table knows for this provider, or switch. A switch that cannot be built (say, no API
 * key for another provider) keeps the current provider and says why.
 */
import { errorMessage, getModelLimits, knownModels } from '@dense/core';
import { formatCompact } from '../format/formatTokens.js';
import type { CliSession } from '../session/CliSession.js';
import type { ProviderChoice } from '../session/ProviderHolder.js';
import { errorLine, lines, type CommandOutput, type SlashCommand } from './types.js';

export const PROVIDER_NAMES = ['openai', 'anthropic', 'gemini'] as const;

function windowOf(model: string): string {
  const limits = getModelLimits(model);
  return limits === undefined
    ? 'context window unknown'
    : `${formatCompact(limits.contextWindow)} context`;
}

function switchTo(cli: CliSession, choice: ProviderChoice): CommandOutput | undefined {
  try {
    cli.providers.commit(choice, cli.providers.prepare(choice));
    return undefined;
  } catch (error) {
    return errorLine(
      `Could not switch: ${errorMessage(error)} Still using ${describeCurrent(cli)}.`,
    );
  }
}

function describeCurrent(cli: CliSession): string {
  const { provider, model, baseUrl } = cli.providers.config;
  return `${provider}/${model}${baseUrl === undefined ? '' : ` at ${baseUrl}`}`;
}

export const modelCommand: SlashCommand = {
  name: 'model',
  usage: ['/model', '/model <name>'],
  summary: 'Show the model and the ones known for this provider, or switch model',
  run(args, { cli }) {
    const name = args.trim();
    const { provider, model } = cli.providers.config;
    if (name === '') {
      const known = knownModels(provider);
      return Promise.resolve(
        lines(
          { text: `Model: ${describeCurrent(cli)} (${windowOf(model)})`, tone: 'heading' },
          known.length === 0
            ? {
                text: `The model table knows no ${provider} models; any name the server accepts works.`,
                tone: 'dim',
              }
            : { text: `Known ${provider} models (any other name the server accepts works too):` },
          ...known.map((m) => ({ text: `  ${m === model ? '●' : ' '} ${m}  ${windowOf(m)}` })),
          { text: 'Switch with /model <name>.', tone: 'dim' },
        ),
      );
    }
    if (name === model) return Promise.resolve(lines(`Already using ${describeCurrent(cli)}.`));
    const failed = switchTo(cli, { ...cli.providers.config, model: name });
    if (failed) return Promise.resolve(failed);
    const unknown =
      getModelLimits(name) === undefined
        ? ' (not in the model table: the context limit falls back to the default)'
        : '';
    return Promise.resolve(
      lines({
        text: `Now using ${describeCurrent(cli)} for this session${unknown}.`,
        tone: 'success',
      }),
    );
  },
  complete(args) {
    return args.includes(' ') ? [] : [...PROVIDER_NAMES.flatMap((p) => knownModels(p))];
  },
};

export const providerCommand: SlashCommand = {
  name: 'provider',
  usage: ['/provider', '/provider openai|anthropic|gemini'],
  summary:
    'Show the provider, or switch to another (its default model; the key from the environment)',
  run(args, { cli }) {
    const name = args.trim();
    if (name === '') {
      return Promise.resolve(
        lines(
          { text: `Provider: ${describeCurrent(cli)}`, tone: 'heading' },
          {
            text: `Available: ${PROVIDER_NAMES.join(', ')}. Switch with /provider <name>.`,
            tone: 'dim',
          },
        ),
      );
    }
    if (!(PROVIDER_NAMES as readonly string[]).includes(name)) {
      return Promise.resolve(
        errorLine(`Unknown provider '${name}': use ${PROVIDER_NAMES.join(', ')}.`),
      );
    }
    if (name === cli.providers.config.provider) {
      return Promise.resolve(lines(`Already using ${describeCurrent(cli)}.`));
    }
    const failed = switchTo(cli, { provider: name });
    return Promise.resolve(
      failed ??
        lines({ text: `Now using ${describeCurrent(cli)} for this session.`, tone: 'success' }),
    );
  },
  complete(args) {
    return args.includes(' ') ? [] : [...PROVIDER_NAMES];
  },
};
