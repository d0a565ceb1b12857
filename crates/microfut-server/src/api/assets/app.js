// The Microfut page. It draws what the API returns and computes no rule: odds, explanations,
// dice, projections and the NPC's reasons all come from /api/v1. Labels of rules come from
// content ({"en", "pt-BR"}); the words of the page itself are the dictionary below.
'use strict';

const API = '/api/v1';
const UI = {
  en: {
    language: 'Language', new_match: 'New match', start_title: 'Start a match', home: 'Home', away: 'Away',
    your_side: 'Your side', watch: 'Nobody (watch)', seed: 'Seed', revision: 'Revision', start: 'Kick off',
    pitch_hint: 'Select a player (click, or Tab then Enter) to see his sheet.', next_round: 'Next round',
    next_decision: 'To my next decision', delegate: 'Let the NPC choose', to_end: 'To full time (NPC plays)',
    your_decision: 'Your decision', play_it: 'Play it', what_happened: 'What happened', play_by_play: 'Play-by-play',
    npc_log: 'NPC decisions', npc_log_hint: 'The last choices, with the candidates each weighed.',
    stats: 'Statistics', download_record: 'Download the run record (microfut replay)',
    on_ball: (p) => `${p} has the ball: choose what he tries.`, test: 'test', keeps: 'keeps the ball', goal: 'goal',
    gain: 'gain', npc_pick: 'NPC pick', no_test: 'No test will be rolled:',
    estimate: 'NPC estimate',
    estimate_hint: 'The NPC\'s own estimate, made before the players move this round: every margin of the ball taken to arrive where it is aimed, the interceptors on that line and the receiver\'s control (a cross: the best header of each side). The other figures are exact: the round\'s movement for this choice is played first, then its test is priced as it will be rolled.',
    exact_hint: 'Exact: the chance this test will be rolled with, after the players move this round.',
    wins_duel: (who, p) => `wins the duel with ${who} ${p}`, fouled: (p) => `fouled in ${p} of the rest`,
    versus: 'vs', unchallenged: 'nobody can reach him after his run', contained: 'the man who can reach him holds off',
    out_of_reach: 'the man he takes on is out of reach after the run: no duel',
    needs: (d, dice) => `needs ${d}+ on ${dice}`, rolled: (n) => `rolled ${n}`, succeeded: 'succeeded', failed: 'failed',
    yours: 'yours', theirs: 'theirs', shown: (p) => `you were shown ${p}`, not_completed: 'not completed',
    kinds: { carry: 'Carry', pass: 'Pass to', throw: 'Throw to', dribble: 'Dribble past', shoot: 'Shoot', cross: 'Cross' },
    stage: 'Stage', amount: 'Amount', running: 'Running', source: 'Content', working: 'Working values', requires: 'Requires',
    difficulty: 'difficulty', margin: 'margin', success: 'success', failure: 'failure', dice: '3d6',
    no_rolls: 'No test was rolled:',
    earlier_rolls: (n) => `${n} test${n === 1 ? '' : 's'} rolled before the decision (off-ball positioning, restarts)`,
    round: 'Round', half_time: 'Half time', full_time: 'Full time', advancing: 'Playing…',
    waiting: 'Waiting for your decision.', finished: 'The match is over.', your_turn: 'Your player has the ball.',
    played: (n) => `${n} round${n === 1 ? '' : 's'} played.`, base: 'Base', effective: 'Effective', value: 'Value',
    impossible: 'Not possible from here (a requirement fails, e.g. out of range)',
    chance: 'Chance', tags: 'Context', sheet: 'Sheet', projection: 'In this match, now', close: 'Close',
    left_pitch: (p) => `${p} has left the pitch: his sheet is closed.`,
    stamina: 'stamina', nearest: 'nearest opponent', orientation: 'body to goal', neutral: 'neutral',
    dist_goal: 'to goal', angle: 'angle', age: 'age', role: 'role', xp: 'net XP', chosen: 'chosen', score: 'score',
    candidates_weighed: 'candidates weighed', human: 'you', minute: 'min', player: 'Player', kind: 'Kind',
    attributes: 'Attributes', skills: 'Skills', characteristics: 'Characteristics', tests: 'Tests', derived: 'Derived',
    stat: { goals: 'goals', shots: 'shots', on_target: 'on target', shots_outside_box: 'shots from outside the box', passes: 'passes', passes_completed: 'passes completed',
      crosses: 'crosses', crosses_completed: 'crosses completed', take_ons: 'dribbles', take_ons_won: 'dribbles won',
      dribbles_won: 'duels on the ball won', dribbles_lost: 'duels on the ball lost', tackles: 'tackles',
      interceptions: 'interceptions', blocks: 'blocks', saves: 'saves', fouls: 'fouls', possession: 'possession %',
      corners: 'corners', free_kicks: 'free kicks', penalties: 'penalties', penalty_goals: 'penalties scored',
      substitutions: 'substitutions',
      distance_km: 'distance (km)', mean_stamina: 'mean stamina', shot_probability_sum: 'sum of shot chances' },
    ev: {
      kick_off: (e) => `Kick-off (${side(e.team)})`,
      restart: (e) => `${restartName(e.restart)} to ${side(e.team)}`,
      pass: (e) => `${who(e.by)} passes to ${who(e.to)} (${Math.round(e.distance)} m, margin ${sgn(e.margin)}): ${passOutcome(e)}`,
      interception: (e) => `${who(e.by)} intercepts ${who(e.from)}'s pass`,
      cross: (e) => `${who(e.by)} crosses (margin ${sgn(e.margin)})`,
      aerial_duel: (e) => `${who(e.won_by)} wins the header among ${e.contestants}`,
      shot: (e) => `${who(e.by)} ${e.header ? 'heads' : 'shoots'} from ${Math.round(e.distance)} m (${pct(e.probability)}, margin ${sgn(e.margin)}): ${word(e.outcome)}`,
      block: (e) => `${who(e.by)} blocks ${who(e.shooter)}`,
      save: (e) => `${who(e.by)} ${word(e.outcome)} (margin ${sgn(e.margin)})`,
      goal: (e) => `GOAL! ${who(e.by)} scores for ${side(e.team)}`,
      duel: (e) => `${who(e.carrier)} ${e.dribbling ? 'dribbles at' : 'shields from'} ${who(e.defender)} (${sgn(e.carrier_margin)} vs ${sgn(e.defender_margin)}): ${word(e.outcome)}`,
      foul: (e) => `Foul by ${who(e.by)} on ${who(e.on)}${e.penalty ? ' — penalty!' : ''}`,
      loose_ball: () => 'Loose ball',
      gathered: (e) => `${who(e.by)} gathers it`,
      half_time: () => 'Half time',
      full_time: (e) => `Full time: ${e.score[0]}–${e.score[1]}`,
      substitution: (e) => `Substitution: ${who(e.on)} on for ${who(e.off)}`,
      carry: (e) => (e.angle === 0 ? `${who(e.by)} carries the ball straight on` : `${who(e.by)} carries the ball, ${Math.abs(e.angle)}° off straight`),
    },
    outcome: { on_target: 'on target', imprecise: 'imprecise', misplaced: 'misplaced', blocked: 'blocked', off_target: 'off target',
      goal: 'goal', saved: 'saved', hold: 'holds it', parry: 'parries it', carrier_keeps: 'keeps the ball', loose: 'the ball runs loose', steal: 'wins the ball' },
    log: { p: 'P', prog: 'prog', threat: 'threat', risk: 'risk', pers: 'pers', state: 'state', noise: 'noise', score: 'score',
      personality: 'personality', adaptation: 'adaptation',
      hint: 'P: chance of success · prog: progression · threat · risk: turnover risk · pers: personality · state: match state · noise · score: the total',
      bound: 'not weighed exactly: its bound is below the chosen score' },
    offline: 'The server cannot be reached.', retrying: (n) => `Trying again in ${n} s…`, retry_now: 'Try now',
    back_online: 'The server is back.',
    confirm_end: 'Hand the rest of the match to the NPC? It will play your side to full time.',
    confirm_yes: 'Yes, to full time', confirm_no: 'Keep playing', zoom: 'Zoom', other_pages: 'Other pages',
    pitch: 'The pitch', advance: 'Advance the match',
    world1: 'World 1 attributes', space: 'Space Football',
    zones: { near_post: 'near post', far_post: 'far post', penalty_spot: 'penalty spot', left: 'left', centre: 'centre', right: 'right' },
  },
  'pt-BR': {
    language: 'Idioma', new_match: 'Nova partida', start_title: 'Começar uma partida', home: 'Mandante', away: 'Visitante',
    your_side: 'Seu lado', watch: 'Ninguém (assistir)', seed: 'Semente', revision: 'Revisão', start: 'Começar',
    pitch_hint: 'Escolha um jogador (clique, ou Tab e Enter) para ver a ficha.', next_round: 'Próxima rodada',
    next_decision: 'Até minha próxima decisão', delegate: 'Deixar o NPC escolher', to_end: 'Até o fim (NPC joga)',
    your_decision: 'Sua decisão', play_it: 'Jogar', what_happened: 'O que aconteceu', play_by_play: 'Lance a lance',
    npc_log: 'Decisões do NPC', npc_log_hint: 'As últimas escolhas, com os candidatos que cada uma pesou.',
    stats: 'Estatísticas', download_record: 'Baixar o registro da partida (microfut replay)',
    on_ball: (p) => `${p} está com a bola: escolha o que ele tenta.`, test: 'teste', keeps: 'mantém a bola', goal: 'gol',
    gain: 'ganho', npc_pick: 'escolha do NPC', no_test: 'Nenhum teste será rolado:',
    estimate: 'estimativa do NPC',
    estimate_hint: 'A estimativa do próprio NPC, feita antes de os jogadores se moverem nesta rodada: cada margem com a bola chegando onde foi mirada, os interceptadores nessa linha e o domínio do receptor (cruzamento: o melhor cabeceador de cada lado). Os outros números são exatos: o movimento da rodada para esta escolha é jogado antes, e o teste é calculado como será rolado.',
    exact_hint: 'Exato: a chance com que este teste será rolado, depois de os jogadores se moverem nesta rodada.',
    wins_duel: (who, p) => `vence o duelo com ${who} ${p}`, fouled: (p) => `sofre falta em ${p} do resto`,
    versus: 'x', unchallenged: 'ninguém o alcança depois da corrida', contained: 'quem pode alcançá-lo só o acompanha',
    out_of_reach: 'o adversário que ele encara fica fora de alcance depois da corrida: sem duelo',
    needs: (d, dice) => `precisa de ${d}+ em ${dice}`, rolled: (n) => `tirou ${n}`, succeeded: 'conseguiu', failed: 'falhou',
    yours: 'seu', theirs: 'deles', shown: (p) => `você viu ${p}`, not_completed: 'não completado',
    kinds: { carry: 'Conduzir', pass: 'Passe para', throw: 'Arremesso para', dribble: 'Driblar', shoot: 'Chutar', cross: 'Cruzar' },
    stage: 'Etapa', amount: 'Valor', running: 'Acumulado', source: 'Conteúdo', working: 'Valores intermediários', requires: 'Requisitos',
    difficulty: 'dificuldade', margin: 'margem', success: 'sucesso', failure: 'falha', dice: '3d6',
    no_rolls: 'Nenhum teste foi rolado:',
    earlier_rolls: (n) => `${n} teste${n === 1 ? '' : 's'} rolado${n === 1 ? '' : 's'} antes da decisão (posicionamento sem bola, reinícios)`,
    round: 'Rodada', half_time: 'Intervalo', full_time: 'Fim de jogo', advancing: 'Jogando…',
    waiting: 'Aguardando sua decisão.', finished: 'A partida terminou.', your_turn: 'Seu jogador está com a bola.',
    played: (n) => `${n} rodada${n === 1 ? '' : 's'} jogada${n === 1 ? '' : 's'}.`, base: 'Base', effective: 'Efetivo', value: 'Valor',
    impossible: 'Impossível daqui (um requisito falha, p. ex. fora do alcance)',
    chance: 'Chance', tags: 'Contexto', sheet: 'Ficha', projection: 'Nesta partida, agora', close: 'Fechar',
    left_pitch: (p) => `${p} saiu de campo: a ficha foi fechada.`,
    stamina: 'fôlego', nearest: 'adversário mais próximo', orientation: 'corpo ao gol', neutral: 'neutro',
    dist_goal: 'do gol', angle: 'ângulo', age: 'idade', role: 'função', xp: 'XP líquido', chosen: 'escolhido', score: 'pontuação',
    candidates_weighed: 'candidatos pesados', human: 'você', minute: 'min', player: 'Jogador', kind: 'Tipo',
    attributes: 'Atributos', skills: 'Habilidades', characteristics: 'Características', tests: 'Testes', derived: 'Derivados',
    stat: { goals: 'gols', shots: 'finalizações', on_target: 'no alvo', shots_outside_box: 'de fora da área', passes: 'passes', passes_completed: 'passes certos',
      crosses: 'cruzamentos', crosses_completed: 'cruzamentos certos', take_ons: 'dribles', take_ons_won: 'dribles certos',
      dribbles_won: 'duelos com a bola vencidos', dribbles_lost: 'duelos com a bola perdidos', tackles: 'desarmes',
      interceptions: 'interceptações', blocks: 'bloqueios', saves: 'defesas', fouls: 'faltas', possession: 'posse %',
      corners: 'escanteios', free_kicks: 'faltas cobradas', penalties: 'pênaltis', penalty_goals: 'pênaltis convertidos',
      substitutions: 'substituições',
      distance_km: 'distância (km)', mean_stamina: 'fôlego médio', shot_probability_sum: 'soma das chances de chute' },
    ev: {
      kick_off: (e) => `Saída de bola (${side(e.team)})`,
      restart: (e) => `${restartName(e.restart)} para ${side(e.team)}`,
      pass: (e) => `${who(e.by)} passa para ${who(e.to)} (${Math.round(e.distance)} m, margem ${sgn(e.margin)}): ${passOutcome(e)}`,
      interception: (e) => `${who(e.by)} intercepta o passe de ${who(e.from)}`,
      cross: (e) => `${who(e.by)} cruza (margem ${sgn(e.margin)})`,
      aerial_duel: (e) => `${who(e.won_by)} ganha pelo alto entre ${e.contestants}`,
      shot: (e) => `${who(e.by)} ${e.header ? 'cabeceia' : 'chuta'} de ${Math.round(e.distance)} m (${pct(e.probability)}, margem ${sgn(e.margin)}): ${word(e.outcome)}`,
      block: (e) => `${who(e.by)} bloqueia ${who(e.shooter)}`,
      save: (e) => `${who(e.by)}: ${word(e.outcome)} (margem ${sgn(e.margin)})`,
      goal: (e) => `GOL! ${who(e.by)} marca para ${side(e.team)}`,
      duel: (e) => `${who(e.carrier)} ${e.dribbling ? 'encara' : 'protege de'} ${who(e.defender)} (${sgn(e.carrier_margin)} x ${sgn(e.defender_margin)}): ${word(e.outcome)}`,
      foul: (e) => `Falta de ${who(e.by)} em ${who(e.on)}${e.penalty ? ' — pênalti!' : ''}`,
      loose_ball: () => 'Bola solta',
      gathered: (e) => `${who(e.by)} fica com ela`,
      half_time: () => 'Intervalo',
      full_time: (e) => `Fim de jogo: ${e.score[0]}–${e.score[1]}`,
      substitution: (e) => `Substituição: entra ${who(e.on)}, sai ${who(e.off)}`,
      carry: (e) => (e.angle === 0 ? `${who(e.by)} conduz a bola em frente` : `${who(e.by)} conduz a bola, ${Math.abs(e.angle)}° fora da reta`),
    },
    outcome: { on_target: 'no alvo', imprecise: 'impreciso', misplaced: 'errado', blocked: 'bloqueado', off_target: 'para fora',
      goal: 'gol', saved: 'defendido', hold: 'segura', parry: 'espalma', carrier_keeps: 'mantém a bola', loose: 'a bola fica solta', steal: 'rouba a bola' },
    log: { p: 'P', prog: 'avanço', threat: 'perigo', risk: 'risco', pers: 'perfil', state: 'placar', noise: 'acaso', score: 'nota',
      personality: 'perfil do clube', adaptation: 'adaptação',
      hint: 'P: chance de sucesso · avanço: progressão · perigo · risco: risco de perder a bola · perfil: perfil do clube · placar: momento da partida · acaso: ruído · nota: o total',
      bound: 'não pesado por inteiro: seu limite fica abaixo da nota escolhida' },
    offline: 'Não foi possível falar com o servidor.', retrying: (n) => `Nova tentativa em ${n} s…`, retry_now: 'Tentar agora',
    back_online: 'O servidor voltou.',
    confirm_end: 'Entregar o resto da partida ao NPC? Ele jogará pelo seu lado até o fim.',
    confirm_yes: 'Sim, até o fim', confirm_no: 'Continuar jogando', zoom: 'Zoom', other_pages: 'Outras páginas',
    pitch: 'O campo', advance: 'Avançar a partida',
    world1: 'Atributos do Mundo 1', space: 'Space Football',
    zones: { near_post: 'primeiro pau', far_post: 'segundo pau', penalty_spot: 'marca do pênalti', left: 'esquerda', centre: 'centro', right: 'direita' },
  },
};
const RESTARTS = {
  en: { kick_off: 'Kick-off', throw_in: 'Throw-in', goal_kick: 'Goal kick', corner: 'Corner', free_kick: 'Free kick', indirect_free_kick: 'Indirect free kick', penalty: 'Penalty' },
  'pt-BR': { kick_off: 'Saída', throw_in: 'Lateral', goal_kick: 'Tiro de meta', corner: 'Escanteio', free_kick: 'Falta', indirect_free_kick: 'Falta indireta', penalty: 'Pênalti' },
};

