/**
 * The core tests that are slow by nature, run as their own project with their own timeouts:
 * property tests (hundreds of random cases each, CPU-bound: 0.1–3.6 s each on a loaded 2-core
 * machine), end-to-end sessions and provider SDK integrations, and the tests over the shared
 * corpus (every real session imported). Measured one file at a time at load 6–8 on 2 cores
 * (2026-11-25), slowest test per file: settleUnderBudget.reuse 3.6 s, reusedSplice 2.9 s,
 * messageFingerprints 2.4 s, entryReplies 2.3 s, proxyPlans 1.6 s, densifyRequest.positions 1.0 s,
 * sessionNeverLocks.e2e 0.8 s, HighDensityStrategy.compress 0.9 s, providers.integration 0.6 s,
 * densitySchedule.e2e 0.6 s; the corpus imports ~10 ms a test after their `beforeAll`.
 */
export const SLOW_TESTS = [
  'src/**/*.properties.test.ts',
  'src/**/*.e2e.test.ts',
  'src/**/*.integration.test.ts',
  'src/transcripts/corpus.test.ts',
  'src/**/*.codexCorpus.test.ts',
];

/** Per test: ≥ 3× the slowest measured (3.6 s under load) with room for a busier machine. */
export const SLOW_TEST_TIMEOUT_MS = 30_000;
/** Per hook: the corpus tests import every session in `beforeAll`. */
export const SLOW_HOOK_TIMEOUT_MS = 120_000;
