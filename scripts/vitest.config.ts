import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

const coreSrc = fileURLToPath(new URL('../packages/core/src/', import.meta.url));

export default defineProject({
  resolve: {
    alias: [
      { find: /^@dense\/core$/, replacement: `${coreSrc}index.ts` },
      { find: /^@dense\/core\/test-utils$/, replacement: `${coreSrc}test-utils/index.ts` },
    ],
  },
  test: { name: 'scripts', include: ['**/*.test.ts'], environment: 'node' },
});
