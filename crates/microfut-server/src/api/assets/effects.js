// World 1's attributes page (seed 002): start a journey, play it (a card, or the automatic
// player), and read any actor of the active combat — base against effective values, every
// source in a tooltip. It computes no rule: every number comes from /api/v1 (the projections
// are CaptureOnly reads: opening this panel draws no die and changes nothing).
'use strict';

const API = '/api/v1';
const UI = {
  en: {
    title: 'World 1 — attributes', language: 'Language', microfut: 'Microfut', start_title: 'Start a journey',
    mode: 'Mode', seed: 'Seed', start: 'Start', combat: 'Combat', next_command: 'Next command',
    end_turn_auto: 'To the end of the turn', end_combat: 'To the end of the combat', to_end: 'To the end of the journey',
    actors: 'Actors', hand: 'Hand', hand_hint: 'Play a card: on the selected enemy when it needs a target.',
    attributes: 'Attributes', attribute: 'Attribute', base: 'Base', effective: 'Effective', context: 'Context',
    legend: 'White: as the actor has it. Red: reduced. Blue: increased. Hover or focus a value for its sources.',
    between: (n, k) => `Between encounters: next is ${n + 1} of ${k}.`,
    in_combat: (e, t, s) => `${e} · turn ${t} · step ${s}`,
    finished: (v) => (v ? 'The journey is won.' : 'The journey is lost.'),
    sequence: 'commands', won: 'won', no_policy: 'This mode selects no effect-resolution policy: there are no attributes to show.',
    critical: (c) => `Critical: ${num(c.chancePercent)} % → ${c.guaranteedTiers} guaranteed tier(s), ${num(c.nextTierChancePercent)} % for one more, +${num(c.bonusPerTierPercent)} % per tier`,
    authority: { encounter_actor: 'the encounter\'s actor', persistent_character: 'the persistent character', combat_actor: 'an actor of the combat' },
    stage: 'Stage', amount: 'Amount', running: 'Running', truncated: 'more contributions not shown',
    hero: 'hero', enemy: 'enemy', cost: 'cost', needs_target: 'choose an enemy first', playing: 'Playing…',
    ev: {
      encounter_started: (e) => `Encounter: ${e.encounter}`, card_played: (e) => `Hero plays ${e.card}${e.target ? ` on ${e.target}` : ''}`,
      ability_used: (e) => `${e.actor} uses ${e.ability}`,
      effect: (e) => `${e.source} → ${e.target}: ${e.resource} ${num(e.before)} → ${num(e.after)}${e.tier ? ` (critical tier ${e.tier})` : ''}`,
      defeated: (e) => `${e.actor} is defeated`, encounter_ended: (e) => `Encounter ${e.victory ? 'won' : 'lost'} in ${e.turns} turns`,
      journey_ended: (e) => `Journey ${e.victory ? 'won' : 'lost'}: ${e.encountersWon} encounters`,
      turn_started: (e) => `Turn ${e.turn} (${e.actor})`,
      rewarded: (e) => `Reward: ${e.reward}`,
    },
  },
  'pt-BR': {
    title: 'Mundo 1 — atributos', language: 'Idioma', microfut: 'Microfut', start_title: 'Começar uma jornada',
    mode: 'Modo', seed: 'Semente', start: 'Começar', combat: 'Combate', next_command: 'Próximo comando',
    end_turn_auto: 'Até o fim do turno', end_combat: 'Até o fim do combate', to_end: 'Até o fim da jornada',
    actors: 'Atores', hand: 'Mão', hand_hint: 'Jogue uma carta: no inimigo selecionado quando ela precisa de alvo.',
    attributes: 'Atributos', attribute: 'Atributo', base: 'Base', effective: 'Efetivo', context: 'Contexto',
    legend: 'Branco: como o ator tem. Vermelho: reduzido. Azul: aumentado. Passe o mouse ou foque um valor para ver as fontes.',
    between: (n, k) => `Entre encontros: o próximo é ${n + 1} de ${k}.`,
    in_combat: (e, t, s) => `${e} · turno ${t} · passo ${s}`,
    finished: (v) => (v ? 'Jornada vencida.' : 'Jornada perdida.'),
    sequence: 'comandos', won: 'vencidos', no_policy: 'Este modo não seleciona política de resolução de efeitos: não há atributos a mostrar.',
    critical: (c) => `Crítico: ${num(c.chancePercent)} % → ${c.guaranteedTiers} nível(is) garantido(s), ${num(c.nextTierChancePercent)} % de mais um, +${num(c.bonusPerTierPercent)} % por nível`,
    authority: { encounter_actor: 'o ator do encontro', persistent_character: 'o personagem persistente', combat_actor: 'um ator do combate' },
    stage: 'Etapa', amount: 'Valor', running: 'Acumulado', truncated: 'contribuições a mais não mostradas',
    hero: 'herói', enemy: 'inimigo', cost: 'custo', needs_target: 'escolha um inimigo antes', playing: 'Jogando…',
    ev: {
      encounter_started: (e) => `Encontro: ${e.encounter}`, card_played: (e) => `Heroína joga ${e.card}${e.target ? ` em ${e.target}` : ''}`,
      ability_used: (e) => `${e.actor} usa ${e.ability}`,
      effect: (e) => `${e.source} → ${e.target}: ${e.resource} ${num(e.before)} → ${num(e.after)}${e.tier ? ` (crítico nível ${e.tier})` : ''}`,
      defeated: (e) => `${e.actor} é derrotado`, encounter_ended: (e) => `Encontro ${e.victory ? 'vencido' : 'perdido'} em ${e.turns} turnos`,
      journey_ended: (e) => `Jornada ${e.victory ? 'vencida' : 'perdida'}: ${e.encountersWon} encontros`,
      turn_started: (e) => `Turno ${e.turn} (${e.actor})`,
      // The journey writes a reward as '<kind> <id>': the kind is translated, the content id kept.
      rewarded: (e) => `Recompensa: ${String(e.reward).replace(/^(relic|card|heal|upgrade)\b/, (k) => ({ relic: 'relíquia', card: 'carta', heal: 'cura', upgrade: 'melhoria' })[k])}`,
    },
  },
};

