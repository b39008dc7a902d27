// End-to-end tests of cubesat studio in Debian's Chromium, driven by Playwright.
//
//   node tests/studio/e2e.mjs URL [--screenshots DIR]
//
// URL is a running `cubesat studio`; run from the repository root (../shared beside it holds
// the BurrTools reference files). Environment: CUBESAT (the binary, for cross-checks),
// CHROMIUM (default /usr/bin/chromium). Each check prints `ok - NAME` or `not ok - NAME` and
// the cause; the last line is `N passed, M failed`, and the exit code is 1 when one failed.
// tests/integration/studio.rs starts the server and runs this; .ci/run installs the pinned
// playwright-core and axe-core (npm ci in tests/studio). --screenshots writes the README's
// pictures. Every view is checked with axe-core (no serious or critical violation) and every
// frame for Content-Security-Policy violations (the page runs without 'unsafe-inline').

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const url = process.argv[2];
const shotsAt = process.argv.indexOf('--screenshots');
const shots = shotsAt > 0 ? process.argv[shotsAt + 1] : null;
if (!url) {
  console.error('usage: node tests/studio/e2e.mjs URL [--screenshots DIR]');
  process.exit(2);
}
const CUBESAT = process.env.CUBESAT || 'target/release/cubesat';
const WAIT = 90_000; // an upper bound for one step on a loaded machine, not a timing assertion

const work = mkdtempSync(join(tmpdir(), 'cubesat-studio-e2e-'));
const context = await chromium.launchPersistentContext(join(work, 'profile'), {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  acceptDownloads: true,
  viewport: { width: 1400, height: 900 },
  args: [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    // WebGL in software, so that the 3D views draw.
    '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
  ],
});
context.setDefaultTimeout(WAIT);
const page = context.pages()[0] || await context.newPage();
const problems = [];
page.on('pageerror', (e) => problems.push('page error: ' + e.message));
page.on('console', (m) => { if (m.type() === 'error') problems.push('console error: ' + m.text()); });
// A CSP violation in any frame (the page, its srcdoc 3D views) is reported as a problem.
await context.addInitScript(() => {
  document.addEventListener('securitypolicyviolation', (e) => {
    console.error('CSP violation: ' + e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline') + ' at ' + (e.sourceFile || document.URL) + ':' + e.lineNumber);
  });
});
// Nothing but the studio itself may be asked for.
const origin = new URL(url).origin;
await context.route('**/*', (route) => {
  const u = route.request().url();
  if (u.startsWith(origin) || u.startsWith('data:') || u.startsWith('blob:') || u.startsWith('about:')) return route.continue();
  problems.push('request outside the studio: ' + u);
  return route.abort();
});

let passed = 0;
let failed = 0;
async function check(name, body) {
  try {
    await body();
    console.log('ok - ' + name);
    passed++;
  } catch (e) {
    console.log('not ok - ' + name);
    console.log('  ' + String(e && e.stack || e).split('\n').join('\n  '));
    failed++;
    // What the page knew of its job, and what the server says of it.
    const seen = await page.evaluate(() => {
      const r = window.cubesatStudio && window.cubesatStudio.runs;
      return r ? { job: r.job, status: r.status, watching: !!r.source } : null;
    }).catch((err) => 'page not readable: ' + err.message);
    console.log('  page: ' + JSON.stringify(seen));
    if (seen && seen.job) {
      const server = await fetch(origin + '/api/jobs/' + seen.job).then((r) => r.text()).catch((err) => err.message);
      console.log('  server: ' + server);
    }
    if (shots) await page.screenshot({ path: join(work, 'failed.png') }).catch(() => {});
  }
}

function assert(cond, what) {
  if (!cond) throw new Error('assertion failed: ' + what);
}

const text = (sel) => page.locator(sel).textContent();

async function shot(name) {
  if (shots) await page.screenshot({ path: join(shots, name) });
}

/** Runs the Solve tab's current settings and waits for the job to end. */
async function run(settings) {
  await page.click('#tab-solve');
  await page.selectOption('#action', settings.action || 'count');
  await page.selectOption('#up-to', settings.up_to || 'default');
  await page.selectOption('#engine', settings.engine || 'auto');
  await page.fill('#threads', String(settings.threads ?? 0));
  await page.click('#start');
  await page.waitForFunction(() => {
    const s = document.getElementById('job-state').textContent;
    return s && !['starting', 'running', 'stopping'].includes(s);
  });
  return text('#result');
}

/** Clicks what opens a puzzle and answers "Open it" when the page asks before replacing work;
 *  resolves once the puzzle is in. */
async function opening(click) {
  const before = await page.evaluate(() => Number(document.body.dataset.opened || 0));
  await click();
  await page.waitForFunction((n) => document.getElementById('replace-dialog').open || Number(document.body.dataset.opened || 0) > n, before);
  if (await page.evaluate(() => document.getElementById('replace-dialog').open)) await page.click('#replace-yes');
  await page.waitForFunction((n) => Number(document.body.dataset.opened || 0) > n, before);
}

/** Opens a library entry: in the editor (`edit`, the default), or with its Solve (`open`),
 *  which also lists its solutions. */
async function openBundled(key, how) {
  await page.click('#tab-library');
  await page.fill('#lib-search', '');
  await page.selectOption('#lib-status', '');
  await opening(() => page.click(`.card[data-key="${key}"] .${how || 'edit'}`));
}

/** axe-core on what the page shows now: no serious or critical violation. The 3D views are
 *  the server's own pages, checked on their own. */
async function axe(view) {
  await page.evaluate(AXE + '\n;0');
  const found = await page.evaluate(async () => {
    const r = await window.axe.run(document, { iframes: false, resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.impact + ' ' + v.id + ': ' + v.help + ' at ' + v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(', '));
  });
  assert(found.length === 0, 'axe-core finds in the ' + view + ' view:\n' + found.join('\n'));
}

/** Whether nothing on the page is wider than the window (no sideways scrolling). */
async function fitsWidth() {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
}

/** Waits until the editor's check of the current text has come back valid. */
async function valid() {
  await page.waitForFunction(() => /^valid/.test(document.getElementById('ed-status').textContent));
}

function python(script, ...args) {
  return execFileSync('python3', ['-c', script, ...args], { encoding: 'utf8' });
}

await check('the library lists the whole catalog by family, drawn as it comes into view', async () => {
  await page.goto(url);
  const started = Date.now();
  await page.waitForSelector('#catalog[data-loaded]');
  const loadedIn = Date.now() - started;
  // Every named puzzle: the bundled files directly in crates/cubesat/puzzles/ and the catalog's in folders below.
  const named = Number(await page.locator('#catalog').getAttribute('data-loaded'));
  const bundled = readdirSync('crates/cubesat/puzzles').filter((f) => f.endsWith('.json')).length;
  const catalog = readdirSync('crates/cubesat/puzzles/catalog', { recursive: true }).filter((f) => f.endsWith('.json')).length;
  assert(named === bundled + catalog && named > 300, 'one entry per named puzzle (' + named + ' listed, ' + bundled + ' + ' + catalog + ' files)');
  assert(await page.locator('#catalog .card').count() === named, 'one card per entry');
  assert(await page.locator('#catalog .family').count() > 5, 'grouped by family');
  console.log('# library listed ' + named + ' puzzles in ' + loadedIn + ' ms');
  await page.waitForFunction(() => { const i = document.querySelector('#catalog .card img'); return i && i.complete && i.naturalWidth > 0; });
  await shot('studio-library.png');
  const soma = page.locator('.card[data-key="soma"]');
  await soma.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => { const i = document.querySelector('.card[data-key="soma"] img'); return i && i.complete && i.naturalWidth > 0; });
  const somaText = await soma.textContent();
  assert(somaText.includes('480 up to rotation'), 'the Soma entry gives cubesat\'s count up to rotation: ' + somaText);
  assert(somaText.includes('published: 240 up to rotation and reflection'), 'the Soma entry gives its published count: ' + somaText);
  assert(await soma.locator('a[href^="http"]').count() > 0, 'the Soma entry links its source');
  assert(somaText.includes('convention: "240 essentially distinct ways"'), 'the Soma entry gives the convention of its published count: ' + somaText);
});

await check('search the library: "bedlam" narrows it, the entry opens', async () => {
  await page.goto(url);
  await page.waitForSelector('#catalog[data-loaded]');
  const all = Number(await page.locator('#catalog').getAttribute('data-shown'));
  const search = page.getByLabel('Search puzzles');
  await search.focus();
  await page.keyboard.type('bedlam');
  await page.waitForFunction((n) => Number(document.getElementById('catalog').dataset.shown) < n, all);
  const visible = page.locator('#catalog .card:not([hidden])');
  const n = await visible.count();
  assert(n >= 1 && n < all, 'the list narrows (' + n + ' of ' + all + ')');
  for (let i = 0; i < n; i++) {
    assert((await visible.nth(i).textContent()).toLowerCase().includes('bedlam'), 'every entry shown matches');
  }
  const bedlam = page.locator('.card[data-key="bedlam"]');
  assert(await bedlam.isVisible(), 'Bedlam is shown');
  assert(!(await page.locator('.card[data-key="soma"]').isVisible()), 'Soma, which does not match, is not shown');
  assert(await page.locator('#catalog .family:not([hidden])').count() < await page.locator('#catalog .family').count(), 'families with no match are hidden');
  assert((await bedlam.textContent()).includes('published: 19,186'), 'with its published 19,186');
  // Keyboard: from the search box, Tab reaches the filters; Enter on the entry's button opens it.
  await page.keyboard.press('Tab');
  assert(await page.evaluate(() => document.activeElement.id) === 'lib-family', 'Tab goes from the search box to the family filter');
  await bedlam.locator('.edit').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /bedlam/i.test(document.getElementById('current').textContent));
  await valid();
  assert(await page.locator('#editor').isVisible(), 'the entry opens in the editor');
});

