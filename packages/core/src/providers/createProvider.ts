/**
 * Builds the provider a configuration names: picks the class, the default model and the API key
 * (see resolveApiKey). Unknown providers and bad base URLs are typed errors, never a crash later.
 */
import { closestMatches } from '../utils/closestMatches.js';
import { AnthropicProvider } from './AnthropicProvider.js';
import { GeminiProvider } from './GeminiProvider.js';
import type { IProvider } from './IProvider.js';
import { DEFAULT_MODELS } from './modelLimits.js';
import { OpenAIProvider } from './OpenAIProvider.js';
import { ProviderError } from './ProviderError.js';
import type { ProviderOptions } from './ProviderOptions.js';
import {
  PROVIDER_KINDS,
  resolveApiKey,
  type ProviderKind,
  type ReadKeyFile,
} from './resolveApiKey.js';

export interface ProviderConfig {
  /** 'openai' (any OpenAI-compatible server), 'anthropic' or 'gemini'. */
  readonly provider: string;
  readonly model?: string;
  readonly baseUrl?: string;
  readonly apiKey?: string;
  /** A file holding the key (`~/` allowed); read once, at creation. */
  readonly apiKeyFile?: string;
}

/** Everything but the configuration: retry runtime, logger, id factory, key-file reader. */
export type ProviderRuntimeOptions = Omit<ProviderOptions, 'model' | 'apiKey' | 'baseUrl'> & {
  readonly readTextFile?: ReadKeyFile;
};

export function isProviderKind(value: string): value is ProviderKind {
  return (PROVIDER_KINDS as readonly string[]).includes(value);
}

/**
 * @throws ProviderError PROVIDER_CONFIG_INVALID (unknown provider, bad URL) or
 *   PROVIDER_AUTH_MISSING (no key found; the message names the variable to set).
 */
export function createProvider(
  config: ProviderConfig,
  env: Readonly<Record<string, string | undefined>> = process.env,
  runtime: ProviderRuntimeOptions = {},
): IProvider {
  const kind = checkKind(config.provider);
  const baseUrl = checkBaseUrl(kind, config.baseUrl);
  const { readTextFile, ...rest } = runtime;
  const apiKey = resolveApiKey(
    {
      provider: kind,
      ...(config.apiKey === undefined ? {} : { apiKey: config.apiKey }),
      ...(config.apiKeyFile === undefined ? {} : { apiKeyFile: config.apiKeyFile }),
      ...(baseUrl === undefined ? {} : { baseUrl }),
    },
    env,
    readTextFile,
  );
  const options: ProviderOptions = {
    ...rest,
    model: config.model?.trim() || DEFAULT_MODELS[kind],
    apiKey,
    ...(baseUrl === undefined ? {} : { baseUrl }),
  };
  switch (kind) {
    case 'openai':
      return new OpenAIProvider(options);
    case 'anthropic':
      return new AnthropicProvider(options);
    case 'gemini':
      return new GeminiProvider(options);
    default: {
      const unreachable: never = kind;
      throw new Error(`unreachable provider ${String(unreachable)}`);
    }
  }
}

function checkKind(provider: string): ProviderKind {
  const kind = provider.trim().toLowerCase();
  if (isProviderKind(kind)) return kind;
  const hints = closestMatches(kind, PROVIDER_KINDS);
  const hint = hints.length > 0 ? ` (did you mean '${hints[0]}'?)` : '';
  throw new ProviderError({
    code: 'PROVIDER_CONFIG_INVALID',
    provider,
    message: `Unknown provider '${provider}'. Use one of ${PROVIDER_KINDS.join(', ')}${hint}.`,
  });
}

function checkBaseUrl(kind: ProviderKind, raw: string | undefined): string | undefined {
  const baseUrl = raw?.trim() || undefined;
  if (baseUrl === undefined || isHttpUrl(baseUrl)) return baseUrl;
  throw new ProviderError({
    code: 'PROVIDER_CONFIG_INVALID',
    provider: kind,
    message: `Invalid base URL '${baseUrl}' for the ${kind} provider: use an http(s) URL such as http://127.0.0.1:11434/v1.`,
  });
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