// A key for every candidate (up to 17): digits, then letters that are no command (n, d, l, e).
const CAND_KEYS = '1234567890abcfghi';

const S = {
  lang: initialLang(UI),
  run: null, token: null, view: null, candidates: null, selected: null, busy: false,
  feed: [], lastRolls: [], selectedPlayer: null, decisions: [],
  /** @type {number[] | null} where the ball is drawn, in metres */ ballAt: null,
  /** @type {HTMLElement | null} the row the tooltip belongs to */ tipAt: null,
};

// Published revisions (frozen: their fingerprints are part of every record) carry some pt-BR
// labels that are the formulas' variable names (`BASE_passe`, `EXEC_GK`); the page shows them
// in words. `microfut play` has the same table (src/cli/render.rs).
const PT_LABELS = {
  BASE_arremesso: 'Base do arremesso', BASE_atacante: 'Base do atacante', BASE_bloqueio: 'Base do bloqueio',
  BASE_cabeceio: 'Base do cabeceio', BASE_cobranca: 'Base da cobrança', BASE_controle: 'Base do domínio',
  BASE_cruzamento: 'Base do cruzamento', BASE_defensor: 'Base do defensor', BASE_defesa: 'Base da defesa',
  BASE_finalizacao: 'Base da finalização', BASE_interceptacao: 'Base da interceptação', BASE_passe: 'Base do passe',
  BASE_pos: 'Base do posicionamento', BASE_protecao: 'Base da proteção', BASE_tiro_de_meta: 'Base do tiro de meta',
  EXEC_GK: 'Execução do goleiro', EXEC_cabeceio: 'Execução do cabeceio', EXEC_desarme: 'Execução do desarme',
  EXEC_drible: 'Execução do drible', LEITURA_GK: 'Leitura do goleiro', R_normal: 'Corrida normal', R_sprint: 'Arrancada',
  Stamina: 'Fôlego', 'Stamina (STA)': 'Fôlego (STA)', sprint: 'arrancada', alpha: 'alfa',
  alcance_base: 'Alcance base', alcance_cruzamento: 'Alcance do cruzamento', fator_RES: 'Fator de RES',
  raio_interceptacao: 'Raio de interceptação', redutor_atletico: 'Redutor atlético',
  velocidade_base_bola: 'Velocidade base da bola', velocidade_cruzamento: 'Velocidade do cruzamento',
  'Constante de calibração do teste de aerial_duel': 'Constante de calibração do teste de duelo aéreo',
};
const t = (k) => lookup(UI, S.lang, k);
const L = (labels) => {
  const text = label(labels, S.lang);
  return S.lang === 'pt-BR' && Object.hasOwn(PT_LABELS, text) ? PT_LABELS[text] : text;
};
// A chance in per cent: one decimal near the ends, so a chance that is not certain never reads
// 100 % (nor a possible one 0 %), and below 10 %.
const pct = (p) => (p > 0 && p < 1 && (p < 0.1 || p > 0.995) ? `${Math.min(99.9, Math.max(0.1, 100 * p)).toFixed(1)}%` : `${(100 * p).toFixed(0)}%`);
// A candidate the NPC pruned (its bound was below the chosen score) has no exact risk or score: '—'.
const num = (x, d = 1) => (x === null || x === undefined ? '—' : Number.isInteger(x) ? String(x) : x.toFixed(d));
const side = (team) => (S.view ? (team === 0 ? S.view.home.name : S.view.away.name) : team === 0 ? t('home') : t('away'));
const restartName = (r) => RESTARTS[S.lang][r] || String(r).replace(/_/g, ' ');
// An engine's outcome key in the page's words; a key the page does not know yet is still shown
// without its underscores rather than raw.
const word = (w) => (t('outcome')[w] || String(w).replace(/_/g, ' '));
// A pass that did not reach its man (intercepted, not controlled) was not "on target" to anyone
// watching: its margin's quality is named only with what became of it.
const passOutcome = (e) => (e.completed ? word(e.outcome) : e.outcome === 'on_target' ? t('not_completed') : `${word(e.outcome)}, ${t('not_completed')}`);
// A player in an event: marked with his team (\u0001 + team … \u0002, drawn as the team's colour
// in the feed, dropped in plain text), by surname unless another player has it too.
function who(w) {
  if (!w || !S.view) return '?';
  const id = `${w.team === 0 ? 'home' : 'away'}-${w.shirt}`;
  const p = S.view.players.find((x) => x.id === id);
  return `\u0001${w.team}${p ? `#${p.shirt} ${shortName(p.name)}` : `#${w.shirt}`}\u0002`;
}
const surname = (name) => name.split(' ').slice(-1)[0];
function shortName(name) {
  const same = S.view.players.filter((x) => surname(x.name) === surname(name));
  if (same.length < 2) return surname(name);
  const parts = name.split(' ');
  const initialled = `${parts[0][0]}. ${surname(name)}`;
  return same.filter((x) => `${x.name[0]}. ${surname(x.name)}` === initialled).length < 2 ? initialled : name;
}
const plain = (text) => text.replace(/\u0001\d|\u0002/g, '');
const marked = (text) => esc(text).replace(/\u0001(\d)([^\u0002]*)\u0002/g, (_, team, name) => `<span class="who t${team}"><i class="dot"></i>${name}</span>`);
const nameOf = (id) => {
  const p = S.view && S.view.players.find((x) => x.id === id);
  return p ? `#${p.shirt} ${p.name}` : id;
};