await check('filter the library: open puzzles show their estimated cost', async () => {
  await page.click('#tab-library');
  await page.fill('#lib-search', '');
  await page.selectOption('#lib-status', 'open');
  await page.waitForFunction(() => document.querySelectorAll('#catalog .card:not([hidden])').length > 0);
  const first = page.locator('#catalog .card:not([hidden])').first();
  const t = await first.locator('.estimate').textContent();
  assert(/nodes/.test(t) && /CPU/.test(t), 'an open entry gives its estimate: ' + t);
  const statuses = await page.locator('#catalog .card:not([hidden])').evaluateAll((cs) => cs.map((c) => c.dataset.status));
  assert(statuses.every((x) => x === 'open'), 'only open entries are shown');
  await page.selectOption('#lib-status', '');
});

await check('count Soma: 480 shown', async () => {
  await openBundled('soma');
  const result = await run({ action: 'count' });
  assert(result === '480 solutions up to rotation', 'result is ' + JSON.stringify(result));
  assert((await text('#stats')).includes('688 placements'), 'the statistics line');
});

await check("the editor shows Soma's pieces, their figures and a 3D preview", async () => {
  await openBundled('soma', 'edit');
  await page.click('[data-item="piece-4"]');
  await valid();
  assert((await text('[data-item="piece-4"]')).includes('4 cubes, 12 orientations, 96 placements'), 'piece A figures as cubesat info gives them');
  const preview = page.frameLocator('#preview');
  await preview.locator('#title', { hasText: "piece 'A'" }).waitFor();
  // Piece A is named A: its legend row says so once, not "A  A".
  const rows = await preview.locator('#legend div').allTextContents();
  assert(rows.length === 1 && rows[0].trim() === 'A', 'the 3D legend names piece A once: ' + rows.join(' | '));
  assert(await page.locator('#grid td.fill').count() === 4, 'four cubes in the grid');
  assert((await page.inputValue('#art')).includes('#'), 'the layer art');
  await shot('studio-editor.png');
});

await check('list Soma and browse to solution 3, as the CLI lists it', async () => {
  const result = await run({ action: 'solve' });
  assert(result === '480 solutions up to rotation', 'result is ' + JSON.stringify(result));
  await page.waitForFunction(() => document.getElementById('sol-title').textContent === 'Soma cube, solution 1');
  await page.click('#sol-next');
  await page.waitForFunction(() => document.getElementById('sol-title').textContent === 'Soma cube, solution 2');
  await page.click('#sol-next');
  await page.waitForFunction(() => document.getElementById('sol-title').textContent === 'Soma cube, solution 3');
  assert(await page.inputValue('#sol-index') === '3', 'the index shows 3');
  const frame = page.frameLocator('#sol-view');
  await frame.locator('#title', { hasText: 'Soma cube, solution 3' }).waitFor();
  await frame.locator('#status[data-nonblank]').waitFor({ state: 'attached' });
  const status = frame.locator('#status');
  assert(await status.getAttribute('data-webgl') === '1', 'the 3D view has WebGL');
  assert(Number(await status.getAttribute('data-nonblank')) > 1000, 'the 3D view drew the solution');
  const cli = execFileSync(CUBESAT, ['solve', 'soma', '--limit', '3', '--color', 'never', '-q'], { encoding: 'utf8' });
  const third = cli.trim().split(/\n\s*\n/).pop().trim();
  assert((await text('#sol-text')).trim() === third, 'solution 3 is the CLI\'s third solution:\n' + third);
  await page.click('#sol-tabs button[data-v="steps"]');
  assert(await page.locator('#sol-steps li').count() === 7, 'seven pieces lowered in order');
  // Lowering pieces from above is said as what it is, and points to the real disassembly.
  const lowering = await text('#sol-lowering');
  assert(/lowered into place from above/.test(lowering) && /not a disassembly/.test(lowering), 'the lowering order is not called a disassembly: ' + lowering);
  assert(await page.locator('#sol-lowering button', { hasText: 'Disassemble' }).count() === 1, 'it points to Disassemble');
  await shot('studio-solution.png');
  await page.click('#sol-tabs button[data-v="text"]');
});

