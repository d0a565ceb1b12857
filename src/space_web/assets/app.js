// The battlefield page: it draws what the API returns — boards, the legal actions of the
// person's side, outcomes — and computes no rule itself.
'use strict';

const API = '/api/v1/space';
const SVG = 'http://www.w3.org/2000/svg';
const CELL = 48;
const PAD = 28;
const $ = (id) => document.getElementById(id);

const state = {
  mode: 'play',
  game: null,        // {id, token, board, legal, log, outcome, human, ...}
  selected: null,    // [row, col] of the person's selected robot
  busy: false,
  frames: [],        // watch mode: boards
  record: null,      // watch mode: the match record
  frame: 0,
};

async function api(path, options = {}) {
  const res = await fetch(API + path, options);
  const body = await res.json();
  if (!res.ok) {
    const e = body.error || {};
    throw new Error(`${e.message || res.statusText}${e.field ? ` (${e.field})` : ''}`);
  }
  return body;
}

function post(path, data, token) {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  return api(path, { method: 'POST', headers, body: JSON.stringify(data) });
}

function showError(e) {
  $('error').hidden = !e;
  $('error').textContent = e ? String(e.message || e) : '';
}

const sq = (p) => `(${p[0]}, ${p[1]})`;
const same = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];

function describe(p, i) {
  return `${i + 1}. ${p.side} ${p.action} ${sq(p.from)} → ${sq(p.to)}`;
}

function outcomeText(o, human) {
  if (!o) return '';
  if (!o.winner) return `A draw: neither side can act (points ${o.points[0]}–${o.points[1]}).`;
  const how = { goal: 'by goal', destruction: 'by destruction', opponent_invalid: 'the opponent made an invalid action' }[o.victory];
  const who = human ? (o.winner === human ? 'You win' : 'The bot wins') : `${o.winner[0].toUpperCase()}${o.winner.slice(1)} wins`;
  return `${who} ${how} after ${o.actions} actions (points ${o.points[0]}–${o.points[1]}).`;
}

