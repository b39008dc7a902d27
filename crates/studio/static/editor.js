// cubesat studio: the puzzle editor. The puzzle is its file text (cubesat JSON); the target's
// containers and each piece are edited as layers of cells (clicked, typed as layer art, or
// stepped through with the arrow keys), on the puzzle's grid as its layers are typed (squares
// for cubes, balls in the layer frame, triangles for prisms, hexagons: docs/grids.md; a grid
// typed in its own 3D coordinates is edited as JSON); every change, opening another puzzle
// included, is one step of undo/redo, and the server checks each version with the library's
// own reader, whose one-line errors are shown at the piece, layer and row they name.

import { $, api, el, pretty } from './api.js';

const HISTORY = 500;
const DRAW_LIMIT = 40; // grids wider, deeper or taller than this are edited as JSON
const EMPTY = new Set(['.', ' ', undefined]);
const SVG = 'http://www.w3.org/2000/svg';
const TRIANGLE = 30; // a triangle's side in the picture, px
const HEXAGON = 26; // a hexagon's width across its flat sides, px
const GAP = 1.5; // each drawn triangle or hexagon is this much inside its cell, px
const PAD = 3;

/** A blank puzzle for "New": one empty target layer, one empty piece. */
export const BLANK = pretty({
  name: 'my puzzle',
  target: { layers: [['']] },
  pieces: [{ name: 'A', layers: [['']] }],
}) + '\n';

// ---- grids: z -> y -> x -> character ---------------------------------------------------

function gridOfLayers(layers) {
  return (layers || []).map((layer) => (Array.isArray(layer) ? layer : []).map((row) => Array.from(String(row))));
}

function gridOfCells(cells, ch, grid) {
  grid = grid || [];
  for (const c of cells || []) {
    if (!Array.isArray(c) || c.length < 3 || c.slice(0, 3).some((v) => !Number.isInteger(v) || v < 0 || v > 1024)) continue;
    const [x, y, z] = c;
    while (grid.length <= z) grid.push([]);
    while (grid[z].length <= y) grid[z].push([]);
    grid[z][y][x] = ch;
  }
  return grid;
}

function gridOfSpec(spec) {
  if (!spec || typeof spec !== 'object') return null;
  if (Array.isArray(spec.box)) {
    const [sx, sy, sz] = spec.box;
    if (![sx, sy, sz].every((v) => Number.isInteger(v) && v > 0 && v <= DRAW_LIMIT)) return null;
    return Array.from({ length: sz }, () => Array.from({ length: sy }, () => Array(sx).fill('#')));
  }
  if (Array.isArray(spec.layers)) return gridOfLayers(spec.layers);
  if (Array.isArray(spec.cells)) return gridOfCells(spec.optional, '+', gridOfCells(spec.cells, '#'));
  return null;
}

/** The grid's extent: [x, y, z] past the last non-empty cell. */
function extent(grid) {
  const e = [0, 0, 0];
  grid.forEach((layer, z) => (layer || []).forEach((row, y) => (row || []).forEach((ch, x) => {
    if (!EMPTY.has(ch)) { e[0] = Math.max(e[0], x + 1); e[1] = Math.max(e[1], y + 1); e[2] = Math.max(e[2], z + 1); }
  })));
  return e;
}

function layersOfGrid(grid) {
  const [w, h, d] = extent(grid);
  if (!d) return [['.']];
  const out = [];
  for (let z = 0; z < d; z++) {
    const rows = [];
    for (let y = 0; y < h; y++) {
      let s = '';
      for (let x = 0; x < w; x++) {
        const ch = ((grid[z] || [])[y] || [])[x];
        s += EMPTY.has(ch) ? '.' : ch;
      }
      rows.push(s);
    }
    out.push(rows);
  }
  return out;
}

function layersText(layers) {
  return layers.map((l) => l.join('\n')).join('\n\n');
}

// ---- layers of triangles and hexagons ---------------------------------------------------

function svgEl(tag, attrs, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) e.setAttribute(k, String(v));
  for (const c of children) if (c) e.appendChild(c);
  return e;
}

/** Typed cell [x, y] of a layer in the picture: its corners and centre in px, and for a
 *  triangle whether it points up. Triangles (the prism grid's typed frame): [x, y] points up
 *  when x + y is even and overlaps [x + 1, y] by half its width, so that they share a side.
 *  Hexagons: pointy-topped, rows top down, each row half a hexagon right of the one above. */
function outline(shape, x, y) {
  let pts, c, up;
  if (shape === 'triangle') {
    const s = TRIANGLE, h = s * Math.sqrt(3) / 2, l = PAD + x * s / 2, t = PAD + y * h;
    up = (x + y) % 2 === 0;
    pts = up ? [[l, t + h], [l + s / 2, t], [l + s, t + h]] : [[l, t], [l + s, t], [l + s / 2, t + h]];
    c = [l + s / 2, up ? t + 2 * h / 3 : t + h / 3];
  } else {
    const w = HEXAGON, r = w / Math.sqrt(3);
    c = [PAD + w / 2 + (x + y / 2) * w, PAD + r + y * 1.5 * r];
    pts = [];
    for (let k = 0; k < 6; k++) {
      const a = Math.PI / 6 + k * Math.PI / 3;
      pts.push([c[0] + r * Math.cos(a), c[1] - r * Math.sin(a)]);
    }
  }
  // Drawn a little inside the cell, so that a cell's focus ring never hides under its neighbour.
  const inr = shape === 'triangle' ? TRIANGLE / (2 * Math.sqrt(3)) : HEXAGON / 2;
  const f = (inr - GAP) / inr;
  const points = pts.map(([px, py]) => (c[0] + (px - c[0]) * f).toFixed(1) + ',' + (c[1] + (py - c[1]) * f).toFixed(1)).join(' ');
  return { points, c, up };
}

