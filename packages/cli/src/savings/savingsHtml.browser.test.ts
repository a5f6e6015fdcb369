/**
 * `dense savings --report` opened in a real headless Chromium (Debian's `chromium`, driven by
 * puppeteer-core), as the replay report is checked: tables and charts render, no console error,
 * no network request. Installs the browser with apt-get when it is missing and the test runs as
 * root; otherwise skips with one line saying why.
 */
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import puppeteer from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_FLAGS, ensureChromium } from '@dense/core/test-utils';
import { runSavingsCli } from './test-utils/runSavingsCli.js';
import { syntheticHome, type SyntheticHome } from './test-utils/syntheticHome.js';

const missing = ensureChromium();
if (missing !== undefined) console.warn(`Skipping the savings report browser test: ${missing}.`);

interface Rendered {
  readonly tables: { rows: number; width: number }[];
  readonly charts: { title: string; width: number; height: number; lines: number }[];
  readonly errors: string[];
  readonly requests: string[];
}

/** The page as Chromium renders it (evaluated as text: the project's TypeScript has no DOM types). */
async function render(file: string, profile: string): Promise<Rendered> {
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: false,
    args: [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`],
  });
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(String(error)));
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    const tables = (await page.evaluate(
      `[...document.querySelectorAll('table')].map((t) => ({ rows: t.rows.length, width: t.getBoundingClientRect().width }))`,
    )) as Rendered['tables'];
    const charts = (await page.evaluate(
      `[...document.querySelectorAll('figure svg')].map((svg) => ({ title: svg.querySelector('title')?.textContent ?? '', width: svg.getBoundingClientRect().width, height: svg.getBoundingClientRect().height, lines: svg.querySelectorAll('polyline').length }))`,
    )) as Rendered['charts'];
    return { tables, charts, errors, requests };
  } finally {
    await browser.close();
  }
}

describe.skipIf(missing !== undefined)('#37.1 the savings report in a browser', () => {
  let home: SyntheticHome;
  beforeAll(async () => {
    home = await syntheticHome('dense-savings-report-');
  });
  afterAll(async () => {
    await rm(home.home, { recursive: true, force: true });
  });

  it('#37.1 the figures, the cost per session and the largest session’s context render, with no console error and no network request', async () => {
    const out = path.join(home.home, 'savings.html');
    const run = await runSavingsCli(home.home, { HOME: home.home }, ['--report', out]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`dense savings: report written to ${out}`);
    const html = await readFile(out, 'utf8');
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    const page = await render(out, path.join(home.home, 'profile'));
    // The figures per source (3 sources and the total) and the sessions (4).
    expect(page.tables.map((t) => t.rows)).toEqual([5, 5]);
    for (const table of page.tables) expect(table.width).toBeGreaterThan(300);
    expect(page.charts.map((c) => c.title)).toEqual([
      'Cost per session, without and with Dense',
      'a1b2c3d4-long.jsonl',
    ]);
    for (const chart of page.charts) {
      expect(chart.width).toBeGreaterThan(200);
      expect(chart.height).toBeGreaterThan(100);
      expect(chart.lines).toBe(2);
    }
    expect(page.errors).toEqual([]);
    expect(page.requests.filter((url) => !url.startsWith('file:'))).toEqual([]);
  }, 180_000);
});