await check('stop a running Tetris Cube count and see the partial count', async () => {
  await openBundled('tetris-cube');
  await page.click('#tab-solve');
  await page.selectOption('#action', 'count');
  await page.selectOption('#up-to', 'none');
  await page.fill('#threads', '1');
  await page.click('#start');
  // Stop once the count has visibly started: the whole count takes seconds of CPU.
  await page.waitForFunction(() => / nodes/.test(document.getElementById('prog-text').textContent));
  assert(await text('#job-state') === 'running', 'the count is running');
  // The running number says what it counts (finding 10), not "before symmetry".
  const progress = await text('#prog-text');
  assert(!/before symmetry/.test(progress) && /so far/.test(progress), 'the running number is worded: ' + progress);
  assert(/running number/.test(await text('#prog-note')), 'a note says what the running number is');
  assert(/ETA/.test(progress), 'the running count shows its ETA: ' + progress);
  await page.click('#stop');
  await page.waitForFunction(() => document.getElementById('job-state').textContent === 'stopped');
  await shot('studio-count.png');
  const result = await text('#result');
  const m = /^(\d+) solutions? counting every placement \(interrupted: counted so far\)$/.exec(result);
  assert(m, 'a partial count: ' + JSON.stringify(result));
  assert(Number(m[1]) < 236136, 'fewer than the whole count, 236136');
});

await check('draw a puzzle in the editor, count it, and undo an edit', async () => {
  await page.click('#tab-editor');
  await opening(() => page.click('#new-puzzle'));
  const cell = (x, y, z) => `#grid td[data-x="${x}"][data-y="${y}"][data-z="${z}"]`;
  // The target: a 2x2 square.
  await page.click('[data-item="target-0"]');
  for (const [x, y] of [[0, 0], [1, 0], [0, 1], [1, 1]]) await page.click(cell(x, y, 0));
  // The piece: a domino, two copies.
  await page.click('[data-item="piece-0"]');
  await page.click(cell(0, 0, 0));
  await page.click(cell(1, 0, 0));
  await page.fill('#piece-count', '2');
  await page.dispatchEvent('#piece-count', 'change');
  await valid();
  assert((await text('#info')).includes('4 cells (4 must-fill, 0 optional) in 2x2x1'), 'the info names the target');
  // An edit, undone: one cube more, then Undo gives the domino back.
  const before = await page.inputValue('#json');
  await page.click(cell(0, 1, 0));
  assert(await page.locator(cell(0, 1, 0)).getAttribute('class') === 'fill', 'the clicked cell is a cube');
  await page.waitForFunction(() => document.getElementById('ed-error').textContent.includes('volume'));
  await page.click('#undo');
  assert(!(await page.locator(cell(0, 1, 0)).getAttribute('class')).includes('fill'), 'undo took the cube away');
  assert(await page.inputValue('#json') === before, 'undo restored the puzzle text');
  await page.click('#redo');
  assert((await page.locator(cell(0, 1, 0)).getAttribute('class')) === 'fill', 'redo put it back');
  await page.click('#undo');
  await valid();
  const every = await run({ action: 'count', up_to: 'none' });
  assert(every === '2 solutions counting every placement', 'every placement: ' + JSON.stringify(every));
  const classes = await run({ action: 'count', up_to: 'rotation' });
  assert(classes === '1 solution up to rotation', 'up to rotation: ' + JSON.stringify(classes));
});

await check('an error in layer art is shown at its piece and row', async () => {
  await page.click('#tab-editor');
  await page.click('[data-item="piece-0"]');
  await page.fill('#art', '#x');
  await page.waitForFunction(() => document.getElementById('ed-error').textContent.includes("unexpected character 'x'"));
  const msg = await text('#ed-error .msg');
  assert(msg.startsWith('pieces[0].layers[0][0]: unexpected character'), 'the library\'s message with its place: ' + msg);
  assert(await page.locator('#grid tr.err').count() === 1, 'the row is marked in the grid');
  assert((await page.locator('[data-item="piece-0"]').getAttribute('class')).includes('err'), 'the piece is marked');
  await page.click('#undo');
  await valid();
});

await check("drop a BurrTools file and see BurrTools' count", async () => {
  const file = '02a_tetracubes_4x4x2.xmpuzzle';
  const path = '../shared/reference/burrtools/' + file;
  const counts = JSON.parse(readFileSync('../shared/reference/burrtools/counts.json', 'utf8'));
  const expected = counts.find((c) => c.file === file && c.problem === 0).burrTxt.assemblies;
  await page.click('#tab-library');
  const bytes = readFileSync(path).toString('base64');
  await page.evaluate(({ bytes, name }) => {
    const raw = Uint8Array.from(atob(bytes), (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([raw], name));
    document.getElementById('drop').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, { bytes, name: file });
  await page.waitForSelector('.card.dropped');
  await page.locator('.card.dropped img').waitFor();
  await opening(() => page.click('.card.dropped .edit'));
  const result = await run({ action: 'count', up_to: 'default' });
  assert(result.startsWith(expected + " solutions in BurrTools' convention"), 'BurrTools counts ' + expected + ': ' + JSON.stringify(result));
});

await check('download STL files and check them with trimesh', async () => {
  await openBundled('soma');
  await page.click('#tab-solve');
  await page.waitForFunction(() => document.getElementById('stl-piece').options.length === 7);
  await page.selectOption('#stl-piece', '1'); // L, four cubes
  await page.fill('#stl-cube', '10');
  await page.fill('#stl-gap', '0');
  const [piece] = await Promise.all([page.waitForEvent('download'), page.click('#dl-stl-piece')]);
  const piecePath = join(work, piece.suggestedFilename());
  await piece.saveAs(piecePath);
  await page.fill('#stl-gap', '0.5');
  const [whole] = await Promise.all([page.waitForEvent('download'), page.click('#dl-stl-solution')]);
  const wholePath = join(work, whole.suggestedFilename());
  await whole.saveAs(wholePath);
  const out = python(`
import sys, trimesh
p = trimesh.load(sys.argv[1])
assert p.is_watertight and p.is_winding_consistent, 'piece mesh not closed'
assert abs(p.volume - 4000) < 1e-3, p.volume
s = trimesh.load(sys.argv[2])
assert s.is_watertight and s.is_winding_consistent, 'solution mesh not closed'
assert len(s.split()) == 7, len(s.split())
assert 27 * 9.5 ** 3 < s.volume < 27000, s.volume
print('ok')
`, piecePath, wholePath);
  assert(out.trim() === 'ok', out);
  assert(piece.suggestedFilename() === 'piece-2-L.stl', piece.suggestedFilename());
});

await check('a share link opens the puzzle in another page', async () => {
  await page.click('#share');
  await page.waitForFunction(() => document.getElementById('share-url').value.includes('#p='));
  const link = await page.inputValue('#share-url');
  assert(link.startsWith(url.replace(/\/$/, '') + '/#p='), link);
  const other = await context.newPage();
  await other.goto(link);
  await other.waitForFunction(() => /^valid/.test(document.getElementById('ed-status').textContent));
  assert(await other.inputValue('#json') === await page.inputValue('#json'), 'the same puzzle text');
  await other.close();
});

await check("a card's Solve shows a solution, not only a count", async () => {
  await openBundled('soma', 'open');
  await page.waitForFunction(() => document.getElementById('sol-title').textContent === 'Soma cube, solution 1');
  assert(await page.locator('#solve').isVisible(), 'the Solve view shows');
  assert((await text('#sol-text')).trim().split('\n').length >= 3, 'the first solution is drawn as text');
  // The arrow keys step through the solutions (finding 6).
  await page.locator('#sol-title').click();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.getElementById('sol-title').textContent === 'Soma cube, solution 2');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => document.getElementById('sol-title').textContent === 'Soma cube, solution 1');
  await axe('solve');
});

