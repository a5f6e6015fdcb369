/**
 * The base of every error Dense throws on purpose. Each subclass carries a stable, machine-readable
 * `code` (callers switch on it; messages may change) and a message written for the person who has to
 * act on it: what went wrong, where, and what to do.
 */
export abstract class DenseError extends Error {
  abstract readonly code: string;

  constructor(message: string, options?: { readonly cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The message of anything thrown, for error reports that must never crash themselves. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}
