/**
 * The dashboard page in a real headless Chromium (Debian's `chromium`, driven by puppeteer-core),
 * served from a loopback HTTP server as the proxy serves it. Installs the browser with apt-get when
 * it is missing and the test runs as root; otherwise skips with one line saying why.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_FLAGS, ensureChromium } from '../../test-utils/realServices.js';
import { MINUTE_MS } from './BucketStore.js';
import { dashboardPage } from './dashboardPage.js';
import { StatsTimeline } from './StatsTimeline.js';
import { decodePng, type DecodedPng } from './test-utils/decodePng.js';
import { requestRecord } from './test-utils/requestRecords.js';

const SCREENSHOT = '/tmp/dashboard.png';

const missing = ensureChromium();
if (missing !== undefined) console.warn(`Skipping the dashboard browser test: ${missing}.`);

const T0 = Date.UTC(2026, 10, 30, 8, 0, 0);
const HOSTILE = `<script>alert("x")</script> O'Brien & co`;

/** A team's invented morning: four users, requests every few minutes for six hours. */
function morning(): StatsTimeline {
  const timeline = new StatsTimeline({ now: () => T0 + 6 * 60 * MINUTE_MS });
  let seed = 7;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const users = [
    { name: 'ana', every: 3, share: 0.35 },
    { name: 'bo', every: 5, share: 0.6 },
    { name: 'chen', every: 9, share: 0.8 },
    { name: HOSTILE, every: 17, share: 0.95 },
  ];
  for (let minute = 0; minute < 6 * 60; minute++) {
    for (const user of users) {
      if (minute % user.every !== 0) continue;
      const passThrough = 20_000 + random() * 60_000;
      timeline.record(
        user.name,
        requestRecord({
          at: T0 + minute * MINUTE_MS + Math.floor(random() * 50_000),
          passThrough,
          billed: passThrough * (user.share + random() * 0.1),
          upstreamTokens: Math.round(passThrough * 1.2),
          clientTokens: Math.round(passThrough * 2),
          ...(random() < 0.03 ? { avoided: random() < 0.5 ? 'answered' : 'kept-under' } : {}),
        }),
      );
    }
  }
  return timeline;
}

/** Distinct colours, and pixels within 6 of each channel of `color`. */
function pixels(png: DecodedPng, color: readonly [number, number, number]) {
  const colours = new Set<number>();
  let near = 0;
  const { rgba } = png;
  for (let i = 0; i < rgba.length; i += 4) {
    const [r, g, b] = [rgba[i] ?? 0, rgba[i + 1] ?? 0, rgba[i + 2] ?? 0];
    colours.add((r << 16) | (g << 8) | b);
    if (Math.abs(r - color[0]) <= 6 && Math.abs(g - color[1]) <= 6 && Math.abs(b - color[2]) <= 6)
      near++;
  }
  return { colours: colours.size, near };
}

const BILLED: [number, number, number] = [0x2f, 0x6f, 0xb3];
const PASS: [number, number, number] = [0xd9, 0x82, 0x2b];

describe.skipIf(missing !== undefined)('the dashboard in a browser', () => {
  let dir: string;
  let server: Server;
  let base: string;
  let browser: Browser;
  const pages = new Map<string, string>();
  const served: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'dense-dashboard-'));
    const timeline = morning();
    pages.set('/dense/dashboard', dashboardPage(timeline.teamStats(), { admin: true }));
    pages.set('/dense/dashboard/bo', dashboardPage(timeline.teamStats('bo')));
    server = createServer((request, response) => {
      served.push(request.url ?? '');
      const page = pages.get(request.url ?? '');
      response.writeHead(page === undefined ? 404 : 200, {
        'content-type': 'text/html; charset=utf-8',
      });
      response.end(page ?? 'not found');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: false,
      args: [...CHROMIUM_FLAGS, `--user-data-dir=${path.join(dir, 'profile')}`],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
    await rm(dir, { recursive: true, force: true });
  }, 30_000);

  /** Opens `url`; collects console errors, page errors, dialogs and every request the page made. */
  async function open(url: string): Promise<{ page: Page; errors: string[]; requests: string[] }> {
    const page = await browser.newPage();
    await page.setViewport({ width: 1100, height: 900, deviceScaleFactor: 1 });
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(String(error)));
    page.on('dialog', (dialog) => {
      errors.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(url, { waitUntil: 'networkidle0' });
    return { page, errors, requests };
  }

  it('#36.5 the team dashboard renders its plot and table: a screenshot with both curves, no console error, no request', async () => {
    served.length = 0;
    const { page, errors, requests } = await open(`${base}/dense/dashboard`);
    try {
      // Evaluated as text in the page: the project's TypeScript has no DOM types.
      const plot = (await page.evaluate(
        `(() => { const svg = document.querySelector('svg.plot'); const box = svg.getBoundingClientRect(); return { width: box.width, height: box.height, paths: [...svg.querySelectorAll('path')].map((p) => ({ segments: (p.getAttribute('d').match(/[ML]/g) || []).length, length: p.getTotalLength() })) }; })()`,
      )) as { width: number; height: number; paths: { segments: number; length: number }[] };
      expect(plot.width).toBeGreaterThan(600);
      expect(plot.height).toBeGreaterThan(200);
      expect(plot.paths).toHaveLength(4);
      for (const drawn of plot.paths) {
        expect(drawn.segments).toBeGreaterThan(50);
        expect(drawn.length).toBeGreaterThan(300);
      }
      const cells = (await page.evaluate(
        `[...document.querySelectorAll('tbody tr')].map((row) => row.cells[0].textContent)`,
      )) as string[];
      expect(cells).toHaveLength(5);
      expect(cells).toContain(HOSTILE);
      expect(cells[cells.length - 1]).toBe('Team');

      const shot = await page.screenshot({ type: 'png', fullPage: true });
      await writeFile(SCREENSHOT, shot);
      const png = decodePng(shot);
      expect(png.width).toBeGreaterThan(1000);
      expect(pixels(png, BILLED).near).toBeGreaterThan(300);
      expect(pixels(png, PASS).near).toBeGreaterThan(300);
      expect(pixels(png, BILLED).colours).toBeGreaterThan(50);

      // The same checks on a blank page fail: the screenshot check can tell.
      await page.setContent('<!doctype html><body></body>');
      const blank = pixels(decodePng(await page.screenshot({ type: 'png' })), BILLED);
      expect(blank).toEqual({ colours: 1, near: 0 });

      expect(errors).toEqual([]);
      expect(requests).toEqual([`${base}/dense/dashboard`]);
      expect(served).toEqual(['/dense/dashboard']);
    } finally {
      await page.close();
    }
  }, 120_000);

  it("#36.5 a user's dashboard shows that user's row alone", async () => {
    const { page, errors, requests } = await open(`${base}/dense/dashboard/bo`);
    try {
      const cells = (await page.evaluate(
        `[...document.querySelectorAll('tbody tr')].map((row) => row.cells[0].textContent)`,
      )) as string[];
      expect(cells).toEqual(['bo']);
      const text = (await page.evaluate('document.body.innerText')) as string;
      for (const other of ['ana', 'chen', "O'Brien", 'Team\t']) expect(text).not.toContain(other);
      const paths = (await page.evaluate(
        `[...document.querySelectorAll('svg.plot path')].map((p) => p.getTotalLength())`,
      )) as number[];
      expect(paths.filter((length) => length > 300)).toHaveLength(4);
      expect(errors).toEqual([]);
      expect(requests).toEqual([`${base}/dense/dashboard/bo`]);
    } finally {
      await page.close();
    }
  }, 120_000);
});
