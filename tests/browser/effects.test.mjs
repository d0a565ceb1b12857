// World 1's attributes page (seed 002's projections) in a real browser: start a journey, play
// it, read the hero and an enemy — base values white, reduced red, increased blue, sources and
// context in a tooltip — in English and Portuguese, at 1280 × 720 and 2560 × 1080; and a mode
// without a policy shows an empty collection. Screenshots go to tests/browser/out/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, startServer, assertNotBlank } from './lib.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = process.env.MICROFUT_BIN || path.join(here, '../../target/release/microfut');
const OUT = path.join(here, 'out');
let server, browser, dir;

const WHITE = 'rgb(255, 255, 255)';
const RED = 'rgb(255, 107, 107)';
const BLUE = 'rgb(108, 182, 255)';

before(async () => {
  mkdirSync(OUT, { recursive: true });
  dir = mkdtempSync(path.join(tmpdir(), 'microfut-effects-browser-'));
  server = await startServer(BIN, ['serve', '--bind', '127.0.0.1:0', '--db', path.join(dir, 'runs.db')]);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.child.kill('SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function startJourney(page, mode, seed) {
  await page.goto(server.url + '/effects/');
  await page.waitForSelector('#mode option', { state: 'attached' });
  await page.selectOption('#mode', mode);
  await page.fill('#seed', String(seed));
  await page.click('#start');
  await page.waitForSelector('#journey:not([hidden])');
}

// Every value's colour follows base against effective: white unchanged, red reduced, blue increased.
async function checkTones(page) {
  const rows = await page.$$eval('#attrs-body tr[data-attribute]', (trs) => trs.map((tr) => {
    const base = tr.querySelector('.base'); const val = tr.querySelector('.val');
    return { id: tr.dataset.attribute, base: Number(base.textContent), eff: Number(val.textContent),
      baseColour: getComputedStyle(base).color, colour: getComputedStyle(val).color };
  }));
  assert.ok(rows.length > 0);
  for (const r of rows) {
    assert.equal(r.baseColour, WHITE, `${r.id} base is white`);
    const expected = r.eff > r.base ? BLUE : r.eff < r.base ? RED : WHITE;
    assert.equal(r.colour, expected, `${r.id}: ${r.base} → ${r.eff}`);
  }
  return rows;
}

test('World 1: a journey\'s actors read base against effective, with sources, in both languages', async () => {
  for (const [width, height] of [[390, 844], [1280, 720], [2560, 1080]]) {
    const page = await browser.newPage({ viewport: { width, height } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.addInitScript(() => { localStorage.setItem('microfut.lang', 'en'); sessionStorage.clear(); });
    await startJourney(page, 'w1_journey', 7);
    await page.waitForSelector('#attrs-body table');
    assert.match(await page.textContent('#attrs-who'), /persistent character/);

    // Into the first combat: the World 1 blessing raises the hero's crit chance (blue).
    await page.click('#auto-turn');
    await page.waitForFunction(() => /encounter's actor/.test(document.querySelector('#attrs-who').textContent));
    let rows = await checkTones(page);
    assert.ok(rows.some((r) => r.id === 'crit_chance' && r.colour === BLUE), 'crit chance increased by the mode');
    assert.match(await page.textContent('[data-testid=critical]'), /guaranteed tier/);

    // Sources and context in a tooltip, on hover and on keyboard focus.
    await page.hover('tr[data-attribute=crit_chance] .val');
    await page.waitForSelector('#tooltip:not([hidden])');
    const tip = await page.textContent('#tooltip');
    assert.match(tip, /effects\/1\.0\.0\//, 'content sources');
    assert.match(tip, /Context/);
    assert.match(tip, /World 1 blessing/, 'the mode provider');
    await page.screenshot({ path: path.join(OUT, `effects-${width}x${height}.png`) });
    assertNotBlank(path.join(OUT, `effects-${width}x${height}.png`));
    await page.mouse.move(1, 1);

    // An enemy of the combat.
    const enemy = await page.getAttribute('#actors button[data-actor]:not([data-actor=hero])', 'data-actor');
    await page.click(`#actors button[data-actor="${enemy}"]`);
    await page.waitForFunction((id) => document.querySelector('#attrs-who').textContent.startsWith(id), enemy);
    assert.match(await page.textContent('#attrs-who'), /an actor of the combat/);
    await checkTones(page);

    if (width === 1280) {
      // Later, an enemy's curse lowers the hero's crit chance below its base (red).
      await page.click('#actors button[data-actor=hero]');
      for (let i = 0; i < 80 && !(await page.$('#attrs-body .val.down')); i++) {
        const before = await page.textContent('#summary');
        await page.click('#auto-command');
        await page.waitForFunction((b) => document.querySelector('#summary').textContent !== b, before);
      }
      rows = await checkTones(page);
      assert.ok(rows.some((r) => r.colour === RED), 'a reduced value is red');
      await page.focus('#attrs-body .val.down');
      await page.waitForSelector('#tooltip:not([hidden])');
      await page.screenshot({ path: path.join(OUT, 'effects-reduced-1280x720.png') });
      assertNotBlank(path.join(OUT, 'effects-reduced-1280x720.png'));
      await page.keyboard.press('Escape');
    }

    // Portuguese: the page's words and content's labels.
    await page.selectOption('#lang', 'pt-BR');
    assert.equal(await page.textContent('#attrs-body th'), 'Atributo');
    assert.match(await page.textContent('#attrs-body'), /Chance de crítico|Vida/);
    const feed = await page.textContent('#feed');
    assert.doesNotMatch(feed, /\brewarded\b/, 'every event of the feed is in Portuguese');
    if (width === 1280) assert.match(feed, /Recompensa: /, 'a won encounter\'s reward, in Portuguese');
    await page.screenshot({ path: path.join(OUT, `effects-pt-${width}x${height}.png`) });
    assertNotBlank(path.join(OUT, `effects-pt-${width}x${height}.png`));
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('World 1: a mode without a policy shows an empty collection', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.addInitScript(() => { localStorage.setItem('microfut.lang', 'en'); sessionStorage.clear(); });
  await startJourney(page, 'showcase', 3);
  await page.waitForSelector('[data-testid=no-policy]');
  assert.equal(await page.$('#attrs-body table'), null);
  await page.close();
});
