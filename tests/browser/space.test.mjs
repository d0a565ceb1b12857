// The Space Football battlefield in a real browser (`microfut space serve`): play the greedy bot
// by clicking — the legal actions of the selected robot highlighted, the bot answering, the game
// to its end — as white and as black; then watch a match of two bots step by step, and open a
// match record; the page in Portuguese; a reload resumes the game. Screenshots go to
// tests/browser/out/ and are checked to be non-blank.
//
// Every wait is on a condition of the page (its `data-ready` mark, the game the API returned,
// the bot no longer thinking), never a fixed sleep: under a loaded machine the answers come late,
// not in a different order.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, startServer, assertNotBlank } from './lib.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = process.env.MICROFUT_BIN || path.join(here, '../../target/release/microfut');
const OUT = path.join(here, 'out');
let server, browser;

before(async () => {
  mkdirSync(OUT, { recursive: true });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'space-browser-'));
  server = await startServer(BIN, ['space', 'serve', '--bind', '127.0.0.1:0', '--db', path.join(dir, 'games.db')]);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.child.kill('SIGKILL');
});

// A page in English (the page follows the browser's language unless told).
const newPage = (viewport) => browser.newPage({ viewport, locale: 'en-US' });

// Opens the page and waits until it has its rules and its opening game (`data-ready`).
async function open(page) {
  await page.goto(new URL(server.url).origin + '/space/');
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
}

async function start(page, { n, seed, human, bot }) {
  await open(page);
  await page.selectOption('#n', String(n));
  await page.fill('#seed', String(seed));
  await page.selectOption('#human', human);
  await page.selectOption('#bot', bot);
  await page.click('#start');
  // The game asked for — not the opening one — is shown and it is the person's turn.
  await page.waitForFunction(({ n, seed, human }) => {
    const g = typeof state !== 'undefined' && state.game;
    return g && g.seed === seed && g.human === human && g.board.n === n && !state.busy && g.legal.length > 0;
  }, { n, seed, human });
  await page.waitForFunction((h) => document.querySelector('#status').textContent.includes(`Your turn (${h})`), human);
}

// Plays the first legal action of the first robot that can act, by clicking; returns the kind.
async function clickAnAction(page) {
  const robot = page.locator('circle.robot.movable').first();
  const [row, col] = [await robot.getAttribute('data-row'), await robot.getAttribute('data-col')];
  await robot.click();
  await page.waitForSelector('rect.target');
  assert.match(await page.locator('#status').textContent(), new RegExp(`^(Robot \\(${row}, ${col}\\): pick a highlighted square|Robô \\(${row}, ${col}\\): escolha uma casa destacada)\\.$`));
  const target = page.locator('rect.target').first();
  const kind = await target.getAttribute('data-kind');
  const before = await page.locator('#log li').count();
  await target.click();
  await page.waitForFunction((b) => state.game.log.length > b && !state.busy && document.querySelectorAll('#log li').length === state.game.log.length, before);
  return kind;
}