/** @param {string} method @param {string} path @param {unknown} [body] @param {boolean} [auth] the run's token goes along */
const api = (method, path, body, auth) => request(API, method, path, body, auth ? S.token : null);

// ---- language ----
function applyLang() {
  document.documentElement.lang = S.lang === 'pt-BR' ? 'pt-BR' : 'en';
  $select('lang').value = S.lang;
  all('[data-t]').forEach((el) => { el.textContent = t(el.dataset.t); });
  all('[data-ta]').forEach((el) => { el.setAttribute('aria-label', t(el.dataset.ta)); });
  if (!$('offline').hidden) countdown(5);
  if (S.view) renderAll();
}

// ---- setup ----
async function loadSetup() {
  const [clubs, revisions] = await Promise.all([api('GET', '/clubs'), api('GET', '/revisions')]);
  for (const sel of [$('home'), $('away')]) {
    sel.innerHTML = clubs.map((c) => `<option value="${esc(c.id)}">${esc(c.name)}</option>`).join('');
  }
  if (clubs.length > 1) $select('away').selectedIndex = 1;
  $('revision').innerHTML = revisions.filter((r) => r.playable)
    .map((r) => `<option value="${esc(r.version)}"${r.default ? ' selected' : ''}>${esc(r.version)}${r.default ? ' ★' : ''}</option>`).join('');
}

