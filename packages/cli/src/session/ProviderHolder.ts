/**
 * The provider the session talks to now, swappable while it runs (`/profile load` may name another
 * provider or model). A failed switch leaves the current provider in place.
 */
import { createProvider, getModelLimits, type IProvider, type ProviderConfig } from '@dense/core';

/** Builds a provider; `createProvider` with the process environment by default. */
export type ProviderFactory = (config: ProviderConfig) => IProvider;

/** The parts of a provider configuration a profile or the command line can name. */
export interface ProviderChoice {
  readonly provider: string;
  readonly model?: string;
  readonly baseUrl?: string;
}

export class ProviderHolder {
  private provider: IProvider;
  private choice: ProviderChoice;

  /** @throws ProviderError when the first configuration is unusable (bad URL, no key). */
  constructor(
    choice: ProviderChoice,
    private readonly factory: ProviderFactory = (config) => createProvider(config),
  ) {
    this.provider = factory(choice);
    this.choice = choice;
  }

  get current(): IProvider {
    return this.provider;
  }

  /** What the current provider was built from, with the model it actually uses. */
  get config(): ProviderChoice & { readonly model: string } {
    return { ...this.choice, model: this.provider.model };
  }

  /** The model's known context window, if the model table knows it. */
  contextWindow(): number | undefined {
    return getModelLimits(this.provider.model)?.contextWindow;
  }

  /** Builds the provider for `choice` without switching to it (throws ProviderError). */
  prepare(choice: ProviderChoice): IProvider {
    return this.factory(choice);
  }

  /** Makes a prepared provider current. */
  commit(choice: ProviderChoice, provider: IProvider): void {
    this.choice = choice;
    this.provider = provider;
  }
}

/**
 * Which provider to use: the command line wins; a profile's model and base URL count only when the
 * profile names the same provider (or the command line names none); `openai` by default.
 */
export function chooseProvider(
  flags: { readonly provider?: string; readonly model?: string; readonly baseUrl?: string },
  profile: { readonly provider?: string; readonly model?: string; readonly baseUrl?: string } = {},
): ProviderChoice {
  const provider = flags.provider ?? profile.provider ?? 'openai';
  const sameAsProfile = profile.provider === undefined || profile.provider === provider;
  const model = flags.model ?? (sameAsProfile ? profile.model : undefined);
  const baseUrl = flags.baseUrl ?? (sameAsProfile ? profile.baseUrl : undefined);
  return {
    provider,
    ...(model === undefined ? {} : { model }),
    ...(baseUrl === undefined ? {} : { baseUrl }),
  };
}
