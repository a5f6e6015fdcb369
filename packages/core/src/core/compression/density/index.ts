/** The public surface of the high-density passes and helpers. */
export * from './optimizeDensity.js';
export * from './applyDensityResultToArray.js';
export * from './readWritePruning.js';
export * from './inclusionDedup.js';
export * from './recencyPruning.js';
export * from './compressionPlan.js';
export * from './toolResponseSummary.js';
export * from '../../../scheduler/cacheImpact.js';