await check('a legend names a piece once, and the text view shows all of the legend', async () => {
  await openBundled('pentominoes-6x10', 'open');
  await page.waitForFunction(() => /solution 1$/.test(document.getElementById('sol-title').textContent));
  await page.click('#sol-tabs button[data-v="steps"]');
  const steps = await page.locator('#sol-steps li').allTextContents();
  assert(steps.length === 12, 'twelve pieces: ' + steps.join(' | '));
  assert(steps.every((t) => !/^(\S+)\s+\1\b/.test(t)), 'no "V V": ' + steps.join(' | '));
  await page.click('#sol-tabs button[data-v="text"]');
  await openBundled('iq-puzzler-pro-pyramid', 'open');
  await page.waitForFunction(() => /IQ Puzzler Pro.*solution 1$/.test(document.getElementById('sol-title').textContent));
  const legend = page.locator('#sol-legend');
  const all = (await legend.textContent()).trim();
  assert(/^legend: A = red,/.test(all) && /K = darkred, L = lightblue$/.test(all), 'the whole legend: ' + all);
  // All of it is seen: it wraps inside its box, nothing runs past the right edge.
  assert(await legend.evaluate((e) => e.scrollWidth <= e.clientWidth + 1), 'the legend fits its box');
});

await check("a ball board's card gives the size typed in its file (finding 8)", async () => {
  await page.click('#tab-library');
  const meta = page.locator('.card[data-key="kanoodle-2d"] p.meta');
  await page.waitForFunction(() => /into 11x5x1/.test(document.querySelector('.card[data-key="kanoodle-2d"] p.meta').textContent));
  assert(!/15x15/.test(await meta.textContent()), 'not the internal frame: ' + await meta.textContent());
});

await check('pieces named after a colour are drawn in it (finding 4)', async () => {
  await openBundled('iq-puzzler-pro-pyramid', 'edit');
  await valid();
  const red = page.locator('#items button.item', { hasText: /^red/ });
  await red.click();
  // The grid is redrawn for the piece clicked (and again when the server's check comes
  // back): read its cells' colours in the same moment as they are found, not after.
  const colours = await (await page.waitForFunction(() => {
    const tds = Array.from(document.querySelectorAll('#grid td.fill'));
    const cs = tds.map((td) => getComputedStyle(td).backgroundColor);
    return cs.length > 0 && cs.every((c) => c === 'rgb(255, 0, 0)') && cs;
  })).jsonValue();
  assert(colours.length > 0 && colours.every((c) => c === 'rgb(255, 0, 0)'), 'the red piece is red in the editor: ' + colours.join(', '));
  await page.locator('#items button.item', { hasText: /^darkgreen/ }).click();
  await page.waitForFunction(() => {
    const tds = Array.from(document.querySelectorAll('#grid td.fill'));
    return tds.length > 0 && tds.every((td) => getComputedStyle(td).backgroundColor === 'rgb(0, 100, 0)');
  });
});

await check('after typing a name, the first click on a piece selects it (finding 5)', async () => {
  await openBundled('soma', 'edit');
  await valid();
  await page.click('#p-name');
  await page.fill('#p-name', 'Soma, renamed');
  // No blur first: the click itself takes the focus away from the field.
  await page.click('[data-item="piece-2"]');
  assert(await page.getAttribute('[data-item="piece-2"]', 'aria-pressed') === 'true', 'the piece clicked once is selected');
  assert((await page.inputValue('#json')).includes('"name": "Soma, renamed"'), 'and the name was kept');
  await page.click('#undo');
  assert(!(await page.inputValue('#json')).includes('renamed'), 'the rename is one step of Undo');
});

await check('keep work: opening another puzzle asks and is undoable, Back returns to the puzzle before, reload keeps it', async () => {
  await openBundled('soma', 'edit');
  await valid();
  // An edit makes it work of the user's own.
  await page.click('[data-item="piece-0"]');
  await page.fill('#piece-name', 'mine');
  await page.dispatchEvent('#piece-name', 'change');
  const mine = await page.inputValue('#json');
  await page.click('#tab-library');
  await page.click('.card[data-key="bedlam"] .edit');
  await page.waitForSelector('#replace-dialog[open]');
  assert((await text('#replace-text')).includes('Undo'), 'the question says Undo brings it back');
  await axe('question');
  await page.click('#replace-no');
  assert(await page.inputValue('#json') === mine, '"Keep editing mine" keeps it');
  await opening(() => page.click('.card[data-key="bedlam"] .edit'));
  await page.waitForFunction(() => /bedlam/i.test(document.getElementById('current').textContent));
  await page.click('#undo');
  assert(await page.inputValue('#json') === mine, 'Undo brings the replaced puzzle back');
  await page.click('#redo');
  await page.waitForFunction(() => /bedlam/i.test(document.getElementById('current').textContent));
  // Back: the puzzle shown before, still in the studio.
  await page.goBack();
  await page.waitForFunction(() => /soma/i.test(document.getElementById('current').textContent));
  assert(page.url().startsWith(url), 'Back stays in the studio: ' + page.url());
  await page.goForward();
  await page.waitForFunction(() => /bedlam/i.test(document.getElementById('current').textContent));
});