function el(name, attrs = {}, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// Draws a board: row n+1 (black's goal area, where white scores) on top, row 0 at the bottom —
// turned half a circle (`flip`) when the person plays black, so their robots go up the screen.
function draw(board, { legal = [], selected = null, last = null, flip = false } = {}) {
  const svg = $('field');
  svg.replaceChildren();
  const n = board.n;
  const rows = n + 2;
  svg.setAttribute('viewBox', `0 0 ${n * CELL + 2 * PAD} ${rows * CELL + 2 * PAD}`);
  const defs = el('defs', {}, svg);
  const marker = el('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: 'auto' }, defs);
  el('path', { d: 'M0,0 L10,5 L0,10 z', fill: 'var(--ball)' }, marker);
  const x = (c) => PAD + (flip ? n - c : c - 1) * CELL;
  const y = (r) => PAD + (flip ? r : n + 1 - r) * CELL;
  const centre = (p) => [x(p[1]) + CELL / 2, y(p[0]) + CELL / 2];
  for (let r = 0; r <= n + 1; r++) {
    const t = el('text', { x: PAD - 8, y: y(r) + CELL / 2 + 5, 'text-anchor': 'end' }, svg);
    t.textContent = r;
    for (let c = 1; c <= n; c++) {
      const cls = r === 0 ? 'goal-white' : r === n + 1 ? 'goal-black' : (r + c) % 2 ? 'alt' : '';
      el('rect', { class: `cell ${cls}`, x: x(c), y: y(r), width: CELL, height: CELL, 'data-row': r, 'data-col': c }, svg);
    }
  }
  for (let c = 1; c <= n; c++) {
    const t = el('text', { x: x(c) + CELL / 2, y: PAD - 8, 'text-anchor': 'middle' }, svg);
    t.textContent = c;
  }
  const movable = new Set(legal.map((a) => a.from.join(',')));
  const targets = selected ? legal.filter((a) => same(a.from, selected)) : [];
  for (const a of targets) {
    const rect = el('rect', {
      class: `target ${a.action}`, x: x(a.to[1]) + 3, y: y(a.to[0]) + 3, width: CELL - 6, height: CELL - 6, rx: 6,
      'data-row': a.to[0], 'data-col': a.to[1], 'data-kind': a.action,
    }, svg);
    const title = el('title', {}, rect);
    title.textContent = `${a.action} to ${sq(a.to)}`;
    rect.addEventListener('click', () => play(a));
  }
  for (const side of ['white', 'black']) {
    for (const p of board[side]) {
      const [cx, cy] = centre(p);
      const classes = ['robot', side];
      if (movable.has(p.join(','))) classes.push('movable');
      if (same(p, selected)) classes.push('selected');
      const robot = el('circle', { class: classes.join(' '), cx, cy, r: CELL * 0.36, 'data-row': p[0], 'data-col': p[1] }, svg);
      if (movable.has(p.join(','))) robot.addEventListener('click', () => select(p));
    }
  }
  const [bx, by] = centre(board.ball);
  const held = board.holder !== null;
  el('circle', { class: 'ball', cx: held ? bx + CELL * 0.22 : bx, cy: held ? by - CELL * 0.22 : by, r: CELL * (held ? 0.13 : 0.18) }, svg);
  if (last) {
    const [x1, y1] = centre(last.from);
    const [x2, y2] = centre(last.to);
    el('line', { class: 'trail', x1, y1, x2, y2 }, svg);
  }
}

function renderLog(log, current = log.length) {
  const ol = $('log');
  ol.replaceChildren(...log.map((p, i) => {
    const li = document.createElement('li');
    li.textContent = describe(p, i).replace(/^\d+\. /, '');
    if (i === current - 1) li.className = 'current';
    return li;
  }));
  const cur = ol.querySelector('.current');
  if (cur) cur.scrollIntoView({ block: 'nearest' });
}

// ---- Play a bot ----

function renderGame() {
  const g = state.game;
  const last = g.log[g.log.length - 1];
  draw(g.board, { legal: g.legal, selected: state.selected, last, flip: g.human === 'black' });
  renderLog(g.log);
  $('outcome').hidden = !g.outcome;
  $('outcome').textContent = outcomeText(g.outcome, g.human);
  $('after').hidden = !g.record;
  $('save').hidden = !g.record;
  if (g.record) saveLink(g.record);
  if (g.outcome) {
    $('status').textContent = `Game over · you played ${g.human} against the ${g.bot} bot, seed ${g.seed}, n = ${g.board.n}.`;
  } else if (state.busy) {
    $('status').textContent = `The ${g.bot} bot is thinking…`;
  } else {
    const robots = new Set(g.legal.map((a) => a.from.join(','))).size;
    $('status').textContent = state.selected
      ? `Robot ${sq(state.selected)}: pick a highlighted square.`
      : `Your turn (${g.human}): ${g.legal.length} legal actions from ${robots} robots.`;
  }
}

function select(p) {
  if (state.busy || !state.game || state.game.outcome) return;
  state.selected = same(state.selected, p) ? null : p;
  renderGame();
}

async function play(a) {
  const g = state.game;
  state.busy = true;
  state.selected = null;
  // Show the person's action at once; the answer brings the bot's reply.
  renderGame();
  try {
    const next = await post(`/games/${g.id}/actions`, { action: a.action, from: a.from, to: a.to }, g.token);
    state.game = { ...next, token: g.token };
    showError(null);
  } catch (e) {
    showError(e);
  }
  state.busy = false;
  renderGame();
}

async function newGame(ev) {
  ev?.preventDefault();
  const body = { seed: Number($('seed').value || 0), human: $('human').value, bot: $('bot').value };
  if ($('n').value) body.n = Number($('n').value);
  state.busy = true;
  try {
    state.game = await post('/games', body);
    state.selected = null;
    showError(null);
  } catch (e) {
    showError(e);
  }
  state.busy = false;
  if (state.game) renderGame();
}

// ---- Step through a match ----

function renderFrame() {
  const rec = state.record;
  const i = state.frame;
  const last = i > 0 ? rec.actions[i - 1] : null;
  draw(state.frames[i], { last });
  saveLink(rec);
  renderLog(rec.actions, i);
  $('frame').max = state.frames.length - 1;
  $('frame').value = i;
  $('frame-label').textContent = i === 0 ? `start · ${rec.actions.length} actions` : `after action ${i} of ${rec.actions.length}`;
  const end = i === state.frames.length - 1;
  $('outcome').hidden = !end;
  $('outcome').textContent = end ? outcomeText(rec.result) : '';
  $('status').textContent = `${rec.white.name} (white) v ${rec.black.name} (black) · ${last ? describe(last, i - 1) : 'initial board'}`;
}

function saveLink(record) {
  if (state.saved === record) return;
  if ($('save').href.startsWith('blob:')) URL.revokeObjectURL($('save').href);
  const blob = new Blob([JSON.stringify(record, null, 2)], { type: 'application/json' });
  $('save').href = URL.createObjectURL(blob);
  state.saved = record;
}

function step(to) {
  if (!state.frames.length) return;
  state.frame = Math.max(0, Math.min(state.frames.length - 1, to));
  renderFrame();
}

function showMatch(result) {
  state.record = result.record;
  state.frames = result.frames;
  state.frame = 0;
  $('stepper').hidden = false;
  saveLink(result.record);
  $('save').hidden = false;
  if (result.identical === false) showError(`This record does not replay: ${result.difference}`);
  else showError(null);
  renderFrame();
}

async function demo(ev) {
  ev?.preventDefault();
  const body = { white: $('w-bot').value, black: $('b-bot').value, seed: Number($('w-seed').value || 0) };
  if ($('w-n').value) body.n = Number($('w-n').value);
  $('status').textContent = 'Playing…';
  try {
    showMatch(await post('/matches', body));
  } catch (e) {
    showError(e);
  }
}

async function openRecord() {
  const file = $('record-file').files[0];
  if (!file) return;
  try {
    const record = JSON.parse(await file.text());
    showMatch(await post('/replay', record));
  } catch (e) {
    showError(e);
  }
}

function setMode(mode) {
  state.mode = mode;
  $('tab-play').setAttribute('aria-selected', String(mode === 'play'));
  $('tab-watch').setAttribute('aria-selected', String(mode === 'watch'));
  $('play-controls').hidden = mode !== 'play';
  $('watch-controls').hidden = mode !== 'watch';
  $('stepper').hidden = mode !== 'watch' || !state.frames.length;
  $('save').hidden = mode === 'watch' ? !state.record : !state.game?.record;
  $('after').hidden = mode !== 'play' || !state.game?.record;
  showError(null);
  if (mode === 'play') {
    if (state.game) renderGame(); else { $('field').replaceChildren(); $('log').replaceChildren(); $('outcome').hidden = true; }
  } else if (state.frames.length) {
    renderFrame();
  } else {
    $('field').replaceChildren();
    $('log').replaceChildren();
    $('outcome').hidden = true;
    $('status').textContent = 'Play a match between two bots, or open a record (space match --out, space championship --records).';
  }
}

async function init() {
  const rules = await api('/rules');
  $('revision').textContent = `${rules.ruleset} ${rules.revision} · ${rules.fingerprint.slice(0, 19)}…`;
  for (const id of ['bot', 'w-bot', 'b-bot']) {
    $(id).replaceChildren(...rules.bots.map((b) => new Option(b, b)));
  }
  $('bot').value = 'greedy';
  $('w-bot').value = 'search';
  $('b-bot').value = 'greedy';
  for (const id of ['n', 'w-n']) {
    for (let n = rules.columns[0]; n <= rules.columns[1]; n++) $(id).appendChild(new Option(String(n), String(n)));
  }
  $('play-controls').addEventListener('submit', newGame);
  $('watch-controls').addEventListener('submit', demo);
  $('record-file').addEventListener('change', openRecord);
  $('tab-play').addEventListener('click', () => setMode('play'));
  $('tab-watch').addEventListener('click', () => setMode('watch'));
  $('review').addEventListener('click', () => {
    const g = state.game;
    setMode('watch');
    showMatch({ record: g.record, frames: g.frames });
  });
  $('first').addEventListener('click', () => step(0));
  $('prev').addEventListener('click', () => step(state.frame - 1));
  $('next').addEventListener('click', () => step(state.frame + 1));
  $('last').addEventListener('click', () => step(state.frames.length - 1));
  $('frame').addEventListener('input', () => step(Number($('frame').value)));
  document.addEventListener('keydown', (e) => {
    if (e.target.tagName === 'INPUT' && e.target.type !== 'range') return;
    if (state.mode === 'watch') {
      const to = { ArrowLeft: state.frame - 1, ArrowRight: state.frame + 1, Home: 0, End: state.frames.length - 1 }[e.key];
      if (to !== undefined) { e.preventDefault(); step(to); }
    } else if (e.key === 'Escape' && state.selected) {
      state.selected = null;
      renderGame();
    }
  });
  const redraw = () => (state.mode === 'play' ? state.game && renderGame() : state.frames.length && renderFrame());
  window.addEventListener('resize', redraw);
  await newGame();
}

init().catch(showError);
