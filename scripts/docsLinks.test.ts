/**
 * Every relative link in README.md and docs/ names a file that exists, and every `#anchor` into a
 * Markdown file names one of its headings (GitHub's slug rule: lower case, punctuation dropped,
 * spaces to hyphens).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const LINK = /\]\(([^)\s]+)\)/g;

function markdownFiles(): string[] {
  const docs = path.join(ROOT, 'docs');
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return walk(full);
      return entry.name.endsWith('.md') ? [full] : [];
    });
  return [path.join(ROOT, 'README.md'), ...walk(docs)];
}

function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  const headings = [...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((match) => slug(match[1] ?? ''));
  return new Set(headings);
}

describe('#37.3 docs links resolve', () => {
  it('#37.3 every relative link in README.md and docs/ names an existing file and, with #anchor, one of its headings', () => {
    const broken: string[] = [];
    for (const file of markdownFiles()) {
      const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const [, target = ''] of text.matchAll(LINK)) {
        if (/^[a-z]+:/i.test(target) || target.startsWith('#')) continue;
        const [relative = '', anchor] = target.split('#');
        const resolved = path.resolve(path.dirname(file), decodeURI(relative));
        const where = `${path.relative(ROOT, file)} → ${target}`;
        if (!existsSync(resolved)) broken.push(where);
        else if (
          anchor !== undefined &&
          resolved.endsWith('.md') &&
          !anchorsOf(resolved).has(anchor)
        )
          broken.push(`${where} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});
