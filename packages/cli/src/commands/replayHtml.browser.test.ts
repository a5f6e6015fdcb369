/**
 * Issue 13 item 8: the `--report` page opened in a real headless Chromium (Debian's `chromium`,
 * driven by puppeteer-core). Installs the browser with apt-get when it is missing and the test
 * runs as root; otherwise skips with one line saying why.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import puppeteer from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_FLAGS, ensureChromium } from '@dense/core/test-utils';
import { main } from '../main.js';
import { captureIO } from '../test-utils/captureIO.js';
import { recording } from '../test-utils/replayFixture.js';
import { replayCommand } from './replay.js';

const missing = ensureChromium();
if (missing !== undefined) console.warn(`Skipping the replay report browser test: ${missing}.`);

describe.skipIf(missing !== undefined)('the replay report in a browser', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'dense-report-'));
    await writeFile(path.join(dir, 'session.jsonl'), recording());
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('#13.8 tables and charts render, with no console errors and no network request', async () => {
    const out = path.join(dir, 'report.html');
    const { io } = captureIO(dir);
    const code = await main({
      argv: ['replay', path.join(dir, 'session.jsonl'), '--report', out],
      io,
      subcommands: [replayCommand],
    });
    expect(code).toBe(0);
    const browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: false,
      args: [...CHROMIUM_FLAGS, `--user-data-dir=${path.join(dir, 'profile')}`],
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
      await page.goto(pathToFileURL(out).href, { waitUntil: 'load' });
      // Evaluated as text in the page: the project's TypeScript has no DOM types.
      const tables = (await page.evaluate(
        `[...document.querySelectorAll('table')].map((t) => ({ rows: t.rows.length, width: t.getBoundingClientRect().width }))`,
      )) as { rows: number; width: number }[];
      expect(tables.length).toBeGreaterThanOrEqual(2);
      for (const table of tables) {
        expect(table.rows).toBeGreaterThan(1);
        expect(table.width).toBeGreaterThan(100);
      }
      const charts = (await page.evaluate(
        `[...document.querySelectorAll('figure svg')].map((svg) => ({ width: svg.getBoundingClientRect().width, height: svg.getBoundingClientRect().height, lines: svg.querySelectorAll('path, polyline').length }))`,
      )) as { width: number; height: number; lines: number }[];
      expect(charts.length).toBeGreaterThan(0);
      for (const chart of charts) {
        expect(chart.width).toBeGreaterThan(200);
        expect(chart.height).toBeGreaterThan(100);
        expect(chart.lines).toBeGreaterThan(0);
      }
      expect(errors).toEqual([]);
      expect(requests.filter((url) => !url.startsWith('file:'))).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
