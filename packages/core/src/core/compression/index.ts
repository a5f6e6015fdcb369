/** The public surface of the compression framework. */
export * from './types.js';
export * from './densityVocabulary.js';
export * from './toolCallBoundary.js';
