/** Writes docs/settings.md from the settings registry, formatted as the repository formats Markdown. */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { renderSettingsReference } from '@dense/core';

const target = fileURLToPath(new URL('../docs/settings.md', import.meta.url));
const options = await prettier.resolveConfig(target);
writeFileSync(
  target,
  await prettier.format(renderSettingsReference(), { ...options, filepath: target }),
);
console.log(`wrote ${target}`);
