// A person's match in a real browser: start a match, reach a decision, read a candidate's
// explanation, play it and see the dice, advance, open a player's sheet and projection, switch
// to Portuguese, finish the match and see the statistics — at a laptop, a wide screen and a
// phone; a sheet left open on a player who is then substituted; and set pieces taken from the
// page (a corner, a free kick, a penalty), each with the odds it showed against the roll it had.
// Screenshots go to tests/browser/out/ and are checked to be non-blank.
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

before(async () => {
  mkdirSync(OUT, { recursive: true });
  dir = mkdtempSync(path.join(tmpdir(), 'microfut-browser-'));
  server = await startServer(BIN, ['serve', '--bind', '127.0.0.1:0', '--db', path.join(dir, 'runs.db')]);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.child.kill('SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function roundOf(page) {
  const text = await page.locator('#scoreboard .clock').textContent();
  return Number(text.match(/(\d+)\s*$/)[1]);
}

async function startAs(page, side, seed) {
  await page.goto(server.url + '/');
  await page.waitForSelector('#home option', { state: 'attached' });
  await page.selectOption('#home', 'esporte_clube_mandacaru');
  await page.selectOption('#away', 'uniao_pedra_branca');
  await page.selectOption('#side', side);
  await page.fill('#seed', String(seed));
  await page.click('#start');
  await page.waitForSelector('#game:not([hidden])');
  await page.waitForSelector('#pitch .pl');
}

async function toDecision(page) {
  for (let i = 0; i < 50 && (await page.locator('#decision').isHidden()); i++) {
    await page.click('#adv-decision');
    await page.waitForFunction(() => !document.querySelector('#adv-end').disabled || document.querySelector('#stats:not([hidden])'));
  }
  await page.waitForSelector('#decision:not([hidden]) #candidates button');
}

test('a person plays: decision, odds, explanation, dice, sheet, languages, full time', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await startAs(page, 'home', 7);
  assert.equal(await page.locator('#pitch .pl').count(), 22, '22 players on the pitch');
  // No marker covers another, kick-off included (the strikers stand two metres apart).
  const closest = await page.evaluate(() => {
    const at = [...document.querySelectorAll('#pitch .pl')].map((g) => g.getAttribute('transform').match(/[-\d.]+/g).map(Number));
    let min = Infinity;
    for (let i = 0; i < at.length; i++) for (let j = i + 1; j < at.length; j++) min = Math.min(min, Math.hypot(at[i][0] - at[j][0], at[i][1] - at[j][1]));
    return min;
  });
  assert.ok(closest >= 2.9, `markers ${closest.toFixed(2)} m apart at the closest`);

  await toDecision(page);
  const candidates = page.locator('#candidates button');
  assert.ok((await candidates.count()) > 1, 'several candidates');
  // Odds are on every candidate.
  assert.match(await candidates.first().textContent(), /\d+%/);
  // Choose a pass (it has a test of its own, so an explanation and dice).
  const pass = page.locator('#candidates button', { hasText: /Pass to/ }).first();
  await pass.click();
  await page.waitForSelector('#explanation table');
  assert.match(await page.locator('#explanation').textContent(), /Pass base/);
  await page.screenshot({ path: path.join(OUT, 'decision-1280x720.png') });
  assertNotBlank(path.join(OUT, 'decision-1280x720.png'));

  const before = await roundOf(page);
  await page.click('#play');
  await page.waitForSelector('#outcome:not([hidden]) [data-testid="roll"]');
  const roll = await page.locator('[data-testid="roll"]').first().textContent();
  assert.match(roll, /needs \d+\+ on 3d6 \(\d+(\.\d)?%\)/);
  assert.match(roll, /rolled \d+: (succeeded|failed)/);
  assert.ok((await roundOf(page)) > before, 'the round advanced');

  // Advance by keyboard when no decision is pending: the round advances, or it stops at once
  // because the person's player is on the ball again (the receiver of a completed pass) and the
  // decision shows. The outcome is drawn before the page has asked which: wait until it is idle.
  await page.waitForFunction(() => !document.querySelector('#adv-end').disabled);
  if (await page.locator('#decision').isHidden()) {
    const r = await roundOf(page);
    await page.locator('body').press('n');
    await page.waitForFunction(
      (r0) =>
        Number(document.querySelector('#scoreboard .clock').textContent.match(/(\d+)\s*$/)[1]) > r0 ||
        !document.querySelector('#decision').hidden,
      r,
    );
  }

  // A player's sheet and projection, with contributions in a tooltip (the play may still stand at
  // kick-off, the two strikers two metres apart: the click must reach the one clicked).
  await page.locator('#pitch .pl[data-id="home-9"]').click();
  await page.waitForSelector('#player:not([hidden]) [data-testid="proj-test"]');
  const proj = page.locator('#player [data-testid="proj-test"] [data-tip]').first();
  await proj.hover();
  await page.waitForSelector('#tooltip:not([hidden]) table');
  assert.match(await page.locator('#tooltip').textContent(), /Stamina|Immediate pressure|base/i);
  await page.screenshot({ path: path.join(OUT, 'sheet-1280x720.png') });
  assertNotBlank(path.join(OUT, 'sheet-1280x720.png'));

  // Portuguese labels come from content and the page's own words.
  await page.selectOption('#lang', 'pt-BR');
  assert.equal(await page.locator('#feed-title').textContent(), 'Lance a lance');
  await page.waitForFunction(() => document.querySelector('#player').textContent.includes('Habilidades'));
  await page.selectOption('#lang', 'en');

  // Wide screen.
  await page.setViewportSize({ width: 2560, height: 1080 });
  await page.screenshot({ path: path.join(OUT, 'play-2560x1080.png') });
  assertNotBlank(path.join(OUT, 'play-2560x1080.png'));

  // The NPC's decision log explains a choice.
  await page.locator('#decisions button').first().click();
  await page.waitForSelector('#decision-detail tr.chosen');

  // To full time: the statistics table.
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.click('#adv-end');
  await page.click('#confirm-yes');
  await page.waitForSelector('#stats:not([hidden]) table', { timeout: 60000 });
  const stats = await page.locator('#stats').textContent();
  assert.match(stats, /possession/);
  // A dribble is called one thing on screen; a carrier's challenges are duels on the ball.
  for (const row of [/dribbles won/, /duels on the ball won/, /crosses completed/, /corners/, /penalties scored/, /shots from outside the box/]) {
    assert.match(stats, row);
  }
  // The sheet hovered earlier was re-drawn in Portuguese, in English, every round, and closed if
  // its player left: no tooltip from an older drawing may stay on screen.
  if (!(await page.locator('#tooltip').isHidden())) {
    assert.ok(await page.locator('#player').isVisible(), 'a tooltip floats over a closed sheet');
    assert.doesNotMatch(await page.locator('#tooltip').textContent(), /Pressão|Orientação|Calibração/, 'a Portuguese tooltip on an English page');
  }
  await page.screenshot({ path: path.join(OUT, 'full-time-1280x720.png'), fullPage: true });
  assertNotBlank(path.join(OUT, 'full-time-1280x720.png'));
  // The longer table still fits a phone: no row pushes the page sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('#stats').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(OUT, 'full-time-390x844.png') });
  assertNotBlank(path.join(OUT, 'full-time-390x844.png'));
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'no sideways scroll on a phone');
  assert.deepEqual(errors, [], 'no script errors');
  await page.close();
});

