/**
 * The demo's scripted coding session on the sample project (packages/cli/demo-project): 44 user
 * turns in six chapters. Every tool call is written to succeed against the real files at that point
 * of the session, except test runs marked to fail (a new test before its fix).
 */
import { DELIMITER_TURNS } from './delimiterDetection.js';
import { LINE_ENDING_TURNS } from './lineEndings.js';
import { MEDIAN_TURNS } from './medianBug.js';
import { MODE_AND_TABLE_TURNS } from './modeAndTables.js';
import { ORIENTATION_TURNS } from './orientation.js';
import { RELEASE_TURNS } from './release.js';
import type { DemoTurn } from './scriptBuilders.js';

export const DEMO_SCRIPT: readonly DemoTurn[] = [
  ...ORIENTATION_TURNS,
  ...MEDIAN_TURNS,
  ...LINE_ENDING_TURNS,
  ...MODE_AND_TABLE_TURNS,
  ...DELIMITER_TURNS,
  ...RELEASE_TURNS,
];