const S = { lang: storedLang(UI) || 'en', modes: null, run: null, token: null, view: null, actor: null, read: null, feed: [] };
const t = (k) => lookup(UI, S.lang, k) ?? k;
const L = (labels) => label(labels, S.lang);
function num(x, d = 2) { if (x === null || x === undefined) return '—'; const r = Math.round(x * 10 ** d) / 10 ** d; return String(r); }

/** Every write carries the journey's token. @param {string} method @param {string} path @param {unknown} [body] */
const api = (method, path, body) => request(API, method, path, body, method !== 'GET' ? S.token : null);

function applyLang() {
  document.documentElement.lang = S.lang;
  $select('lang').value = S.lang;
  all('[data-t]').forEach((el) => { const v = t(el.dataset.t); if (typeof v === 'string') el.textContent = v; });
  document.title = t('title');
  if (S.modes) renderModes();
  if (S.view) renderJourney();
  if (S.read) renderAttributes();
}

function renderModes() {
  const sel = $select('mode');
  const current = sel.value || 'w1_journey';
  sel.innerHTML = S.modes.modes.map((m) => `<option value="${esc(m.mode)}">${esc(L(m.label))}</option>`).join('');
  sel.value = current;
}

async function start(e) {
  e.preventDefault();
  $('setup-error').textContent = '';
  const body = { mode: $select('mode').value };
  if ($input('seed').value !== '') body.seed = Number($input('seed').value);
  try {
    const created = await api('POST', '/effects/journeys', body);
    S.run = created.runId; S.token = created.token; S.view = created; S.actor = null; S.feed = [];
    sessionStorage.setItem('microfut.w1', JSON.stringify({ run: S.run, token: S.token }));
    $('setup').hidden = true; $('journey').hidden = false;
    renderJourney();
    await readSelected();
  } catch (err) { $('setup-error').textContent = err.message; }
}

