/** The agent's start-up configuration, as parsed from the command line (see parseCliArgs). */
import type { SettingKey } from '@dense/core';

export interface SettingOverride {
  readonly key: SettingKey;
  /** As typed after `=`; applied with the same parser `/set` uses. */
  readonly raw: string;
}

export interface CliConfig {
  /** `-p`: the one-shot prompt. `''` when `-p` was given empty (stdin must then supply it). */
  readonly prompt?: string;
  readonly provider?: string;
  readonly model?: string;
  readonly baseUrl?: string;
  readonly profile?: string;
  readonly settings: readonly SettingOverride[];
  /** Run write and shell tools without asking. */
  readonly yolo: boolean;
  /** Absolute path of the workspace root (not checked yet). */
  readonly workspace: string;
  /** A session id (or a unique prefix of one), or `latest`. */
  readonly resume?: string;
}