async function startMatch(ev) {
  ev.preventDefault();
  $('setup-error').textContent = '';
  const body = { home: $select('home').value, away: $select('away').value, revision: $select('revision').value || null, human: $select('side').value || null };
  if ($input('seed').value !== '') body.seed = Number($input('seed').value);
  try {
    const r = await api('POST', '/runs', body);
    S.run = r.runId; S.token = r.token;
    localStorage.setItem('microfut.run', JSON.stringify({ run: r.runId, token: r.token }));
    location.hash = `run=${r.runId}`;
    S.feed = []; S.decisions = [];
    await openGame();
  } catch (e) {
    $('setup-error').textContent = e.message;
  }
}

async function openGame() {
  $('setup').hidden = true; $('game').hidden = false; $('new-match').hidden = false;
  await refresh();
  if (!S.feed.length) {
    const ev = await api('GET', `/runs/${S.run}/events?from=${Math.max(0, S.view.round - 40)}`);
    S.feed = ev.events.slice(-200);
  }
  renderAll();
  if (S.view.pending) await loadCandidates();
  loadDecisions();
}

async function refresh() {
  S.view = await api('GET', `/runs/${S.run}`);
}

// ---- advancing ----
async function advance(until, delegate) {
  if (S.busy || !S.view || S.view.finished) return;
  setBusy(true, t('advancing'));
  try {
    const r = await api('POST', `/runs/${S.run}/advance`, { until, delegate: !!delegate }, true);
    pushEvents(r.events);
    S.lastRolls = r.rolls;
    await refresh();
    S.candidates = null; S.selected = null;
    if (S.view.pending) await loadCandidates();
    $('status').textContent = `${t('played')(r.roundsPlayed)} ${S.view.pending ? t('your_turn') : S.view.finished ? t('finished') : ''}`;
    $('outcome').hidden = true;
    renderAll();
    loadDecisions();
  } catch (e) {
    failed(e, $('status'));
  } finally {
    setBusy(false);
  }
}

async function loadCandidates() {
  S.candidates = await api('GET', `/runs/${S.run}/candidates`);
  S.selected = null;
  renderDecision();
}

async function playSelected() {
  if (S.busy || S.selected === null || !S.candidates) return;
  const c = S.candidates.candidates[S.selected];
  setBusy(true, t('advancing'));
  try {
    // Every field that names the candidate: a set piece's delivery or a penalty needs its zone.
    const r = await api('POST', `/runs/${S.run}/intents`, { kind: c.kind, target: c.target, zone: c.zone }, true);
    pushEvents(r.events);
    await refresh();
    renderOutcome(r, c);
    S.candidates = null; S.selected = null;
    if (S.view.pending) await loadCandidates();
    renderAll();
    loadDecisions();
    $('outcome').scrollIntoView({ block: 'nearest' });
  } catch (e) {
    failed(e, $('status'));
  } finally {
    setBusy(false);
  }
}

function setBusy(b, msg) {
  S.busy = b;
  if (msg) $('status').textContent = msg;
  updateControls();
}

function pushEvents(evs) {
  S.feed.push(...evs);
  if (S.feed.length > 400) S.feed = S.feed.slice(-400);
}

// ---- rendering ----
function renderAll() {
  // A player substituted since his sheet was opened has no projection any more: close it and
  // say why, rather than asking the server for a player it no longer fields.
  const gone = S.selectedPlayer && S.view && !S.view.players.some((p) => p.id === S.selectedPlayer);
  if (gone) {
    $('player').hidden = true; hideTip();
    $('status').textContent = `${$('status').textContent} ${t('left_pitch')($('player-title').textContent || S.selectedPlayer)}`.trim();
    S.selectedPlayer = null;
  }
  renderScore(); renderPitch(); renderDecision(); renderFeed(); renderDecisionLog(); renderStats(); updateControls();
  if (S.selectedPlayer) showPlayer(S.selectedPlayer, true);
}

function updateControls() {
  const v = S.view;
  const done = !v || v.finished;
  const pending = v && !!v.pending;
  $button('adv-round').disabled = S.busy || done || pending;
  $button('adv-decision').disabled = S.busy || done || pending || !v.human;
  $button('adv-delegate').disabled = S.busy || done || !pending;
  $button('adv-end').disabled = S.busy || done;
  $button('play').disabled = S.busy || S.selected === null;
}

function renderScore() {
  const v = S.view;
  const half = v.finished ? t('full_time') : `${Math.floor(v.minute)}'`;
  $('scoreboard').innerHTML =
    `<span class="team" title="${esc(v.home.name)}"><i class="swatch" style="background:var(--home)"></i><span class="name">${esc(v.home.name)}</span></span>` +
    `<span class="score" data-testid="score">${v.score[0]} – ${v.score[1]}</span>` +
    `<span class="team away" title="${esc(v.away.name)}"><span class="name">${esc(v.away.name)}</span><i class="swatch" style="background:var(--away)"></i></span>` +
    `<span class="clock">${half} · ${t('round')} ${v.round}</span>`;
}

const SVGNS = 'http://www.w3.org/2000/svg';
// Where each marker is drawn: the player's position, nudged apart from any marker it would cover
// (two strikers at kick-off stand two metres apart; their 2.7 m markers overlapped and a click
// meant for one reached the other). A drawing aid only: every number on the page is the engine's.
const MARKER_GAP = 3;
function spread(players) {
  const at = new Map(players.map((p) => [p.id, [p.x, p.y]]));
  const pts = players.map((p) => at.get(p.id));
  for (let pass = 0; pass < 8; pass++) {
    let moved = false;
    for (let i = 0; i < pts.length; i++) {
      for (let j = i + 1; j < pts.length; j++) {
        let dx = pts[j][0] - pts[i][0]; let dy = pts[j][1] - pts[i][1];
        let d = Math.hypot(dx, dy);
        if (d >= MARKER_GAP) continue;
        if (d < 1e-6) { dx = 0; dy = 1; d = 1; }
        const push = (MARKER_GAP - d) / 2;
        pts[i][0] -= (dx / d) * push; pts[i][1] -= (dy / d) * push;
        pts[j][0] += (dx / d) * push; pts[j][1] += (dy / d) * push;
        moved = true;
      }
    }
    if (!moved) break;
  }
  return at;
}

