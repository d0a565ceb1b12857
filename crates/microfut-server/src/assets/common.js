// What every page of the servers shares (Microfut's match page, World 1's attributes page, the
// Space Football battlefield): element lookup, HTML escaping, the API call with its error
// handling, the language choice and lookup, the tooltip's placement. A classic script loaded
// before each page's own (`<script src="/common.js">`), so its declarations are the page's globals.
'use strict';

/** @param {string} id @returns {HTMLElement} an element the page's HTML is known to have */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** Text made safe inside HTML, attributes included. @param {unknown} s */
const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** A signed number: `+2`, `0`, `-1`. @param {number | string} n */
const sgn = (n) => (Number(n) > 0 ? `+${n}` : `${n}`);

/**
 * @typedef {{ [lang: string]: string, en: string }} Labels
 * @typedef {{ [key: string]: any }} Strings
 * @typedef {{ [lang: string]: Strings, en: Strings }} Table
 */

/** A label in the language, else in English. @param {Labels | null | undefined} labels @param {string} lang */
const label = (labels, lang) => (labels ? labels[lang] || labels.en || '' : '');

/** The page's word for `key` in the language, else the English one (undefined if neither has it). @param {Table} table @param {string} lang @param {string} key */
const lookup = (table, lang, key) => {
  const own = table[lang];
  return own && own[key] !== undefined ? own[key] : table.en[key];
};

/** The language the person chose on any page (one storage key for all), if the page speaks it. @param {Table} table */
function storedLang(table) {
  let saved = null;
  try { saved = localStorage.getItem('microfut.lang'); } catch { /* storage blocked: no choice kept */ }
  return saved && table[saved] ? saved : null;
}

/** The person's language: the one chosen, else the browser's if Portuguese, else English. @param {Table} table */
const initialLang = (table) => storedLang(table) || ((navigator.language || '').startsWith('pt') ? 'pt-BR' : 'en');

/** Keeps the person's choice for every page. @param {string} lang */
function saveLang(lang) {
  try { localStorage.setItem('microfut.lang', lang); } catch { /* storage blocked: the choice lasts the page */ }
}

/** The server did not answer at all (down, or the network): a page says so in its own words and
 * tries again, rather than showing the browser's "Failed to fetch". */
class Unreachable extends Error {
  constructor() { super('The server cannot be reached.'); this.name = 'Unreachable'; }
}

/**
 * Calls the API: a JSON body when given, the bearer token when given. Resolves with the answer's
 * JSON; rejects with the server's message and the field it names (`… (/home)`), or with
 * `Unreachable` when no answer came.
 * @param {string} base the API's root (`/api/v1`, `/api/v1/space`)
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {string | null} [token]
 * @returns {Promise<any>}
 */
async function request(base, method, path, body, token) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new Unreachable();
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const e = data.error || {};
    throw new Error(`${e.message || res.statusText}${e.field ? ` (${e.field})` : ''}`);
  }
  return data;
}

/**
 * Shows the page's `#tooltip` with `html` beside `el`: to its left, else its right, inside the
 * window. Where neither side has room (a phone), it goes right under the row, else right above
 * it, so it never covers the row nor floats away from it.
 * @param {HTMLElement} el @param {string} html
 */
function placeTip(el, html) {
  const box = $('tooltip');
  box.innerHTML = html;
  box.hidden = false;
  const r = el.getBoundingClientRect();
  const w = box.offsetWidth; const hh = box.offsetHeight;
  const W = window.innerWidth; const H = window.innerHeight;
  let x = r.left - w - 8;
  let y = r.top;
  if (x < 4 && r.right + 8 + w <= W - 4) x = r.right + 8;
  else if (x < 4) {
    x = Math.min(W - w - 4, Math.max(4, r.left + r.width / 2 - w / 2));
    y = r.bottom + hh + 6 <= H - 4 || r.top - hh - 6 < 4 ? r.bottom + 6 : r.top - hh - 6;
  } else if (y + hh > H - 4) y = Math.max(4, H - hh - 4);
  box.style.left = `${Math.max(4, x)}px`; box.style.top = `${y}px`;
}

const hideTip = () => { $('tooltip').hidden = true; };

/** An `<input>` of the page. @param {string} id */
const $input = (id) => /** @type {HTMLInputElement} */ ($(id));
/** A `<select>` of the page. @param {string} id */
const $select = (id) => /** @type {HTMLSelectElement} */ ($(id));
/** A `<button>` of the page. @param {string} id */
const $button = (id) => /** @type {HTMLButtonElement} */ ($(id));
/** An `<a>` of the page. @param {string} id */
const $link = (id) => /** @type {HTMLAnchorElement} */ ($(id));

/** The element an event happened on (the pages listen on their elements and the document). @param {Event} e */
const targetOf = (e) => /** @type {HTMLElement} */ (e.target);

/** Every element matching `selector` under `root`. @param {string} selector @param {ParentNode} [root] */
const all = (selector, root = document) => /** @type {HTMLElement[]} */ ([...root.querySelectorAll(selector)]);

/** The nearest element around the event's target that matches `selector`, if any. @param {Event} e @param {string} selector */
const closest = (e, selector) => /** @type {HTMLElement | null} */ (targetOf(e).closest(selector));