function renderJourney() {
  const v = S.view;
  $('summary').textContent = `${v.runSequence} ${t('sequence')} · ${v.encountersWon}/${v.encounters} ${t('won')}`;
  const c = v.combat;
  if (v.phase === 'finished') $('where').textContent = t('finished')(v.victory);
  else if (!c) $('where').textContent = t('between')(v.encountersWon, v.encounters);
  else $('where').textContent = t('in_combat')(L(c.encounterLabel), c.turn, c.combatStep);
  const actors = c ? c.actors : [{ actorId: 'hero', label: null, side: 'hero', defeated: false, values: v.hero }];
  $('actors').innerHTML = actors.map((a) => {
    const life = a.values.health === undefined ? '' : `${num(a.values.health)}${a.values.max_health !== undefined ? ` / ${num(a.values.max_health)}` : ''}`;
    const block = a.values.block ? ` · block ${num(a.values.block)}` : '';
    const name = a.label ? L(a.label) : t('hero');
    return `<li><button type="button" data-actor="${esc(a.actorId)}" aria-pressed="${S.actor === a.actorId || (!S.actor && a.actorId === 'hero')}" class="${a.defeated ? 'defeated' : ''}">
      <span>${esc(name)} <span class="muted">(${esc(a.actorId)})</span></span><span class="life">${life}${block}</span></button></li>`;
  }).join('');
  $('hand').innerHTML = c ? c.hand.map((h) => `<li><button type="button" data-card="${h.position}" data-target="${h.needsTarget}">
      <span>${esc(L(h.label))}${h.upgrades.length ? ' +' : ''}</span><span class="cost">${t('cost')} ${h.cost}</span></button></li>`).join('') : '';
  const over = v.phase === 'finished';
  for (const id of ['auto-command', 'auto-turn', 'auto-combat', 'auto-end']) $button(id).disabled = over;
  $('feed').innerHTML = S.feed.slice(-60).reverse().map((e) => `<li>${esc(eventText(e))}</li>`).join('');
}

function eventText(e) {
  const f = t('ev')[e.kind];
  return f ? f(e) : e.kind.replace(/_/g, ' ');
}

async function readSelected() {
  const v = S.view;
  const actor = S.actor || 'hero';
  try {
    if (v.combat && S.actor && S.actor !== 'hero') S.read = await api('GET', `/combats/${encodeURIComponent(v.combat.combatId)}/actors/${encodeURIComponent(actor)}/attributes`);
    else S.read = await api('GET', `/runs/${encodeURIComponent(S.run)}/character-attributes`);
    renderAttributes();
  } catch (err) { $('status').textContent = err.message; }
}

function tone(a) { return a.effectiveValue > a.baseValue ? 'up' : a.effectiveValue < a.baseValue ? 'down' : 'same'; }

function renderAttributes() {
  const r = S.read;
  $('attrs-who').textContent = `${r.actorId} · ${t('authority')[r.authority] || r.authority} · ${r.contentRevision.ruleset} ${r.contentRevision.version}${r.policy ? ` · ${r.policy.id}` : ''}`;
  if (!r.attributes.length) { $('attrs-body').innerHTML = `<p class="muted" data-testid="no-policy">${esc(t('no_policy'))}</p>`; return; }
  let h = `<table data-testid="attributes"><thead><tr><th>${t('attribute')}</th><th class="num">${t('base')}</th><th class="num">${t('effective')}</th><th>${t('context')}</th></tr></thead><tbody>`;
  r.attributes.forEach((a, i) => {
    h += `<tr data-attribute="${esc(a.attributeId)}"><td>${esc(L(a.displayName))}<span class="unit">${esc(a.unit)}</span></td>
      <td class="num"><span class="base">${num(a.baseValue)}</span></td>
      <td class="num"><span class="val ${tone(a)}" tabindex="0" data-tip="${i}">${num(a.effectiveValue)}</span></td>
      <td class="tags">${esc(a.contextTags.join(', '))}</td></tr>`;
  });
  h += '</tbody></table>';
  if (r.criticalRules) h += `<p class="crit" data-testid="critical">${esc(t('critical')(r.criticalRules))}</p>`;
  $('attrs-body').innerHTML = h;
}

