/**
 * What reading a text needs: its length and slices of it. A string is one; so is a request text
 * held as pieces (`proxy/wire/segmentedText.ts`), which a slice reads without joining.
 */
export interface TextSlices {
  readonly length: number;
  slice(start: number, end: number): string;
}
