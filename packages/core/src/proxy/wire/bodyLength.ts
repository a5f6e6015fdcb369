/** Bytes of a body given whole or as chunks. */
export function bodyLength(body: Buffer | readonly Buffer[]): number {
  if (Buffer.isBuffer(body)) return body.length;
  let length = 0;
  for (const chunk of body) length += chunk.length;
  return length;
}
