/** What to tell the user when a turn fails: the typed error's message, prefixed by its kind. */
import {
  ChatCancelledError,
  ChatStepLimitError,
  ContextOverflowError,
  DenseError,
  errorMessage,
  ProviderError,
} from '@dense/core';

export type TurnErrorKind = 'cancelled' | 'overflow' | 'provider' | 'step-limit' | 'other';

export interface TurnErrorReport {
  readonly kind: TurnErrorKind;
  readonly message: string;
}

export function describeTurnError(error: unknown): TurnErrorReport {
  if (error instanceof ChatCancelledError) {
    return {
      kind: 'cancelled',
      message: 'Turn cancelled; the history keeps every completed step.',
    };
  }
  if (error instanceof ContextOverflowError) {
    return { kind: 'overflow', message: `Context overflow: ${error.message}` };
  }
  if (error instanceof ChatStepLimitError) return { kind: 'step-limit', message: error.message };
  if (error instanceof ProviderError) {
    return { kind: 'provider', message: `${error.provider} (${error.code}): ${error.message}` };
  }
  if (error instanceof DenseError) {
    return { kind: 'other', message: `${error.code}: ${error.message}` };
  }
  return { kind: 'other', message: `Unexpected error: ${errorMessage(error)}` };
}
