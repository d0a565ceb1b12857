// The battlefield page: it draws what the API returns — boards, the legal actions of the
// person's side, outcomes — and computes no rule itself.
'use strict';

const API = '/api/v1/space';
const SVG = 'http://www.w3.org/2000/svg';
const CELL = 48;
const PAD = 28;

// The page's words in each language; the ruleset's own name comes from the content's labels.
const UI = {
  en: {
    battlefield: 'battlefield', language: 'Language', loading: 'loading the rules…', tab_play: 'Play a bot',
    tab_watch: 'Watch or replay a match', random_n: 'random', seed: 'seed', you_play: 'you play',
    white_first: 'white (moves first)', white: 'white', black: 'black', against: 'against', new_game: 'New game',
    play_match: 'Play the match', open_record: 'or open a match record', k_move: 'move', k_attack: 'attack',
    k_suicide: 'suicide attack', k_pass: 'pass', ball: 'ball', review: 'Step through this game',
    save: 'Save the match record', actions: 'Actions',
    help: 'Each side scores in the shaded goal area across the field; robots never move back or sideways. Click one of your robots with a dashed ring, then a highlighted square.',
    t_first: 'first position (Home)', t_prev: 'previous action (←)', t_next: 'next action (→)', t_last: 'last position (End)',
    bot_random: 'random', bot_greedy: 'greedy', bot_search: 'search',
    draw: (a, b) => `A draw: neither side can act (points ${a}–${b}).`,
    by_goal: 'by goal', by_destruction: 'by destruction', by_opponent_invalid: 'the opponent made an invalid action',
    you_win: 'You win', bot_wins: 'The bot wins', side_wins: (s) => `${s === 'white' ? 'White' : 'Black'} wins`,
    result: (who, how, n, a, b) => `${who} ${how} after ${n} actions (points ${a}–${b}).`,
    over: (h, bot, seed, n) => `Game over · you played ${h} against the ${bot} bot, seed ${seed}, n = ${n}.`,
    thinking: (bot) => `The ${bot} bot is thinking…`,
    pick: (p) => `Robot ${p}: pick a highlighted square.`,
    your_turn: (h, k, r) => `Your turn (${h}): ${k} legal actions from ${r} robots.`,
    to: (kind, p) => `${kind} to ${p}`,
    start_label: (k) => `start · ${k} actions`, after_label: (i, k) => `after action ${i} of ${k}`,
    versus: (w, b, what) => `${w} (white) v ${b} (black) · ${what}`, initial: 'initial board',
    no_replay: (d) => `This record does not replay: ${d}`, playing: 'Playing…',
    watch_help: 'Play a match between two bots, or open a record (space match --out, space championship --records).',
  },
  'pt-BR': {
    battlefield: 'campo de batalha', language: 'Idioma', loading: 'carregando as regras…', tab_play: 'Jogar contra um robô',
    tab_watch: 'Assistir ou rever uma partida', random_n: 'sorteado', seed: 'semente', you_play: 'você joga de',
    white_first: 'brancas (começam)', white: 'brancas', black: 'pretas', against: 'contra', new_game: 'Novo jogo',
    play_match: 'Jogar a partida', open_record: 'ou abrir o registro de uma partida', k_move: 'mover', k_attack: 'atacar',
    k_suicide: 'ataque suicida', k_pass: 'passe', ball: 'bola', review: 'Rever este jogo passo a passo',
    save: 'Salvar o registro da partida', actions: 'Ações',
    help: 'Cada lado marca na área de gol sombreada do outro lado do campo; robôs nunca andam para trás nem para o lado. Clique num dos seus robôs com anel tracejado e depois numa casa destacada.',
    t_first: 'primeira posição (Home)', t_prev: 'ação anterior (←)', t_next: 'próxima ação (→)', t_last: 'última posição (End)',
    bot_random: 'aleatório', bot_greedy: 'guloso', bot_search: 'busca',
    draw: (a, b) => `Empate: nenhum lado pode agir (pontos ${a}–${b}).`,
    by_goal: 'por gol', by_destruction: 'por destruição', by_opponent_invalid: 'o adversário fez uma ação inválida',
    you_win: 'Você vence', bot_wins: 'O robô vence', side_wins: (s) => `${s === 'white' ? 'As brancas vencem' : 'As pretas vencem'}`,
    result: (who, how, n, a, b) => `${who} ${how} após ${n} ações (pontos ${a}–${b}).`,
    over: (h, bot, seed, n) => `Fim de jogo · você jogou de ${h} contra o robô ${bot}, semente ${seed}, n = ${n}.`,
    thinking: (bot) => `O robô ${bot} está pensando…`,
    pick: (p) => `Robô ${p}: escolha uma casa destacada.`,
    your_turn: (h, k, r) => `Sua vez (${h}): ${k} ações legais de ${r} robôs.`,
    to: (kind, p) => `${kind} para ${p}`,
    start_label: (k) => `início · ${k} ações`, after_label: (i, k) => `após a ação ${i} de ${k}`,
    versus: (w, b, what) => `${w} (brancas) x ${b} (pretas) · ${what}`, initial: 'posição inicial',
    no_replay: (d) => `Este registro não se reproduz: ${d}`, playing: 'Jogando…',
    watch_help: 'Jogue uma partida entre dois robôs ou abra um registro (space match --out, space championship --records).',
  },
};
// The Microfut page's choice carries over (same storage key).
let lang = initialLang(UI);
/** @param {string} k @param {...any} args the values a phrase is made of */
const t = (k, ...args) => { const v = lookup(UI, lang, k); return typeof v === 'function' ? v(...args) : v; };
const sideName = (s) => t(s);
const kindName = (k) => t(`k_${k}`);
const botName = (b) => t(`bot_${b}`) || b;
let rulesInfo = null;

