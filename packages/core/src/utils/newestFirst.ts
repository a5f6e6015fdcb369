/**
 * Bounded maps that forget their least recently set entries first. A `Map` iterates in insertion
 * order, so deleting a key before setting it again makes insertion order recency order, and the
 * oldest entry is the first key.
 */

/** Sets `key` to `value` as `map`'s newest entry, then forgets the oldest past `max` entries. */
export function setNewest<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  forgetOldest(map, max);
}

/** Forgets `map`'s oldest entries until it holds at most `max`; `forgotten` sees each. */
export function forgetOldest<K, V>(
  map: Map<K, V>,
  max: number,
  forgotten?: (key: K, value: V) => void,
): void {
  while (map.size > Math.max(0, max)) {
    const oldest = map.entries().next();
    if (oldest.done === true) return;
    const [key, value] = oldest.value;
    map.delete(key);
    forgotten?.(key, value);
  }
}
