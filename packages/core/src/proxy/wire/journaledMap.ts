/**
 * A Map that records, per wire message, what each message changed, so a reader's lookup tables
 * can be rewound to their state before a given message and the messages after it read again.
 */
interface Change<K, V> {
  readonly message: number;
  readonly key: K;
  /** The value before the change; absent when the key was not set. */
  readonly before: { readonly value: V } | undefined;
}

export class JournaledMap<K, V> {
  private readonly map = new Map<K, V>();
  private readonly changes: Change<K, V>[] = [];
  /** The wire message being read: changes are recorded under it. */
  message = 0;

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  set(key: K, value: V): void {
    this.record(key);
    this.map.set(key, value);
  }

  delete(key: K): void {
    if (!this.map.has(key)) return;
    this.record(key);
    this.map.delete(key);
  }

  /** Undoes every change made while reading message `message` or a later one. */
  rewindTo(message: number): void {
    for (let last = this.changes.at(-1); last !== undefined && last.message >= message;) {
      this.changes.pop();
      if (last.before === undefined) this.map.delete(last.key);
      else this.map.set(last.key, last.before.value);
      last = this.changes.at(-1);
    }
  }

  private record(key: K): void {
    const before = this.map.has(key) ? { value: this.map.get(key) as V } : undefined;
    this.changes.push({ message: this.message, key, before });
  }
}