const state = {
  mode: 'play',
  game: null,        // {id, token, board, legal, log, outcome, human, ...}
  selected: null,    // [row, col] of the person's selected robot
  busy: false,
  frames: [],        // watch mode: boards
  record: null,      // watch mode: the match record
  frame: 0,
};

/** @param {string} path */
const api = (path) => request(API, 'GET', path);
/** @param {string} path @param {unknown} data @param {string} [token] the game's, for its actions */
const post = (path, data, token) => request(API, 'POST', path, data, token);

function showError(e) {
  $('error').hidden = !e;
  $('error').textContent = e ? String(e.message || e) : '';
}

const sq = (p) => `(${p[0]}, ${p[1]})`;
const same = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];

function describe(p, i) {
  return `${i + 1}. ${sideName(p.side)} ${kindName(p.action)} ${sq(p.from)} → ${sq(p.to)}`;
}

function outcomeText(o, human) {
  if (!o) return '';
  if (!o.winner) return t('draw', o.points[0], o.points[1]);
  const how = t(`by_${o.victory}`);
  const who = human ? (o.winner === human ? t('you_win') : t('bot_wins')) : t('side_wins', o.winner);
  return t('result', who, how, o.actions, o.points[0], o.points[1]);
}

function applyLang() {
  document.documentElement.lang = lang;
  $select('lang').value = lang;
  all('[data-t]').forEach((e) => { e.textContent = t(e.dataset.t); });
  all('[data-title]').forEach((e) => { e.title = t(e.dataset.title); });
  for (const id of ['bot', 'w-bot', 'b-bot']) {
    for (const o of $select(id).options) o.textContent = botName(o.value);
  }
  if (rulesInfo) {
    $('title').textContent = rulesInfo.label[lang] || rulesInfo.label.en;
    $('revision').textContent = `${rulesInfo.ruleset} ${rulesInfo.revision} · ${rulesInfo.fingerprint.slice(0, 19)}…`;
  }
  document.title = `${$('title').textContent} — ${t('battlefield')}`;
  if (state.mode === 'play') {
    if (state.game) renderGame();
  } else if (state.frames.length) {
    renderFrame();
  } else {
    $('status').textContent = t('watch_help');
  }
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
  // Drawn over the robots (translucent), so the square of an attack or a pass is clickable
  // where the robot on it stands.
  for (const a of targets) {
    const rect = el('rect', {
      class: `target ${a.action}`, x: x(a.to[1]) + 3, y: y(a.to[0]) + 3, width: CELL - 6, height: CELL - 6, rx: 6,
      'data-row': a.to[0], 'data-col': a.to[1], 'data-kind': a.action,
    }, svg);
    const title = el('title', {}, rect);
    title.textContent = t('to', kindName(a.action), sq(a.to));
    rect.addEventListener('click', () => play(a));
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
    $('status').textContent = t('over', sideName(g.human), botName(g.bot), g.seed, g.board.n);
  } else if (state.busy) {
    $('status').textContent = t('thinking', botName(g.bot));
  } else {
    const robots = new Set(g.legal.map((a) => a.from.join(','))).size;
    $('status').textContent = state.selected
      ? t('pick', sq(state.selected))
      : t('your_turn', sideName(g.human), g.legal.length, robots);
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

// Only the latest request for a new game applies: an earlier answer arriving late (the page's
// opening game, a double click) must not replace the game the person asked for last.
let gameRequests = 0;

async function newGame(ev) {
  ev?.preventDefault();
  const body = { seed: Number($input('seed').value || 0), human: $select('human').value, bot: $select('bot').value };
  if ($select('n').value) body.n = Number($select('n').value);
  const mine = ++gameRequests;
  state.busy = true;
  let game = null;
  let error = null;
  try {
    game = await post('/games', body);
  } catch (e) {
    error = e;
  }
  if (mine !== gameRequests) return;
  if (game) {
    state.game = game;
    state.selected = null;
    remember(game);
  }
  showError(error);
  state.busy = false;
  if (state.game) renderGame();
}

// The game in progress survives a reload (and a server restart: games are stored).
function remember(game) {
  try { sessionStorage.setItem('space.game', JSON.stringify({ id: game.id, token: game.token })); } catch { /* private mode */ }
}

// ---- Step through a match ----

function renderFrame() {
  const rec = state.record;
  const i = state.frame;
  const last = i > 0 ? rec.actions[i - 1] : null;
  draw(state.frames[i], { last });
  saveLink(rec);
  renderLog(rec.actions, i);
  $input('frame').max = String(state.frames.length - 1);
  $input('frame').value = String(i);
  $('frame-label').textContent = i === 0 ? t('start_label', rec.actions.length) : t('after_label', i, rec.actions.length);
  const end = i === state.frames.length - 1;
  $('outcome').hidden = !end;
  $('outcome').textContent = end ? outcomeText(rec.result) : '';
  $('status').textContent = t('versus', rec.white.name, rec.black.name, last ? describe(last, i - 1) : t('initial'));
}

function saveLink(record) {
  if (state.saved === record) return;
  if ($link('save').href.startsWith('blob:')) URL.revokeObjectURL($link('save').href);
  const blob = new Blob([JSON.stringify(record, null, 2)], { type: 'application/json' });
  $link('save').href = URL.createObjectURL(blob);
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
  if (result.identical === false) showError(t('no_replay', result.difference));
  else showError(null);
  renderFrame();
}

async function demo(ev) {
  ev?.preventDefault();
  const body = { white: $select('w-bot').value, black: $select('b-bot').value, seed: Number($input('w-seed').value || 0) };
  if ($select('w-n').value) body.n = Number($select('w-n').value);
  $('status').textContent = t('playing');
  try {
    showMatch(await post('/matches', body));
  } catch (e) {
    showError(e);
  }
}

async function openRecord() {
  const file = $input('record-file').files[0];
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
    $('status').textContent = t('watch_help');
  }
}

async function init() {
  const rules = await api('/rules');
  rulesInfo = rules;
  for (const id of ['bot', 'w-bot', 'b-bot']) {
    $(id).replaceChildren(...rules.bots.map((b) => new Option(b, b)));
  }
  $('lang').addEventListener('change', () => {
    lang = $select('lang').value;
    saveLang(lang);
    applyLang();
  });
  $select('bot').value = 'greedy';
  $select('w-bot').value = 'search';
  $select('b-bot').value = 'greedy';
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
  $input('frame').addEventListener('input', () => step(Number($input('frame').value)));
  document.addEventListener('keydown', (e) => {
    const target = targetOf(e);
    if (target instanceof HTMLInputElement && target.type !== 'range') return;
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
  applyLang();
  // A game of this tab (before a reload or a server restart) resumes; otherwise a new one.
  let saved = null;
  try { saved = JSON.parse(sessionStorage.getItem('space.game') || 'null'); } catch { saved = null; }
  if (saved) {
    try {
      state.game = { ...(await api(`/games/${saved.id}`)), token: saved.token };
      renderGame();
    } catch {
      await newGame();
    }
  } else {
    await newGame();
  }
}

// Back to the Microfut page when this server has one (`microfut serve`; `microfut space serve`
// serves the battlefield alone).
fetch('/', { method: 'HEAD' }).then((res) => { $('home-link').hidden = !res.ok; }).catch(() => {});

// `data-ready` tells a test (or a person's script) that the page has its rules and first game.
init().catch(showError).finally(() => { document.body.dataset.ready = 'true'; });
