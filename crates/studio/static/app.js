// cubesat studio: the page. Tabs (library, editor, solve), the library of bundled and dropped
// puzzles, the share link (the puzzle in the URL's fragment, which no server sees), and keeping
// the user's work: the puzzle is saved in this browser as it is edited and comes back on
// reload, opening another puzzle asks first and is one step of Undo, and each opened puzzle is
// a history entry, so that Back returns to the previous puzzle rather than leaving the studio.

import { $, api, el, fromShareFragment, shareFragment, svgImage, upload } from './api.js';
import { BLANK, Editor } from './editor.js';
import { Runs } from './runs.js';

const TABS = ['library', 'editor', 'solve'];

const SAVED = 'cubesat-studio.puzzle'; // localStorage: the editor's text, as last edited
const EDITED = 'cubesat-studio.edited'; // "1" when that text has changes not saved as a file

function showTab(name) {
  for (const t of TABS) {
    $(t).hidden = t !== name;
    $('tab-' + t).classList.toggle('on', t === name);
    if (t === name) $('tab-' + t).setAttribute('aria-current', 'page'); else $('tab-' + t).removeAttribute('aria-current');
  }
  document.body.dataset.tab = name;
}

/** The puzzle's name in the header, from its text. */
function title(text) {
  try {
    const v = JSON.parse(text);
    return (v && typeof v.name === 'string' && v.name) || 'untitled puzzle';
  } catch (_) {
    return 'puzzle (JSON with an error)';
  }
}

let runs = null;
let saveTimer = null;
const editor = new Editor((text) => {
  $('current').textContent = title(text);
  $('run-title').textContent = title(text);
  $('share-url').hidden = true;
  // Saved a moment after the last change (typing runs many changes together).
  clearTimeout(saveTimer);
  saveTimer = setTimeout(() => save(text), 200);
});
runs = new Runs(editor, (text) => open(text, 'editor', 'the generated puzzle'));
editor.requestLoad = (text) => open(text, 'editor', 'a new puzzle');

function save(text) {
  try {
    localStorage.setItem(SAVED, text);
    localStorage.setItem(EDITED, editor.unsaved() ? '1' : '0');
  } catch (_) { /* storage full or off: the work lives on in the page */ }
}

// Keep the STL piece menu in step with the editor's checked puzzle.
const showCheck = editor.showCheck.bind(editor);
editor.showCheck = () => {
  showCheck();
  const a = editor.checked;
  if (a && a.ok) runs.pieces(a.info.pieces.map((p) => p.name));
  $('run-valid').textContent = a && !a.ok ? 'the puzzle has an error: ' + a.error.message : '';
  // Only some grids' assemblies come apart by sliding: the check's word, else the grid list's.
  const info = a && a.ok ? a.info : null;
  const grid = editor.grid(editor.model());
  const can = info ? info.can_disassemble : !!grid && grid.can_disassemble;
  runs.allowDisassembly(can, editor.noun(editor.model(), 2));
};

/** Asks before `what` replaces unsaved work in the editor; resolves to true to go on. The
 *  question names both puzzles and says that Undo brings the old one back. */
function confirmReplace(what) {
  if (!editor.unsaved()) return Promise.resolve(true);
  const d = $('replace-dialog');
  $('replace-text').textContent = 'Opening ' + what + ' replaces "' + title(editor.text) +
    '" in the editor, which has changes you have not downloaded or shared. Undo in the editor brings it back.';
  return new Promise((resolve) => {
    const done = (yes) => {
      $('replace-yes').onclick = $('replace-no').onclick = d.oncancel = null;
      d.close();
      resolve(yes);
    };
    $('replace-yes').onclick = () => done(true);
    $('replace-no').onclick = () => done(false);
    d.oncancel = (e) => { e.preventDefault(); done(false); };
    d.showModal();
    $('replace-no').focus();
  });
}

/** Opens a puzzle text in the editor and shows `tab`: after asking, when it would replace
 *  work; as a history entry, so that Back comes back to the puzzle shown before. Resolves to
 *  whether it was opened. */
async function open(text, tab, what) {
  if (text !== editor.text && !(await confirmReplace(what || '"' + title(text) + '"'))) return false;
  runs.reset();
  editor.load(text);
  showTab(tab);
  remember(text, tab, true);
  // How many puzzles were opened: tells a test (or a curious user) that this one is in.
  document.body.dataset.opened = String(Number(document.body.dataset.opened || 0) + 1);
  return true;
}

/** This puzzle and tab as the current history entry (a new one when `push`). */
function remember(text, tab, push, dropLink) {
  const state = { studio: 1, text, tab };
  // The share link's fragment names a puzzle: a new entry for another puzzle leaves it behind,
  // and so does the link's own entry once read, so that a reload shows the work done since.
  const url = push || dropLink ? location.pathname + location.search : location.href;
  try {
    if (push) history.pushState(state, '', url); else history.replaceState(state, '', url);
  } catch (_) { /* a puzzle too large for the history: the page keeps working without it */ }
}

