/**
 * Providers for LLM summaries named by `compression.profile`: the strategy asks synchronously, so
 * the named profile's provider is built ahead of time, when the setting is set or changes. Until
 * it is ready (or if the profile cannot be used) summaries use the current provider, and the
 * problem is reported once.
 */
import {
  errorMessage,
  type IProvider,
  type ProfileManager,
  type SettingsService,
} from '@dense/core';
import { chooseProvider, type ProviderHolder } from './ProviderHolder.js';

export class SummaryProviders {
  private readonly ready = new Map<string, IProvider>();
  private readonly off: () => void;

  constructor(
    private readonly deps: {
      readonly settings: SettingsService;
      readonly profiles: ProfileManager;
      readonly providers: ProviderHolder;
      readonly onNotice: (message: string) => void;
    },
  ) {
    this.off = deps.settings.events.on('changed', ({ key }) => {
      if (key === 'compression.profile') void this.prepareCurrent();
    });
  }

  /** The `resolveProvider` for the session: the named profile's provider, else the current one. */
  readonly resolve = (profileName?: string): IProvider =>
    (profileName === undefined ? undefined : this.ready.get(profileName)) ??
    this.deps.providers.current;

  /** Builds the provider of the profile `compression.profile` names, if any. */
  async prepareCurrent(): Promise<void> {
    const name = this.deps.settings.get('compression.profile');
    if (name === undefined || this.ready.has(name)) return;
    try {
      const profile = await this.deps.profiles.load(name);
      const choice = chooseProvider({}, profile);
      this.ready.set(name, this.deps.providers.prepare(choice));
    } catch (error) {
      this.deps.onNotice(
        `compression.profile '${name}' cannot be used for summaries (${errorMessage(error)}); summaries use the current model.`,
      );
    }
  }

  dispose(): void {
    this.off();
  }
}
