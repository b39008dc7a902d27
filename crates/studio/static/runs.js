// cubesat studio: runs (solve, count, generate, challenge sets) with live progress and a Stop button, the
// solution browser (arrow keys step through it), and the downloads. Every figure and file
// comes from the server, which runs the cubesat library on the same engines and threads as
// the command line.

import { $, api, download, el, svgImage } from './api.js';

function duration(s) {
  s = Math.round(s);
  if (s >= 3600) return Math.floor(s / 3600) + 'h' + String(Math.floor(s % 3600 / 60)).padStart(2, '0') + 'm';
  if (s >= 60) return Math.floor(s / 60) + 'm' + String(s % 60).padStart(2, '0') + 's';
  return s + 's';
}

const num = (n) => Number(n).toLocaleString('en');

function millions(n) {
  return n >= 1e6 ? (n / 1e6).toFixed(1) + ' M' : String(n);
}

export class Runs {
  /** `editor` holds the puzzle text; `openText(text)` loads a generated puzzle into it. */
  constructor(editor, openText) {
    this.editor = editor;
    this.openText = openText;
    this.job = null; // the shown job's id
    this.status = null;
    this.source = null;
    this.shown = 0; // the solution shown, from 1
    this.wire();
    this.formChanged();
    this.estimator = new Estimate(this);
    this.disassembly = new Disassembly(this);
    $('estimate').onclick = () => this.estimator.open();
    $('disassemble').onclick = () => this.disassemble();
  }

  /** Whether the puzzle's grid can be taken apart; `cells` names its cells ("balls"). */
  allowDisassembly(can, cells) {
    $('disassemble').disabled = !can;
    $('dis-why').textContent = can ? '' : 'Puzzles of ' + cells + ' are not taken apart by sliding (BurrTools does not either).';
    if (!can) this.disassembly.reset();
  }

  /** The Disassemble button (and the lowering order's pointer to it). */
  disassemble() {
    return this.disassembly.open();
  }

  setting(id) {
    return $(id).value;
  }

  formChanged() {
    const action = this.setting('action');
    const sat = this.setting('engine') === 'sat';
    for (const e of document.querySelectorAll('.for-solve')) e.hidden = action !== 'solve';
    const makes = action === 'generate' || action === 'challenges';
    for (const e of document.querySelectorAll('.for-generate')) e.hidden = action !== 'generate';
    for (const e of document.querySelectorAll('.for-challenges')) e.hidden = action !== 'challenges';
    for (const e of document.querySelectorAll('.for-run')) e.hidden = makes;
    for (const e of document.querySelectorAll('.for-sat')) e.hidden = !sat || makes;
    const memo = this.setting('engine') === 'memo';
    for (const e of document.querySelectorAll('.for-memo')) e.hidden = !memo || makes;
    $('limit').disabled = $('all').checked;
    $('start').textContent = { count: 'Count', solve: 'Solve', generate: 'Generate', challenges: 'Make the set' }[action];
  }

  request() {
    const action = this.setting('action');
    const num = (id) => ($(id).value === '' ? null : Number($(id).value));
    const body = {
      puzzle: this.editor.text,
      action,
      up_to: this.setting('up-to'),
      engine: this.setting('engine'),
      threads: num('threads') || 0,
    };
    if (action === 'solve' && !$('all').checked) body.limit = num('limit');
    if (body.engine === 'memo' && $('memory').value.trim() !== '') body.memory = $('memory').value.trim();
    if (body.engine === 'sat') {
      body.amo = this.setting('amo');
      body.cubes = num('cubes');
      body.exact_budget = num('exact-budget');
    }
    if (action === 'generate') {
      body.hints = num('hints') || 0;
      body.seed = num('seed') || 0;
      body.unique = $('unique').checked;
    }
    if (action === 'challenges') {
      body.set = num('set-size');
      body.levels = $('set-levels').value;
      body.seed = num('set-seed') || 0;
      body.paper = this.setting('set-paper');
    }
    return body;
  }

  /** A library card's Solve: list solutions and show the first one. */
  solveOne() {
    $('action').value = 'solve';
    $('up-to').value = 'default';
    this.formChanged();
    return this.start();
  }

  async start() {
    this.forget();
    $('job-state').textContent = 'starting';
    $('job-state').className = 'state running';
    $('start').disabled = true;
    $('run-error').hidden = true;
    $('result').textContent = '';
    $('stats').textContent = '';
    $('why').textContent = '';
    $('browser').hidden = true;
    $('open-generated').hidden = true;
    $('set-files').hidden = true;
    $('set-note').textContent = '';
    let status;
    try {
      status = await api('/api/jobs', this.request());
    } catch (e) {
      $('job-state').textContent = 'refused';
      $('job-state').className = 'state failed';
      $('start').disabled = false;
      this.fail(e.message);
      return;
    }
    this.job = status.id;
    this.shown = 0;
    this.want = 0;
    this.show(status);
    const source = new EventSource('/api/jobs/' + status.id + '/events');
    this.source = source;
    source.addEventListener('progress', (e) => { if (this.source === source) this.show(JSON.parse(e.data)); });
    source.addEventListener('end', (e) => {
      source.close();
      if (this.source === source) { this.source = null; this.show(JSON.parse(e.data)); }
    });
  }