await check("the editor's grid menu is the library's grids (GET /api/grids)", async () => {
  const grids = await (await fetch(url + 'api/grids')).json();
  await page.click('#tab-editor');
  const names = grids.map((g) => g.name).join(', ');
  await page.waitForFunction((n) => Array.from(document.querySelectorAll('#p-grid option')).map((o) => o.value).join(', ') === n, names);
  assert(grids.filter((g) => g.default).length === 1, 'one default grid: ' + JSON.stringify(grids));
});

await check('draw a 3-layer ball pyramid in the editor, count it, and find it again after a reload', async () => {
  await page.click('#tab-editor');
  await opening(() => page.click('#new-puzzle'));
  await page.selectOption('#p-grid', 'spheres');
  await page.waitForFunction(() => document.getElementById('json').value.includes('"grid": "spheres"'));
  const cell = (x, y, z) => `#grid td[data-x="${x}"][data-y="${y}"][data-z="${z}"]`;
  await page.click('[data-item="target-0"]');
  await page.waitForSelector('#grid.balls'); // ball cells are drawn as balls
  // Layer 0 (3x3) with the mouse...
  for (let y = 0; y < 3; y++) for (let x = 0; x < 3; x++) await page.click(cell(x, y, 0));
  // ... layer 1 (2x2) and layer 2 (1) with the keyboard: the grid's cell takes focus, arrows move.
  await page.locator(cell(0, 0, 0)).focus();
  await page.keyboard.press('PageDown');
  assert(await page.evaluate(() => document.activeElement.dataset.z) === '1', 'PageDown goes to the layer above');
  for (const k of ['Enter', 'ArrowRight', 'Enter', 'ArrowDown', 'Enter', 'ArrowLeft', 'Enter', 'ArrowUp', 'PageDown', 'Enter']) await page.keyboard.press(k);
  await page.waitForFunction(() => document.getElementById('json').value.includes('"layers":[["###","###","###"],["##.","##.","..."],["#..","...","..."]]'));
  // The four Ball Room pieces, typed as layer art.
  const pieces = [['straight', '###'], ['right', '##\n.#'], ['twist', '..\n.#\n.#\n\n.#\n#.'], ['bent', '...\n###\n\n.#.']];
  for (let i = 0; i < pieces.length; i++) {
    if (i > 0) await page.click('#add-piece');
    await page.click(`[data-item="piece-${i}"]`);
    await page.fill('#piece-name', pieces[i][0]);
    await page.dispatchEvent('#piece-name', 'change');
    await page.fill('#art', pieces[i][1]);
    const layers = JSON.stringify(pieces[i][1].split('\n\n').map((b) => b.split('\n')));
    await page.waitForFunction((l) => document.getElementById('json').value.includes('"layers":' + l), layers);
  }
  await valid();
  assert((await text('#info')).includes('14 cells'), 'the pyramid has 14 balls: ' + await text('#info'));
  const every = await run({ action: 'count', up_to: 'none' });
  assert(every === '8 solutions counting every placement', 'every placement: ' + JSON.stringify(every));
  // Balls do not slide apart: Disassemble is off, and the page says why.
  assert(await page.getByRole('button', { name: 'Disassemble', exact: true }).isDisabled(), 'no Disassemble for balls');
  assert(/not taken apart/.test(await text('#dis-why')), 'and why: ' + await text('#dis-why'));
  const drawn = await page.inputValue('#json');
  await page.reload();
  await page.waitForSelector('#restored:not([hidden])');
  await page.click('#restored-open');
  assert(await page.inputValue('#json') === drawn, 'the reloaded page has the drawn puzzle');
  await valid();
  await axe('editor');
});

/** The editor's drawn triangles or hexagons: how many corners each, whether filled. */
async function drawnCells(shape) {
  return page.evaluate((sel) => Array.from(document.querySelectorAll(sel)).map((p) => ({
    corners: p.getAttribute('points').trim().split(/\s+/).length, fill: p.classList.contains('fill'),
  })), '#grid svg.layer.' + shape + ' polygon.cell');
}

/** Draws a one-layer board of triangles or hexagons in the editor: typed art, one cell
 *  clicked and one toggled twice with the keyboard; returns after each edit is in the JSON. */
async function drawBoard(grid, shape, art, click, keys, corners) {
  const json = () => page.inputValue('#json');
  const layers = (rows) => page.waitForFunction((l) => document.getElementById('json').value.includes('"layers":' + l), JSON.stringify([rows]));
  const cell = (x, y, z) => `#grid polygon[data-x="${x}"][data-y="${y}"][data-z="${z}"]`;
  await page.click('#tab-editor');
  await opening(() => page.click('#new-puzzle'));
  await page.selectOption('#p-grid', grid);
  await page.waitForFunction((g) => document.getElementById('json').value.includes('"grid": "' + g + '"'), grid);
  await page.click('[data-item="target-0"]');
  await page.fill('#art', art.join('\n'));
  await layers(art);
  await page.waitForSelector('#grid svg.layer.' + shape);
  const rows = art.length, cols = art[0].length;
  let cells = await drawnCells(shape);
  // The board, one more column and row to grow it by clicking, and a new layer above.
  assert(cells.length === 2 * (cols + 1) * (rows + 1), 'cells drawn: ' + cells.length);
  assert(cells.every((c) => c.corners === corners), shape + 's, not squares: ' + JSON.stringify(cells.map((c) => c.corners)));
  const filled = art.join('').split('#').length - 1;
  assert(cells.filter((c) => c.fill).length === filled, 'filled: ' + cells.filter((c) => c.fill).length);
  assert(await page.locator('#grid table').count() === 0, 'no layer of squares');
  // A click fills the missing cell.
  const done = art.map((r) => r.replace(/\./g, '#'));
  await page.click(cell(...click, 0));
  await layers(done);
  cells = await drawnCells(shape);
  assert(cells.filter((c) => c.fill).length === filled + 1, 'one more filled after the click: ' + cells.filter((c) => c.fill).length);
  // The keyboard: every cell takes focus, visibly; the arrows move it, Enter sets and clears.
  await page.locator(cell(0, 0, 0)).focus();
  for (const k of keys) await page.keyboard.press(k);
  const at = await page.evaluate(() => ({ ...document.activeElement.dataset, stroke: getComputedStyle(document.activeElement).stroke }));
  assert(at.x === String(cols) && at.y === '0' && at.z === '0', 'the keys lead to the new column: ' + JSON.stringify(at));
  assert(at.stroke === 'rgb(224, 138, 0)', 'the focused cell shows it: ' + at.stroke);
  await page.keyboard.press('Enter');
  await layers([done[0] + '#', ...done.slice(1).map((r) => r + '.')]);
  await page.keyboard.press(' ');
  await layers(done);
  assert(await page.evaluate(() => document.activeElement.dataset.x) === String(cols), 'focus stays on the cell');
}