/** The picture's size in px for W columns and H rows of typed cells. */
function pictureSize(shape, W, H) {
  if (shape === 'triangle') return [2 * PAD + (W + 1) * TRIANGLE / 2, 2 * PAD + H * TRIANGLE * Math.sqrt(3) / 2];
  const r = HEXAGON / Math.sqrt(3);
  return [2 * PAD + (W + (H - 1) / 2) * HEXAGON, 2 * PAD + 2 * r + (H - 1) * 1.5 * r];
}

// ---- the target's containers ---------------------------------------------------------------

function containersOf(target) {
  if (!target || typeof target !== 'object') return [];
  if (Array.isArray(target.containers)) return target.containers.slice();
  if (Array.isArray(target.boxes)) return target.boxes.map((b) => ({ box: b }));
  return [target];
}

function targetOf(specs) {
  return specs.length === 1 ? specs[0] : { containers: specs };
}

// ---- places named by the library's errors ------------------------------------------------

/** What an error's place points at: an item, a layer and row, a hint, a line of the JSON. */
export function locate(place) {
  let m;
  const at = {};
  if ((m = /^line (\d+), column (\d+)/.exec(place))) return { line: +m[1], column: +m[2] };
  if ((m = /^pieces\[(\d+)\](.*)$/.exec(place))) {
    at.item = { kind: 'piece', index: +m[1] };
    place = m[2];
  } else if ((m = /^target(?:\.containers\[(\d+)\])?(.*)$/.exec(place))) {
    at.item = { kind: 'target', index: m[1] ? +m[1] : 0 };
    place = m[2];
  } else if ((m = /^hints\[(\d+)\]/.exec(place))) {
    return { hint: +m[1], item: { kind: 'target', index: 0 } };
  } else {
    return at;
  }
  if ((m = /^\.layers\[(\d+)\](?:\[(\d+)\])?/.exec(place))) {
    at.z = +m[1];
    if (m[2] !== undefined) at.y = +m[2];
  }
  return at;
}

function sameItem(a, b) {
  return a && b && a.kind === b.kind && a.index === b.index;
}

/** A CSS colour named by a piece's name ("red", "darkgreen", "light blue"), or null: pieces
 *  named after their colour (IQ Puzzler Pro's) are drawn in it. */
export function nameColour(name) {
  const c = String(name || '').toLowerCase().replace(/[\s_-]+/g, '');
  if (!/^[a-z]{3,20}$/.test(c) || ['transparent', 'inherit', 'initial', 'unset', 'currentcolor', 'revert'].includes(c)) return null;
  return typeof CSS !== 'undefined' && CSS.supports('color', c) ? c : null;
}

const inks = new Map(); // CSS colour -> the ink that reads on it, worked out once

/** Black or white, whichever reads on this CSS colour. */
function inkOn(colour) {
  if (!inks.has(colour)) inks.set(colour, inkFor(colour));
  return inks.get(colour);
}

function inkFor(colour) {
  const probe = document.createElement('i');
  probe.style.color = colour;
  document.body.appendChild(probe);
  const m = /(\d+), (\d+), (\d+)/.exec(getComputedStyle(probe).color);
  probe.remove();
  if (!m) return '#000';
  const [r, g, b] = m.slice(1).map(Number);
  return 0.299 * r + 0.587 * g + 0.114 * b > 140 ? '#000' : '#fff';
}

export class Editor {
  /** `onChange(text)` hears every new version of the puzzle text. */
  constructor(onChange) {
    this.onChange = onChange || (() => {});
    this.text = BLANK;
    this.origin = BLANK; // the text as last opened: work differs from it
    this.grids = []; // the library's grids (GET /api/grids): [{name, title, cell_noun, frame, default, ...}]
    this.focusCell = null; // the grid cell the keyboard is on, kept across redraws
    this.past = [];
    this.future = [];
    this.item = { kind: 'target', index: 0 };
    this.tool = '#';
    this.hint = null; // {piece, cells: Set of "x,y,z"} while a hint is being placed
    this.checked = null; // the last check's answer
    this.checkedText = null;
    this.checking = false;
    this.timer = null;
    this.view = 'grid';
    this.wire();
    this.render();
  }

  // ---- history -----------------------------------------------------------------------

  /** Replaces the puzzle (a library puzzle, a dropped file, Back): one step of undo, so that
   *  the puzzle it replaced is never lost. */
  load(text) {
    if (text !== this.text) {
      this.past.push(this.text);
      if (this.past.length > HISTORY) this.past.shift();
      this.future = [];
    }
    clearTimeout(this.artTimer);
    this.pendingArt = null; // art typed for the puzzle being replaced
    this.text = text;
    this.origin = text;
    this.item = { kind: 'target', index: 0 };
    this.hint = null;
    this.focusCell = null;
    this.render({ art: true, json: true });
  }

  /** Opens a puzzle as the user asked for it (New): the page puts a prompt and a history entry
   *  around it (app.js). */
  requestLoad(text) {
    this.load(text);
  }

  /** Work that opening another puzzle would replace: edits since this one was opened. */
  unsaved() {
    return this.text !== this.origin && this.text !== BLANK;
  }

  /** The puzzle's grid: its `grid` key, or the library's default grid (what a file with no
   *  `grid` key means; '' until the grid list has come). */
  gridName(m) {
    return (m && typeof m.grid === 'string' && m.grid) || this.defaultGrid();
  }

  /** The name of the grid a file with no `grid` key means, from the server's grid list. */
  defaultGrid() {
    const d = this.grids.find((g) => g.default);
    return d ? d.name : '';
  }

  /** The puzzle's grid as the server describes it, or null (an unknown name, or no list yet). */
  grid(m) {
    return this.grids.find((g) => g.name === this.gridName(m)) || null;
  }