  /** Stops watching the shown job (stopping it if it still runs). */
  forget() {
    if (this.source) {
      this.source.close();
      this.source = null;
      if (this.job && this.status && this.status.state === 'running') {
        fetch('/api/jobs/' + this.job + '/stop', { method: 'POST' });
      }
    }
  }

  /** Forgets the shown job and its results (another puzzle was opened). */
  reset() {
    this.forget();
    this.job = null;
    this.status = null;
    this.shown = 0;
    this.want = 0;
    for (const id of ['result', 'stats', 'why', 'prog-text', 'job-state', 'sol-title', 'sol-text', 'sol-legend', 'sol-svg', 'sol-steps', 'sol-lowering']) $(id).textContent = '';
    $('bar').value = 0;
    $('browser').hidden = true;
    $('open-generated').hidden = true;
    $('run-error').hidden = true;
    $('start').disabled = false;
    $('stop').disabled = true;
    $('prog-note').textContent = '';
    if (this.estimator) this.estimator.reset();
    if (this.disassembly) this.disassembly.reset();
  }

  async stop() {
    if (!this.job) return;
    $('stop').disabled = true;
    const id = this.job;
    try {
      this.show(await api('/api/jobs/' + id + '/stop', {}));
      // The event stream reports the end too; a poll as well leaves "stopping" the moment the
      // server says the job ended, whatever became of the stream.
      while (this.job === id && this.status && this.status.state === 'running') {
        await new Promise((r) => setTimeout(r, 300));
        if (this.job !== id) break;
        this.show(await api('/api/jobs/' + id));
      }
    } catch (e) {
      this.fail(e.message);
    }
  }

  fail(message) {
    const e = $('run-error');
    e.hidden = false;
    e.textContent = message;
  }

  /** One state of the job on the page. */
  show(s) {
    if (s.id !== this.job) return;
    // The answer to Stop and the event stream race: an ended job never shows as running again.
    if (this.status && this.status.id === s.id && this.status.state !== 'running' && s.state === 'running') return;
    this.status = s;
    const running = s.state === 'running';
    $('start').disabled = running;
    $('stop').disabled = !running || !!s.stopped;
    $('job-state').textContent = running ? (s.stopped ? 'stopping' : 'running') : s.state === 'failed' ? 'failed' : s.stopped ? 'stopped' : 'done';
    $('job-state').className = 'state ' + $('job-state').textContent;
    $('bar').value = Math.round((running ? s.fraction : s.state === 'done' && !s.stopped ? 1 : s.fraction) * 1000);
    const parts = [duration(s.seconds)];
    if (s.nodes) parts.push(millions(s.nodes) + ' nodes');
    // What the running number counts: the server's phrase when it gives one. Otherwise it is
    // the search's own tally, which leaves out symmetric copies that the final count adds back.
    if (s.action === 'challenges' && s.note) {
      // A set is no search tree: its progress is the candidates found of those wanted.
      const n = s.note;
      parts.push('level ' + n.level + ' of ' + n.levels + ': ' + num(n.found) + ' of ' + num(n.wanted) + ' candidates drawn');
      if (running) $('bar').value = Math.round(Math.min(1, n.found / Math.max(1, n.wanted)) * 1000);
    } else if (s.action !== 'generate' && s.action !== 'challenges') {
      const found = num(s.found);
      parts.push(s.found_counts ? found + ' ' + s.found_counts + ' so far'
        : s.action === 'count' ? found + ' found by the search so far' : found + (s.found === 1 ? ' solution' : ' solutions') + ' found so far');
    }
    $('prog-note').textContent = s.action === 'count' && !s.found_counts && (running || s.state === 'done')
      ? 'The running number is what the search has found so far. The search may place one piece in fewer orientations to skip copies of a solution turned or mirrored; the result then multiplies them back, so it can be larger than the last running number.'
      : '';
    if (s.fraction > 0) {
      parts.push((s.fraction * 100).toFixed(2) + '% of the tree');
      // The server's ETA is the CLI's; without it, the fraction's straight line.
      if (running && s.eta) parts.push(s.eta);
      else if (running && s.fraction > 1e-6 && s.eta === undefined) parts.push('ETA ' + duration(s.seconds * (1 - s.fraction) / s.fraction));
    }
    $('prog-text').textContent = parts.join(', ');
    if (s.error) this.fail(s.error.message);
    const r = s.result;
    if (r) {
      $('result').textContent = r.line;
      $('stats').textContent = r.stats || '';
      $('why').textContent = '';
      for (const w of r.no_solution || []) $('why').appendChild(el('p', { text: 'no solution: ' + w }));
      if (s.stopped && s.stopped !== 'stopped') $('why').appendChild(el('p', { text: 'the run was stopped: ' + s.stopped }));
      if (r.puzzle) {
        $('open-generated').hidden = false;
        this.generated = r.puzzle;
      }
      if (r.files) $('set-files').hidden = false;
    }
    if (s.kept > 0) {
      $('browser').hidden = false;
      $('sol-count').textContent = s.kept + (running ? '+' : '');
      $('sol-index').max = s.kept;
      if (!this.want) this.showSolution(1);
    }
  }