// Back and Forward: the puzzle (and tab) of that entry, with the one left as a step of Undo.
window.addEventListener('popstate', (e) => {
  const st = e.state;
  if (!st || st.studio !== 1) return;
  runs.reset();
  if (st.text !== editor.text) editor.load(st.text);
  showTab(st.tab || 'editor');
});

// ---- the library ---------------------------------------------------------------------------

/** A library card. Its Solve lists solutions and shows the first (a count shows none); Edit
 *  opens the puzzle in the editor. */
function card(key, name, lines, image, text) {
  const c = el('div', { class: 'card', 'data-key': key },
    el('div', { class: 'thumb' }, image),
    el('h3', { text: name }),
    ...lines.map((l) => el('p', { text: l })),
    el('div', { class: 'actions' },
      el('button', { type: 'button', class: 'open primary', text: 'Solve', 'aria-label': 'Solve ' + name, onclick: () => opening(c, text, 'solve') }),
      el('button', { type: 'button', class: 'edit', text: 'Edit', 'aria-label': 'Edit ' + name, onclick: () => opening(c, text, 'editor') })));
  return c;
}

/** A card's button: fetches the text (saying so on the card when it cannot) and opens it. */
async function opening(c, text, tab) {
  let t;
  try {
    t = await text();
  } catch (e) {
    libraryError(c.querySelector('h3').textContent + ': ' + e.message);
    return;
  }
  if (await open(t, tab) && tab === 'solve') runs.solveOne();
}

const MODES = [['none', 'counting every placement'], ['rotation', 'up to rotation'], ['rotation+reflection', 'up to rotation and reflection']];

const num = (n) => n.toLocaleString('en');

/** A source as text, with its address as a link when it has one. */
function source(label, s) {
  if (!s.url) return el('p', { class: 'source', text: label + s.text });
  const i = s.text.indexOf(s.url);
  return el('p', { class: 'source' }, label, s.text.slice(0, i),
    el('a', { href: s.url, target: '_blank', rel: 'noopener noreferrer', text: s.url }), s.text.slice(i + s.url.length));
}

/** The lines of one catalog entry: published counts, cubesat's counts, source, estimate. */
function entryLines(p) {
  // The sizes are as the file types them (a ball board's in its layer frame): the server's.
  const lines = [el('p', { class: 'meta', text: p.family + ' · ' + p.grid + ' · ' + p.copies + ' pieces into ' + p.containers.join(' + ') + ' · ' + p.status })];
  if (!p.published.length) lines.push(el('p', { class: 'published', text: 'published: no published count found' }));
  for (const x of p.published) {
    lines.push(el('p', { class: 'published', text: 'published: ' + num(x.count) + ' ' + x.phrase + ' (' + x.verdict + ')' }));
    // The convention in the source's own words: its start shown, the whole when opened.
    const short = x.convention.length > 60 ? x.convention.slice(0, 57) + '...' : x.convention;
    lines.push(x.convention.length > 60
      ? el('details', { class: 'convention' }, el('summary', { text: 'convention: ' + short }), el('p', { text: x.convention }))
      : el('p', { class: 'convention', text: 'convention: ' + x.convention }));
    lines.push(source('source: ', { text: x.source, url: x.url }));
  }
  if (p.counts) {
    const c = MODES.filter(([m]) => p.counts[m] !== null)
      .map(([m, phrase]) => p.counts[m] === 'undefined' ? phrase + ' not defined' : num(p.counts[m]) + ' ' + phrase);
    if (c.length) lines.push(el('p', { class: 'counts', text: 'cubesat: ' + c.join(', ') }));
  }
  if (p.incomplete) lines.push(source('the source left its count unfinished: ', { text: p.incomplete.source, url: p.incomplete.url }));
  if (p.estimate) lines.push(el('p', { class: 'estimate', text: p.estimate.text }));
  if (!p.published.length && !p.incomplete && p.source) lines.push(source('source: ', p.source));
  lines.push(el('p', { class: 'desc', text: p.description }));
  return lines;
}

let catalogItems = [];

/** Shows the entries the search and filters match, and the families that keep one. */
function filterCatalog() {
  const words = $('lib-search').value.toLowerCase().split(/\s+/).filter(Boolean);
  const family = $('lib-family').value;
  const grid = $('lib-grid').value;
  const status = $('lib-status').value;
  let shown = 0;
  for (const { p, node, hay } of catalogItems) {
    const ok = words.every((w) => hay.includes(w))
      && (!family || p.family === family)
      && (!grid || p.grid === grid)
      && (!status || p.status === status
        || (status === 'published' && p.published.length > 0)
        || (status === 'agreeing' && p.published.length > 0 && p.published.every((x) => x.agrees)));
    node.hidden = !ok;
    if (ok) shown += 1;
  }
  for (const sec of document.querySelectorAll('#catalog .family')) {
    sec.hidden = !sec.querySelector('.card:not([hidden])');
  }
  $('lib-shown').textContent = shown + ' of ' + catalogItems.length + ' puzzles';
  $('catalog').dataset.shown = String(shown);
}