  /** Whether the grid's cells are balls: the server's word for it when its check said, else
   *  the grid list's. */
  balls(m) {
    const info = this.checked && this.checked.ok && this.checked.info;
    // A check of the puzzle as it was before its grid changed says nothing of the new grid.
    if (info && info.cell_noun && info.grid === this.gridName(m)) return info.cell_noun === 'ball';
    const g = this.grid(m);
    return !!g && g.cell_noun === 'ball';
  }

  /** How a cell of a typed layer is drawn (the server's `typed_cell`): 'square', 'ball',
   *  'triangle' or 'hexagon'; null where the grid's cells are typed in its own 3D coordinates,
   *  which no layer draws. Squares until the grid list has come, and for a grid it lacks. */
  cellShape(m) {
    const g = this.grid(m);
    return g && 'typed_cell' in g ? g.typed_cell : 'square';
  }

  /** One edit: the new text becomes the current version. */
  commit(text, keep) {
    if (text === this.text) return;
    this.past.push(this.text);
    if (this.past.length > HISTORY) this.past.shift();
    this.future = [];
    this.text = text;
    this.render(keep || { art: true, json: true });
  }

  undo() {
    if (!this.past.length) return;
    this.future.push(this.text);
    this.text = this.past.pop();
    this.render({ art: true, json: true });
  }

  redo() {
    if (!this.future.length) return;
    this.past.push(this.text);
    this.text = this.future.pop();
    this.render({ art: true, json: true });
  }

  /** The puzzle as an object, or null while its JSON does not parse. */
  model() {
    try {
      const v = JSON.parse(this.text);
      return v && typeof v === 'object' && !Array.isArray(v) ? v : null;
    } catch (_) {
      return null;
    }
  }

  /** Layer art still waiting to be applied, applied now to the item it was typed for (before
   *  another edit or selection changes what the art box shows). */
  flushArt() {
    if (!this.pendingArt) return;
    clearTimeout(this.artTimer);
    this.pendingArt();
  }

  /** Applies `f` to a copy of the model and commits the result. */
  edit(f, keep) {
    this.flushArt();
    const m = this.model();
    if (!m) return;
    f(m);
    this.commit(pretty(m) + '\n', keep);
  }

  // ---- the selected item's grid ------------------------------------------------------

  /** The grid of the selected item, `null` when it cannot be drawn (`why`, and `json` when the
   *  grid is never drawn in layers); `readonly` says why not editable. */
  itemGrid(m) {
    if (!m) return { grid: null, why: 'The JSON does not parse; fix it in the JSON view (the error shows where).' };
    if (!this.cellShape(m)) {
      const g = this.grid(m);
      return { grid: null, json: true, why: 'Cells of ' + g.title + " are typed in the grid's own 3D coordinates, not in layers, so the editor cannot draw them: edit this puzzle in the JSON view." };
    }
    if (this.item.kind === 'piece') {
      const p = (m.pieces || [])[this.item.index];
      if (!p) return { grid: null, why: '' };
      if (p.colours) return { grid: gridOfCells(p.cells, '#'), readonly: 'A coloured piece: its colours are kept in the JSON view, where it is edited.' };
      const grid = Array.isArray(p.layers) ? gridOfLayers(p.layers) : gridOfCells(p.cells, '#');
      return this.drawable(grid);
    }
    const spec = containersOf(m.target)[this.item.index];
    const grid = gridOfSpec(spec);
    if (!grid) return { grid: null, why: 'This container is larger than the grid draws; edit it in the JSON view.' };
    return this.drawable(grid);
  }

  drawable(grid) {
    const [w, h, d] = extent(grid);
    if (Math.max(w, h, d) >= DRAW_LIMIT) return { grid: null, why: 'Larger than the grid draws (' + DRAW_LIMIT + ' cells a side); edit it in the JSON view.' };
    return { grid };
  }

  /** Writes the layers of `item` (the selected one by default). */
  setLayers(m, layers, item) {
    item = item || this.item;
    if (item.kind === 'piece') {
      const p = m.pieces[item.index];
      if (!p) return;
      delete p.cells;
      p.layers = layers;
    } else {
      const specs = containersOf(m.target);
      if (item.index >= specs.length) return;
      specs[item.index] = { layers };
      m.target = targetOf(specs);
    }
  }

  clickCell(x, y, z) {
    if (this.hint) {
      const k = x + ',' + y + ',' + z;
      if (this.hint.cells.has(k)) this.hint.cells.delete(k); else this.hint.cells.add(k);
      this.renderGrid(this.model());
      return;
    }
    const m = this.model();
    const { grid, readonly } = this.itemGrid(m);
    if (!grid || readonly) return;
    while (grid.length <= z) grid.push([]);
    while (grid[z].length <= y) grid[z].push([]);
    const old = grid[z][y][x];
    const tool = this.item.kind === 'piece' && this.tool === '+' ? '#' : this.tool;
    grid[z][y][x] = old === tool || tool === '.' ? '.' : tool;
    this.edit((mm) => this.setLayers(mm, layersOfGrid(grid)));
  }

  /** Layer art typed for `item`: the item it was typed for, even when another one has been
   *  selected since (the art is applied a moment after the last key). */
  typedArt(text, item) {
    const layers = text.replace(/\n+$/, '').split(/\n[ \t]*\n/).map((b) => b.split('\n'));
    this.edit((m) => this.setLayers(m, layers, item), { json: true });
  }

  // ---- items -------------------------------------------------------------------------

  select(item) {
    this.flushArt();
    this.item = item;
    this.hint = null;
    this.render({ art: true });
    this.scheduleCheck(true);
  }