function renderPitch() {
  const v = S.view; const p = v.pitch; const m = 3;
  const svg = $('pitch');
  svg.setAttribute('viewBox', `${-m} ${-m} ${p.length + 2 * m} ${p.width + 2 * m}`);
  const line = 'fill="none" stroke="var(--chalk)" stroke-width="0.22"';
  const bw = p.boxHalfWidth; const gy = p.goalY;
  let s = '';
  for (let i = 0; i < 10; i++) s += `<rect x="${(i * p.length) / 10}" y="0" width="${p.length / 10}" height="${p.width}" fill="${i % 2 ? 'var(--grass2)' : 'var(--grass)'}"/>`;
  s += `<rect x="0" y="0" width="${p.length}" height="${p.width}" ${line}/>`;
  s += `<line x1="${p.length / 2}" y1="0" x2="${p.length / 2}" y2="${p.width}" ${line}/>`;
  s += `<circle cx="${p.length / 2}" cy="${p.width / 2}" r="9.15" ${line}/><circle cx="${p.length / 2}" cy="${p.width / 2}" r="0.3" fill="var(--chalk)"/>`;
  s += `<rect x="0" y="${gy - bw}" width="${p.boxDepth}" height="${2 * bw}" ${line}/>`;
  s += `<rect x="${p.length - p.boxDepth}" y="${gy - bw}" width="${p.boxDepth}" height="${2 * bw}" ${line}/>`;
  s += `<rect x="-1.6" y="${p.postLow}" width="1.6" height="${p.postHigh - p.postLow}" fill="rgba(255,255,255,.25)" stroke="#fff" stroke-width="0.2"/>`;
  s += `<rect x="${p.length}" y="${p.postLow}" width="1.6" height="${p.postHigh - p.postLow}" fill="rgba(255,255,255,.25)" stroke="#fff" stroke-width="0.2"/>`;
  const at = spread(v.players);
  // Where the selected candidate would send the ball or the carrier.
  if (S.candidates && S.selected !== null) {
    const c = S.candidates.candidates[S.selected];
    const carrier = v.players.find((x) => x.hasBall);
    if (carrier) s += `<line x1="${at.get(carrier.id)[0]}" y1="${at.get(carrier.id)[1]}" x2="${c.dest[0]}" y2="${c.dest[1]}" stroke="var(--accent)" stroke-width="0.35" stroke-dasharray="1 .6"/><circle cx="${c.dest[0]}" cy="${c.dest[1]}" r="0.7" fill="none" stroke="var(--accent)" stroke-width="0.3"/>`;
  }
  for (const pl of v.players) {
    const home = pl.side === 'home';
    const fill = home ? 'var(--home)' : 'var(--away)';
    const ink = home ? 'var(--home-ink)' : 'var(--away-ink)';
    const r = 1.35;
    const stam = Math.max(0, Math.min(1, pl.stamina / 100));
    const label = `${pl.name}, #${pl.shirt}, ${L(pl.roleLabel) || pl.role}, ${t('stamina')} ${Math.round(pl.stamina)}`;
    s += `<g class="pl${S.selectedPlayer === pl.id ? ' sel' : ''}" tabindex="0" role="button" data-id="${pl.id}" aria-label="${esc(label)}" transform="translate(${at.get(pl.id)[0]} ${at.get(pl.id)[1]})">`;
    if (pl.dir) s += `<line x1="0" y1="0" x2="${pl.dir[0] * 2.6}" y2="${pl.dir[1] * 2.6}" stroke="${fill}" stroke-width="0.35" stroke-linecap="round"/>`;
    s += `<circle class="ring" r="${r + 0.35}" fill="none" stroke="rgba(0,0,0,.35)" stroke-width="0.3"/>`;
    s += `<circle r="${r}" fill="${fill}" stroke="${pl.line === 'goalkeeper' ? '#fff' : 'rgba(0,0,0,.5)'}" stroke-width="0.2"/>`;
    s += `<path d="M ${-r} ${r + 0.7} h ${2 * r * stam}" stroke="${stam > 0.5 ? '#7ee787' : stam > 0.25 ? '#f2c230' : '#ff6b6b'}" stroke-width="0.35"/>`;
    s += `<text y="0.5" text-anchor="middle" font-size="1.45" font-weight="700" fill="${ink}">${pl.shirt}</text>`;
    if (pl.hasBall) s += `<circle r="${r + 0.9}" fill="none" stroke="#fff" stroke-width="0.25" stroke-dasharray=".7 .4"/>`;
    s += `<title>${esc(label)}</title></g>`;
  }
  // A held ball is drawn at the holder's feet, beside his shirt number.
  const holder = v.ball.state === 'held' ? v.players.find((x) => x.hasBall) : null;
  const held = holder ? 1.3 : 0;
  const [bx, by] = holder ? at.get(holder.id) : [v.ball.x, v.ball.y];
  s += `<circle cx="${bx + held}" cy="${by + held}" r="0.55" fill="#fff" stroke="#111" stroke-width="0.15"/>`;
  svg.innerHTML = s;
  S.ballAt = [bx, by];
  followBall();
}

// A zoomed pitch (a phone) keeps the ball in the middle of its window.
function followBall() {
  const wrap = $('pitch-wrap');
  if (!S.view || !S.ballAt || wrap.scrollWidth <= wrap.clientWidth) return;
  const m = 3; const p = S.view.pitch;
  const fx = (S.ballAt[0] + m) / (p.length + 2 * m);
  wrap.scrollLeft = fx * wrap.scrollWidth - wrap.clientWidth / 2;
}

function renderDecision() {
  const c = S.candidates;
  $('decision').hidden = !c;
  if (!c) return;
  $('decision-who').textContent = t('on_ball')(nameOf(c.player));
  $('candidates').innerHTML = c.candidates.map((k, i) => {
    return `<li><button type="button" data-i="${i}" aria-pressed="${S.selected === i}" data-testid="candidate">
      <span>${i < CAND_KEYS.length ? `<kbd>${CAND_KEYS[i]}</kbd> ` : ''}${esc(intentLabel(k))}${i === c.npcChoice ? `<span class="npc">${t('npc_pick')}</span>` : ''}</span>
      <span class="odds" data-testid="headline" title="${esc(headlineTitle(k))}">${pct(k.headline)}</span>
      <span class="sub">${oddsLine(k)}</span>
      <span class="bar-odds"><i style="width:${(100 * k.headline).toFixed(1)}%"></i></span></button></li>`;
  }).join('');
  renderExplanation();
}

const shirtOf = (id) => nameOf(id);
function headlineTitle(k) {
  if (k.branch === 'test') return `${L(k.test.label)} — ${t('exact_hint')}`;
  return `${t('keeps')} — ${t('exact_hint')}`;
}

// A candidate's odds in words: exact figures first, the NPC's estimates named as such.
function oddsLine(k) {
  const parts = [];
  if (k.branch === 'duel') {
    parts.push(`${t('keeps')} ${pct(k.headline)} = ${t('wins_duel')(esc(shirtOf(k.opponent.player)), pct(k.winsDuel))}${k.foulShare > 0 ? ` + ${t('fouled')(pct(k.foulShare))}` : ''}`);
    parts.push(`${esc(L(k.test.label))} ${pct(k.test.probability)} ${t('versus')} ${esc(L(k.opponent.label))} ${pct(k.opponent.probability)}`);
  } else if (k.branch !== 'test') {
    parts.push(`${t('keeps')} 100% (${t(k.branch)})`);
  } else {
    parts.push(`${esc(L(k.test.label))} ${pct(k.probability)}`);
  }
  if (k.goalChance !== null) parts.push(`${t('goal')} ${pct(k.goalChance)}`);
  else if (k.keepProbability === null && ['pass', 'throw', 'cross'].includes(k.kind)) {
    parts.push(`<span class="est" title="${esc(t('estimate_hint'))}">${t('keeps')} ≈${pct(k.keepEstimate)} (${t('estimate')})</span>`);
    if (k.kind === 'cross' && k.goalEstimate > 0) parts.push(`<span class="est" title="${esc(t('estimate_hint'))}">${t('goal')} ≈${pct(k.goalEstimate)} (${t('estimate')})</span>`);
  }
  if (k.kind !== 'shoot') parts.push(`${t('gain')} ${sgn(Math.round(k.gain))} m`);
  return parts.join(' · ');
}

