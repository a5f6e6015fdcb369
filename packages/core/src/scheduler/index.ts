/** The density scheduler: one entry point (`DensityScheduler`) and the pure pieces it is made of. */
export * from './DensityScheduler.js';
export * from './attributeDensityTokens.js';
export * from './densityCacheLedger.js';
export * from './densityStep.js';
export * from './densitySchedule.js';
export * from './cacheImpact.js';
