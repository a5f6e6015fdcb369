/**
 * Named profiles on disk: the persistable settings that differ from their defaults, plus the
 * provider and model to use. Writes are atomic; a broken profile fails to load with an error
 * naming the file, the key and the problem, and nothing on disk is touched.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../utils/atomicWrite.js';
import { DenseError, errorMessage } from '../utils/errors.js';
import { validateSettingValue } from '../settings/parseSettingValue.js';
import type { EphemeralSettings, SettingKey } from '../settings/settingsRegistry.js';

export const PROFILE_VERSION = 1;

export interface Profile {
  readonly provider?: string;
  readonly model?: string;
  readonly baseUrl?: string;
  readonly settings: EphemeralSettings;
}

export type ProfileErrorCode =
  | 'PROFILE_INVALID_NAME'
  | 'PROFILE_NOT_FOUND'
  | 'PROFILE_INVALID_JSON'
  | 'PROFILE_INVALID_FORMAT'
  | 'PROFILE_INVALID_SETTING'
  | 'PROFILE_IO';

export class ProfileError extends DenseError {
  constructor(
    readonly code: ProfileErrorCode,
    message: string,
    readonly file?: string,
    options?: { readonly cause?: unknown },
  ) {
    super(message, options);
  }
}

const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const ProfileFileSchema = z
  .object({
    version: z.literal(PROFILE_VERSION),
    provider: z.string().min(1).optional(),
    model: z.string().min(1).optional(),
    baseUrl: z.string().min(1).optional(),
    settings: z.record(z.string(), z.unknown()),
  })
  .strict();

function isNotFound(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

export class ProfileManager {
  constructor(private readonly profilesDir: string) {}

  fileFor(name: string): string {
    if (!NAME_PATTERN.test(name)) {
      throw new ProfileError(
        'PROFILE_INVALID_NAME',
        `Invalid profile name '${name}': use letters, digits, '.', '_' or '-' (at most 64, not starting with '.').`,
      );
    }
    return path.join(this.profilesDir, `${name}.json`);
  }

  async save(name: string, profile: Profile): Promise<string> {
    const file = this.fileFor(name);
    const settings = checkSettings(profile.settings, file);
    const body = { version: PROFILE_VERSION, ...withoutSettings(profile), settings };
    try {
      await writeFileAtomic(file, `${JSON.stringify(body, null, 2)}\n`);
    } catch (error) {
      throw new ProfileError(
        'PROFILE_IO',
        `Could not write profile ${file}: ${errorMessage(error)}`,
        file,
        { cause: error },
      );
    }
    return file;
  }

  async load(name: string): Promise<Profile> {
    const file = this.fileFor(name);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw fileError(error, name, file, 'read');
    }
    return parseProfile(text, file);
  }

  async list(): Promise<string[]> {
    try {
      const names = await readdir(this.profilesDir);
      return names
        .filter((entry) => entry.endsWith('.json'))
        .map((entry) => entry.slice(0, -'.json'.length))
        .filter((entry) => NAME_PATTERN.test(entry))
        .sort();
    } catch (error) {
      if (isNotFound(error)) return [];
      throw new ProfileError(
        'PROFILE_IO',
        `Could not list profiles in ${this.profilesDir}: ${errorMessage(error)}`,
      );
    }
  }

  async delete(name: string): Promise<void> {
    const file = this.fileFor(name);
    try {
      await rm(file);
    } catch (error) {
      throw fileError(error, name, file, 'delete');
    }
  }
}

/** A profile file that could not be read or removed: missing, or another I/O failure. */
function fileError(
  error: unknown,
  name: string,
  file: string,
  action: 'read' | 'delete',
): ProfileError {
  if (isNotFound(error)) {
    return new ProfileError(
      'PROFILE_NOT_FOUND',
      `Profile '${name}' does not exist (${file}).`,
      file,
    );
  }
  return new ProfileError(
    'PROFILE_IO',
    `Could not ${action} profile ${file}: ${errorMessage(error)}`,
    file,
    { cause: error },
  );
}

function withoutSettings(profile: Profile): Omit<Profile, 'settings'> {
  const { settings: _settings, ...rest } = profile;
  return rest;
}

function checkSettings(
  settings: Readonly<Record<string, unknown>>,
  file: string,
): EphemeralSettings {
  const checked: Partial<Record<SettingKey, unknown>> = {};
  for (const [key, value] of Object.entries(settings)) {
    const result = validateSettingValue(key, value);
    if (!result.ok) {
      throw new ProfileError(
        'PROFILE_INVALID_SETTING',
        `Profile ${file}: setting '${key}': ${result.error.message}`,
        file,
        { cause: result.error },
      );
    }
    checked[result.key] = result.value;
  }
  return checked as EphemeralSettings;
}

/** Parses a profile file's text; every problem names the file (and the key, where there is one). */
export function parseProfile(text: string, file: string): Profile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ProfileError(
      'PROFILE_INVALID_JSON',
      `Profile ${file} is not valid JSON: ${errorMessage(error)}`,
      file,
    );
  }
  const parsed = ProfileFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at '${issue.path.join('.')}'` : '';
    throw new ProfileError(
      'PROFILE_INVALID_FORMAT',
      `Profile ${file} is malformed${where}: ${issue?.message ?? 'unexpected shape'}.`,
      file,
    );
  }
  const { version: _version, settings, ...rest } = parsed.data;
  // Check the keys as written: schema parsing drops a `__proto__` key instead of reporting it.
  const written = (json as { readonly settings?: Readonly<Record<string, unknown>> }).settings;
  return { ...rest, settings: checkSettings(written ?? settings, file) };
}