await check('draw a board of triangles (the prism grid) in the editor, edit it by mouse and keyboard, and count it', async () => {
  // A hexagon of six triangles; its third triangle of row 1 (pointing down) is clicked.
  await drawBoard('prisms', 'triangle', ['###', '##.'], [2, 1], ['ArrowDown', 'ArrowRight', 'ArrowUp', 'ArrowRight', 'ArrowRight'], 3);
  await page.click('[data-item="piece-0"]');
  await page.fill('#art', '##');
  await page.fill('#piece-count', '3');
  await page.dispatchEvent('#piece-count', 'change');
  await page.waitForFunction(() => JSON.parse(document.getElementById('json').value).pieces[0].count === 3);
  await valid();
  assert((await text('#info')).includes('6 cells'), 'six triangles: ' + await text('#info'));
  const every = await run({ action: 'count', up_to: 'none' });
  assert(every === '2 solutions counting every placement', 'three diamonds tile the hexagon twice: ' + JSON.stringify(every));
  await page.click('#tab-editor');
  await page.click('[data-item="target-0"]');
  await axe('editor (triangles)');
});

await check('draw a board of hexagons in the editor, edit it by mouse and keyboard, and count it', async () => {
  // A rhombus of four hexagons (each row half a hexagon right of the one above).
  await drawBoard('hexagons', 'hexagon', ['##', '#.'], [1, 1], ['ArrowDown', 'ArrowRight', 'ArrowUp', 'ArrowRight'], 6);
  await page.click('[data-item="piece-0"]');
  await page.fill('#art', '##');
  await page.fill('#piece-count', '2');
  await page.dispatchEvent('#piece-count', 'change');
  await page.waitForFunction(() => JSON.parse(document.getElementById('json').value).pieces[0].count === 2);
  await valid();
  assert((await text('#info')).includes('4 cells'), 'four hexagons: ' + await text('#info'));
  const every = await run({ action: 'count', up_to: 'none' });
  assert(every === '2 solutions counting every placement', 'two dominoes tile the rhombus twice: ' + JSON.stringify(every));
  await page.click('#tab-editor');
  await page.click('[data-item="target-0"]');
  await axe('editor (hexagons)');
});

await check('grids typed in 3D coordinates are not drawn as layers: the page says so and offers the JSON view', async () => {
  await page.click('#tab-editor');
  for (const grid of ['rhombic', 'tetra-octa']) {
    await page.selectOption('#p-grid', grid);
    await page.waitForFunction((g) => document.getElementById('json').value.includes('"grid": "' + g + '"'), grid);
    const note = await text('#grid .note');
    assert(/3D coordinates/.test(note) && /JSON view/.test(note), grid + ': ' + note);
    assert(await page.locator('#grid table, #grid svg').count() === 0, grid + ': no layers drawn');
    assert(await page.locator('#art').isDisabled(), grid + ': no layer art');
  }
  await axe('editor (a grid typed in 3D)');
  await page.click('#open-json');
  assert(await page.locator('#ed-json').isVisible(), 'the JSON view opens');
  assert(await page.evaluate(() => document.activeElement.id) === 'json', 'with the JSON in focus');
  await page.click('#mode-grid');
});

await check('Tab reaches the file chooser, and a file with several problems offers them', async () => {
  await page.click('#tab-library');
  await page.locator('#tab-library').focus();
  let reached = false;
  for (let i = 0; i < 12 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate(() => document.activeElement.id === 'choose-file');
  }
  assert(reached, 'Tab reaches "choose one"');
  const shows = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert(shows !== 'none', 'with a visible focus');
  // Enter opens the browser's file chooser (the hidden input is clicked). Playwright can lose
  // the chooser of a page that was reloaded before, so the click itself is what is checked,
  // and the file is then given to the input as the chooser would.
  await page.evaluate(() => document.getElementById('file').addEventListener('click', () => { document.body.dataset.chooser = '1'; }, { once: true }));
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.body.dataset.chooser === '1');
  await page.setInputFiles('#file', '../shared/reference/burrtools/08_three_problems.xml');
  const dropped = page.locator('.card.dropped').first();
  await dropped.locator('select.problem').waitFor();
  assert(await dropped.locator('select.problem option').count() === 3, 'a menu of the three problems');
  const about = await dropped.textContent();
  assert(/on the cubes grid/.test(about) && /BurrTools' count here is/.test(about), 'the card gives the grid and what BurrTools\' settings mean for the count: ' + about);
  // Another problem: the card is read again for it.
  const second = await dropped.locator('select.problem option').nth(1).getAttribute('value');
  await dropped.locator('select.problem').selectOption(second);
  await page.waitForFunction(() => /problem 1\b/.test(document.querySelector('.card.dropped').textContent));
  await axe('library');
});

await check('a corrupt share link says what is wrong with it', async () => {
  await page.goto(url + '#p=z.Zm9vYmFy');
  await page.waitForFunction(() => !document.getElementById('lib-error').hidden);
  const msg = await text('#lib-error');
  assert(/share link/.test(msg) && /cut off or changed/.test(msg) && !/Failed to fetch/.test(msg), msg);
  await page.goto(url);
});

await check('readable at 1280x720 and in a narrow window', async () => {
  for (const [w, h] of [[1280, 720], [420, 800]]) {
    await page.setViewportSize({ width: w, height: h });
    for (const tab of ['library', 'editor', 'solve']) {
      await page.click('#tab-' + tab);
      assert(await fitsWidth(), 'the ' + tab + ' view fits ' + w + ' pixels across');
    }
  }
  await page.setViewportSize({ width: 1400, height: 900 });
});

