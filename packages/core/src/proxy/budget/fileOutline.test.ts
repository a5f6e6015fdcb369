import { describe, expect, it } from 'vitest';
import { fileOutline } from './fileOutline.js';

/** A synthetic read as Claude Code numbers it: `    12→code`. */
function numbered(lines: readonly string[], first = 1): string {
  return lines.map((line, i) => `${String(first + i).padStart(6)}→${line}`).join('\n');
}

describe('fileOutline', () => {
  it('#24.1 names what a TypeScript read declares, with the line numbers the read shows', () => {
    const text = numbered(
      [
        "import { x } from './x.js';",
        '',
        'export const LIMIT_BYTES = 4096;',
        'export interface ParcelLabel {',
        '  readonly code: string;',
        '}',
        'export type LabelKind = "a" | "b";',
        'export class LabelPrinter {',
        '  async printBatch(labels: readonly ParcelLabel[]): Promise<void> {',
        '    if (labels.length === 0) {',
        '      return;',
        '    }',
        '  }',
        '}',
        'export function renderLabel(label: ParcelLabel): string {',
        '  for (const part of label.code) {',
        '  }',
        '}',
      ],
      40,
    );
    expect(fileOutline(text)).toEqual([
      { name: 'LIMIT_BYTES', line: 42 },
      { name: 'ParcelLabel', line: 43 },
      { name: 'LabelKind', line: 46 },
      { name: 'LabelPrinter', line: 47 },
      { name: 'printBatch', line: 48 },
      { name: 'renderLabel', line: 54 },
    ]);
  });

  it('#24.1 reads Python, Rust and Go declarations, and counts lines by position when the read has no numbers', () => {
    const python = [
      'MAX_RETRIES = 3',
      'class Fetcher:',
      '    def fetch_page(self, url):',
      '        pass',
    ];
    expect(fileOutline(python.join('\n'))).toEqual([
      { name: 'MAX_RETRIES', line: 1 },
      { name: 'Fetcher', line: 2 },
      { name: 'fetch_page', line: 3 },
    ]);
    const rust = [
      'pub struct ScanReport {',
      '}',
      'impl ScanReport {',
      '    pub async fn merge_into(&self) -> Result<()> {',
      '        Ok(())',
      '    }',
      '}',
    ];
    expect(fileOutline(rust.join('\n')).map((e) => e.name)).toEqual(['ScanReport', 'merge_into']);
    const go = ['func (s *Store) PutBlob(key string) error {', '}', 'func main() {', '}'];
    expect(fileOutline(go.join('\n')).map((e) => e.name)).toEqual(['PutBlob', 'main']);
  });

  it('#24.1 takes no control flow, calls or constructors for declarations', () => {
    const text = numbered([
      '  constructor(private readonly db: Db) {',
      '  if (ready) {',
      '  while (more) {',
      '    Ok(stats)',
      '    VALUES (?, ?)',
      '  doWork(a, b);',
    ]);
    expect(fileOutline(text)).toEqual([]);
  });

  it('#33 an unnumbered read counts lines from where its output starts, and names alone where that is unknown', () => {
    const text = ['// head', 'export function late() {', '}'].join('\n');
    expect(fileOutline(text)).toEqual([{ name: 'late', line: 2 }]);
    expect(fileOutline(text, 301)).toEqual([{ name: 'late', line: 302 }]);
    expect(fileOutline(text, null)).toEqual([{ name: 'late' }]);
    expect(fileOutline(numbered(['export class Kept {']), null)).toEqual([
      { name: 'Kept', line: 1 },
    ]);
  });
});