test('a person plays the greedy bot as white by clicking, to the end, and steps through the game', async () => {
  const page = await newPage({ width: 1280, height: 800 });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await start(page, { n: 7, seed: 5, human: 'white', bot: 'greedy' });
  assert.match(await page.locator('#revision').textContent(), /^space 1\.0\.0 · sha256:/);
  // A 7-column field: 9 rows × 7 columns of cells, and the robots of both sides.
  assert.equal(await page.locator('rect.cell').count(), 9 * 7);
  assert.ok(await page.locator('circle.robot.white').count() >= 7);
  // The legal actions the API gives are exactly the highlighted squares of each robot.
  const game = await page.evaluate(() => state.game);
  const first = game.legal[0].from;
  await page.click(`circle.robot.movable[data-row="${first[0]}"][data-col="${first[1]}"]`);
  const shown = await page.$$eval('rect.target', (rs) => rs.map((r) => `${r.dataset.kind}:${r.dataset.row},${r.dataset.col}`).sort());
  const expected = game.legal.filter((a) => a.from[0] === first[0] && a.from[1] === first[1]).map((a) => `${a.action}:${a.to[0]},${a.to[1]}`).sort();
  assert.deepEqual(shown, expected);
  await page.screenshot({ path: path.join(OUT, 'space-play.png') });
  assertNotBlank(path.join(OUT, 'space-play.png'));
  // Clicking the selected robot again deselects it.
  await page.click(`circle.robot.movable[data-row="${first[0]}"][data-col="${first[1]}"]`);
  assert.equal(await page.locator('rect.target').count(), 0);

  let turns = 0;
  while (await page.locator('#outcome').isHidden()) {
    await clickAnAction(page);
    assert.ok(++turns < 200, 'the game ends');
  }
  const outcome = await page.locator('#outcome').textContent();
  assert.match(outcome, /^(You win|The bot wins) by (goal|destruction) after \d+ actions \(points \d+–\d+\)\.$|^A draw/);
  const g = await page.evaluate(() => state.game);
  assert.equal(g.record.format, 'space-match/1');
  assert.equal(g.frames.length, g.log.length + 1);
  await page.screenshot({ path: path.join(OUT, 'space-over.png') });
  assertNotBlank(path.join(OUT, 'space-over.png'));

  // Step through the finished game: the last position is the game's final board.
  await page.click('#review');
  await page.waitForSelector('#stepper:not([hidden])');
  assert.equal(await page.locator('#frame-label').textContent(), `start · ${g.log.length} actions`);
  await page.click('#next');
  assert.equal(await page.locator('#frame-label').textContent(), `after action 1 of ${g.log.length}`);
  await page.click('#last');
  assert.equal(await page.locator('#outcome').textContent(), outcome.replace(/^You win|^The bot wins/, (w) => (w === 'You win' ? 'White' : 'Black') + ' wins'));
  assert.deepEqual(errors, []);
  await page.close();
});

test('as black the field is turned: the bot opens, the person answers', async () => {
  const page = await newPage({ width: 390, height: 844 }); // a phone: the board still fits and takes clicks
  await start(page, { n: 6, seed: 11, human: 'black', bot: 'random' });
  const g = await page.evaluate(() => state.game);
  assert.equal(g.log[0].side, 'white');
  assert.ok(g.legal.every((a) => a.to[0] < a.from[0]), 'black goes down the rows');
  // Row 0 (white's goal area, where black scores) is drawn on top.
  const top = await page.$$eval('rect.cell', (rs) => rs.reduce((a, r) => (Number(r.getAttribute('y')) < Number(a.getAttribute('y')) ? r : a)).dataset.row);
  assert.equal(top, '0');
  assert.equal(await clickAnAction(page).then(() => page.evaluate(() => state.game.log[1].side)), 'black');
  // A reload resumes the same game (stored by the server, its id and token kept by the tab).
  const before = await page.evaluate(() => state.game);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
  const after = await page.evaluate(() => state.game);
  assert.equal(after.id, before.id);
  assert.deepEqual(after.log, before.log);
  await clickAnAction(page);
  assert.ok(await page.evaluate((k) => state.game.log.length > k, before.log.length));
  await page.close();
});