function intentLabel(k) {
  const K = t('kinds');
  const mine = S.view.human;
  const theirs = mine === 'home' ? 'away' : 'home';
  const zone = k.zoneLabel ? ` → ${esc(L(k.zoneLabel))}` : '';
  let what;
  switch (k.kind) {
    case 'carry': what = `${K.carry} ${k.target}°`; break;
    case 'pass': what = `${K.pass} ${nameOf(`${mine}-${k.target}`)}`; break;
    case 'throw': what = `${K.throw} ${nameOf(`${mine}-${k.target}`)}`; break;
    case 'dribble': what = `${K.dribble} ${nameOf(`${theirs}-${k.target}`)}`; break;
    case 'shoot': what = `${K.shoot}${zone}`; break;
    case 'cross': what = `${K.cross}${zone}`; break;
    default: what = k.intent;
  }
  const restart = S.candidates && S.candidates.restart;
  return restart ? `${restartName(restart)}: ${what}` : what;
}

function rowsOf(list, cls) {
  return list.map((r) => {
    const a = r.op === 'mul' ? `×${num(r.amount, 2)}` : r.kind === 'base' || r.kind === 'let' || r.op === 'check' ? num(r.amount, 2) : sgn(+num(r.amount, 2));
    const tone = r.kind === 'modifier' || r.kind === 'clamp' ? (r.op === 'mul' ? (r.amount > 1 ? 'pos' : r.amount < 1 ? 'neg' : 'zero') : r.amount > 0 ? 'pos' : r.amount < 0 ? 'neg' : 'zero') : '';
    const input = r.input ? ` <span class="src">(${esc(r.input.table)}: ${num(r.input.value, 1)})</span>` : '';
    return `<tr class="${cls || ''}"><td>${esc(L(r.label))}${input}<div class="src">${esc(r.source)}</div></td><td class="num ${tone}">${a}</td><td class="num">${num(r.running, 2)}</td></tr>`;
  }).join('');
}

function renderExplanation() {
  const box = $('explanation');
  if (!S.candidates || S.selected === null) { box.innerHTML = ''; updateControls(); return; }
  const k = S.candidates.candidates[S.selected];
  let h = `<p data-testid="selected-odds"><strong>${esc(intentLabel(k))}</strong> — ${oddsLine(k)}</p>`;
  const e = k.explanation;
  if (!e) {
    h += `<p class="muted">${t('no_test')} ${t(k.branch)}.</p>`;
  } else {
    h += `<table><thead><tr><th>${esc(L(e.label))} — ${t('stage')}</th><th class="num">${t('amount')}</th><th class="num">${t('running')}</th></tr></thead><tbody>`;
    if (e.working.length) h += `<tr><th colspan="3">${t('working')}</th></tr>${rowsOf(e.working)}`;
    if (e.requires.length) h += `<tr><th colspan="3">${t('requires')}</th></tr>${rowsOf(e.requires)}`;
    h += rowsOf(e.contributions);
    h += '</tbody></table>';
  }
  box.innerHTML = h;
  updateControls();
}

function renderOutcome(r, c) {
  // The roll of the action chosen is marked with the odds it was shown with.
  const own = (x) => (c.test && x.player === c.test.player && x.pipeline === c.test.pipeline && (x.role === 'action' || x.role === 'duel'));
  const rolls = r.rolls.map((x) => rollHtml(x, own(x) ? c.test.probability : null)).join('');
  const evs = r.events.map((e) => `<li>${marked(eventText(e))}</li>`).join('');
  // No roll: the branch the candidate showed (nobody reached him, the man held off …).
  const none = r.rolls.length ? '' : `<p class="muted">${t('no_rolls')} ${t(c.branch) || ''}.</p>`;
  const before = r.earlierRolls.length
    ? `<details><summary>${t('earlier_rolls')(r.earlierRolls.length)}</summary><div class="dice">${r.earlierRolls.map((x) => rollHtml(x, null)).join('')}</div></details>` : '';
  $('outcome-body').innerHTML = `<p><strong>${esc(intentLabel(c))}</strong> — ${t('round')} ${r.round}</p><div class="dice">${rolls}</div>${none}<ul>${evs}</ul>${before}`;
  $('status').textContent = r.events.map((e) => plain(eventText(e))).join(' · ') || t('played')(1);
  $('outcome').hidden = false;
}

// "needs 9+ on 3d6 (74%) — rolled 7: failed", in the roller's colours with his side named, so
// an opponent's success is not drawn as yours.
function rollHtml(x, shown) {
  const mine = S.view && x.team === S.view.human;
  const side = x.team === 'home' ? 'home' : 'away';
  const whose = S.view && S.view.human ? ` (${mine ? t('yours') : t('theirs')})` : '';
  const mark = shown === null || shown === undefined ? '' : ` · <span class="shown" data-testid="shown">${t('shown')(pct(shown))}</span>`;
  return `<div class="roll ${side} ${x.success ? 'ok' : 'ko'}${mine ? ' mine' : ''}" data-testid="roll" data-role="${esc(x.role || '')}">
    <div><i class="swatch" style="background:var(--${side})"></i>${esc(nameOf(x.player))}${whose} — ${esc(L(x.label))}</div>
    <div>${t('needs')(x.difficulty, esc(x.dice || '3d6'))} (<span data-testid="roll-odds">${pct(x.probability)}</span>) — <span class="total">${t('rolled')(x.total)}</span>: <strong>${x.success ? t('succeeded') : t('failed')}</strong> <span class="muted">(${t('margin')} ${sgn(x.margin)})</span>${mark}</div></div>`;
}

function eventText(e) {
  const f = t('ev')[e.kind];
  return f ? f(e) : e.kind;
}

// The side an event belongs to (the one acting), for the line's colour; none for the clock's.
function eventTeam(e) {
  const w = e.by || e.carrier || e.won_by || e.on;
  if (w && typeof w.team === 'number') return w.team;
  return typeof e.team === 'number' ? e.team : null;
}

function feedLine(e) {
  const team = eventTeam(e);
  const cls = [e.kind === 'goal' ? 'goal' : '', team === null ? 'neutral' : `t${team}`].join(' ');
  return `<li class="${cls}" data-kind="${esc(e.kind)}"><span class="min">${Math.floor(e.minute)}'</span>${marked(eventText(e))}</li>`;
}

function renderFeed() {
  $('feed').innerHTML = S.feed.slice(-120).reverse().map(feedLine).join('');
}

