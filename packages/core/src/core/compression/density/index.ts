/** The public surface of the high-density passes and helpers. */
export * from './optimize/optimizeDensity.js';
export * from './optimize/applyDensityResultToArray.js';
export * from './optimize/readWritePruning.js';
export * from './optimize/inclusionDedup.js';
export * from './optimize/recencyPruning.js';
export * from './compress/compressionPlan.js';
export * from './compress/toolResponseSummary.js';