async function library() {
  let items;
  try {
    items = await api('/api/catalog');
  } catch (e) {
    libraryError(e.message);
    return;
  }
  const families = new Map();
  for (const p of items) {
    if (!families.has(p.family)) families.set(p.family, []);
    families.get(p.family).push(p);
  }
  const box = $('catalog');
  const names = Array.from(families.keys()).sort();
  for (const f of names) {
    const grid = el('div', { class: 'cards' });
    const list = families.get(f);
    box.appendChild(el('section', { class: 'family', 'data-family': f, 'aria-label': f },
      el('h2', { text: f + ' (' + list.length + (list.length === 1 ? ' puzzle)' : ' puzzles)') }), grid));
    for (const p of list) {
      // Drawn only when the entry comes into view (the browser loads lazy images then).
      const img = el('img', { alt: p.name + ': target and pieces', src: '/api/library/' + encodeURIComponent(p.key) + '/sheet.svg', loading: 'lazy', width: 230, height: 150 });
      const node = card(p.key, p.name, [], img, async () => (await api('/api/library/' + encodeURIComponent(p.key))).text);
      node.querySelector('h3').after(...entryLines(p));
      node.dataset.status = p.status;
      grid.appendChild(node);
      catalogItems.push({ p, node, hay: [p.key, p.name, p.family, p.description].join('\n').toLowerCase() });
    }
    $('lib-family').appendChild(el('option', { value: f, text: f }));
  }
  const gridNames = Array.from(new Set(items.map((p) => p.grid))).sort();
  for (const g of gridNames) {
    $('lib-grid').appendChild(el('option', { value: g, text: g }));
  }
  for (const id of ['lib-search', 'lib-family', 'lib-grid', 'lib-status']) {
    $(id).addEventListener(id === 'lib-search' ? 'input' : 'change', filterCatalog);
  }
  $('lib-filters').addEventListener('submit', (e) => e.preventDefault());
  filterCatalog();
  box.dataset.loaded = String(items.length);
}

/** The grid menu of the editor: the library's grids, as the server lists them (no grid is
 *  named here; a new grid appears once the library has it). */
async function grids() {
  try {
    editor.setGrids(await api('/api/grids'));
  } catch (e) {
    libraryError(e.message);
  }
}

function libraryError(message) {
  $('lib-error').hidden = !message;
  $('lib-error').textContent = message || '';
}

let dropped = 0;

/** A dropped or chosen file: read by the server (cubesat JSON or BurrTools), shown as a card. */
async function importFile(file, problem) {
  libraryError('');
  if (file.size > 8 * 1024 * 1024) {
    libraryError(file.name + ': ' + file.size + ' bytes, more than the 8 MiB a puzzle file may have');
    return;
  }
  // Header values are ASCII; the name only shows in messages and tells .xmpuzzle files apart.
  const headers = { 'x-file-name': file.name.replace(/[^\x20-\x7e]/g, '_') };
  if (problem !== undefined) headers['x-problem'] = String(problem);
  let got;
  try {
    got = await upload('/api/import', await file.arrayBuffer(), headers);
  } catch (e) {
    libraryError(e.message);
    return;
  }
  const key = 'dropped-' + (++dropped);
  const img = el('div', { class: 'nothumb', text: 'drawing...' });
  const list = got.problem_list || [];
  const chosen = list[got.problem];
  const lines = [file.name + (got.problems.length ? ' (' + (got.burrtools || 'BurrTools') + ')' : '')];
  // A BurrTools problem: its grid and what BurrTools' settings make of its count.
  if (chosen) {
    lines.push('problem ' + chosen.index + (chosen.name ? " '" + chosen.name + "'" : '') + ': ' + chosen.pieces + ' shapes, ' + chosen.copies + ' pieces on the ' + chosen.grid + ' grid');
    if (chosen.counting) lines.push("BurrTools' count here is " + chosen.counting);
  } else if (got.problems.length) {
    lines.push('problem ' + got.problem + (got.problems[got.problem] ? " '" + got.problems[got.problem] + "'" : ''));
  }
  const c = card(key, title(got.text), lines.concat(got.notes.map((n) => 'note: ' + n)), img, async () => got.text);
  c.classList.add('dropped');
  if (got.problems.length > 1) {
    const label = (i) => {
      const p = list[i];
      if (!p) return i + ': ' + (got.problems[i] || '(unnamed)');
      return p.error ? i + ': ' + (p.name || '(unnamed)') + ' (does not read: ' + p.error + ')' : p.line;
    };
    const sel = el('select', { class: 'problem', 'aria-label': 'the BurrTools problem to open (' + got.problems.length + ' in this file)' },
      got.problems.map((n, i) => el('option', { value: i, text: label(i), selected: i === got.problem })));
    // Another problem is another puzzle: the card is read again, and keeps the keyboard's place.
    sel.addEventListener('change', async () => {
      const next = await importFile(file, Number(sel.value));
      if (!next) return;
      c.remove();
      const again = next.querySelector('select.problem');
      if (again) again.focus();
    });
    c.querySelector('.actions').before(el('label', { class: 'problem-pick' }, 'problem ', sel));
  }
  $('cards').prepend(c);
  drawCard(c, img, got.text);
  return c;
}