test('readable on a phone and usable by keyboard alone', async () => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await startAs(page, 'away', 11);
  // Nothing overflows sideways.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `no horizontal scroll (${overflow}px)`);
  // Keyboard: to the decision, choose with a digit, play with Enter.
  for (let i = 0; i < 50 && (await page.locator('#decision').isHidden()); i++) {
    await page.locator('body').press('d');
    await page.waitForFunction(() => !document.querySelector('#adv-end').disabled);
  }
  await page.waitForSelector('#decision:not([hidden]) #candidates button');
  await page.locator('body').press('1');
  await page.waitForSelector('#candidates button[aria-pressed="true"]');
  await page.locator('body').press('Enter');
  await page.waitForSelector('#outcome:not([hidden])');
  await page.screenshot({ path: path.join(OUT, 'phone-390x844.png'), fullPage: true });
  assertNotBlank(path.join(OUT, 'phone-390x844.png'));
  // Players are reachable with Tab and open with Enter.
  await page.locator('#pitch .pl').first().focus();
  await page.keyboard.press('Enter');
  await page.waitForSelector('#player:not([hidden]) table');
  await page.close();
});

test('a watched match: the NPC decision log shows pruned candidates by their bound', async () => {
  for (const viewport of [{ width: 1280, height: 720 }, { width: 390, height: 844 }]) {
    const page = await browser.newPage({ viewport });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await startAs(page, '', 5);
    // Nobody's side: the NPC plays both, weighing lazily, so some candidates are pruned.
    await page.click('#adv-round');
    await page.waitForSelector('#decisions button');
    await page.locator('#decisions button').first().click();
    await page.waitForSelector('#decision-detail tr.chosen');
    const pruned = page.locator('#decision-detail td[data-reason="bound below chosen"]');
    assert.ok((await pruned.count()) > 0, 'a pruned candidate is shown');
    assert.match(await pruned.first().textContent(), /^≤\s\d/);
    const shot = path.join(OUT, `watch-decision-${viewport.width}x${viewport.height}.png`);
    await page.locator('#decision-detail').scrollIntoViewIfNeeded();
    await page.screenshot({ path: shot, fullPage: true });
    assertNotBlank(shot);
    assert.deepEqual(errors, [], 'no script errors');
    await page.close();
  }
});

