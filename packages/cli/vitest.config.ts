import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

const coreSrc = fileURLToPath(new URL('../core/src/', import.meta.url));

export default defineProject({
  resolve: {
    alias: [
      { find: /^@dense\/core\/test-utils$/, replacement: `${coreSrc}test-utils/index.ts` },
      { find: /^@dense\/core$/, replacement: `${coreSrc}index.ts` },
    ],
  },
  test: {
    name: 'cli',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
  },
});
