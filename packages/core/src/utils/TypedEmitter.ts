/**
 * A minimal typed event emitter: `on` returns its own unsubscribe function, listeners run in
 * subscription order, and a listener that throws does not stop the others (its error is reported
 * to `onListenerError`, which rethrows asynchronously by default so it is never silently lost).
 */
type Listener<T> = (payload: T) => void;

export class TypedEmitter<Events extends object> {
  private readonly listeners = new Map<keyof Events, Set<Listener<never>>>();

  constructor(
    private readonly onListenerError: (error: unknown) => void = (error) => {
      queueMicrotask(() => {
        throw error;
      });
    },
  ) {}

  on<K extends keyof Events>(event: K, listener: Listener<Events[K]>): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    const set = this.listeners.get(event);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        (listener as Listener<Events[K]>)(payload);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }
}