  /** Shows solution `n` (clamped to those kept); the last one asked for wins. */
  async showSolution(n) {
    if (!this.job || !this.status) return;
    const kept = this.status.kept;
    n = Math.max(1, Math.min(kept, n));
    this.want = n;
    $('sol-index').value = n;
    const job = this.job;
    let v;
    try {
      v = await api('/api/jobs/' + job + '/solutions/' + n);
    } catch (e) {
      this.fail(e.message);
      return;
    }
    if (job !== this.job || n !== this.want) return;
    this.shown = n;
    $('sol-index').value = n;
    $('sol-title').textContent = v.title;
    $('sol-view').srcdoc = v.html;
    // The pieces' drawing keeps its columns (it scrolls); the legend after it wraps to the box,
    // so that its end is never cut off at the right edge.
    const lines = v.text.replace(/\s+$/, '').split('\n');
    const at = lines.findIndex((l) => /^legend:/.test(l));
    $('sol-text').textContent = at < 0 ? v.text : lines.slice(0, at).join('\n') + '\n';
    $('sol-legend').hidden = at < 0;
    $('sol-legend').textContent = at < 0 ? '' : lines.slice(at).map((l) => l.trim()).join(' ');
    const svg = $('sol-svg');
    svg.textContent = '';
    svg.appendChild(svgImage(v.svg, v.title));
    const steps = $('sol-steps');
    steps.textContent = '';
    // A piece is named once: "V", not "V  V", when its letter is its name.
    for (const s of v.steps) steps.appendChild(el('li', { text: (s.letter === s.name ? s.name : s.letter + '  ' + s.name) + (s.hint ? ' (hint, already in place)' : '') }));
    // Lowering pieces straight down is not taking the puzzle apart: say which it is, and where
    // the real disassembly is.
    const note = $('sol-lowering');
    note.textContent = '';
    note.append(
      v.complete ? 'Every piece can be lowered into place from above, in this order. '
        : v.steps.length + ' of ' + v.pieces + ' pieces can be lowered into place from above, one after another; the other ' + (v.pieces - v.steps.length) + ' cannot go in straight down. ',
      ...($('disassemble').disabled ? ['This is not a disassembly.'] : ['This is not a disassembly: ',
        el('button', { type: 'button', class: 'link', text: 'Disassemble', 'aria-label': 'Disassemble (slide the pieces apart)', onclick: () => this.disassemble() }),
        ' finds whether and how the pieces slide apart.']));
  }

  showSolutionView(which) {
    for (const b of document.querySelectorAll('#sol-tabs button')) b.classList.toggle('on', b.dataset.v === which);
    $('sol-text-box').hidden = which !== 'text';
    $('sol-svg').hidden = which !== 'svg';
    $('sol-steps-box').hidden = which !== 'steps';
  }

  /** Pieces for the STL menu, from the editor's last check. */
  pieces(names) {
    const sel = $('stl-piece');
    const keep = sel.value;
    sel.textContent = '';
    names.forEach((n, i) => sel.appendChild(el('option', { value: i, text: n })));
    if (keep && Number(keep) < names.length) sel.value = keep;
  }

  async get(what, path, body) {
    $('dl-error').hidden = true;
    try {
      const name = await download(path, body);
      $('dl-note').textContent = 'saved ' + name;
    } catch (e) {
      $('dl-error').hidden = false;
      $('dl-error').textContent = what + ': ' + e.message;
    }
  }

  puzzleFile(format, extra) {
    // The puzzle saved as a file: no longer work that only this page holds.
    if (format === 'json' || format === 'xmpuzzle') this.editor.origin = this.editor.text;
    return this.get(format, '/api/download', Object.assign({ puzzle: this.editor.text, format }, extra || {}));
  }

  stlSettings() {
    return { cube: Number($('stl-cube').value), gap: Number($('stl-gap').value) };
  }

  solutionFile(format, extra) {
    if (!this.job || !this.shown) {
      $('dl-error').hidden = false;
      $('dl-error').textContent = format + ': solve the puzzle first; the shown solution is saved';
      return;
    }
    return this.get(format, '/api/jobs/' + this.job + '/solutions/' + this.shown + '/download', Object.assign({ format }, extra || {}));
  }

  /** A finished challenge set's file: the booklet (PDF, HTML) or the set as one JSON file. */
  async setFile(format) {
    if (!this.job) return;
    try {
      $('set-note').textContent = 'saved ' + await download('/api/jobs/' + this.job + '/download', { format });
    } catch (e) {
      $('set-note').textContent = format + ': ' + e.message;
    }
  }

