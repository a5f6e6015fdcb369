/**
 * Where a provider's API key comes from, in order: the configuration, a key file, the provider's
 * environment variable(s), and — for a server on this machine only — a placeholder, since local
 * OpenAI-compatible servers take no key. The key itself never appears in an error.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { errorMessage } from '../utils/errors.js';
import { ProviderError } from './ProviderError.js';

export const PROVIDER_KINDS = ['openai', 'anthropic', 'gemini'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** Environment variables read for each provider's key, first match wins. */
export const API_KEY_ENV_VARS: Readonly<Record<ProviderKind, readonly string[]>> = {
  openai: ['OPENAI_API_KEY'],
  anthropic: ['ANTHROPIC_API_KEY'],
  gemini: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
};

/** Sent as the key to a loopback server when no key is configured. */
export const LOCAL_PLACEHOLDER_KEY = 'dense-local-no-key';

export interface ApiKeySource {
  readonly provider: ProviderKind;
  readonly apiKey?: string;
  readonly apiKeyFile?: string;
  readonly baseUrl?: string;
}

export type ReadKeyFile = (file: string) => string;

const defaultReadKeyFile: ReadKeyFile = (file) => readFileSync(file, 'utf8');

export function isLoopbackUrl(url: string | undefined): boolean {
  if (url === undefined) return false;
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  return (
    host === 'localhost' || host === '[::1]' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host)
  );
}

export function resolveApiKey(
  source: ApiKeySource,
  env: Readonly<Record<string, string | undefined>>,
  readTextFile: ReadKeyFile = defaultReadKeyFile,
): string {
  const fromConfig = source.apiKey?.trim();
  if (fromConfig) return fromConfig;
  if (source.apiKeyFile !== undefined) return readKeyFile(source, env, readTextFile);
  for (const name of API_KEY_ENV_VARS[source.provider]) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  if (isLoopbackUrl(source.baseUrl)) return LOCAL_PLACEHOLDER_KEY;
  const vars = API_KEY_ENV_VARS[source.provider].join(' or ');
  throw new ProviderError({
    code: 'PROVIDER_AUTH_MISSING',
    provider: source.provider,
    message:
      `No API key for the ${source.provider} provider. Set ${vars} in the environment, ` +
      `or give a key file (apiKeyFile).`,
  });
}

function readKeyFile(
  source: ApiKeySource,
  env: Readonly<Record<string, string | undefined>>,
  readTextFile: ReadKeyFile,
): string {
  const raw = source.apiKeyFile ?? '';
  const file = raw.startsWith('~/') ? path.join(env.HOME ?? homedir(), raw.slice(2)) : raw;
  let text: string;
  try {
    text = readTextFile(file);
  } catch (error) {
    throw new ProviderError({
      code: 'PROVIDER_AUTH_MISSING',
      provider: source.provider,
      message: `Could not read the ${source.provider} API key file ${file}: ${errorMessage(error)}. Fix the path or set ${API_KEY_ENV_VARS[source.provider].join(' or ')}.`,
    });
  }
  const key = text.trim();
  if (key === '') {
    throw new ProviderError({
      code: 'PROVIDER_AUTH_MISSING',
      provider: source.provider,
      message: `The ${source.provider} API key file ${file} is empty. Put the key in it or set ${API_KEY_ENV_VARS[source.provider].join(' or ')}.`,
    });
  }
  return key;
}
