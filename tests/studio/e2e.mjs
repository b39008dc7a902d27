// End-to-end tests of cubesat studio in Debian's Chromium, driven by Playwright.
//
//   node tests/studio/e2e.mjs URL [--screenshots DIR]
//
// URL is a running `cubesat studio`; run from the repository root (../shared beside it holds
// the BurrTools reference files). Environment: CUBESAT (the binary, for cross-checks),
// CHROMIUM (default /usr/bin/chromium). Each check prints `ok - NAME` or `not ok - NAME` and
// the cause; the last line is `N passed, M failed`, and the exit code is 1 when one failed.
// tests/integration/studio.rs starts the server and runs this; .ci/run installs the pinned
// playwright-core (npm ci in tests/studio). --screenshots writes the README's pictures.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

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

async function openBundled(key, how) {
  await page.click('#tab-library');
  await page.click(`.card[data-key="${key}"] .${how || 'open'}`);
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
  assert((await text('[data-item="piece-4"]')).includes('4 cells, 12 orientations, 96 placements'), 'piece A figures as cubesat info gives them');
  const preview = page.frameLocator('#preview');
  await preview.locator('#title', { hasText: "piece 'A'" }).waitFor();
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
  assert(await page.locator('#sol-steps li').count() === 7, 'seven assembly steps');
  await shot('studio-solution.png');
  await page.click('#sol-tabs button[data-v="text"]');
});

await check('stop a running Tetris Cube count and see the partial count', async () => {
  await openBundled('tetris-cube');
  await page.selectOption('#action', 'count');
  await page.selectOption('#up-to', 'none');
  await page.fill('#threads', '1');
  await page.click('#start');
  // Stop once the count has visibly started: the whole count takes seconds of CPU.
  await page.waitForFunction(() => / nodes/.test(document.getElementById('prog-text').textContent));
  assert(await text('#job-state') === 'running', 'the count is running');
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
  await page.click('#new-puzzle');
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
  await page.click('.card.dropped .open');
  const result = await run({ action: 'count', up_to: 'default' });
  assert(result.startsWith(expected + " solutions in BurrTools' convention"), 'BurrTools counts ' + expected + ': ' + JSON.stringify(result));
});

await check('download STL files and check them with trimesh', async () => {
  await openBundled('soma');
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

await check('no script error and no request outside the studio', async () => {
  assert(problems.length === 0, problems.join('\n'));
});

await context.close();
rmSync(work, { recursive: true, force: true });
console.log(passed + ' passed, ' + failed + ' failed');
process.exit(failed ? 1 : 0);