// Carries are decisions, not engine events: the decision log gives them (whoever decided), and
// they go into the feed before the events of their round.
function carriesOf(decisions) {
  return decisions.flatMap((d) => {
    const c = d.candidate_actions[d.selected_action];
    if (!c || c.kind !== 'carry') return [];
    const shirt = Number((d.player_id.match(/#(\d+)/) || [])[1]);
    const angle = Number((c.target.match(/-?\d+/) || ['0'])[0]);
    const team = d.club_id === S.view.home.id ? 0 : 1;
    return [{ kind: 'carry', round: d.round, minute: d.match_state_summary.minute, by: { team, shirt }, angle }];
  });
}

function mergeCarries(carries) {
  const have = new Set(S.feed.filter((e) => e.kind === 'carry').map((e) => `${e.round}:${e.by.team}`));
  const first = S.feed.length ? S.feed[0].round : 0;
  for (const c of carries) {
    if (have.has(`${c.round}:${c.by.team}`) || c.round < first) continue;
    // After the restarts that set up its round, before what the round's play made.
    let i = S.feed.findIndex((e) => e.round > c.round || (e.round === c.round && !['restart', 'kick_off', 'half_time'].includes(e.kind)));
    if (i < 0) i = S.feed.length;
    S.feed.splice(i, 0, c);
  }
}

async function loadDecisions() {
  try {
    const from = Math.max(0, S.view.round - 30);
    const d = await api('GET', `/runs/${S.run}/decisions?from=${from}`);
    S.decisions = d.decisions.slice(-25).reverse();
    mergeCarries(carriesOf(d.decisions));
    renderFeed();
    renderDecisionLog();
  } catch (e) { /* the log is an aid; the game goes on */ }
}

// A logged decision's player and choice in the page's words (the log keeps the engine's
// `club#9 Name` and `pass #17`).
const decisionTeam = (d) => (d.club_id === S.view.home.id ? 'home' : 'away');
const decisionPlayer = (d) => nameOf(`${decisionTeam(d)}-${(d.player_id.match(/#(\d+)/) || [])[1]}`);
function decisionWords(d, c) {
  const K = t('kinds');
  const mine = decisionTeam(d);
  const theirs = mine === 'home' ? 'away' : 'home';
  const n = (c.target.match(/-?\d+/) || [''])[0];
  const zone = c.target.includes('→') ? ` → ${zoneWord(c.target.split('→')[1].trim())}` : '';
  switch (c.kind) {
    case 'carry': return `${K.carry} ${n}°`;
    case 'pass': return `${K.pass} ${nameOf(`${mine}-${n}`)}`;
    case 'throw': return `${K.throw} ${nameOf(`${mine}-${n}`)}`;
    case 'dribble': return `${K.dribble} ${nameOf(`${theirs}-${n}`)}`;
    case 'shoot': return `${K.shoot}${zone}`;
    case 'cross': return `${K.cross}${zone}`;
    default: return word(c.kind);
  }
}
const zoneWord = (z) => t('zones')[z] || z.replace(/_/g, ' ');

function renderDecisionLog() {
  $('decisions').innerHTML = S.decisions.map((d, i) => {
    const c = d.candidate_actions[d.selected_action];
    const side = decisionTeam(d) === 'home' ? 0 : 1;
    return `<li><button type="button" data-d="${i}" class="t${side}">${Math.floor(d.match_state_summary.minute)}' ${esc(decisionPlayer(d))} → ${esc(c ? decisionWords(d, c) : '?')}${d.human ? ` (${t('human')})` : ''}</button></li>`;
  }).join('');
}

function showDecision(i) {
  const d = S.decisions[i];
  if (!d) return;
  const a = d.adaptation; const p = d.club_personality;
  const g = t('log');
  let h = `<p><strong>${esc(decisionPlayer(d))}</strong> · ${t('round')} ${d.round} · ${d.match_state_summary.score.join('–')} · ${d.candidate_actions.length} ${t('candidates_weighed')}<br>
    <span class="muted">${g.personality} V${p.verticality} S${p.security} R${p.risk_tolerance} · ${g.adaptation} V${num(a.verticality, 2)} S${num(a.security, 2)} R${num(a.risk_tolerance, 2)}</span></p>`;
  h += `<table title="${esc(g.hint)}"><thead><tr><th></th>${['p', 'prog', 'threat', 'risk', 'pers', 'state', 'noise', 'score'].map((k) => `<th class="num">${g[k]}</th>`).join('')}</tr></thead><tbody>`;
  d.candidate_actions.forEach((c, k) => {
    // The engine's reason for pruning is a key the test of pruned rows reads in `data-reason`.
    const pruned = c.pruned ? ` title="${esc(g.bound)}" data-reason="${esc(c.pruned.reason)}"` : '';
    h += `<tr class="${k === d.selected_action ? 'chosen' : ''}"><td>${esc(decisionWords(d, c))}${k === d.selected_action ? ` ✓ ${t('chosen')}` : ''}</td><td class="num">${pct(c.success_probability)}</td><td class="num">${num(c.progression, 2)}</td><td class="num">${num(c.threat, 3)}</td><td class="num">${num(c.turnover_risk, 3)}</td><td class="num">${num(c.personality_modifier, 3)}</td><td class="num">${num(c.match_state_modifier, 3)}</td><td class="num">${num(c.noise, 3)}</td><td class="num"${pruned}>${c.pruned ? `≤ ${num(c.pruned.bound, 3)}` : num(c.final_score, 3)}</td></tr>`;
  });
  $('decision-detail').innerHTML = `${h}</tbody></table>`;
}

function renderStats() {
  const v = S.view;
  $('stats').hidden = !v.finished;
  $('game').classList.toggle('over', v.finished);
  if (!v.finished) return;
  const keys = Object.keys(t('stat'));
  let h = `<table><thead><tr><th></th><th class="num">${esc(v.home.name)}</th><th class="num">${esc(v.away.name)}</th></tr></thead><tbody>`;
  for (const k of keys) {
    const a = v.home.stats[k]; const b = v.away.stats[k];
    if (a === undefined) continue;
    h += `<tr><td>${esc(t('stat')[k])}</td><td class="num">${num(a, 1)}</td><td class="num">${num(b, 1)}</td></tr>`;
  }
  $('stats-body').innerHTML = `${h}</tbody></table>`;
  $link('record-link').href = `${API}/runs/${S.run}/record`;
}

// ---- the player's sheet and projection ----
async function showPlayer(id, quiet) {
  S.selectedPlayer = id;
  try {
    const [sheet, proj] = await Promise.all([
      api('GET', `/runs/${S.run}/players/${id}`),
      api('GET', `/runs/${S.run}/players/${id}/attributes`),
    ]);
    renderPlayer(sheet, proj);
    if (!quiet) {
      renderPitch();
      $('player').scrollIntoView({ block: 'nearest' });
      $('player-title').focus();
    }
  } catch (e) {
    failed(e, $('status'));
  }
}

function tone(a) {
  const d = a.effectiveValue - a.baseValue;
  return Math.abs(d) < 1e-9 ? 'same' : d > 0 ? 'up' : 'down';
}

function tip(a) {
  const rows = a.contributions.map((c) => {
    const cls = c.kind === 'modifier' || c.kind === 'clamp' ? (c.amount > 0 ? 'pos' : c.amount < 0 ? 'neg' : 'zero') : '';
    const amount = c.op === 'mul' ? `×${num(c.amount, 2)}` : c.kind === 'modifier' || c.kind === 'clamp' ? sgn(+num(c.amount, 2)) : num(c.amount, 2);
    return `<tr><td>${esc(L(c.label))}${c.input !== null ? ` (${num(c.input, 1)})` : ''}</td><td class="${cls}">${amount}</td><td>${num(c.running, 2)}</td></tr>`;
  }).join('');
  return `<strong>${esc(L(a.displayName))}</strong>${a.pipelineId ? ` <span class="src">${esc(a.pipelineId)}</span>` : ''}<table>${rows}</table>${a.contributionsTruncated ? '…' : ''}<div class="src">${esc(a.contextTags.join(', '))}</div>`;
}

function renderPlayer(sheet, proj) {
  // The rows are re-drawn (a new round, another language): a tooltip open on the old ones would
  // stay on screen with the old figures and words, since its row never sends mouseout.
  hideTip();
  const s = sheet.sheet;
  $('player').hidden = false;
  $('player-title').textContent = `#${s.shirt} ${s.name}`;
  $('player-title').tabIndex = -1;
  const c = proj.context;
  const groups = [['attribute', t('attributes')], ['skill', t('skills')], ['characteristic', t('characteristics')], ['test', t('tests')], ['derived', t('derived')]];
  let h = `<button type="button" class="player-close" id="player-close">${t('close')}</button>`;
  h += `<p class="muted">${esc(L(s.role_label) || s.role)} · ${t('age')} ${s.age} · ${esc(s.club || '')}</p>`;
  h += `<div class="ctx"><span>${t('projection')} (${t('round')} ${proj.round})</span><span>${t('stamina')} ${num(c.stamina, 1)}</span><span>${t('nearest')} ${num(c.nearestOpponent, 1)} m</span><span>${t('orientation')} ${c.orientation === null ? t('neutral') : `${Math.round(c.orientation)}°`}</span><span>${num(c.distanceToGoal, 1)} m ${t('dist_goal')}</span><span>${t('angle')} ${num(c.angleToGoal, 1)}°</span></div>`;
  for (const [kind, title] of groups) {
    const list = proj.attributes.filter((a) => a.kind === kind);
    if (!list.length) continue;
    h += `<table data-testid="proj-${kind}"><thead><tr><th>${title}</th><th class="num">${t('base')}</th><th class="num">${t('effective')}</th>${kind === 'test' ? `<th class="num">${t('chance')}</th>` : ''}</tr></thead><tbody>`;
    list.forEach((a) => {
      const idx = proj.attributes.indexOf(a);
      h += `<tr><td>${esc(L(a.displayName))}${a.unit ? ` <span class="src">${esc(a.unit)}</span>` : ''}</td><td class="num">${num(a.baseValue, 2)}</td>
        <td class="num"><span class="val ${tone(a)}" tabindex="0" data-tip="${idx}">${num(a.effectiveValue, 2)}</span></td>
        ${kind === 'test' ? `<td class="num">${a.difficulty === null ? `<span title="${t('impossible')}">—</span>` : pct(a.probability)}</td>` : ''}</tr>`;
    });
    h += '</tbody></table>';
  }
  $('player-body').innerHTML = h;
  $('player-body').dataset.proj = JSON.stringify(proj.attributes);
  $('player-close').onclick = () => { $('player').hidden = true; hideTip(); S.selectedPlayer = null; renderPitch(); };
}

function showTip(el) {
  const list = JSON.parse($('player-body').dataset.proj || '[]');
  const a = list[+el.dataset.tip];
  S.tipAt = el;
  if (a) placeTip(el, tip(a));
}

// ---- leaving a match, handing it over ----
// Back to the form with nothing of the old match left behind: no pitch, feed, log or statistics.
function resetGame() {
  localStorage.removeItem('microfut.run'); location.hash = '';
  Object.assign(S, { run: null, token: null, view: null, candidates: null, selected: null, feed: [], decisions: [], selectedPlayer: null });
  hideTip();
  for (const id of ['pitch', 'feed', 'decisions', 'decision-detail', 'stats-body', 'outcome-body', 'candidates', 'explanation', 'scoreboard']) $(id).innerHTML = '';
  $('status').textContent = '';
  for (const id of ['game', 'player', 'stats', 'decision', 'outcome', 'new-match']) $(id).hidden = true;
  $('game').classList.remove('over');
  $('setup').hidden = false;
  measureBar();
}

const confirmBox = () => /** @type {HTMLDialogElement} */ ($('confirm-end'));

// The rest of the match goes to the NPC only when the person says so: a stray `e` asks.
function askToEnd() {
  if (S.busy || !S.view || S.view.finished) return;
  confirmBox().showModal();
  $('confirm-no').focus();
}

// ---- the server out of reach ----
// An unreachable server is said in the page's words, and asked again every few seconds; once it
// answers, the page reloads what it shows. A write that failed is not sent again by itself.
let probeTimer = 0;
function failed(e, where) {
  if (!(e instanceof Unreachable)) { where.textContent = e.message; return; }
  $('offline').hidden = false;
  countdown(5);
}

function countdown(n) {
  clearTimeout(probeTimer);
  $('offline-text').textContent = `${t('offline')} ${t('retrying')(n)}`;
  probeTimer = n > 0 ? window.setTimeout(() => countdown(n - 1), 1000) : window.setTimeout(probe, 0);
}

async function probe() {
  clearTimeout(probeTimer);
  try {
    await api('GET', '/revisions');
  } catch (e) {
    countdown(5);
    return;
  }
  $('offline').hidden = true;
  $('setup-error').textContent = '';
  await resync().catch((e) => failed(e, $('status')));
  $('status').textContent = t('back_online');
}

async function resync() {
  if (!$select('home').options.length) await loadSetup();
  if (!S.run) return;
  await refresh();
  S.candidates = null; S.selected = null;
  if (S.view.pending) await loadCandidates();
  renderAll();
  loadDecisions();
}

// ---- the header's height (the pitch and panels stick below it) ----
function measureBar() {
  document.documentElement.style.setProperty('--bar', `${$('bar').offsetHeight}px`);
}

// ---- links to the other pages of this server ----
// The battlefield is served only when the catalog holds Space Football: its link shows once
// the page is known to be there.
async function linkPages() {
  try {
    const res = await fetch('/space/', { method: 'HEAD' });
    $('space-link').hidden = !res.ok;
  } catch (e) { /* no server: no link to check */ }
}

// ---- wiring ----
function wire() {
  $select('lang').onchange = () => { S.lang = $select('lang').value; saveLang(S.lang); applyLang(); };
  $('setup-form').onsubmit = startMatch;
  $('new-match').onclick = resetGame;
  $('adv-round').onclick = () => advance('round');
  $('adv-decision').onclick = () => advance('decision');
  $('adv-delegate').onclick = () => advance('round', true);
  $('adv-end').onclick = askToEnd;
  $('confirm-yes').onclick = () => { confirmBox().close(); advance('end', true); };
  $('confirm-no').onclick = () => confirmBox().close();
  $('offline-retry').onclick = () => probe();
  $('zoom').onclick = () => { $('pitch-wrap').classList.toggle('zoomed'); followBall(); };
  // A tooltip stays with its row as the page scrolls (on a phone it had floated away).
  window.addEventListener('scroll', () => { if (S.tipAt && !$('tooltip').hidden) showTip(S.tipAt); }, { passive: true });
  window.addEventListener('resize', measureBar);
  $('play').onclick = playSelected;
  $('candidates').onclick = (e) => {
    const b = closest(e, 'button[data-i]');
    if (!b) return;
    S.selected = +b.dataset.i;
    renderDecision(); renderPitch();
    all(`button[data-i="${S.selected}"]`, $('candidates'))[0].focus();
  };
  $('decisions').onclick = (e) => { const b = closest(e, 'button[data-d]'); if (b) showDecision(+b.dataset.d); };
  const pitch = $('pitch');
  pitch.addEventListener('click', (e) => { const g = closest(e, '.pl'); if (g) showPlayer(g.dataset.id); });
  pitch.addEventListener('keydown', (e) => {
    const g = closest(e, '.pl');
    if (g && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); showPlayer(g.dataset.id); }
  });
  const body = $('player-body');
  body.addEventListener('mouseover', (e) => { const v = closest(e, '[data-tip]'); if (v) showTip(v); });
  body.addEventListener('mouseout', (e) => { if (closest(e, '[data-tip]')) hideTip(); });
  body.addEventListener('focusin', (e) => { const v = closest(e, '[data-tip]'); if (v) showTip(v); });
  body.addEventListener('focusout', hideTip);
  document.addEventListener('keydown', (e) => {
    if (targetOf(e).matches('input, select, textarea') || e.ctrlKey || e.metaKey || e.altKey || $('game').hidden || confirmBox().open) return;
    const k = e.key.toLowerCase();
    if (k === 'escape') { hideTip(); return; }
    if (k === 'n') advance('round');
    else if (k === 'd') advance('decision');
    else if (k === 'l' && S.view && S.view.pending) advance('round', true);
    else if (k === 'e') askToEnd();
    else if (k.length === 1 && S.candidates && CAND_KEYS.includes(k) && CAND_KEYS.indexOf(k) < S.candidates.candidates.length) {
      S.selected = CAND_KEYS.indexOf(k); renderDecision(); renderPitch();
    } else if (k === 'enter' && S.selected !== null && !closest(e, '.pl, a, button:not([data-i])')) { e.preventDefault(); playSelected(); }
  });
}

async function main() {
  wire();
  applyLang();
  measureBar();
  linkPages();
  await loadSetup().catch((e) => failed(e, $('setup-error')));
  const m = location.hash.match(/run=([0-9a-f]+)/);
  const saved = JSON.parse(localStorage.getItem('microfut.run') || 'null');
  if (m || saved) {
    S.run = m ? m[1] : saved.run;
    S.token = saved && saved.run === S.run ? saved.token : null;
    try { await openGame(); } catch (e) { $('setup').hidden = false; $('game').hidden = true; failed(e, $('setup-error')); }
  }
}
main();
