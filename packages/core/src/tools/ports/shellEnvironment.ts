/**
 * The environment a shell command runs in: Dense's own, minus what would let a command (or the
 * model reading its output) see the provider credentials. `env` in a session must not put an API
 * key into the history, the recording, or the next request.
 */
import { API_KEY_ENV_VARS } from '../../providers/resolveApiKey.js';

/**
 * Variables the provider SDKs read besides the keys: other credentials, and the endpoint and
 * account routing a command has no business inheriting from Dense.
 */
export const SDK_ENV_VARS: readonly string[] = [
  'ANTHROPIC_AUTH_TOKEN',
  'ANTHROPIC_BASE_URL',
  'OPENAI_BASE_URL',
  'OPENAI_ORG_ID',
  'OPENAI_PROJECT_ID',
  'OPENAI_ADMIN_KEY',
  'OPENAI_WEBHOOK_SECRET',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'GOOGLE_CLOUD_PROJECT',
  'GOOGLE_CLOUD_LOCATION',
  'GOOGLE_GENAI_USE_VERTEXAI',
];

/** Every variable the shell tool never passes on. */
export const WITHHELD_ENV_VARS: ReadonlySet<string> = new Set([
  ...Object.values(API_KEY_ENV_VARS).flat(),
  ...SDK_ENV_VARS,
]);

/** `env` without the withheld variables, with pagers disabled (commands never wait on a pager). */
export function shellEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const safe: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (!WITHHELD_ENV_VARS.has(name.toUpperCase())) safe[name] = value;
  }
  return { ...safe, PAGER: 'cat', GIT_PAGER: 'cat' };
}