test('a sheet left open on a player who is substituted closes, saying why', async () => {
  // Which player leaves: the same match played through the API first (the engine is
  // deterministic, so the page's run substitutes the same players).
  const post = async (p, body, token) => {
    const headers = { 'Content-Type': 'application/json' };
    if (token) headers.Authorization = `Bearer ${token}`;
    const res = await fetch(server.url + '/api/v1' + p, { method: 'POST', headers, body: JSON.stringify(body) });
    assert.ok(res.ok, `${p}: ${res.status}`);
    return res.json();
  };
  const get = async (p) => (await fetch(server.url + '/api/v1' + p)).json();
  const run = await post('/runs', { home: 'esporte_clube_mandacaru', away: 'uniao_pedra_branca', revision: null, human: null, seed: 5 });
  const before = (await get(`/runs/${run.runId}`)).players.map((p) => p.id);
  await post(`/runs/${run.runId}/advance`, { until: 'end', delegate: true }, run.token);
  const after = new Set((await get(`/runs/${run.runId}`)).players.map((p) => p.id));
  const leaver = before.find((id) => !after.has(id));
  assert.ok(leaver, 'someone is substituted in this match');

  for (const viewport of [{ width: 1280, height: 720 }, { width: 390, height: 844 }]) {
    const page = await browser.newPage({ viewport });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await startAs(page, '', 5);
    await page.locator(`#pitch .pl[data-id="${leaver}"]`).click();
    await page.waitForSelector('#player:not([hidden]) table');
    const title = await page.locator('#player-title').textContent();
    await page.click('#adv-end');
    await page.click('#confirm-yes');
    await page.waitForSelector('#stats:not([hidden])');
    await page.waitForFunction(() => !/Playing/.test(document.querySelector('#status').textContent));
    const status = await page.locator('#status').textContent();
    await page.locator('#status').scrollIntoViewIfNeeded();
    assert.ok(await page.locator('#player').isHidden(), 'the sheet is closed');
    assert.ok(status.includes(`${title} has left the pitch`), status);
    assert.doesNotMatch(status, /no player/);
    assert.equal(await page.locator('#pitch .pl.sel').count(), 0, 'nobody is shown selected');
    const shot = path.join(OUT, `substituted-sheet-closed-${viewport.width}x${viewport.height}.png`);
    await page.screenshot({ path: shot });
    assertNotBlank(shot);
    assert.deepEqual(errors, [], 'no script errors');
    await page.close();
  }
});