  wire() {
    for (const id of ['action', 'engine', 'all']) $(id).addEventListener('change', () => this.formChanged());
    $('start').onclick = () => this.start();
    $('stop').onclick = () => this.stop();
    $('sol-prev').onclick = () => this.showSolution(this.want - 1);
    $('sol-next').onclick = () => this.showSolution(this.want + 1);
    $('sol-index').addEventListener('change', () => this.showSolution(Number($('sol-index').value)));
    for (const b of document.querySelectorAll('#sol-tabs button')) b.onclick = () => this.showSolutionView(b.dataset.v);
    this.showSolutionView('text');
    // The arrow keys step through the solutions, unless a field or the 3D view has them.
    document.addEventListener('keydown', (e) => {
      if ($('solve').hidden || $('browser').hidden || e.altKey || e.ctrlKey || e.metaKey) return;
      const t = e.target;
      if (t && (/^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName) || t.closest('.dis-table, .player, dialog'))) return;
      if (e.key === 'ArrowRight') { e.preventDefault(); this.showSolution(this.want + 1); }
      else if (e.key === 'ArrowLeft') { e.preventDefault(); this.showSolution(this.want - 1); }
    });
    $('open-generated').onclick = () => this.openText(this.generated);
    for (const f of ['book-pdf', 'book-html', 'set-json']) $('dl-' + f).onclick = () => this.setFile(f);
    $('dl-json').onclick = () => this.puzzleFile('json');
    $('dl-xmpuzzle').onclick = () => this.puzzleFile('xmpuzzle');
    $('dl-xmpuzzle-2').onclick = () => this.puzzleFile('xmpuzzle');
    $('dl-sheet-svg').onclick = () => this.puzzleFile('sheet-svg');
    $('dl-sheet-html').onclick = () => this.puzzleFile('sheet-html');
    for (const f of ['dimacs', 'dlx', 'asp', 'placements']) {
      $('dl-' + f).onclick = () => this.puzzleFile(f, { up_to: $('dl-up-to').value, amo: $('dl-amo').value, projection: $('dl-projection').value });
    }
    $('dl-stl-piece').onclick = () => this.puzzleFile('stl-piece', Object.assign({ piece: Number($('stl-piece').value || 0) }, this.stlSettings()));
    $('dl-stl-solution').onclick = () => {
      if (this.job && this.shown) return this.solutionFile('stl', this.stlSettings());
      return this.puzzleFile('stl-solution', this.stlSettings());
    };
    $('dl-jsonl').onclick = () => {
      if (!this.job) { $('dl-error').hidden = false; $('dl-error').textContent = 'JSON Lines: solve the puzzle first'; return; }
      return this.get('JSON Lines', '/api/jobs/' + this.job + '/solutions.jsonl');
    };
    $('dl-sol-svg').onclick = () => this.solutionFile('svg');
    $('dl-sol-html').onclick = () => this.solutionFile('html');
    $('dl-sol-text').onclick = () => this.solutionFile('text');
    // A page that goes away stops its job at once (the server would stop it soon anyway).
    window.addEventListener('pagehide', () => {
      if (this.job && this.status && this.status.state === 'running') navigator.sendBeacon('/api/jobs/' + this.job + '/stop');
    });
  }
}

// ---- jobs of the side panels (estimate, disassembly) -----------------------------------------

/** One job of a panel: started with `start(body)`, watched through its event stream (and a
 *  poll once stopped, so that the page leaves "stopping" as soon as the server says it ended);
 *  `onStatus(s)` hears every state. */
class Watched {
  constructor(onStatus) {
    this.onStatus = onStatus;
    this.id = null;
    this.status = null;
    this.source = null;
  }

  async start(body) {
    this.forget();
    const s = await api('/api/jobs', body);
    this.id = s.id;
    this.status = null;
    this.take(s);
    const source = new EventSource('/api/jobs/' + s.id + '/events');
    this.source = source;
    source.addEventListener('progress', (e) => { if (this.source === source) this.take(JSON.parse(e.data)); });
    source.addEventListener('end', (e) => {
      source.close();
      if (this.source === source) { this.source = null; this.take(JSON.parse(e.data)); }
    });
    return s;
  }

  /** A state of the job; an ended job never shows as running again (Stop's answer and the
   *  stream race). */
  take(s) {
    if (s.id !== this.id) return;
    if (this.status && this.status.state !== 'running' && s.state === 'running') return;
    this.status = s;
    this.onStatus(s);
  }

  running() {
    return !!this.status && this.status.state === 'running';
  }

  async stop() {
    if (!this.id) return;
    const id = this.id;
    this.take(await api('/api/jobs/' + id + '/stop', {}));
    // The stream reports the end too; polling as well leaves "stopping" the moment it ends.
    while (this.id === id && this.running()) {
      await new Promise((r) => setTimeout(r, 300));
      if (this.id !== id) return;
      try { this.take(await api('/api/jobs/' + id)); } catch (_) { return; }
    }
  }

  /** Stops watching (and stops the job, if it runs). */
  forget() {
    if (this.source) { this.source.close(); this.source = null; }
    if (this.id && this.running()) fetch('/api/jobs/' + this.id + '/stop', { method: 'POST' }).catch(() => {});
    this.id = null;
    this.status = null;
  }
}

