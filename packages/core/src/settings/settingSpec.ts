/** What a setting is: the declarative shape every registry entry has. */

export type SettingCategory = 'cli-behavior' | 'model-behavior' | 'tools' | 'ui';

/** Range rules for numeric settings. */
export interface NumericRange {
  readonly integer?: boolean;
  readonly min?: number;
  /** `min` itself is not allowed (e.g. fractions in (0, 1]). */
  readonly minExclusive?: boolean;
  readonly max?: number;
  /**
   * The smallest value a person may type (`/set`, `--set`): smaller values are valid from code
   * (tests exercise tiny windows) but never what a person means.
   */
  readonly typedMin?: number;
}

interface SpecBase<K extends string> {
  readonly key: K;
  readonly category: SettingCategory;
  readonly description: string;
  /** Saved by `/profile save` when it differs from its default. */
  readonly persistToProfile: boolean;
}

export interface BooleanSettingSpec<K extends string = string> extends SpecBase<K> {
  readonly type: 'boolean';
  readonly default: boolean;
}

export interface NumberSettingSpec<K extends string = string> extends SpecBase<K> {
  readonly type: 'number';
  /** Absent: unset until someone sets it (the consumer has its own fallback). */
  readonly default?: number;
  readonly range?: NumericRange;
  /** Words a person may type for a value (e.g. `off` for 0), matched case-insensitively. */
  readonly words?: Readonly<Record<string, number>>;
}

export interface StringSettingSpec<K extends string = string> extends SpecBase<K> {
  readonly type: 'string';
  readonly default?: string;
}

export interface EnumSettingSpec<
  K extends string = string,
  E extends string = string,
> extends SpecBase<K> {
  readonly type: 'enum';
  readonly enumValues: readonly E[];
  readonly default: E;
}

export type SettingSpec<K extends string = string> =
  BooleanSettingSpec<K> | NumberSettingSpec<K> | StringSettingSpec<K> | EnumSettingSpec<K>;

/** The value type a spec describes. */
export type SpecValue<S> = S extends { readonly type: 'boolean' }
  ? boolean
  : S extends { readonly type: 'number' }
    ? number
    : S extends { readonly type: 'string' }
      ? string
      : S extends { readonly type: 'enum'; readonly enumValues: readonly (infer E)[] }
        ? E
        : never;

/** Human words for a numeric range, e.g. "a number in (0, 1]" or "an integer ≥ 1". */
export function describeRange(range: NumericRange | undefined): string {
  const noun = range?.integer ? 'an integer' : 'a number';
  if (!range || (range.min === undefined && range.max === undefined)) return noun;
  if (range.min !== undefined && range.max !== undefined) {
    return `${noun} in ${range.minExclusive ? '(' : '['}${range.min}, ${range.max}]`;
  }
  if (range.min !== undefined) return `${noun} ${range.minExclusive ? '>' : '≥'} ${range.min}`;
  return `${noun} ≤ ${range.max}`;
}

export function isInRange(value: number, range: NumericRange | undefined): boolean {
  if (!Number.isFinite(value)) return false;
  if (!range) return true;
  if (range.integer && !Number.isInteger(value)) return false;
  if (range.min !== undefined && (range.minExclusive ? value <= range.min : value < range.min)) {
    return false;
  }
  return range.max === undefined || value <= range.max;
}
