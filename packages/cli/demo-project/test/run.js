/** Runs every test file. Exit code 1 when a test fails. */
import { run } from './harness.js';
import './parse.test.js';
import './stringify.test.js';
import './stats.test.js';
import './table.test.js';

const failed = await run();
process.exitCode = failed === 0 ? 0 : 1;