function tip(a) {
  const rows = a.contributions.map((c) => {
    const provider = c.kind === 'provider';
    const cls = provider || c.kind === 'modifier' ? (c.amount > 0 ? 'pos' : c.amount < 0 ? 'neg' : '') : '';
    const amount = c.op === 'mul' ? `×${num(c.amount)}` : provider || c.kind === 'modifier' ? sgn(+num(c.amount)) : num(c.amount);
    return `<tr><td>${provider ? '&nbsp;&nbsp;' : ''}${esc(L(c.label))}${c.provider ? ` <span class="src">${esc(c.provider.kind)}</span>` : ''}<div class="src">${esc(c.source)}</div></td>
      <td class="${cls}">${amount}</td><td>${c.running === undefined ? '' : num(c.running)}</td></tr>`;
  }).join('');
  return `<strong>${esc(L(a.displayName))}</strong> <span class="src">${esc(a.pipelineId)}</span>
    <table><thead><tr><th>${t('stage')}</th><th>${t('amount')}</th><th>${t('running')}</th></tr></thead><tbody>${rows}</tbody></table>
    ${a.contributionsTruncated ? `<div class="src">… ${t('truncated')}</div>` : ''}<div class="src">${t('context')}: ${esc(a.contextTags.join(', '))}</div>`;
}

function showTip(el) {
  const a = S.read && S.read.attributes[+el.dataset.tip];
  if (a) placeTip(el, tip(a));
}

async function write(path, body) {
  $('status').textContent = t('playing');
  try {
    const out = await api('POST', `/effects/journeys/${encodeURIComponent(S.run)}${path}`, body);
    S.view = out.journey; S.feed.push(...out.events);
    const c = S.view.combat;
    if (S.actor && (!c || !c.actors.some((a) => a.actorId === S.actor))) S.actor = null;
    $('status').textContent = '';
    renderJourney();
    await readSelected();
  } catch (err) { $('status').textContent = err.message; }
}

function wire() {
  $select('lang').onchange = () => { S.lang = $select('lang').value; saveLang(S.lang); applyLang(); };
  $('setup-form').onsubmit = start;
  $('auto-command').onclick = () => write('/autoplay', { until: 'command' });
  $('auto-turn').onclick = () => write('/autoplay', { until: 'turn' });
  $('auto-combat').onclick = () => write('/autoplay', { until: 'combat' });
  $('auto-end').onclick = () => write('/autoplay', { until: 'end' });
  $('actors').onclick = (e) => {
    const b = closest(e, 'button[data-actor]');
    if (!b) return;
    S.actor = b.dataset.actor === 'hero' ? null : b.dataset.actor;
    renderJourney(); readSelected();
  };
  $('hand').onclick = (e) => {
    const b = closest(e, 'button[data-card]');
    if (!b) return;
    const body = { kind: 'play', card: Number(b.dataset.card) };
    if (b.dataset.target === 'true') {
      const target = S.actor || (S.view.combat.actors.find((a) => a.side === 'enemy' && !a.defeated) || {}).actorId;
      if (!target) { $('status').textContent = t('needs_target'); return; }
      body.target = target;
    }
    write('/commands', body);
  };
  const body = $('attrs-body');
  body.addEventListener('mouseover', (e) => { const v = closest(e, '.val'); if (v) showTip(v); });
  body.addEventListener('mouseout', (e) => { if (closest(e, '.val')) hideTip(); });
  body.addEventListener('focusin', (e) => { const v = closest(e, '.val'); if (v) showTip(v); });
  body.addEventListener('focusout', hideTip);
  document.addEventListener('keydown', (e) => { if (e.key === 'Escape') hideTip(); });
}

async function init() {
  wire();
  fetch('/space/', { method: 'HEAD' }).then((res) => { $('space-link').hidden = !res.ok; }).catch(() => {});
  applyLang();
  try {
    S.modes = await api('GET', '/effects/modes');
    renderModes();
  } catch (err) { $('setup-error').textContent = err.message; }
  const saved = JSON.parse(sessionStorage.getItem('microfut.w1') || 'null');
  if (saved) {
    try {
      S.view = await api('GET', `/effects/journeys/${encodeURIComponent(saved.run)}`);
      S.run = saved.run; S.token = saved.token;
      $('setup').hidden = true; $('journey').hidden = false;
      renderJourney(); await readSelected();
    } catch { sessionStorage.removeItem('microfut.w1'); }
  }
}
init();