await check("the page runs without 'unsafe-inline', its 3D views by their scripts' hashes", async () => {
  const resp = await fetch(url);
  const csp = resp.headers.get('content-security-policy');
  assert(!/unsafe-inline/.test(csp), 'no unsafe-inline: ' + csp);
  // Each inline script and style of a 3D view must be allowed by its hash, which the server
  // works out at start-up from a page the renderer draws (so a changed viewer changes it too).
  const check = await (await fetch(url + 'api/check', { method: 'POST', headers: { 'content-type': 'application/json', origin }, body: JSON.stringify({ puzzle: readFileSync('crates/cubesat/puzzles/soma.json', 'utf8'), view: null }) })).json();
  const missing = [];
  for (const m of check.view.matchAll(/<(script|style)([^>]*)>([\s\S]*?)<\/\1>/g)) {
    if (/application\/json/.test(m[2])) continue;
    const h = "'sha256-" + createHash('sha256').update(m[3]).digest('base64') + "'";
    if (!csp.includes(h)) missing.push(m[1] + ' ' + h);
  }
  assert(!missing.length, 'the CSP does not allow the 3D view\'s inline ' + missing.join(', ') + ': the server hashes the scripts and styles of one page (csp() in crates/studio/src/http.rs), and this view\'s differ from that page\'s');
  // And in the browser: the preview's viewer ran (it marks its status) with no violation logged.
  await openBundled('soma', 'edit');
  await page.frameLocator('#preview').locator('#status[data-webgl]').waitFor({ state: 'attached' });
  assert(!problems.some((p) => /CSP violation|Content Security Policy/.test(p)), problems.join('\n'));
});

/** Opens a file through the page's file chooser, as a user would, and then its card's Edit. */
async function chooseFile(path) {
  await page.click('#tab-library');
  const before = await page.locator('.card.dropped').count();
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.click('#choose-file')]);
  await chooser.setFiles(path);
  await page.waitForFunction((n) => document.querySelectorAll('.card.dropped').length > n, before);
  await opening(() => page.click('.card.dropped .edit'));
}

await check('a catalog puzzle that Polyform Puzzler left open shows its estimate, and opens', async () => {
  await page.click('#tab-library');
  const entry = await page.evaluate(async () => (await (await fetch('/api/catalog')).json())
    .find((p) => p.status === 'open' && p.estimate && p.incomplete && /Polyform Puzzler/.test(p.incomplete.source)));
  assert(entry, 'the catalog has such an entry');
  await page.fill('#lib-search', entry.name);
  const c = page.locator(`.card[data-key="${entry.key}"]`);
  await c.waitFor();
  const t = await c.textContent();
  assert(/left its count unfinished/.test(t) && /Polyform Puzzler/.test(t), 'the card says the source left it open: ' + t);
  const est = await c.locator('.estimate').textContent();
  assert(/nodes/.test(est) && /CPU/.test(est), 'and gives the estimate: ' + est);
  await opening(() => c.locator('.edit').click());
  await valid();
  assert((await text('#current')) === entry.name, 'it opens in the editor');
  await page.click('#tab-library');
  await page.fill('#lib-search', '');
});