  addPiece() {
    this.edit((m) => {
      m.pieces = Array.isArray(m.pieces) ? m.pieces : [];
      const names = new Set(m.pieces.map((p) => p && p.name));
      let k = m.pieces.length + 1;
      while (names.has('P' + k)) k++;
      m.pieces.push({ name: 'P' + k, layers: [['#']] });
      this.item = { kind: 'piece', index: m.pieces.length - 1 };
    });
  }

  removePiece(i) {
    this.edit((m) => {
      const name = (m.pieces[i] || {}).name;
      m.pieces.splice(i, 1);
      if (Array.isArray(m.hints)) m.hints = m.hints.filter((h) => h.piece !== name);
      if (m.hints && !m.hints.length) delete m.hints;
      this.item = { kind: 'target', index: 0 };
    });
  }

  addContainer() {
    this.edit((m) => {
      const specs = containersOf(m.target);
      specs.push({ layers: [['#']] });
      m.target = targetOf(specs);
      this.item = { kind: 'target', index: specs.length - 1 };
    });
  }

  removeContainer(k) {
    this.edit((m) => {
      const specs = containersOf(m.target);
      if (specs.length < 2) return;
      specs.splice(k, 1);
      m.target = targetOf(specs);
      this.item = { kind: 'target', index: 0 };
    });
  }

  setPieceField(i, field, value) {
    this.edit((m) => {
      const p = m.pieces[i];
      if (field === 'name') {
        for (const h of m.hints || []) if (h.piece === p.name) h.piece = value;
        p.name = value;
      } else if (field === 'letter') {
        if (value) p.letter = value; else delete p.letter;
      } else if (field === 'count') {
        const [lo, hi] = value;
        if (lo === hi) { if (hi === 1) delete p.count; else p.count = hi; } else p.count = [lo, hi];
      }
    });
  }

  // ---- hints -------------------------------------------------------------------------

  startHint(piece) {
    this.item = { kind: 'target', index: this.item.kind === 'target' ? this.item.index : 0 };
    this.hint = { piece, cells: new Set() };
    this.render({ art: true });
  }

  placeHint() {
    const h = this.hint;
    this.hint = null;
    if (!h || !h.cells.size) { this.render(); return; }
    const k = this.item.index;
    this.edit((m) => {
      const cells = Array.from(h.cells).map((s) => s.split(',').map(Number));
      const hint = { piece: h.piece, cells };
      if (containersOf(m.target).length > 1) hint.container = k;
      m.hints = (m.hints || []).concat([hint]);
    });
  }

  removeHint(j) {
    this.edit((m) => {
      m.hints.splice(j, 1);
      if (!m.hints.length) delete m.hints;
    });
  }

  // ---- the server's check --------------------------------------------------------------