test('watch two bots step by step, open a record, and a bad record is explained', async () => {
  const page = await newPage({ width: 1100, height: 800 });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await open(page);
  await page.click('#tab-watch');
  await page.selectOption('#w-bot', 'search');
  await page.selectOption('#b-bot', 'greedy');
  await page.selectOption('#w-n', '8');
  await page.fill('#w-seed', '3');
  await page.click('#demo');
  await page.waitForSelector('#stepper:not([hidden])');
  const rec = await page.evaluate(() => state.record);
  assert.equal(rec.white.name, 'search');
  assert.equal(rec.board.n, 8);
  assert.match(await page.locator('#status').textContent(), /^search \(white\) v greedy \(black\) · initial board/);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.locator('#frame-label').textContent(), `after action 2 of ${rec.actions.length}`);
  assert.equal(await page.locator('#log li.current').textContent(), `${rec.actions[1].side} ${rec.actions[1].action} (${rec.actions[1].from.join(', ')}) → (${rec.actions[1].to.join(', ')})`);
  await page.locator('line.trail').waitFor();
  await page.screenshot({ path: path.join(OUT, 'space-watch.png') });
  assertNotBlank(path.join(OUT, 'space-watch.png'));
  await page.keyboard.press('End');
  assert.match(await page.locator('#outcome').textContent(), /^(White|Black) wins|^A draw/);

  // The same record as a file: it replays identically.
  const file = path.join(OUT, 'space-record.json');
  writeFileSync(file, JSON.stringify(rec));
  await page.setInputFiles('#record-file', file);
  await page.waitForFunction(() => state.frame === 0 && document.querySelector('#frame-label').textContent.startsWith('start'));
  assert.ok(await page.locator('#error').isHidden());
  // An edited record: the second action goes backwards; the page says where it stops holding.
  const bad = structuredClone(rec);
  bad.actions[1].to[0] = bad.actions[1].from[0] + (bad.actions[1].side === 'white' ? -1 : 1);
  const badFile = path.join(OUT, 'space-record-edited.json');
  writeFileSync(badFile, JSON.stringify(bad));
  await page.setInputFiles('#record-file', badFile);
  await page.waitForSelector('#error:not([hidden])');
  assert.match(await page.locator('#error').textContent(), /^This record does not replay: action 2 /);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the page in Portuguese: labels, the status, the log and the outcome; the choice is kept', async () => {
  const page = await newPage({ width: 1280, height: 800 });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await start(page, { n: 5, seed: 4, human: 'white', bot: 'greedy' });
  await page.selectOption('#lang', 'pt-BR');
  assert.equal(await page.getAttribute('html', 'lang'), 'pt-BR');
  assert.equal(await page.locator('#tab-play').textContent(), 'Jogar contra um robô');
  assert.equal(await page.locator('#tab-watch').textContent(), 'Assistir ou rever uma partida');
  assert.equal(await page.locator('#start').textContent(), 'Novo jogo');
  assert.equal(await page.locator('#bot option[value="greedy"]').textContent(), 'guloso');
  assert.equal(await page.locator('#human option[value="white"]').textContent(), 'brancas (começam)');
  assert.equal(await page.locator('h1 .sub').textContent(), 'campo de batalha');
  assert.match(await page.locator('#status').textContent(), /^Sua vez \(brancas\): \d+ ações legais de \d+ robôs\.$/);
  await clickAnAction(page);
  assert.match(await page.locator('#log li').first().textContent(), /^brancas (mover|atacar|ataque suicida|passe) \(\d+, \d+\) → \(\d+, \d+\)$/);
  assert.match(await page.locator('#log li').nth(1).textContent(), /^pretas /);
  await page.screenshot({ path: path.join(OUT, 'space-pt.png') });
  assertNotBlank(path.join(OUT, 'space-pt.png'));
  let turns = 0;
  while (await page.locator('#outcome').isHidden()) {
    await clickAnAction(page);
    assert.ok(++turns < 200, 'the game ends');
  }
  assert.match(await page.locator('#outcome').textContent(), /^(Você vence|O robô vence) por (gol|destruição) após \d+ ações \(pontos \d+–\d+\)\.$|^Empate/);
  // The watch tab speaks Portuguese too; the choice survives a reload (and reaches the Microfut page's key).
  await page.click('#tab-watch');
  assert.match(await page.locator('#status').textContent(), /^Jogue uma partida entre dois robôs/);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
  assert.equal(await page.locator('#tab-play').textContent(), 'Jogar contra um robô');
  assert.equal(await page.evaluate(() => localStorage.getItem('microfut.lang')), 'pt-BR');
  // And back to English.
  await page.selectOption('#lang', 'en');
  assert.equal(await page.locator('#tab-play').textContent(), 'Play a bot');
  assert.deepEqual(errors, []);
  await page.close();
});