// Issue 50: a corner, a free kick and a penalty taken from the page. The NPC plays the person's
// side through the API up to the set piece (the seeds are known to give it), then the page opens
// the run: the candidates are told apart by their zone ("Cross → far post"), a zone candidate is
// played (the page sends its zone), and the roll of its test shows the chance the candidate
// showed. Each at its own screen size.
test('set pieces from the page: each candidate playable, its odds the roll\'s', async () => {
  const call = async (method, p, body, token) => {
    const headers = { 'Content-Type': 'application/json' };
    if (token) headers.Authorization = `Bearer ${token}`;
    const res = await fetch(server.url + '/api/v1' + p, { method, headers, body: body && JSON.stringify(body) });
    const data = await res.json();
    assert.ok(res.ok, `${p}: ${res.status} ${JSON.stringify(data)}`);
    return data;
  };
  const cases = [
    { restart: 'corner', home: 'esporte_clube_mandacaru', away: 'atletico_vale_do_sol', human: 'home', seed: 1, zone: 'far post', label: /Corner: Cross → far post/, viewport: { width: 1280, height: 720 } },
    { restart: 'free_kick', home: 'sociedade_esportiva_serra_azul', away: 'ferroviario_juazeiro', human: 'away', seed: 2026, zone: 'near post', label: /Free kick: Cross → near post/, viewport: { width: 390, height: 844 } },
    { restart: 'penalty', home: 'esporte_clube_mandacaru', away: 'atletico_vale_do_sol', human: 'home', seed: 2, zone: 'left corner', label: /Penalty: Shoot → left corner/, viewport: { width: 2560, height: 1080 } },
  ];
  for (const c of cases) {
    const run = await call('POST', '/runs', { home: c.home, away: c.away, human: c.human, seed: c.seed });
    let list = null;
    for (let i = 0; i < 2000 && !list; i++) {
      const a = await call('POST', `/runs/${run.runId}/advance`, { until: 'decision' }, run.token);
      assert.equal(a.stoppedAt, 'decision', `${c.restart}: the match ended first`);
      const k = await call('GET', `/runs/${run.runId}/candidates`);
      if (k.restart === c.restart && k.candidates.some((x) => x.zone)) list = k;
      else await call('POST', `/runs/${run.runId}/advance`, { until: 'round', delegate: true }, run.token);
    }
    assert.ok(list, `no ${c.restart} with zones reached the person`);
    // Siblings are told apart: no two candidates share a label.
    const page = await browser.newPage({ viewport: c.viewport });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(server.url + '/');
    await page.evaluate(([r, tk]) => localStorage.setItem('microfut.run', JSON.stringify({ run: r, token: tk })), [run.runId, run.token]);
    await page.goto(`${server.url}/?open=${run.runId}#run=${run.runId}`);
    await page.waitForSelector('#decision:not([hidden]) #candidates button');
    const labels = await page.locator('#candidates button > span:first-child').allTextContents();
    const clean = labels.map((l) => l.replace(/^\d+\s*/, '').replace(/NPC pick$/, '').trim());
    assert.equal(new Set(clean).size, clean.length, `siblings told apart: ${clean.join(' | ')}`);
    const button = page.locator('#candidates button', { hasText: c.label });
    assert.equal(await button.count(), 1, `${c.restart}: ${clean.join(' | ')}`);
    const shown = (await button.locator('[data-testid="headline"]').textContent()).trim();
    await button.click();
    await page.waitForSelector('#explanation table');
    const shot = path.join(OUT, `${c.restart}-decision-${c.viewport.width}x${c.viewport.height}.png`);
    await page.screenshot({ path: shot, fullPage: c.viewport.width < 600 });
    assertNotBlank(shot);
    await page.click('#play');
    await page.waitForSelector('#outcome:not([hidden]) [data-testid="roll"]');
    // The action's roll is marked with the chance it was shown: the same figure, and the roll's.
    const own = page.locator('#outcome [data-testid="roll"]', { has: page.locator('[data-testid="shown"]') });
    assert.equal(await own.count(), 1, `${c.restart}: the action's roll is marked`);
    assert.equal((await own.locator('[data-testid="shown"]').textContent()).trim(), `you were shown ${shown}`);
    assert.equal((await own.locator('[data-testid="roll-odds"]').textContent()).trim(), shown);
    assert.equal(await own.getAttribute('data-role'), 'action');
    assert.match(await own.textContent(), new RegExp(`needs \\d+\\+ on 3d6 \\(${shown.replace('.', '\\.')}\\) — rolled \\d+: (succeeded|failed)`));
    const after = path.join(OUT, `${c.restart}-outcome-${c.viewport.width}x${c.viewport.height}.png`);
    await page.locator('#outcome').scrollIntoViewIfNeeded();
    await page.screenshot({ path: after, fullPage: c.viewport.width < 600 });
    assertNotBlank(after);
    // And the same through the API: the record's intent names the zone.
    const record = await call('GET', `/runs/${run.runId}/record`);
    const last = record.intents[record.intents.length - 1];
    assert.ok(last.zone, `the intent carries its zone: ${JSON.stringify(last)}`);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'no sideways scroll');
    assert.deepEqual(errors, [], 'no script errors');
    await page.close();
  }
});

