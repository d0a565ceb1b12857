// The lab's HTML report in a real browser (Debian's chromium): it renders (a non-blank
// screenshot, no script error, no request but the file itself), and what a person sees — every
// plotted marker, where it sits on its axis, the value printed beside it, every table cell — is
// the `--json` output's numbers. Screenshots go to tests/browser/out/ to be looked at.
//
//   node --test tests/browser/lab-report.test.mjs      (MICROFUT=path/to/microfut for another binary)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { assertNotBlank, launch } from './lib.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const binary = process.env.MICROFUT || resolve(here, '../../target/release/microfut');
const shots = join(here, 'out');
mkdirSync(shots, { recursive: true });

// Runs a lab command twice: once for the page, once for the JSON it must agree with.
function study(name, args) {
  const dir = mkdtempSync(join(tmpdir(), 'microfut-report-'));
  const html = join(dir, `${name}.html`);
  execFileSync(binary, [...args, '--quiet', '--html', html], { stdio: ['ignore', 'ignore', 'inherit'] });
  const json = JSON.parse(execFileSync(binary, [...args, '--quiet', '--json'], { encoding: 'utf8' }));
  return { dir, html, json };
}

// The JSON estimate a marker stands for: {mean, ci} of one scenario, metric, part and arm.
function expected(json, { scenario, metric, part, arm }) {
  const s = json.scenarios.find((x) => x.id === scenario);
  assert.ok(s, `scenario ${scenario} in the JSON`);
  const meta = json.metrics.find((m) => m.id === metric);
  const index = part === '' ? null : meta.parts.findIndex((p) => p.id === part);
  const pick = (v) => (index === null ? v : v[index]);
  const m = s.metrics[metric];
  if (arm === 'revision') return { mean: pick(m.mean), ci: pick(m.ci95), meta };
  if (arm === 'against') return { mean: pick(m.against), ci: pick(m.against_ci95), meta };
  return { mean: pick(m.difference), ci: pick(m.difference_ci95), meta };
}

// Numbers written in a label ("42.6 % [40.9, 44.4]", "+1.2 ± 0.3 pp", "7,755 ± 0,043").
function numbersIn(text) {
  return [...text.replace(/(\d),(\d)/g, '$1.$2').matchAll(/[+-]?\d+(\.\d+)?/g)].map((m) => ({
    value: Number(m[0]),
    decimals: m[1] ? m[1].length - 1 : 0,
  }));
}

// A shown number equals the JSON's to the decimals shown.
function sameShown(shown, exact, factor, what) {
  // A cell with no number is a metric with no observations in that arm (a dash).
  if (shown === undefined) return;
  const tolerance = 0.5 * 10 ** -shown.decimals + 1e-9;
  assert.ok(Math.abs(shown.value - exact * factor) <= tolerance, `${what}: shows ${shown.value}, JSON says ${exact * factor}`);
}

