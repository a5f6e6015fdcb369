/**
 * What reading a text needs: its length and slices of it. A string is one; so is a request text
 * held as pieces (`proxy/wire/segmentedText.ts`), which a slice reads without joining.
 */
export interface TextSlices {
  readonly length: number;
  slice(start: number, end: number): string;
  /** `slice(start, end)` as the slices of the pieces it spans, when the text is held so. */
  parts?(start: number, end: number): readonly string[];
}

/** `text.slice(start, end)` as parts that joined are it, never joining pieces to make them. */
export function partsOf(text: TextSlices, start: number, end: number): readonly string[] {
  return text.parts === undefined ? [text.slice(start, end)] : text.parts(start, end);
}
