/** The proxy's recall archive: originals the proxy replaced, kept for `dense recall` and `dense mcp`. */
export * from './RecallArchive.js';
export { regionPieces } from './regionPieces.js';
export { recalledImageParts, type RecalledPart } from './recalledImages.js';
