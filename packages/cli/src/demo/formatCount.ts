/** Token counts for people: `12345` → `12,345`, the same on every locale. */
export function formatCount(value: number): string {
  return String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