// ---- issue 53 §4: the page finished ----

const SHOTS = path.join(here, 'screenshots');

// English words a Portuguese page must not show (the page's own words, the engine's outcomes and
// restarts, the NPC log's headers), and keys shown raw: snake_case, `BASE_passe`, `home-9`.
// Provenance (`.src`: content pointers such as `pipelines.json#/pipelines/1/base`) is an
// identifier on purpose and is left out; so are proper names.
const ENGLISH = new Set(('the and of to with from by for on at you your yours theirs pass passed shoot shoots shot ' +
  'carry carries cross crosses target saved blocked misplaced imprecise hold holds parry parries keeps steal loose wins ' +
  'threat risk noise score personality adaptation stamina round rounds played half full time needs rolled succeeded ' +
  'failed margin gain estimate kick free corner throw goal header heads intercepts blocks gathers ball foul penalty ' +
  'statistics decision play next language home away playing waiting download record sheet close player kind skills ' +
  'attributes tests derived chosen weighed candidates substitution nobody watch start match new server reached ' +
  'trying again yes keep delegate choose selected let take takes dribble dribbles straight off prog pers state').split(' '));
const PROPER = [/Space Football/g, /microfut replay/g, /Microfut/g];
const RAW = [/\b[A-Za-z]+_[A-Za-z_]+\b/, /\b(home|away)-\d+\b/, /\b(pass|carry|throw|dribble) #?-?\d+/];

async function foreignWords(page) {
  const texts = await page.evaluate(() => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || el.closest('.src, script, style, option:not(:checked)') || !el.checkVisibility()) continue;
      if (n.textContent.trim()) out.push(n.textContent.trim());
    }
    for (const el of document.querySelectorAll('[title], [aria-label]')) {
      if (el.closest('.src') || !(el instanceof SVGElement || el.checkVisibility())) continue;
      for (const a of ['title', 'aria-label']) if (el.getAttribute(a)) out.push(el.getAttribute(a));
    }
    return out;
  });
  const found = [];
  for (let text of texts) {
    for (const p of PROPER) text = text.replace(p, '');
    for (const w of text.toLowerCase().split(/[^a-zà-ÿ]+/)) if (ENGLISH.has(w)) found.push(`${w} in "${text.slice(0, 90)}"`);
    for (const r of RAW) { const m = text.match(r); if (m) found.push(`raw ${m[0]} in "${text.slice(0, 90)}"`); }
  }
  return [...new Set(found)];
}

async function idle(page) {
  await page.waitForFunction(() => !document.querySelector('#adv-end').disabled || document.querySelector('#stats:not([hidden])'));
}

test('the start page shows only the form; New match leaves nothing of the old match', async () => {
  for (const viewport of [{ width: 1280, height: 720 }, { width: 390, height: 844 }]) {
    const page = await browser.newPage({ viewport });
    await page.goto(server.url + '/');
    await page.waitForSelector('#home option', { state: 'attached' });
    for (const sel of ['#game', '#pitch', '#adv-round', '#adv-end', '#feed-title']) {
      assert.equal(await page.locator(sel).isVisible(), false, `${sel} is visible on the start page`);
    }
    await startAs(page, 'home', 3);
    await page.click('#adv-round');
    await idle(page);
    assert.ok((await page.locator('#feed li').count()) > 0, 'the feed has lines');
    await page.click('#new-match');
    assert.ok(await page.locator('#setup-form').isVisible());
    for (const sel of ['#game', '#pitch', '#feed', '#stats', '#decision', '#new-match']) {
      assert.equal(await page.locator(sel).isVisible(), false, `${sel} stays under the form after New match`);
    }
    assert.equal(await page.locator('#feed li').count(), 0, 'the old feed is gone');
    assert.equal(await page.locator('#pitch .pl').count(), 0, 'the old pitch is gone');
    await page.close();
  }
});

