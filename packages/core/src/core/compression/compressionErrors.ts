/** The typed errors the compression framework throws on purpose: a bad strategy name, an empty summary. */
import { DenseError } from '../../utils/errors.js';
import { closestMatches } from '../../utils/closestMatches.js';
import { COMPRESSION_STRATEGIES, type CompressionStrategyName } from './types.js';

/** A strategy name that is not one of COMPRESSION_STRATEGIES (from a setting, a profile, a flag). */
export class UnknownCompressionStrategyError extends DenseError {
  readonly code = 'UNKNOWN_COMPRESSION_STRATEGY';
  readonly validNames: readonly CompressionStrategyName[] = COMPRESSION_STRATEGIES;

  constructor(readonly value: unknown) {
    const shown = typeof value === 'string' ? `'${value}'` : `a ${typeof value}`;
    const suggestions =
      typeof value === 'string' ? closestMatches(value, COMPRESSION_STRATEGIES, 1) : [];
    const hint = suggestions[0] === undefined ? '' : ` Did you mean '${suggestions[0]}'?`;
    super(
      `Unknown compression strategy ${shown}. Valid strategies: ${COMPRESSION_STRATEGIES.join(', ')}.` +
        `${hint} Set compression.strategy to one of them.`,
    );
  }
}

/** The summarizing model answered with no text, so there is nothing to replace the history with. */
export class EmptySummaryError extends DenseError {
  readonly code = 'EMPTY_SUMMARY';

  constructor(
    readonly strategy: CompressionStrategyName,
    readonly provider: string,
    readonly model: string,
  ) {
    super(
      `The ${strategy} compression got an empty summary from ${provider} (${model}); the history ` +
        'was left unchanged. Try again, or set compression.profile to a profile whose model ' +
        'follows the summary prompt.',
    );
  }
}