await check('estimate the Tetris Cube, plan its shards and download the sbatch script', async () => {
  await openBundled('tetris-cube');
  await page.click('#tab-solve');
  await page.selectOption('#up-to', 'default');
  await page.getByRole('button', { name: 'Estimate', exact: true }).click();
  await page.waitForSelector('#est:not([hidden])');
  await page.fill('#est-seconds', '2');
  await page.fill('#est-wall', '1s'); // less than its CPU time: shards needed
  await page.fill('#est-cores', '4');
  await page.waitForFunction(() => !document.getElementById('est-run').disabled);
  await page.click('#est-run');
  await page.waitForFunction(() => document.getElementById('est-state').textContent === 'done');
  const result = await text('#est-result');
  assert(/nodes \(95% interval/.test(result) || /exact/.test(result), 'nodes with an interval: ' + result);
  assert(/CPU time/.test(result), 'the CPU time: ' + result);
  assert(await page.locator('#est-plan').isVisible(), 'a shard plan');
  const plan = await text('#est-plan-text');
  assert(/32 shards on 4 cores|\d+ shards on 4 cores/.test(plan), 'shards on 4 cores: ' + plan);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#dl-sbatch')]);
  const path = join(work, dl.suggestedFilename());
  await dl.saveAs(path);
  const script = readFileSync(path, 'utf8');
  assert(/#SBATCH/.test(script) && /array/.test(script), 'an sbatch script:\n' + script.slice(0, 400));
  const [sh] = await Promise.all([page.waitForEvent('download'), page.click('#dl-shards')]);
  const shPath = join(work, sh.suggestedFilename());
  await sh.saveAs(shPath);
  assert(/--shard 0\//.test(readFileSync(shPath, 'utf8')), 'the shard commands');
  await page.locator('#est').scrollIntoViewIfNeeded();
  await shot('studio-estimate.png');
  await axe('estimate');
});

await check('an estimate whose probes do not finish says the size is unknown, with no CPU time and no plan', async () => {
  // The hexahexes' ring searches about 5e4 nodes a second, and its first probe takes longer
  // than a second: a one-second estimate has counted nodes but sampled no probe.
  const entry = await page.evaluate(async () => (await (await fetch('/api/catalog')).json())
    .find((p) => /(^|\/)hexahexes-hexagon-ring-1$/.test(p.key)));
  assert(entry, 'the catalog has the hexahexes ring');
  await openBundled(entry.key);
  await page.click('#tab-solve');
  await page.selectOption('#up-to', 'default');
  await page.getByRole('button', { name: 'Estimate', exact: true }).click();
  await page.waitForSelector('#est:not([hidden])');
  await page.fill('#est-seconds', '1');
  await page.fill('#est-wall', '1h'); // a plan would be asked for, but there is no size to plan from
  await page.fill('#est-cores', '2');
  await page.waitForFunction(() => !document.getElementById('est-run').disabled);
  await page.click('#est-run');
  await page.waitForFunction(() => document.getElementById('est-state').textContent === 'done');
  const result = await text('#est-result');
  assert(/unknown: no probe of the tree finished in the time given/.test(result), 'the size is unknown: ' + result);
  assert(/sample for longer/.test(result), 'it says what to do: ' + result);
  assert(!/about/.test(result) && !/95% interval/.test(result), 'no number passes for an estimate: ' + result);
  assert(!/CPU time/.test(result), 'no CPU time: ' + result);
  assert(!/solutions/.test(result), 'no solution count: ' + result);
  assert(!(await page.locator('#est-plan').isVisible()), 'no shard plan');
  assert(await page.locator('#dl-sbatch').isDisabled() && await page.locator('#dl-shards').isDisabled(), 'nothing to download');
  await axe('estimate with no probe');
});

await check('start a generation and stop it', async () => {
  await openBundled('tetris-cube');
  await page.click('#tab-solve');
  await page.selectOption('#action', 'generate');
  await page.fill('#hints', '2');
  await page.check('#unique');
  await page.click('#start');
  await page.waitForFunction(() => document.getElementById('job-state').textContent === 'running');
  await page.click('#stop');
  // The page leaves "stopping" once the server reports the job ended.
  await page.waitForFunction(() => ['stopped', 'done'].includes(document.getElementById('job-state').textContent));
  assert(!(await page.locator('#start').isDisabled()), 'a new run can start');
  await page.uncheck('#unique');
  await page.selectOption('#action', 'count');
});

await check('make a challenge set: its progress, its booklet, and Stop', async () => {
  await openBundled('kanoodle-2d');
  await page.click('#tab-solve');
  await page.selectOption('#action', 'challenges');
  await page.fill('#set-size', '5');
  await page.click('#start');
  await page.waitForSelector('#set-files:not([hidden])');
  const line = await page.textContent('#result');
  assert(/^challenge set of 5 challenges: 1 starter/.test(line), 'the set: ' + line);
  const [pdf] = await Promise.all([page.waitForEvent('download'), page.click('#dl-book-pdf')]);
  const pdfPath = join(work, pdf.suggestedFilename());
  await pdf.saveAs(pdfPath);
  assert(readFileSync(pdfPath).subarray(0, 5).toString() === '%PDF-', 'the booklet is a PDF');
  await axe('challenge set');
  // A large set shows how far it got, and stops.
  await page.fill('#set-size', '1000');
  await page.click('#start');
  await page.waitForFunction(() => /candidates drawn/.test(document.getElementById('prog-text').textContent));
  await page.click('#stop');
  await page.waitForFunction(() => ['stopped', 'done'].includes(document.getElementById('job-state').textContent));
  assert(/stopped before it was made/.test(await page.textContent('#result')), 'stopped: ' + await page.textContent('#result'));
  assert(await page.locator('#set-files').isHidden(), 'no files from a stopped set');
  await page.selectOption('#action', 'count');
});

await check('disassemble a BurrTools burr: its level, its moves, the animation played to the end', async () => {
  const file = 'tests/data/disassembly/burr.xmpuzzle';
  const cli = JSON.parse(execFileSync(CUBESAT, ['disassemble', file, '--format', 'json', '-q'], { encoding: 'utf8' }).split('\n')[0]);
  await chooseFile(file);
  await page.click('#tab-solve');
  await page.getByRole('button', { name: 'Disassemble', exact: true }).click();
  await page.waitForFunction(() => document.getElementById('dis-state').textContent === 'done');
  // The list is asked of the server once the job is done, so it comes a moment later.
  await page.waitForFunction((level) => Array.from(document.querySelectorAll('#dis-rows tr')).some((r) => r.textContent.includes(level)), cli.level, { timeout: 20_000 }).catch(() => {});
  const rows = await page.locator('#dis-rows tr').allTextContents();
  assert(rows.some((r) => r.includes(cli.level)), 'the level ' + cli.level + ' as the CLI gives it: ' + rows.join(' | '));
  await page.waitForSelector('#player:not([hidden])');
  assert(await page.locator('#dis-moves li').count() === cli.moves, cli.moves + ' moves listed');
  assert(await page.locator('#asm-moves li').count() === cli.moves, 'and the assembly as their reverse');
  // Sorted by level and only those that come apart: still the server's list.
  await page.selectOption('#dis-sort', 'level');
  await page.check('#dis-apart');
  await page.waitForFunction(() => Array.from(document.querySelectorAll('#dis-rows tr td:nth-child(2)')).every((td) => td.textContent === 'yes'));
  await page.waitForFunction(() => document.getElementById('dis-view').contentDocument && document.getElementById('dis-view').contentDocument.getElementById('ainfo'));
  // The player follows the controls once the solution's 3D page is in.
  await page.waitForSelector('#player[data-ready]');
  if (shots) {
    // Half the moves played, for the README: pieces on their way out.
    for (let k = 0; k < Math.ceil(cli.moves / 2); k++) await page.click('#pl-fwd');
    await page.waitForTimeout(1500);
    await page.locator('#player').scrollIntoViewIfNeeded();
    await shot('studio-disassembly.png');
  }
  // Played the way the button says, taking it apart: to the last move, every piece's box in
  // the 3D view clear of every other's once the last move has slid.
  assert(await page.locator('#pl-dir').inputValue() === 'apart', 'the player takes the puzzle apart first');
  const view = page.frameLocator('#dis-view');
  assert(await view.locator('#status').getAttribute('data-apart') === '0', 'assembled: the pieces are not apart');
  await page.selectOption('#pl-speed', '4');
  await page.click('#pl-play');
  await page.waitForFunction(() => /^apart/.test(document.getElementById('pl-pos').textContent));
  await view.locator('#status[data-apart="1"]').waitFor({ state: 'attached' });
  const step = await view.locator('#ainfo').textContent();
  assert(step.startsWith('move ' + cli.moves + ' / ' + cli.moves) && /\(apart\)$/.test(step), 'the 3D view shows the last move, the pieces apart: ' + step);
  assert(await page.locator('#pl-play').textContent() === 'Play', 'the player stopped at the end');
  // Each step animates, either way: one move back slides over frames before it settles.
  const frames = Number(await view.locator('#status').getAttribute('data-frames'));
  await page.click('#pl-back');
  // Several frames drawn for it, then settled (a jump would draw one frame, and never pass).
  await page.waitForFunction((f) => {
    const s = document.getElementById('dis-view').contentDocument.getElementById('status');
    return s.getAttribute('data-moving') === '0' && Number(s.getAttribute('data-frames')) > f + 2;
  }, frames);
  assert(await view.locator('#status').getAttribute('data-apart') === '0', 'one move back, the last pieces together again');
  assert(/after move/.test(await text('#pl-pos')), 'one move back');
  // Put together instead: the same moves reversed, to the assembled puzzle.
  await page.selectOption('#pl-dir', 'together');
  assert(/^after step 1 of/.test(await text('#pl-pos')), 'one step from apart: ' + await text('#pl-pos'));
  await page.click('#pl-play');
  await page.waitForFunction(() => /^assembled: all/.test(document.getElementById('pl-pos').textContent));
  assert(/^step (\d+) \/ \1: .* \(assembled\)$/.test(await view.locator('#ainfo').textContent()), 'the 3D view put it together');
  await page.selectOption('#pl-dir', 'apart');
  // Step back one move, and scrub to the start.
  await page.locator('#pl-scrub').fill('0');
  assert(/^assembled/.test(await text('#pl-pos')), 'scrubbed to the assembled puzzle');
  await shot('studio-disassembly.png');
  await axe('disassembly');
});

await check('no script error and no request outside the studio', async () => {
  assert(problems.length === 0, problems.join('\n'));
});

await context.close();
rmSync(work, { recursive: true, force: true });
console.log(passed + ' passed, ' + failed + ' failed');
process.exit(failed ? 1 : 0);
