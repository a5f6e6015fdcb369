import { describe, expect, it } from 'vitest';
import { HOUR_MS, MINUTE_MS } from './BucketStore.js';
import { costPlot } from './costPlot.js';
import {
  escapeHtml,
  formatAmount,
  formatBucket,
  formatPercent,
  formatSeconds,
} from './dashboardFormat.js';
import { dashboardPage, DashboardScopeError } from './dashboardPage.js';
import { StatsTimeline } from './StatsTimeline.js';
import { requestRecord } from './test-utils/requestRecords.js';

const T0 = Date.UTC(2026, 10, 30, 9, 0, 0);
const HOSTILE = `<script>alert("x")</script><img src=x onerror=alert(1)>' & "`;

function teamTimeline(): StatsTimeline {
  const timeline = new StatsTimeline({ now: () => T0 + 2 * HOUR_MS });
  for (let minute = 0; minute < 90; minute += 3) {
    timeline.record(
      'ana',
      requestRecord({
        at: T0 + minute * MINUTE_MS,
        billed: 800,
        passThrough: 2_000,
        upstreamTokens: 30_000,
        clientTokens: 90_000,
      }),
    );
  }
  timeline.record(
    HOSTILE,
    requestRecord({ at: T0 + 5 * MINUTE_MS, billed: 300, passThrough: 310, avoided: 'kept-under' }),
  );
  return timeline;
}

/** How many table rows the page has (the header's included). */
const rows = (page: string) => page.match(/<tr[ >]/g)?.length ?? 0;

describe('dashboardPage', () => {
  it('#36.5 user names and the title are escaped everywhere they appear', () => {
    const page = dashboardPage(teamTimeline().teamStats(), {
      admin: true,
      title: 'Team <b>"x"</b>',
    });
    expect(page).not.toContain('<script');
    expect(page).not.toContain('<img');
    expect(page).not.toContain('<b>');
    expect(page).toContain(escapeHtml(HOSTILE));
    expect(page).toContain('Team &lt;b&gt;&quot;x&quot;&lt;/b&gt;');
    const user = dashboardPage(teamTimeline().teamStats(HOSTILE));
    expect(user).toContain(`<td>${escapeHtml(HOSTILE)}</td>`);
    expect(user).not.toContain('<script');
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
  });

  it('#36.5 the page loads nothing: no script, no external address, a CSP that forbids any', () => {
    const page = dashboardPage(teamTimeline().teamStats(), { admin: true });
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain(`content="default-src 'none'; style-src 'unsafe-inline'`);
    expect(page).not.toMatch(
      /<script|<link(?! rel="icon" href="data:)|https?:\/\/(?!www\.w3\.org)|url\(|@import/i,
    );
    expect(page).toMatch(/<svg class="plot"/);
  });

  it("#36.5 a user's page has that user's row only; the admin's has every user and the team", () => {
    const timeline = teamTimeline();
    const ana = dashboardPage(timeline.teamStats('ana'));
    expect(rows(ana)).toBe(2);
    expect(ana).toContain('<td>ana</td>');
    expect(ana).not.toContain('Team</td>');
    expect(ana).not.toContain('alert');
    const admin = dashboardPage(timeline.teamStats(), { admin: true });
    expect(rows(admin)).toBe(4);
    expect(admin).toContain('<tr class="team"><td>Team</td><td>31</td>');
    // ana (billed 24k) before the other user (billed 300).
    expect(admin.indexOf('<td>ana</td>')).toBeLessThan(admin.indexOf('&lt;script'));
  });

  it("#36.5 the team's figures handed to a user's page throw DashboardScopeError", () => {
    const stats = teamTimeline().teamStats();
    expect(() => dashboardPage(stats)).toThrow(DashboardScopeError);
    expect(() => dashboardPage(stats, { admin: false })).toThrow(/not the team's/);
  });

  it('#36.5 the plot draws cumulative billed under pass-through, and says so when there is nothing', () => {
    const svg = costPlot({
      points: [
        { start: T0, billedCost: 10, passThroughCost: 40 },
        { start: T0 + 2 * MINUTE_MS, billedCost: 10, passThroughCost: 40 },
      ],
      bucketMs: MINUTE_MS,
      timeZone: 'UTC',
    });
    const path = (name: string) =>
      new RegExp(`class="line ${name}" d="([^"]+)"`).exec(svg)?.[1] ?? '';
    const ys = (d: string) => [...d.matchAll(/[ML][\d.]+,([\d.]+)/g)].map((m) => Number(m[1]));
    // SVG y grows downwards: the last point is the highest (smallest y), pass-through above billed.
    expect(Math.min(...ys(path('pass')))).toBeLessThan(Math.min(...ys(path('billed'))));
    expect(ys(path('billed'))).toHaveLength(5);
    expect(svg).toContain('>09:00<');
    expect(svg).toContain('>09:03<');
    expect(costPlot({ points: [], bucketMs: MINUTE_MS, timeZone: 'UTC' })).toContain(
      'No priced requests',
    );
    expect(
      costPlot({
        points: [{ start: T0, billedCost: 0, passThroughCost: 0 }],
        bucketMs: MINUTE_MS,
        timeZone: 'UTC',
      }),
    ).not.toContain('<svg');
  });

  it('#36.5 figures read short', () => {
    expect([
      formatAmount(812.4),
      formatAmount(12_345),
      formatAmount(4_560_000),
      formatAmount(-20_000),
    ]).toEqual(['812', '12.3k', '4.56M', '-20.0k']);
    expect([formatSeconds(45), formatSeconds(720), formatSeconds(3 * 3600 + 1440)]).toEqual([
      '45 s',
      '12 min',
      '3.4 h',
    ]);
    expect([formatPercent(null), formatPercent(23.44)]).toEqual(['–', '23.4%']);
    expect([
      formatBucket(MINUTE_MS),
      formatBucket(15 * MINUTE_MS),
      formatBucket(6 * HOUR_MS),
      formatBucket(24 * HOUR_MS),
    ]).toEqual(['1-minute', '15-minute', '6-hour', '1-day']);
  });
});