test('a stray e asks before handing the match to the NPC', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await startAs(page, 'home', 4);
  const round = await roundOf(page);
  await page.locator('body').press('e');
  await page.waitForSelector('#confirm-end[open]');
  await page.keyboard.press('Escape');
  await page.waitForSelector('#confirm-end:not([open])', { state: 'attached' });
  await page.locator('body').press('e');
  await page.waitForSelector('#confirm-end[open]');
  await page.click('#confirm-no');
  assert.equal(await roundOf(page), round, 'nothing was played');
  assert.equal(await page.locator('#stats').isVisible(), false);
  await page.locator('body').press('e');
  await page.click('#confirm-yes');
  await page.waitForSelector('#stats:not([hidden]) table', { timeout: 60000 });
  await page.close();
});

test('the server out of reach is said in the page\'s language, and the page tries again', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.addInitScript(() => localStorage.setItem('microfut.lang', 'pt-BR'));
  await startAs(page, 'home', 6);
  // Every API call fails in the network, as with the server down.
  await page.route('**/api/v1/**', (route) => route.abort('connectionrefused'));
  await page.click('#adv-round');
  await page.waitForSelector('#offline:not([hidden])');
  const said = await page.locator('#offline').textContent();
  assert.match(said, /Não foi possível falar com o servidor\. Nova tentativa em \d s/);
  assert.doesNotMatch(await page.locator('body').textContent(), /Failed to fetch/);
  await page.unroute('**/api/v1/**');
  await page.click('#offline-retry');
  await page.waitForSelector('#offline[hidden]', { state: 'attached' });
  assert.match(await page.locator('#status').textContent(), /O servidor voltou/);
  await page.close();
});

test('links between the pages, and a favicon', async () => {
  const page = await browser.newPage();
  const missing = [];
  page.on('response', (r) => { if (r.status() === 404) missing.push(r.url()); });
  await page.goto(server.url + '/');
  await page.waitForSelector('#space-link:not([hidden])');
  assert.equal(await page.locator('.pages a[href="/effects/"]').count(), 1);
  await page.click('.pages a[href="/effects/"]');
  await page.waitForURL(/\/effects\/$/);
  await page.click('a[href="/"]');
  await page.waitForURL(/\/$/);
  await page.goto(server.url + '/space/');
  await page.waitForSelector('#home-link:not([hidden])');
  for (const icon of ['/favicon.ico', '/favicon.svg']) {
    const res = await fetch(server.url + icon);
    assert.equal(res.status, 200, icon);
    assert.match(res.headers.get('content-type'), /image\/svg\+xml/);
  }
  assert.deepEqual(missing, [], 'no 404 while browsing');
  await page.close();
});

// A match in Portuguese to full time: 150 decisions by hand (each candidate in turn, its
// explanation read, the NPC's log and a sheet opened now and then), then the rest handed to the
// NPC through the confirmation: nothing English or raw may show at any step checked.
test('a whole match in Portuguese shows no English word and no raw key', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.addInitScript(() => localStorage.setItem('microfut.lang', 'pt-BR'));
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await startAs(page, 'home', 9);
  const found = new Set();
  const check = async (where) => { for (const f of await foreignWords(page)) found.add(`${where}: ${f}`); };
  await check('start');
  let decisions = 0;
  for (let step = 0; step < 2000 && decisions < 150 && !(await page.locator('#stats').isVisible()); step++) {
    if (await page.locator('#decision').isVisible()) {
      const n = await page.locator('#candidates button').count();
      await page.locator('#candidates button').nth(decisions % n).click();
      await page.waitForSelector('#candidates button[aria-pressed="true"]');
      if (decisions % 10 === 0) await check(`decision ${decisions}`);
      await page.locator('body').press('Enter');
      decisions++;
      await idle(page);
      if (decisions % 10 === 1) await check(`outcome ${decisions}`);
      if (decisions % 25 === 2) {
        await page.locator('#decisions button').first().click();
        await page.waitForSelector('#decision-detail table');
        await page.locator('#pitch .pl').nth(decisions % 22).click();
        await page.waitForSelector('#player:not([hidden]) table');
        await page.locator('#player [data-tip]').first().hover();
        await check(`log and sheet ${decisions}`);
      }
    } else {
      await page.click('#adv-decision');
      await idle(page);
    }
  }
  await page.locator('body').press('e');
  if (await page.locator('#confirm-end[open]').count()) { await check('confirm'); await page.click('#confirm-yes'); }
  await page.waitForSelector('#stats:not([hidden]) table', { timeout: 60000 });
  await idle(page);
  await check('full time');
  assert.ok(decisions > 20, `${decisions} decisions taken`);
  assert.deepEqual([...found], [], 'English or raw on the Portuguese page');
  assert.deepEqual(errors, [], 'no script errors');
  await page.close();
});

