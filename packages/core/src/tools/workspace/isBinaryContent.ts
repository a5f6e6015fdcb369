/** Binary-file detection shared by the read tools and the CLI's `@` processor. */

/** How many leading bytes are inspected. */
export const BINARY_SNIFF_BYTES = 8192;

/** True when the first 8 KB contain a NUL byte (the heuristic git and grep use). */
export function isBinaryContent(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, BINARY_SNIFF_BYTES);
  for (let i = 0; i < end; i++) {
    if (bytes[i] === 0) return true;
  }
  return false;
}