/** A dropped puzzle's card drawing, when the server has drawn it. */
async function drawCard(c, img, text) {
  try {
    // A plain fetch: the drawing is an SVG text, not JSON.
    const resp = await fetch('/api/sheet.svg', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ puzzle: text }) });
    const body = await resp.text();
    img.replaceWith(resp.ok ? svgImage(body, 'target and pieces') : el('div', { class: 'nothumb bad', text: 'cannot draw: ' + (JSON.parse(body).error || {}).message }));
  } catch (e) {
    img.textContent = 'cannot draw: ' + e.message;
  }
}

function wireDrop() {
  const zone = $('drop');
  for (const ev of ['dragenter', 'dragover']) {
    document.addEventListener(ev, (e) => { e.preventDefault(); zone.classList.add('over'); });
  }
  document.addEventListener('dragleave', (e) => { if (!e.relatedTarget) zone.classList.remove('over'); });
  document.addEventListener('drop', async (e) => {
    e.preventDefault();
    zone.classList.remove('over');
    const files = Array.from((e.dataTransfer && e.dataTransfer.files) || []);
    if (!files.length) return;
    showTab('library');
    for (const f of files) await importFile(f);
  });
  // A real button, reachable with Tab, opens the (hidden) file chooser.
  $('choose-file').addEventListener('click', () => $('file').click());
  $('file').addEventListener('change', async () => {
    for (const f of Array.from($('file').files)) await importFile(f);
    $('file').value = '';
  });
}

// ---- share links ---------------------------------------------------------------------------

async function share() {
  const url = location.origin + location.pathname + '#' + await shareFragment(editor.text);
  const box = $('share-url');
  box.hidden = false;
  box.value = url;
  box.select();
  editor.origin = editor.text; // shared: no longer work that only this page holds
  try { await navigator.clipboard.writeText(url); $('share').title = 'copied'; } catch (_) { /* shown to copy by hand */ }
}

async function fromHash() {
  let text = null;
  try {
    text = await fromShareFragment(location.hash);
  } catch (e) {
    showTab('library');
    libraryError('This share link holds no puzzle the studio can read: ' + e.message + '.');
    return false;
  }
  if (text !== null) {
    if (text === editor.text) { showTab('editor'); return true; }
    // No question here: a link is opened on purpose, and Undo brings the puzzle before it back.
    runs.reset();
    editor.load(text);
    showTab('editor');
    remember(text, 'editor', false, true);
    return true;
  }
  return false;
}

/** The puzzle saved in this browser by the last visit, back in the editor (Library shows). */
function restore() {
  let text = null;
  let edited = true;
  try {
    text = localStorage.getItem(SAVED);
    edited = localStorage.getItem(EDITED) !== '0';
  } catch (_) { /* storage off */ }
  if (!text || text === BLANK) return;
  editor.load(text);
  editor.past = []; // nothing before it this visit
  // Work that was the user's own stays so: opening another puzzle asks first.
  if (edited) editor.origin = '';
  editor.render();
  const note = $('restored');
  note.hidden = false;
  note.textContent = '';
  note.append('Your puzzle "' + title(text) + '" from last time is in the editor. ',
    el('button', { type: 'button', class: 'link', id: 'restored-open', text: 'Go on editing it', onclick: () => { note.hidden = true; showTab('editor'); } }));
}

// ---- start -----------------------------------------------------------------------------------

for (const t of TABS) $('tab-' + t).onclick = () => showTab(t);
$('share').onclick = share;
wireDrop();
showTab('library');
restore();
grids();
library();
fromHash().then((opened) => { if (!opened) remember(editor.text, 'library', false); });
window.addEventListener('hashchange', fromHash);
// The page's tab as the entry's, so that Back from another puzzle shows the tab it was on.
for (const t of TABS) $('tab-' + t).addEventListener('click', () => remember(editor.text, t, false));
window.cubesatStudio = { editor, runs, showTab };