test('every candidate has a key, up to 17', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await startAs(page, 'home', 7);
  await toDecision(page);
  const n = await page.locator('#candidates button').count();
  assert.ok(n > 9, `${n} candidates: too few to try the keys past 9`);
  const keys = '1234567890abcfghi';
  assert.equal(await page.locator('#candidates button kbd').count(), Math.min(n, keys.length));
  for (let i = 0; i < Math.min(n, keys.length); i++) {
    assert.equal((await page.locator('#candidates button kbd').nth(i).textContent()).trim(), keys[i]);
    await page.locator('body').press(keys[i]);
    await page.waitForSelector(`#candidates button[data-i="${i}"][aria-pressed="true"]`);
  }
  await page.close();
});

// The screenshots kept for review (tests/browser/screenshots/): a decision, the outcome and full
// time, at a phone, a laptop and a wide screen, in both languages; and what each size must show.
test('screenshots at three sizes in both languages, each size showing what it must', async () => {
  mkdirSync(SHOTS, { recursive: true });
  const sizes = [{ width: 390, height: 844 }, { width: 1280, height: 720 }, { width: 2560, height: 1080 }];
  for (const lang of ['en', 'pt-BR']) {
    for (const viewport of sizes) {
      const tag = `${lang}-${viewport.width}x${viewport.height}`;
      const page = await browser.newPage({ viewport, isMobile: viewport.width < 600, hasTouch: viewport.width < 600 });
      await page.addInitScript((l) => localStorage.setItem('microfut.lang', l), lang);
      await startAs(page, 'home', 7);
      await toDecision(page);
      await page.locator('#candidates button').first().click();
      await page.waitForSelector('#explanation p');
      const shot = path.join(SHOTS, `decision-${tag}.png`);
      await page.screenshot({ path: shot });
      assertNotBlank(shot);
      const inView = async (sel) => page.evaluate((s) => {
        const r = document.querySelector(s).getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;
      }, sel);
      if (viewport.width >= 1000) {
        // The situation, the candidates and Play it on one screen.
        for (const sel of ['#pitch', '#candidates', '#play']) assert.ok(await inView(sel), `${tag}: ${sel} out of view`);
      } else {
        // Players legible on a phone: markers at least 18 px across.
        const size = await page.locator('#pitch .pl circle.ring').first().boundingBox();
        assert.ok(size.width >= 18, `${tag}: markers ${size.width.toFixed(1)} px`);
        // The sticky header leaves the phone its screen: at most an eighth of its height.
        const bar = await page.evaluate(() => document.querySelector('#bar').getBoundingClientRect().height);
        assert.ok(bar <= viewport.height / 8, `${tag}: the header takes ${bar.toFixed(0)} px`);
      }
      await page.click('#play');
      await page.waitForSelector('#outcome:not([hidden])');
      await idle(page);
      assert.ok(await inView('#scoreboard'), `${tag}: the scoreboard scrolled away after Play it`);
      await page.screenshot({ path: path.join(SHOTS, `outcome-${tag}.png`) });
      await page.click('#adv-end');
      await page.click('#confirm-yes');
      await page.waitForSelector('#stats:not([hidden]) table', { timeout: 60000 });
      await idle(page);
      await page.evaluate(() => window.scrollTo(0, 0));
      if (viewport.width >= 1000) {
        const top = await page.evaluate(() => document.querySelector('#stats').getBoundingClientRect().top);
        assert.ok(top >= 0 && top < viewport.height / 2, `${tag}: the statistics start at ${top} px`);
      }
      const end = path.join(SHOTS, `full-time-${tag}.png`);
      await page.screenshot({ path: end, fullPage: viewport.width < 600 });
      assertNotBlank(end);
      await page.close();
    }
  }
});