async function check(name, args, { minMarkers, differences }) {
  const { dir, html, json } = study(name, args);
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const problems = [];
    const requests = [];
    page.on('pageerror', (e) => problems.push(String(e)));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('request', (r) => requests.push(r.url()));
    const url = pathToFileURL(html).href;
    await page.goto(url);
    const png = join(shots, `lab-report-${name}.png`);
    await page.screenshot({ path: png, fullPage: true });
    assertNotBlank(png, 12);
    assert.deepEqual(problems, [], 'no script errors');
    assert.deepEqual(requests, [url], 'the page loads nothing but itself');

    // Every marker: its data, where it is drawn, and the text beside it.
    const markers = await page.$$eval('g.est', (gs) =>
      gs.map((g) => {
        const num = (sel, attr) => (g.querySelector(sel) ? Number(g.querySelector(sel).getAttribute(attr)) : null);
        const d = g.dataset;
        return {
          scenario: d.scenario, metric: d.metric, part: d.part, arm: d.arm,
          mean: d.mean === undefined ? null : Number(d.mean),
          lo: d.lo === undefined ? null : Number(d.lo),
          hi: d.hi === undefined ? null : Number(d.hi),
          cx: num('circle.dot', 'cx'), x1: num('line.ci', 'x1'), x2: num('line.ci', 'x2'),
          text: g.querySelector('text.value').textContent,
          visible: g.getBoundingClientRect().width > 0,
        };
      }));
    assert.ok(markers.length >= minMarkers, `${markers.length} markers`);
    let diffs = 0;
    for (const m of markers) {
      const what = `${m.scenario} ${m.metric} ${m.part} ${m.arm}`;
      const e = expected(json, m);
      assert.ok(m.visible, `${what} is drawn`);
      assert.equal(m.mean, e.mean, `${what}: mean`);
      // A metric with no observations (a share of zero crosses) has no interval in the JSON.
      const ci = e.ci ?? [null, null];
      assert.deepEqual([m.lo, m.hi], ci, `${what}: 95 % interval`);
      // Drawn where its numbers say: the dot inside its whisker, at the right fraction of it.
      if (e.ci) assert.ok(m.x1 <= m.cx + 0.06 && m.cx <= m.x2 + 0.06, `${what}: dot inside its interval`);
      if (e.ci && e.ci[1] > e.ci[0]) {
        const at = m.x1 + ((e.mean - e.ci[0]) / (e.ci[1] - e.ci[0])) * (m.x2 - m.x1);
        assert.ok(Math.abs(at - m.cx) < 0.3, `${what}: dot at ${m.cx}, expected ${at}`);
      }
      // No observations, no estimate: nothing printed to compare.
      if (e.mean === null || e.mean === undefined) continue;
      // The printed value: the estimate, and the interval's ends for a share.
      const factor = e.meta.format === 'percent' ? 100 : 1;
      const shown = numbersIn(m.text);
      // A share of nothing (no crosses at all in an arm) is printed as a dash, not as a number.
      if (shown.length === 0) {
        assert.ok(!/\d/.test(m.text) && e.ci === null, `${what}: printed ${m.text} without an interval`);
        continue;
      }
      sameShown(shown[0], e.mean, factor, `${what}: printed value`);
      if (m.text.includes('[')) {
        sameShown(shown[1], e.ci[0], factor, `${what}: printed low end`);
        sameShown(shown[2], e.ci[1], factor, `${what}: printed high end`);
      }
      if (m.arm === 'difference') diffs += 1;
    }
    assert.equal(diffs > 0, differences, 'a forest plot of differences exactly in A/B runs');
    // Every forest plot shows its reference: the dashed zero line, inside the frame.
    const zeros = await page.$$eval('figure.difference', (figs) =>
      figs.map((f) => {
        const z = f.querySelector('line.zero');
        const axis = f.querySelector('line.axis');
        return {
          metric: f.dataset.metric,
          x: z ? Number(z.getAttribute('x1')) : null,
          from: Number(axis.getAttribute('x1')),
          to: Number(axis.getAttribute('x2')),
        };
      }));
    for (const z of zeros) {
      assert.ok(z.x !== null && z.from < z.x && z.x < z.to, `${z.metric}: zero line inside the forest plot`);
    }

    // The table: each numeric cell is its JSON estimate.
    const cells = await page.$$eval('#results tbody tr', (rows) =>
      rows.map((r) => ({ scenario: r.dataset.scenario, cells: [...r.querySelectorAll('td')].map((c) => c.textContent) })));
    const headers = await page.$$eval('#results thead th', (ths) => ths.map((t) => t.textContent));
    assert.equal(cells.length, json.against ? cells.length : json.scenarios.length);
    let checked = 0;
    if (!json.against) {
      const columns = [];
      for (const meta of json.metrics) {
        if (meta.parts.length === 0) columns.push({ meta, index: null });
        else meta.parts.forEach((_, i) => columns.push({ meta, index: i }));
      }
      assert.equal(headers.length, columns.length + 1);
      for (const row of cells) {
        const s = json.scenarios.find((x) => x.id === row.scenario);
        columns.forEach(({ meta, index }, c) => {
          const v = s.metrics[meta.id];
          const mean = index === null ? v.mean : v.mean[index];
          const factor = meta.format === 'percent' ? 100 : 1;
          sameShown(numbersIn(row.cells[c + 1])[0], mean, factor, `table ${row.scenario} ${meta.id} ${index ?? ''}`);
          checked += 1;
        });
      }
    } else {
      for (const row of cells) {
        const s = json.scenarios.find((x) => x.id === row.scenario);
        const metricLabel = row.cells[1];
        const meta = json.metrics.find((m) => metricLabel === m.label.en || metricLabel.startsWith(`${m.label.en} · `));
        const index = meta.parts.length ? meta.parts.findIndex((p) => metricLabel.endsWith(` · ${p.label.en}`)) : null;
        const pick = (v) => (index === null ? v : v[index]);
        const factor = meta.format === 'percent' ? 100 : 1;
        const v = s.metrics[meta.id];
        sameShown(numbersIn(row.cells[2])[0], pick(v.mean), factor, `table ${row.scenario} ${meta.id} revision`);
        sameShown(numbersIn(row.cells[3])[0], pick(v.against), factor, `table ${row.scenario} ${meta.id} against`);
        sameShown(numbersIn(row.cells[4])[0], pick(v.difference), factor, `table ${row.scenario} ${meta.id} difference`);
        checked += 3;
      }
    }
    assert.ok(checked >= cells.length, `${checked} table cells checked`);

    // The identity: seed and revision fingerprint as the JSON has them.
    assert.equal(await page.textContent('#seed'), String(json.seed));
    assert.ok((await page.textContent('#run')).includes(json.revision.fingerprint));
    // The data embedded in the page is the JSON output.
    assert.deepEqual(JSON.parse(await page.textContent('#lab-data')), json);
    // A narrow window (a phone) shows the plots without a page-wide scroll bar.
    await page.setViewportSize({ width: 420, height: 900 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `page overflows a narrow window by ${overflow}px`);
    await page.screenshot({ path: join(shots, `lab-report-${name}-narrow.png`) });
    return { markers: markers.length, checked };
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a Trilha study report shows the JSON numbers', async () => {
  await check('trilha', ['lab', 'trilha', '--games', '3000', '--seed', '7'], { minMarkers: 8 * 5, differences: false });
});

test('a Microfut A/B report shows both revisions and a forest plot of the differences', async () => {
  await check(
    'microfut-ab',
    ['lab', 'microfut', '--revision', '0.5.4', '--against', '0.5.1', '--matches', '16', '--seed', '1', '--scenario', 'base,high_press'],
    { minMarkers: 2 * 16 * 3, differences: true },
  );
});

test('a report in Portuguese reads its decimals with commas', async () => {
  await check('trilha-pt-br', ['lab', 'trilha', '--games', '500', '--seed', '2', '--scenario', 'D,H', '--lang', 'pt-BR'], {
    minMarkers: 2 * 5,
    differences: false,
  });
});