  scheduleCheck(now) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.check(), now ? 0 : 250);
  }

  async check() {
    if (this.checking) { this.again = true; return; }
    this.checking = true;
    const text = this.text;
    const view = this.item.kind === 'piece' ? this.item.index : null;
    const key = text + '\u0000' + view;
    try {
      if (key !== this.checkedKey) {
        let answer;
        try {
          answer = await api('/api/check', { puzzle: text, view });
        } catch (e) {
          answer = { ok: false, error: { message: e.message, place: e.place || '' } };
        }
        this.checked = answer;
        this.checkedKey = key;
        this.showCheck();
      }
    } finally {
      this.checking = false;
      if (this.again) { this.again = false; this.scheduleCheck(true); }
    }
  }

  /** The check's figures, error and 3D view on the page. */
  showCheck() {
    const a = this.checked;
    if (!a) return;
    const err = $('ed-error');
    const status = $('ed-status');
    this.errorAt = null;
    if (!a.ok) {
      // A JSON syntax error names its line in the message itself.
      const at = locate(a.error.place || a.error.message);
      this.errorAt = at;
      err.hidden = false;
      err.textContent = '';
      err.appendChild(el('span', { class: 'msg', text: a.error.message }));
      if (at.item && !sameItem(at.item, this.item) && !at.hint) {
        err.appendChild(el('button', { class: 'link', text: 'show ' + this.itemName(at.item), onclick: () => this.select(at.item) }));
      }
      if (at.line) {
        err.appendChild(el('button', { class: 'link', text: 'show line ' + at.line, onclick: () => { this.setView('json'); this.showJsonLine(at.line); } }));
      }
      status.textContent = 'not valid';
      status.className = 'bad';
    } else {
      err.hidden = true;
      status.textContent = 'valid: ' + a.info.placements + ' placements';
      status.className = 'ok';
      const frame = $('preview');
      if (frame.srcdoc !== a.view) frame.srcdoc = a.view;
    }
    this.renderItems(this.model());
    this.renderInfo();
    this.renderGrid(this.model());
    this.markArt();
  }

  itemName(item) {
    const m = this.model();
    if (item.kind === 'piece') {
      const p = m && (m.pieces || [])[item.index];
      return 'piece ' + (p && p.name ? "'" + p.name + "'" : item.index + 1);
    }
    return containersOf(m && m.target).length > 1 ? 'container ' + (item.index + 1) : 'the target';
  }

  // ---- rendering ---------------------------------------------------------------------

  setView(v) {
    this.view = v;
    $('mode-grid').classList.toggle('on', v === 'grid');
    $('mode-json').classList.toggle('on', v === 'json');
    $('ed-main').hidden = v !== 'grid';
    $('ed-json').hidden = v !== 'json';
    if (v === 'json') $('json').value = this.text;
  }

  showJsonLine(line) {
    const ta = $('json');
    const lines = ta.value.split('\n');
    let start = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) start += lines[i].length + 1;
    ta.focus();
    ta.setSelectionRange(start, start + (lines[line - 1] || '').length);
  }

  /** Redraws everything from the text; `keep.art`/`keep.json` refresh those text areas too. */
  render(refresh) {
    refresh = refresh || {};
    const m = this.model();
    $('undo').disabled = !this.past.length;
    $('redo').disabled = !this.future.length;
    if (refresh.json !== false && (refresh.json || document.activeElement !== $('json'))) $('json').value = this.text;
    this.renderSettings(m);
    this.renderItems(m);
    this.renderProps(m);
    this.renderGrid(m);
    if (refresh.art) this.renderArt(m);
    this.renderInfo();
    this.onChange(this.text);
    this.scheduleCheck();
  }

  renderSettings(m) {
    const on = !!m;
    for (const id of ['p-name', 'p-grid', 'p-mirror', 'p-counting', 'p-holes']) $(id).disabled = !on;
    if (!m) return;
    this.renderGridMenu(m);
    if (document.activeElement !== $('p-name')) $('p-name').value = m.name || '';
    $('p-mirror').checked = !!m.mirror;
    $('p-counting').value = m.counting || '';
    if (document.activeElement !== $('p-holes')) $('p-holes').value = m.max_holes === undefined ? '' : m.max_holes;
  }

  /** The list of the target's containers and the pieces. Its buttons are updated in place,
   *  never rebuilt: a field committed on blur (the name) redraws the list between the
   *  mousedown and the click of the button pressed next, and a rebuilt button lost that click. */
  /** The grid menu: the library's grids (the server's list), and this puzzle's if it names
   *  another (the check then says what is wrong with it). */
  renderGridMenu(m) {
    const sel = $('p-grid');
    const name = this.gridName(m);
    const grids = this.grids.slice();
    if (name && !grids.some((g) => g.name === name)) grids.push({ name, title: 'not a grid the studio knows' });
    const key = grids.map((g) => g.name).join('|');
    if (sel.dataset.key !== key) {
      sel.textContent = '';
      for (const g of grids) sel.appendChild(el('option', { value: g.name, text: g.name, title: g.title }));
      sel.dataset.key = key;
    }
    sel.value = name;
  }

  /** The grids to offer: the server's list (GET /api/grids). */
  setGrids(grids) {
    this.grids = grids;
    const m = this.model();
    if (!m) return;
    // The menu, and the cells' nouns and drawing, which the grid list may tell for the first time.
    this.renderGridMenu(m);
    this.renderItems(m);
    this.renderGrid(m);
  }

  renderItems(m) {
    const box = $('items');
    const want = [];
    if (m) {
      const info = this.checked && this.checked.ok && this.checked.info;
      const obstacles = (this.checked && this.checked.obstacles) || [];
      const errItem = this.errorAt && this.errorAt.item;
      const specs = containersOf(m.target);
      specs.forEach((_, k) => {
        const item = { kind: 'target', index: k };
        const sub = info ? (k === 0 ? info.must + ' must-fill, ' + info.optional + ' optional cells' : info.containers[k] || '') : '';
        want.push({
          key: 'target-' + k,
          cls: 'item' + (sameItem(item, this.item) ? ' sel' : '') + (sameItem(item, errItem) ? ' err' : ''),
          label: specs.length > 1 ? 'Container ' + (k + 1) : 'Target',
          sub,
        });
      });
      (m.pieces || []).forEach((p, i) => {
        const item = { kind: 'piece', index: i };
        const pi = info && info.pieces[i];
        const name = p && typeof p.name === 'string' ? p.name : '?';
        const count = Array.isArray(p && p.count) ? p.count.join('..') : (p && p.count) || 1;
        const stuck = obstacles.some((o) => o.startsWith("piece '" + name + "' "));
        want.push({
          key: 'piece-' + i,
          cls: 'item' + (sameItem(item, this.item) ? ' sel' : '') + (sameItem(item, errItem) ? ' err' : '') + (stuck ? ' stuck' : ''),
          label: name + (count !== 1 ? ' \u00d7' + count : ''),
          sub: stuck ? 'fits nowhere in the target' : pi ? pi.cells + ' ' + this.noun(m, pi.cells) + ', ' + pi.orientations + ' orientations, ' + pi.placements + ' placements' : '',
          colour: nameColour(name),
        });
      });
    }
    const have = new Map(Array.from(box.querySelectorAll('button.item')).map((b) => [b.dataset.item, b]));
    let at = box.firstChild;
    for (const w of want) {
      let b = have.get(w.key);
      if (!b) b = el('button', { type: 'button', 'data-item': w.key }, el('b'), el('small'));
      have.delete(w.key);
      b.className = w.cls;
      b.setAttribute('aria-pressed', String(w.cls.includes(' sel')));
      if (b.firstChild.textContent !== w.label) b.firstChild.textContent = w.label;
      if (b.lastChild.textContent !== w.sub) b.lastChild.textContent = w.sub;
      b.firstChild.style.borderLeft = w.colour ? '12px solid ' + w.colour : '';
      b.firstChild.style.paddingLeft = w.colour ? '5px' : '';
      if (b !== at) box.insertBefore(b, at); else at = at.nextSibling;
    }
    for (const b of have.values()) b.remove();
    if (!$('add-piece')) {
      box.appendChild(el('button', { type: 'button', id: 'add-piece', class: 'add', text: '+ piece', onclick: () => this.addPiece() }));
      box.appendChild(el('button', { type: 'button', id: 'add-container', class: 'add', text: '+ container', onclick: () => this.addContainer() }));
    }
    $('add-piece').hidden = $('add-container').hidden = !m;
  }

  /** "cube"/"cubes" or "ball"/"balls": the grid's cells in words. */
  noun(m, n) {
    const info = this.checked && this.checked.ok && this.checked.info;
    const grid = this.grid(m);
    const one = (info && info.cell_noun) || (grid && grid.cell_noun) || 'cell';
    return n === 1 ? one : one + 's';
  }

  renderProps(m) {
    const box = $('item-props');
    box.textContent = '';
    if (!m) return;
    if (this.item.kind === 'piece') {
      const i = this.item.index;
      const p = (m.pieces || [])[i];
      if (!p) return;
      const [lo, hi] = Array.isArray(p.count) ? p.count : [p.count || 1, p.count || 1];
      const field = (label, attrs) => el('label', {}, label + ' ', el('input', attrs));
      const lo_ = el('input', { id: 'piece-min', type: 'number', min: 0, value: lo, title: 'fewest copies a solution uses' });
      const hi_ = el('input', { id: 'piece-count', type: 'number', min: 1, value: hi, title: 'copies (most copies, with a range)' });
      const setCount = () => this.setPieceField(i, 'count', [Math.min(+lo_.value, +hi_.value), +hi_.value]);
      lo_.addEventListener('change', setCount);
      hi_.addEventListener('change', () => { if (!Array.isArray(p.count)) lo_.value = hi_.value; setCount(); });
      box.append(
        field('name', { id: 'piece-name', value: p.name || '', size: 10, onchange: (e) => this.setPieceField(i, 'name', e.target.value) }),
        field('letter', { id: 'piece-letter', value: p.letter || '', size: 2, maxlength: 2, onchange: (e) => this.setPieceField(i, 'letter', e.target.value) }),
        el('label', { title: 'copies; a range lets a solution use any number from min to max' }, 'copies ', lo_, ' to ', hi_),
        el('button', { id: 'hint-piece', text: 'place as hint', title: 'fix one copy of this piece in the target', onclick: () => this.startHint(p.name) }),
        el('button', { class: 'danger', text: 'remove piece', onclick: () => this.removePiece(i) }),
      );
      return;
    }
    const specs = containersOf(m.target);
    if (this.hint) {
      box.append(
        el('span', { class: 'note', text: "Placing a hint of piece '" + this.hint.piece + "': click its cells in the target, then " }),
        el('button', { id: 'hint-done', text: 'place hint', onclick: () => this.placeHint() }),
        el('button', { text: 'cancel', onclick: () => { this.hint = null; this.render(); } }),
      );
    } else if (specs.length > 1) {
      box.append(el('button', { class: 'danger', text: 'remove container ' + (this.item.index + 1), onclick: () => this.removeContainer(this.item.index) }));
    }
    const hints = Array.isArray(m.hints) ? m.hints : [];
    if (hints.length) {
      const list = el('div', { id: 'hints' }, el('b', { text: 'hints: ' }));
      hints.forEach((h, j) => {
        const bad = this.errorAt && this.errorAt.hint === j;
        list.append(el('span', { class: 'hint' + (bad ? ' err' : '') },
          String(h.piece) + (h.container ? ' in container ' + (h.container + 1) : '') + ' ',
          el('button', { class: 'link', text: '\u00d7', title: 'remove this hint', onclick: () => this.removeHint(j) })));
      });
      box.append(list);
    }
  }

  /** Hint cells of the selected container: "x,y,z" -> piece letter. */
  hintCells(m) {
    const out = new Map();
    if (this.item.kind !== 'target') return out;
    const pieces = m.pieces || [];
    for (const h of Array.isArray(m.hints) ? m.hints : []) {
      if ((h.container || 0) !== this.item.index) continue;
      const p = pieces.find((q) => q && q.name === h.piece);
      const letter = (p && (p.letter || p.name) || '?')[0].toLowerCase();
      for (const c of h.cells || []) if (Array.isArray(c)) out.set(c.slice(0, 3).join(','), letter);
    }
    return out;
  }

  renderGrid(m) {
    const box = $('grid');
    const hadFocus = box.contains(document.activeElement);
    box.textContent = '';
    const { grid, why, readonly, json } = this.itemGrid(m);
    $('tools').hidden = !grid || !!readonly;
    $('tool-opt').parentElement.hidden = this.item.kind === 'piece';
    if (!grid) {
      box.appendChild(el('p', { class: 'note', text: why }));
      if (json) box.appendChild(el('button', { type: 'button', id: 'open-json', text: 'Open the JSON view', onclick: () => { this.setView('json'); $('json').focus(); } }));
      $('art').disabled = true;
      return;
    }
    $('art').disabled = !!readonly;
    if (readonly) box.appendChild(el('p', { class: 'note', text: readonly }));
    const balls = this.balls(m);
    const shape = this.cellShape(m);
    box.classList.toggle('balls', balls);
    $('tools-noun').textContent = $('art-noun').textContent = this.noun(m, 1);
    const hints = this.hintCells(m);
    const [w, h, d] = extent(grid);
    const err = this.errorAt && sameItem(this.errorAt.item, this.item) ? this.errorAt : null;
    const piece = this.item.kind === 'piece' ? (m.pieces || [])[this.item.index] : null;
    const colour = piece && nameColour(piece.name);
    // One more row, column and layer than the item uses, to grow it by clicking.
    const grow = readonly ? 0 : 1;
    const W = Math.max(w, 1) + grow, H = Math.max(h, 1) + grow;
    const D = Math.min(Math.max(d, 1) + grow, DRAW_LIMIT);
    // The keyboard's cell: one cell of the grid takes Tab, the arrow keys move it (roving focus).
    let f = this.focusCell;
    if (!f || f.x >= W || f.y >= H || f.z >= D) f = this.focusCell = { x: 0, y: 0, z: 0 };
    const what = (ch) => ch === '#' ? this.noun(m, 1) : ch === '+' ? 'optional' : EMPTY.has(ch) ? 'empty' : "'" + ch + "' (not a cell character)";
    // One cell's classes, label and mark, whatever its outline.
    const cell = (x, y, z, where) => {
      const ch = ((grid[z] || [])[y] || [])[x];
      const k = x + ',' + y + ',' + z;
      let cls = ch === '#' ? 'fill' : ch === '+' ? 'opt' : EMPTY.has(ch) ? '' : 'bad';
      if (x >= w || y >= h || z >= d) cls += ' grow';
      if (hints.has(k)) cls += ' hinted';
      if (this.hint && this.hint.cells.has(k)) cls += ' pick';
      const label = where + ': ' + what(ch) + (hints.has(k) ? ', hint ' + hints.get(k) : '') + (this.hint && this.hint.cells.has(k) ? ', picked for the hint' : '');
      return { ch, k, cls, label, mark: hints.get(k) || (cls.includes('bad') ? ch : ''), here: f.x === x && f.y === y && f.z === z };
    };
    let focusEl = null;
    for (let z = 0; z < D; z++) {
      const name = 'layer z = ' + z + (z >= d ? ' (new)' : '');
      const badLayer = err && err.z === z;
      let layer;
      if (shape === 'triangle' || shape === 'hexagon') {
        const [pw, ph] = pictureSize(shape, W, H);
        layer = svgEl('svg', { class: 'layer ' + shape + (badLayer ? ' err' : ''), 'data-z': z, role: 'grid', 'aria-label': name, width: pw.toFixed(0), height: ph.toFixed(0), viewBox: '0 0 ' + pw.toFixed(1) + ' ' + ph.toFixed(1) });
        const marks = svgEl('g', { 'aria-hidden': 'true', class: 'marks' });
        for (let y = 0; y < H; y++) {
          const row = svgEl('g', { role: 'row', class: badLayer && err.y === y ? 'err' : null });
          for (let x = 0; x < W; x++) {
            const o = outline(shape, x, y);
            const where = (shape === 'triangle' ? 'triangle ' : 'hexagon ') + x + ', row ' + y + (shape === 'triangle' ? (o.up ? ', pointing up' : ', pointing down') : '');
            const c = cell(x, y, z, where);
            const p = svgEl('polygon', { points: o.points, class: ('cell ' + c.cls).trim(), 'data-x': x, 'data-y': y, 'data-z': z, role: 'gridcell', tabindex: c.here ? 0 : -1, 'aria-label': c.label });
            p.appendChild(svgEl('title', {}, document.createTextNode('(' + c.k + ')')));
            if (colour && c.ch === '#') p.style.fill = colour;
            if (c.mark) {
              const t = svgEl('text', { x: o.c[0].toFixed(1), y: o.c[1].toFixed(1), class: c.cls.includes('fill') && !colour ? 'on-fill' : null }, document.createTextNode(c.mark));
              if (colour && c.ch === '#') t.style.fill = inkOn(colour);
              marks.appendChild(t);
            }
            if (c.here) focusEl = p;
            row.appendChild(p);
          }
          layer.appendChild(row);
        }
        layer.appendChild(marks);
      } else {
        layer = el('table', { class: 'layer' + (badLayer ? ' err' : ''), 'data-z': z, role: 'grid', 'aria-label': name });
        for (let y = 0; y < H; y++) {
          const tr = el('tr', { class: badLayer && err.y === y ? 'err' : '' });
          for (let x = 0; x < W; x++) {
            const c = cell(x, y, z, 'column ' + x + ', row ' + y);
            const td = el('td', {
              class: c.cls, 'data-x': x, 'data-y': y, 'data-z': z, title: '(' + c.k + ')', role: 'gridcell',
              tabindex: c.here ? 0 : -1, 'aria-label': c.label,
            }, c.mark);
            if (colour && c.ch === '#') { td.style.background = colour; td.style.color = inkOn(colour); }
            if (c.here) focusEl = td;
            tr.appendChild(td);
          }
          layer.appendChild(tr);
        }
      }
      const label = z > 0 && balls ? name + ': its balls sit in the hollows of layer ' + (z - 1) : name;
      box.appendChild(el('div', { class: 'layerbox' }, el('div', { class: 'zlabel', text: label }), layer));
    }
    if (hadFocus && focusEl) focusEl.focus();
  }

  /** The arrow keys and Enter or Space on a grid cell (roving focus, as a WAI-ARIA grid). Up
   *  and down keep the typed column: on hexagons that is the neighbour up-left and down-right
   *  (rows shift half a hexagon), on triangles the one above or below in the picture. */
  gridKey(e) {
    const td = e.target.closest('[data-x]');
    if (!td) return;
    const x = +td.dataset.x, y = +td.dataset.y, z = +td.dataset.z;
    const step = { ArrowLeft: [-1, 0, 0], ArrowRight: [1, 0, 0], ArrowUp: [0, -1, 0], ArrowDown: [0, 1, 0], PageUp: [0, 0, -1], PageDown: [0, 0, 1] }[e.key];
    if (step) {
      e.preventDefault();
      const next = $('grid').querySelector(`[data-x="${x + step[0]}"][data-y="${y + step[1]}"][data-z="${z + step[2]}"]`);
      if (!next) return;
      td.tabIndex = -1;
      next.tabIndex = 0;
      next.focus();
      this.focusCell = { x: x + step[0], y: y + step[1], z: z + step[2] };
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.focusCell = { x, y, z };
      this.clickCell(x, y, z);
    }
  }

  renderArt(m) {
    const { grid } = this.itemGrid(m);
    const ta = $('art');
    if (!grid) { ta.value = ''; return; }
    let layers;
    if (this.item.kind === 'piece' && m.pieces[this.item.index] && Array.isArray(m.pieces[this.item.index].layers)) {
      layers = m.pieces[this.item.index].layers;
    } else if (this.item.kind === 'target' && Array.isArray((containersOf(m.target)[this.item.index] || {}).layers)) {
      layers = containersOf(m.target)[this.item.index].layers;
    } else {
      layers = layersOfGrid(grid);
    }
    ta.value = layersText(layers.map((l) => (Array.isArray(l) ? l : [String(l)])));
    this.markArt();
  }

  /** Selects the row of the layer art an error names. */
  markArt() {
    const at = this.errorAt;
    const ta = $('art');
    if (!at || !sameItem(at.item, this.item) || at.z === undefined || document.activeElement === ta) return;
    const blocks = ta.value.split(/\n[ \t]*\n/);
    let start = 0;
    for (let z = 0; z < at.z && z < blocks.length; z++) start += blocks[z].length + 2;
    const rows = (blocks[at.z] || '').split('\n');
    const y = at.y === undefined ? 0 : Math.min(at.y, rows.length - 1);
    for (let r = 0; r < y; r++) start += rows[r].length + 1;
    ta.setSelectionRange(start, start + (rows[y] || '').length);
  }

  renderInfo() {
    const box = $('info');
    box.textContent = '';
    const a = this.checked;
    if (!a || !a.ok) return;
    const i = a.info;
    const row = (k, v) => el('tr', {}, el('th', { text: k }), el('td', { text: v }));
    const table = el('table', { class: 'facts' },
      row('target', i.cells + ' cells (' + i.must + ' must-fill, ' + i.optional + ' optional) in ' + i.containers.join(' + ')),
      row('pieces', i.pieces.length + ' shapes, volume ' + (i.volume[0] === i.volume[1] ? i.volume[0] : i.volume.join(' to '))),
      row('placements', String(i.placements) + (i.hints ? ', ' + i.hints + ' hints' : '')),
      ...i.symmetry.map((s) => row('up to ' + s.mode, s.describe || 'not defined: ' + s.error)),
    );
    if (i.counting) table.appendChild(row('counting', i.counting + ' (the default of this puzzle)'));
    const k = i.known;
    if (k.all !== null || k.rotation !== null || k['rotation+reflection'] !== null) {
      const f = (v) => (v === null || v === undefined ? '-' : String(v));
      table.appendChild(row('known counts', 'all ' + f(k.all) + ', up to rotation ' + f(k.rotation) + ', up to rotation and reflection ' + f(k['rotation+reflection'])));
    }
    box.appendChild(table);
    for (const o of a.obstacles) box.appendChild(el('p', { class: 'bad', text: 'no solution: ' + o }));
    for (const w of a.warnings) box.appendChild(el('p', { class: 'warn', text: 'warning: ' + w }));
    for (const n of a.notes) box.appendChild(el('p', { class: 'note', text: 'note: ' + n }));
  }

  // ---- events ------------------------------------------------------------------------

  wire() {
    $('items').addEventListener('click', (e) => {
      const b = e.target.closest('button.item');
      if (!b) return;
      const [kind, i] = b.dataset.item.split('-');
      this.select({ kind, index: Number(i) });
    });
    $('grid').addEventListener('click', (e) => {
      const td = e.target.closest('[data-x]');
      if (!td) return;
      this.focusCell = { x: +td.dataset.x, y: +td.dataset.y, z: +td.dataset.z };
      this.clickCell(+td.dataset.x, +td.dataset.y, +td.dataset.z);
    });
    $('grid').addEventListener('keydown', (e) => this.gridKey(e));
    // However a cell got the focus (Tab, a click, a script), a redraw keeps it there.
    $('grid').addEventListener('focusin', (e) => {
      const c = e.target.closest && e.target.closest('[data-x]');
      if (c) this.focusCell = { x: +c.dataset.x, y: +c.dataset.y, z: +c.dataset.z };
    });
    $('p-grid').addEventListener('change', (e) => this.edit((m) => {
      // The default grid is written as no key at all, as the bundled cube puzzles are.
      if (e.target.value === this.defaultGrid()) delete m.grid; else m.grid = e.target.value;
    }));
    $('undo').onclick = () => this.undo();
    $('redo').onclick = () => this.redo();
    $('new-puzzle').onclick = () => this.requestLoad(BLANK);
    $('mode-grid').onclick = () => this.setView('grid');
    $('mode-json').onclick = () => this.setView('json');
    for (const t of document.querySelectorAll('input[name=tool]')) {
      t.addEventListener('change', () => { this.tool = t.value; });
    }
    this.artTimer = null;
    $('art').addEventListener('input', () => {
      clearTimeout(this.artTimer);
      const item = this.item;
      const text = () => $('art').value;
      this.pendingArt = () => { this.pendingArt = null; this.typedArt(text(), item); };
      this.artTimer = setTimeout(() => this.pendingArt && this.pendingArt(), 400);
    });
    let jsonTimer = null;
    $('json').addEventListener('input', () => {
      clearTimeout(jsonTimer);
      jsonTimer = setTimeout(() => this.commit($('json').value, { json: false, art: true }), 500);
    });
    $('p-name').addEventListener('change', (e) => this.edit((m) => { m.name = e.target.value; }));
    $('p-mirror').addEventListener('change', (e) => this.edit((m) => { if (e.target.checked) m.mirror = true; else delete m.mirror; }));
    $('p-counting').addEventListener('change', (e) => this.edit((m) => { if (e.target.value) m.counting = e.target.value; else delete m.counting; }));
    $('p-holes').addEventListener('change', (e) => this.edit((m) => {
      if (e.target.value === '') delete m.max_holes; else m.max_holes = Number(e.target.value);
    }));
    document.addEventListener('keydown', (e) => {
      const typing = /^(INPUT|TEXTAREA|SELECT)$/.test((document.activeElement || {}).tagName || '');
      if (typing || $('editor').hidden || !(e.ctrlKey || e.metaKey)) return;
      const k = e.key.toLowerCase();
      if (k === 'z' && !e.shiftKey) { e.preventDefault(); this.undo(); }
      else if ((k === 'z' && e.shiftKey) || k === 'y') { e.preventDefault(); this.redo(); }
    });
  }
}
