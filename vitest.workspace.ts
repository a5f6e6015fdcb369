import { defineWorkspace } from 'vitest/config';
import {
  SLOW_HOOK_TIMEOUT_MS,
  SLOW_TEST_TIMEOUT_MS,
  SLOW_TESTS,
} from './packages/core/vitest.slowTests.js';

export default defineWorkspace([
  'packages/core',
  'packages/cli',
  'scripts',
  // The slow core tests (`packages/core/vitest.slowTests.ts`), with their own timeouts.
  {
    root: './packages/core',
    test: {
      name: 'core-slow',
      include: SLOW_TESTS,
      environment: 'node',
      testTimeout: SLOW_TEST_TIMEOUT_MS,
      hookTimeout: SLOW_HOOK_TIMEOUT_MS,
    },
  },
]);
