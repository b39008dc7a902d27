// cubesat studio: the page. Tabs (library, editor, solve), the library of bundled and dropped
// puzzles, and the share link (the puzzle in the URL's fragment, which no server sees).

import { $, api, el, fromShareFragment, shareFragment, svgImage, upload } from './api.js';
import { Editor } from './editor.js';
import { Runs } from './runs.js';

const TABS = ['library', 'editor', 'solve'];

function showTab(name) {
  for (const t of TABS) {
    $(t).hidden = t !== name;
    $('tab-' + t).classList.toggle('on', t === name);
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
const editor = new Editor((text) => {
  $('current').textContent = title(text);
  $('run-title').textContent = title(text);
  $('share-url').hidden = true;
});
runs = new Runs(editor, (text) => { editor.load(text); showTab('editor'); });

// Keep the STL piece menu in step with the editor's checked puzzle.
const showCheck = editor.showCheck.bind(editor);
editor.showCheck = () => {
  showCheck();
  const a = editor.checked;
  if (a && a.ok) runs.pieces(a.info.pieces.map((p) => p.name));
  $('run-valid').textContent = a && !a.ok ? 'the puzzle has an error: ' + a.error.message : '';
};

function open(text, tab) {
  runs.reset();
  editor.load(text);
  showTab(tab);
}

// ---- the library ---------------------------------------------------------------------------

function card(key, name, lines, image, text) {
  const c = el('div', { class: 'card', 'data-key': key },
    el('div', { class: 'thumb' }, image),
    el('h3', { text: name }),
    ...lines.map((l) => el('p', { text: l })),
    el('div', { class: 'actions' },
      el('button', { class: 'open primary', text: 'Solve', onclick: async () => open(await text(), 'solve') }),
      el('button', { class: 'edit', text: 'Edit', onclick: async () => open(await text(), 'editor') })));
  return c;
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
  for (const g of Array.from(new Set(items.map((p) => p.grid))).sort()) {
    $('lib-grid').appendChild(el('option', { value: g, text: g }));
  }
  for (const id of ['lib-search', 'lib-family', 'lib-grid', 'lib-status']) {
    $(id).addEventListener(id === 'lib-search' ? 'input' : 'change', filterCatalog);
  }
  $('lib-filters').addEventListener('submit', (e) => e.preventDefault());
  filterCatalog();
  box.dataset.loaded = String(items.length);
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
  const lines = [file.name + (got.problems.length ? ' (BurrTools, problem ' + got.problem + (got.problems[got.problem] ? " '" + got.problems[got.problem] + "'" : '') + ')' : '')];
  const c = card(key, title(got.text), lines.concat(got.notes.map((n) => 'note: ' + n)), img, async () => got.text);
  c.classList.add('dropped');
  if (got.problems.length > 1) {
    const sel = el('select', { class: 'problem', title: 'the BurrTools problem to read' },
      got.problems.map((n, i) => el('option', { value: i, text: i + ': ' + (n || '(unnamed)'), selected: i === got.problem })));
    sel.addEventListener('change', () => { c.remove(); importFile(file, Number(sel.value)); });
    c.querySelector('.actions').prepend(sel);
  }
  $('cards').prepend(c);
  try {
    const resp = await fetch('/api/sheet.svg', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ puzzle: got.text }) });
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
  try { await navigator.clipboard.writeText(url); $('share').title = 'copied'; } catch (_) { /* shown to copy by hand */ }
}

async function fromHash() {
  let text = null;
  try {
    text = await fromShareFragment(location.hash);
  } catch (e) {
    libraryError('the link holds no readable puzzle: ' + e.message);
  }
  if (text !== null) {
    open(text, 'editor');
    return true;
  }
  return false;
}

// ---- start -----------------------------------------------------------------------------------

for (const t of TABS) $('tab-' + t).onclick = () => showTab(t);
$('share').onclick = share;
wireDrop();
showTab('library');
library();
fromHash();
window.addEventListener('hashchange', fromHash);
window.cubesatStudio = { editor, runs, showTab };
