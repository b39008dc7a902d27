// cubesat studio: runs (solve, count, generate) with live progress and a Stop button, the
// solution browser, and the downloads. Every figure and file comes from the server, which
// runs the cubesat library on the same engines and threads as the command line.

import { $, api, download, el, svgImage } from './api.js';

function duration(s) {
  s = Math.round(s);
  if (s >= 3600) return Math.floor(s / 3600) + 'h' + String(Math.floor(s % 3600 / 60)).padStart(2, '0') + 'm';
  if (s >= 60) return Math.floor(s / 60) + 'm' + String(s % 60).padStart(2, '0') + 's';
  return s + 's';
}

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
  }

  setting(id) {
    return $(id).value;
  }

  formChanged() {
    const action = this.setting('action');
    const sat = this.setting('engine') === 'sat';
    for (const e of document.querySelectorAll('.for-solve')) e.hidden = action !== 'solve';
    for (const e of document.querySelectorAll('.for-generate')) e.hidden = action !== 'generate';
    for (const e of document.querySelectorAll('.for-run')) e.hidden = action === 'generate';
    for (const e of document.querySelectorAll('.for-sat')) e.hidden = !sat || action === 'generate';
    $('limit').disabled = $('all').checked;
    $('start').textContent = { count: 'Count', solve: 'Solve', generate: 'Generate' }[action];
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
    return body;
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
    for (const id of ['result', 'stats', 'why', 'prog-text', 'job-state']) $(id).textContent = '';
    $('bar').value = 0;
    $('browser').hidden = true;
    $('open-generated').hidden = true;
    $('run-error').hidden = true;
    $('start').disabled = false;
    $('stop').disabled = true;
  }

  async stop() {
    if (!this.job) return;
    $('stop').disabled = true;
    try {
      this.show(await api('/api/jobs/' + this.job + '/stop', {}));
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
    if (s.action !== 'generate') parts.push(s.found + ' solutions found' + (s.action === 'count' ? ' (before symmetry)' : ''));
    if (s.fraction > 0) {
      parts.push((s.fraction * 100).toFixed(2) + '% of the tree');
      if (running && s.fraction > 1e-6) parts.push('ETA ' + duration(s.seconds * (1 - s.fraction) / s.fraction));
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
    $('sol-text').textContent = v.text;
    const svg = $('sol-svg');
    svg.textContent = '';
    svg.appendChild(svgImage(v.svg, v.title));
    const steps = $('sol-steps');
    steps.textContent = '';
    for (const s of v.steps) steps.appendChild(el('li', { text: s.letter + '  ' + s.name + (s.hint ? ' (hint, already in place)' : '') }));
    if (!v.complete) steps.appendChild(el('li', { class: 'bad', text: 'the other ' + (v.pieces - v.steps.length) + ' pieces cannot be lowered into place from above, one after another' }));
  }

  showSolutionView(which) {
    for (const b of document.querySelectorAll('#sol-tabs button')) b.classList.toggle('on', b.dataset.v === which);
    $('sol-text').hidden = which !== 'text';
    $('sol-svg').hidden = which !== 'svg';
    $('sol-steps').hidden = which !== 'steps';
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

  wire() {
    for (const id of ['action', 'engine', 'all']) $(id).addEventListener('change', () => this.formChanged());
    $('start').onclick = () => this.start();
    $('stop').onclick = () => this.stop();
    $('sol-prev').onclick = () => this.showSolution(this.want - 1);
    $('sol-next').onclick = () => this.showSolution(this.want + 1);
    $('sol-index').addEventListener('change', () => this.showSolution(Number($('sol-index').value)));
    for (const b of document.querySelectorAll('#sol-tabs button')) b.onclick = () => this.showSolutionView(b.dataset.v);
    this.showSolutionView('text');
    $('open-generated').onclick = () => this.openText(this.generated);
    $('dl-json').onclick = () => this.puzzleFile('json');
    $('dl-xmpuzzle').onclick = () => this.puzzleFile('xmpuzzle');
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
