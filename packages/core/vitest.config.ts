import { configDefaults, defineProject } from 'vitest/config';
import { SLOW_TESTS } from './vitest.slowTests.js';

/** Unit tests: vitest's default timeouts (5 s a test); the slow ones are `core-slow`. */
export default defineProject({
  test: {
    name: 'core',
    include: ['src/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...SLOW_TESTS],
    environment: 'node',
  },
});