/** A job state's badge: running, stopping, stopped, done, failed. */
function stateWord(s) {
  if (s.state === 'running') return s.stopped ? 'stopping' : 'running';
  return s.state === 'failed' ? 'failed' : s.stopped ? 'stopped' : 'done';
}

function showState(id, s) {
  $(id).textContent = stateWord(s);
  $(id).className = 'state ' + stateWord(s);
}

function showError(id, message) {
  $(id).hidden = !message;
  $(id).textContent = message || '';
}

/** "24h", "90m", "2d", "3600" (seconds) as seconds; NaN when it is none of these. */
export function wallSeconds(text) {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$/i.exec(text || '');
  if (!m) return NaN;
  return Math.round(Number(m[1]) * { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[m[2].toLowerCase()]);
}

/** A number of nodes or solutions as people read it: 1.23 billion, 456,789. */
function big(n) {
  if (n === null || n === undefined) return '-';
  if (n >= 1e12) return (n / 1e12).toPrecision(3) + ' trillion';
  if (n >= 1e9) return (n / 1e9).toPrecision(3) + ' billion';
  if (n >= 1e7) return (n / 1e6).toPrecision(3) + ' million';
  return Math.round(n).toLocaleString('en');
}

/** A CPU or wall time in the largest fitting unit. */
function span(s) {
  if (s === null || s === undefined) return '-';
  if (s >= 2 * 365.25 * 86400) return (s / (365.25 * 86400)).toPrecision(3) + ' years';
  if (s >= 2 * 86400) return (s / 86400).toPrecision(3) + ' days';
  if (s >= 2 * 3600) return (s / 3600).toPrecision(3) + ' hours';
  if (s >= 120) return (s / 60).toPrecision(3) + ' minutes';
  if (s < 1) return (s * 1000).toPrecision(3) + ' ms';
  return s.toPrecision(3) + ' seconds';
}

/** The Estimate panel: what a count costs (nodes with their interval, CPU time) and the shard
 *  plan for a wall time and a number of cores, with the Slurm script and the shard commands. */
export class Estimate {
  constructor(runs) {
    this.runs = runs;
    this.job = new Watched((s) => this.show(s));
    $('est-run').onclick = () => this.start();
    $('est-stop').onclick = () => this.job.stop().catch((e) => showError('est-error', e.message));
    $('dl-sbatch').onclick = () => this.download('sbatch');
    $('dl-shards').onclick = () => this.download('shards');
  }

  open() {
    $('est').hidden = false;
    $('est').scrollIntoView({ block: 'nearest' });
    return this.start();
  }

  reset() {
    this.job.forget();
    $('est').hidden = true;
    $('est-result').textContent = '';
    $('est-plan').hidden = true;
    showError('est-error', '');
  }

  async start() {
    showError('est-error', '');
    $('est-result').textContent = '';
    $('est-plan').hidden = true;
    const body = { puzzle: this.runs.editor.text, action: 'estimate', up_to: $('up-to').value, seconds: Number($('est-seconds').value) || 5 };
    const wall = $('est-wall').value.trim();
    if (wall) {
      body.wall_seconds = wallSeconds(wall);
      if (!(body.wall_seconds > 0)) {
        showError('est-error', '"' + wall + '" is not a wall time: write a number and s, m, h or d (90m, 24h, 2d)');
        return;
      }
      const cores = Number($('est-cores').value);
      if (cores > 0) body.cores = cores;
    }
    $('est-run').disabled = true;
    $('est-state').textContent = 'starting';
    $('est-state').className = 'state running';
    try {
      await this.job.start(body);
    } catch (e) {
      $('est-run').disabled = false;
      $('est-state').textContent = 'refused';
      $('est-state').className = 'state failed';
      showError('est-error', e.message);
    }
  }

  show(s) {
    showState('est-state', s);
    const running = s.state === 'running';
    $('est-run').disabled = running;
    $('est-stop').disabled = !running || !!s.stopped;
    $('est-bar').value = Math.round((running ? Math.min(1, s.seconds / (Number($('est-seconds').value) || 5)) : 1) * 1000);
    $('est-prog').textContent = running ? 'sampling the search tree: ' + duration(s.seconds) + (s.nodes ? ', ' + big(s.nodes) + ' nodes probed' : '') : '';
    if (s.error) showError('est-error', s.error.message);
    if (s.result && s.result.estimate) this.result(s.result);
    else if (s.result && s.result.interrupted) $('est-prog').textContent = s.result.line;
  }

  result(r) {
    const e = r.estimate;
    this.last = r;
    const row = (k, v) => el('tr', {}, el('th', { scope: 'row', text: k }), el('td', { text: v }));
    const rows = [
      row('search tree', e.exact ? big(e.nodes) + ' nodes (exact: the whole tree was walked)'
        // No probe finished: only a lower bound is known, not the size.
        : e.nodes === null ? 'unknown: no probe of the tree finished in the time given' + (e.low >= 1 ? ' (at least ' + big(e.low) + ' nodes)' : '') + '; sample for longer'
        : 'about ' + big(e.nodes) + ' nodes (95% interval ' + big(e.low) + ' to ' + big(e.high) + ')'),
    ];
    if (e.solutions !== undefined && e.solutions !== null) {
      rows.push(row('solutions', e.exact ? big(e.solutions) : 'about ' + big(e.solutions) + (e.solutions_low !== undefined ? ' (' + big(e.solutions_low) + ' to ' + big(e.solutions_high) + ')' : '')));
    }
    if (e.nodes_per_second) rows.push(row('speed here', big(e.nodes_per_second) + ' nodes a second on one core'));
    // An exact answer (a small tree walked whole) has no interval to give.
    const interval = !e.exact && e.cpu_seconds_low !== undefined ? ' (95% interval ' + span(e.cpu_seconds_low) + ' to ' + span(e.cpu_seconds_high) + ')' : '';
    if (e.cpu_seconds !== undefined && e.cpu_seconds !== null) rows.push(row('CPU time', (e.exact ? '' : 'about ') + span(e.cpu_seconds) + interval + ' on one core'));
    if (e.probes && !e.exact) rows.push(row('from', num(e.probes) + ' random probes of the tree'));
    const box = $('est-result');
    box.textContent = '';
    const counting = { none: 'every placement', rotation: 'up to rotation', 'rotation+reflection': 'up to rotation and reflection', burrtools: "in BurrTools' convention" }[e.up_to] || e.up_to || "as the puzzle's default";
    box.appendChild(el('table', { class: 'facts' }, el('caption', { class: 'note', text: 'a count ' + counting }), ...rows));
    const plan = e.plan;
    $('est-plan').hidden = !plan;
    if (plan) {
      $('est-plan-text').textContent = plan.shards > 1
        ? 'Split the count into ' + num(plan.shards) + ' shards on ' + num(plan.cores) + ' cores: about ' + span(plan.wall_seconds) + ' of wall time' +
          (plan.fits ? ', within the ' + span(plan.wall_seconds_asked) + ' asked for.' : ', more than the ' + span(plan.wall_seconds_asked) + ' asked for: give it more cores or more time.') +
          ' Each shard is one `cubesat solve --count --shard K/N`; `cubesat merge` adds them up.'
        : 'One run finishes within the ' + span(plan.wall_seconds_asked) + ' asked for: no shards needed (about ' + span(plan.wall_seconds) + ').';
    }
    const offered = r.downloads || [];
    $('dl-sbatch').disabled = !offered.includes('sbatch');
    $('dl-shards').disabled = !offered.includes('shards');
    $('est-commands').textContent = r.text || '';
  }

  async download(format) {
    showError('est-error', '');
    if (!this.job.id) return;
    try {
      const name = await download('/api/jobs/' + this.job.id + '/download', { format });
      $('dl-note').textContent = 'saved ' + name;
    } catch (e) {
      showError('est-error', format + ': ' + e.message);
    }
  }
}

/** The Disassembly panel: a disassembly job over the puzzle's solutions (which come apart,
 *  their level and moves), its list sorted and filtered by the server, and a player that
 *  replays a solution's plan in its 3D view either way: taken apart (the default) until the
 *  pieces are apart, or put together, the same moves reversed. The player is the 3D page's
 *  own (window.cubesatPlayer in its frame, which animates every step); these controls drive
 *  it and follow what it reports. */
export class Disassembly {
  constructor(runs) {
    this.runs = runs;
    this.job = new Watched((s) => this.show(s));
    this.rows = []; // the listed solutions, as the server sent them
    this.n = 0; // the solution in the player (its number in the job)
    this.plan = [];
    this.pos = 0; // moves done: 0 is assembled, plan.length is apart
    this.state = null; // what the frame's player last reported
    this.listing = null;
    $('dis-run').onclick = () => this.start();
    $('dis-stop').onclick = () => this.job.stop().catch((e) => showError('dis-error', e.message));
    for (const id of ['dis-sort', 'dis-apart']) $(id).addEventListener('change', () => this.list());
    $('dis-rows').addEventListener('click', (e) => {
      const b = e.target.closest('button[data-n]');
      if (b) this.pick(Number(b.dataset.n));
    });
    $('dis-rows').addEventListener('keydown', (e) => this.rowKey(e));
    $('pl-play').onclick = () => (this.state && this.state.playing ? this.pause() : this.play());
    $('pl-first').onclick = () => this.go(0);
    $('pl-back').onclick = () => this.go(this.at() - 1);
    $('pl-fwd').onclick = () => this.go(this.at() + 1);
    $('pl-last').onclick = () => this.go(this.plan.length);
    $('pl-scrub').addEventListener('input', () => this.go(Number($('pl-scrub').value)));
    $('pl-speed').addEventListener('change', () => { const p = this.player(); if (p) p.speed(Number($('pl-speed').value)); });
    $('pl-dir').addEventListener('change', () => { const p = this.player(); if (p) p.direction($('pl-dir').value); });
  }

  /** The Disassemble button: the panel, and a run with its settings. */
  open() {
    $('disasm').hidden = false;
    $('disasm').scrollIntoView({ block: 'nearest' });
    return this.start();
  }

  reset() {
    this.job.forget();
    this.pause();
    $('disasm').hidden = true;
    $('player').hidden = true;
    $('dis-rows').textContent = '';
    $('dis-summary').textContent = '';
    showError('dis-error', '');
    this.rows = [];
    this.n = 0;
  }

  async start() {
    this.pause();
    showError('dis-error', '');
    $('dis-rows').textContent = '';
    $('dis-summary').textContent = '';
    $('player').hidden = true;
    this.rows = [];
    this.n = 0;
    const body = { puzzle: this.runs.editor.text, action: 'disassemble', up_to: $('up-to').value, threads: Number($('threads').value) || 0 };
    if ($('dis-rule').value) body.disassembler = $('dis-rule').value;
    const limit = Number($('dis-limit').value);
    if (limit > 0) body.limit = limit;
    $('dis-run').disabled = true;
    $('dis-state').textContent = 'starting';
    $('dis-state').className = 'state running';
    try {
      await this.job.start(body);
    } catch (e) {
      $('dis-run').disabled = false;
      $('dis-state').textContent = 'refused';
      $('dis-state').className = 'state failed';
      showError('dis-error', e.message);
    }
  }

  show(s) {
    showState('dis-state', s);
    const running = s.state === 'running';
    $('dis-run').disabled = running;
    $('dis-stop').disabled = !running || !!s.stopped;
    $('dis-bar').value = Math.round((running ? s.fraction || 0 : 1) * 1000);
    const analysed = s.result ? s.result.assemblies : s.kept;
    const apart = s.result ? s.result.apart : s.found;
    $('dis-prog').textContent = duration(s.seconds) + ', ' + num(analysed || 0) + (analysed === 1 ? ' solution' : ' solutions') + ' analysed, ' +
      num(apart || 0) + (apart === 1 ? ' comes' : ' come') + ' apart' + (running && s.eta ? ', ' + s.eta : '');
    if (s.error) showError('dis-error', s.error.message);
    if (s.result) {
      $('dis-summary').textContent = s.result.line + (s.stopped === 'stopped' ? ' (stopped: what was analysed so far)' : '');
    }
    // The list follows the run: at most once a second while it runs, and once at the end.
    const now = Date.now();
    if (!running || !this.listedAt || now - this.listedAt > 1000) {
      this.listedAt = now;
      this.list();
    }
  }

  /** The solutions as the server sorts and filters them. */
  async list() {
    const id = this.job.id;
    if (!id) return;
    const q = 'sort=' + $('dis-sort').value + ($('dis-apart').checked ? '&apart=1' : '') + '&offset=0&count=500';
    let v;
    try {
      v = await api('/api/jobs/' + id + '/disassembly?' + q);
    } catch (e) {
      showError('dis-error', e.message);
      return;
    }
    if (id !== this.job.id) return;
    this.rows = v.solutions;
    const body = $('dis-rows');
    const focused = document.activeElement && body.contains(document.activeElement) ? document.activeElement.dataset.n : null;
    body.textContent = '';
    for (const r of v.solutions) {
      body.appendChild(el('tr', { class: r.n === this.n ? 'sel' : '' },
        el('td', {}, el('button', { type: 'button', class: 'link', 'data-n': r.n, 'aria-pressed': String(r.n === this.n), text: 'solution ' + r.n })),
        el('td', { class: r.apart ? '' : 'no', text: r.apart ? 'yes' : 'no' }),
        el('td', { text: r.level || '-' }),
        el('td', { text: r.apart ? String(r.moves) : '-' })));
    }
    if (v.matching > v.solutions.length) {
      body.appendChild(el('tr', {}, el('td', { colspan: 4, class: 'note', text: 'the first ' + v.solutions.length + ' of ' + num(v.matching) + ' shown' })));
    }
    if (!v.solutions.length && v.total) body.appendChild(el('tr', {}, el('td', { colspan: 4, class: 'note', text: 'none of the ' + num(v.total) + ' analysed comes apart' })));
    if (focused) { const b = body.querySelector(`button[data-n="${focused}"]`); if (b) b.focus(); }
    // The first one that comes apart plays without being asked for.
    if (!this.n) {
      const first = v.solutions.find((r) => r.apart);
      if (first) this.pick(first.n);
    }
  }

  /** Up and Down move through the list's solutions; Enter or a click plays one. */
  rowKey(e) {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const buttons = Array.from($('dis-rows').querySelectorAll('button[data-n]'));
    const i = buttons.indexOf(document.activeElement);
    const next = buttons[i + (e.key === 'ArrowDown' ? 1 : -1)];
    if (next) { e.preventDefault(); next.focus(); this.pick(Number(next.dataset.n)); }
  }

  /** Solution `n` in the player. */
  async pick(n) {
    const id = this.job.id;
    this.n = n;
    for (const b of $('dis-rows').querySelectorAll('button[data-n]')) {
      const on = Number(b.dataset.n) === n;
      b.setAttribute('aria-pressed', String(on));
      b.closest('tr').classList.toggle('sel', on);
    }
    let v;
    try {
      v = await api('/api/jobs/' + id + '/solutions/' + n);
    } catch (e) {
      showError('dis-error', e.message);
      return;
    }
    if (id !== this.job.id || n !== this.n) return;
    this.pause();
    const d = v.disassembly || { apart: false, plan: [], level: null };
    this.plan = d.plan || [];
    this.pos = 0;
    this.state = null;
    $('player').hidden = false;
    delete $('player').dataset.ready;
    $('pl-title').textContent = v.title + (d.apart ? ': level ' + d.level + ', ' + d.moves + ' moves' : ': does not come apart');
    const frame = $('dis-view');
    this.ready = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
    frame.srcdoc = v.html;
    const pieces = d.pieces || [];
    const names = pieces.map((p) => p.label || p.name);
    // A swatch per moving piece, in the colour the 3D view draws it.
    const swatches = (m) => m.pieces.filter((i) => pieces[i] && pieces[i].color).map((i) => {
      const sw = el('i', { class: 'swatch', 'aria-hidden': 'true' });
      sw.style.background = pieces[i].color;
      return sw;
    });
    // "S, C, D: 6 along +z, out of the puzzle": which pieces, how far, which way.
    const moveText = (m) => (m.labels || m.pieces.map((i) => names[i])).join(', ') + ': ' + m.distance + ' along ' + (m.direction || '?') + (m.removal ? ', out of the puzzle' : '');
    const moves = $('dis-moves');
    moves.textContent = '';
    this.plan.forEach((m, i) => moves.appendChild(el('li', { 'data-i': i }, swatches(m), moveText(m))));
    const asm = $('asm-moves');
    asm.textContent = '';
    this.plan.slice().reverse().forEach((m, j) => asm.appendChild(el('li', { 'data-i': this.plan.length - 1 - j }, swatches(m), m.label || moveText(m))));
    if (!d.apart) moves.appendChild(el('li', { class: 'note', text: 'no move sequence takes this assembly apart' }));
    for (const id of ['pl-dir', 'pl-first', 'pl-back', 'pl-play', 'pl-fwd', 'pl-last', 'pl-scrub', 'pl-speed']) $(id).disabled = !this.plan.length;
    $('pl-scrub').max = String(this.plan.length);
    this.mirror(null);
    await this.ready;
    if (n !== this.n) return;
    const p = this.player();
    if (!p) return;
    // The frame's player reports every step; it starts assembled, played as chosen here.
    $('dis-view').contentWindow.addEventListener('cubesat-player', (e) => { if (n === this.n) this.mirror(e.detail); });
    p.speed(Number($('pl-speed').value));
    p.direction($('pl-dir').value);
    this.mirror(p.state());
    // For tests and tools: the player of solution n follows these controls from now on.
    $('player').dataset.ready = String(n);
  }

  /** The frame's player, once its page has a plan to play. */
  player() {
    const w = $('dis-view').contentWindow;
    const p = w && w.cubesatPlayer;
    return p && this.plan.length ? p : null;
  }

  /** The player's position in the way it plays (moves taken apart, or steps put together). */
  at() {
    return this.state ? this.state.at : 0;
  }

  /** Goes to position `k` of the way the player plays (a single step is animated). */
  go(k) {
    const p = this.player();
    if (p) p.go(Math.max(0, Math.min(this.plan.length, k)));
  }

  play() {
    const p = this.player();
    if (p) p.play();
  }

  pause() {
    const p = this.player();
    if (p) p.pause();
  }

  /** Shows what the frame's player reports (null: nothing played yet, the puzzle assembled). */
  mirror(s) {
    this.state = s;
    const total = this.plan.length;
    const apartWay = !s || s.direction === 'apart';
    const k = s ? s.at : 0;
    this.pos = s && s.moves !== null ? s.moves : 0;
    $('pl-scrub').max = String(total);
    $('pl-scrub').value = String(k);
    const unit = apartWay ? 'move' : 'step';
    let words;
    if (apartWay) {
      words = k === 0 ? 'assembled (move 0 of ' + total + ')' : k === total ? 'apart: all ' + total + ' moves done' : 'after move ' + k + ' of ' + total;
    } else {
      words = k === 0 ? 'apart (step 0 of ' + total + ')' : k === total ? 'assembled: all ' + total + ' steps done' : 'after step ' + k + ' of ' + total;
    }
    $('pl-pos').textContent = words;
    $('pl-scrub').setAttribute('aria-valuetext', words);
    $('pl-scrub-unit').textContent = unit;
    $('pl-title').dataset.pos = String(this.pos);
    $('pl-play').textContent = s && s.playing ? 'Pause' : 'Play';
    // The move just made, in either list: the disassembly's move `pos`, or the assembly step
    // that undid move `pos + 1`.
    const now = apartWay ? this.pos - 1 : this.pos;
    for (const li of $('dis-moves').querySelectorAll('li[data-i]')) li.classList.toggle('now', apartWay && Number(li.dataset.i) === now);
    for (const li of $('asm-moves').querySelectorAll('li[data-i]')) li.classList.toggle('now', !apartWay && k > 0 && Number(li.dataset.i) === now);
  }
}
