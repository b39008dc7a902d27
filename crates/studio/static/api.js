// cubesat studio: talking to the server (same origin only) and small DOM helpers.

/** An error the server reported: its one-line message and the place in the puzzle. */
export class Failure extends Error {
  constructor(message, place) {
    super(message);
    this.place = place || '';
  }
}

/** fetch, with the browser's bare "Failed to fetch" said as what it means here. */
async function request(path, init) {
  try {
    return await fetch(path, init);
  } catch (_) {
    throw new Failure('the studio server does not answer: is `cubesat studio` still running? (start it again and reload the page; your puzzle is kept)');
  }
}

async function failure(resp) {
  const text = await resp.text();
  try {
    const v = JSON.parse(text);
    if (v && v.error) return new Failure(v.error.message, v.error.place);
  } catch (_) { /* a plain-text refusal */ }
  return new Failure(text.trim() || resp.status + ' ' + resp.statusText);
}

/** GET (no body) or POST (a JSON body) an API call; resolves to its JSON answer. */
export async function api(path, body) {
  const init = body === undefined ? {} : {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
  const resp = await request(path, init);
  if (!resp.ok) throw await failure(resp);
  return resp.json();
}

/** POSTs raw bytes (a dropped file). */
export async function upload(path, bytes, headers) {
  const resp = await request(path, { method: 'POST', headers, body: bytes });
  if (!resp.ok) throw await failure(resp);
  return resp.json();
}

/** Asks the server for a file and hands it to the browser as a download. */
export async function download(path, body) {
  const resp = await request(path, body === undefined ? {} : {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!resp.ok) throw await failure(resp);
  const blob = await resp.blob();
  const disposition = resp.headers.get('content-disposition') || '';
  const m = /filename="([^"]+)"/.exec(disposition);
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = m ? m[1] : 'cubesat-download';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  return a.download;
}

/** `el('div', {class: 'x', onclick: f}, child, 'text')`: children are nodes or text. */
export function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
  return e;
}

/** The element with this id. */
export const $ = (id) => document.getElementById(id);

/** An SVG text shown as an image (an <img> runs no script in it). */
export function svgImage(svg, alt) {
  const img = el('img', { alt: alt || '' });
  img.src = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  img.addEventListener('load', () => URL.revokeObjectURL(img.src), { once: true });
  return img;
}

/** JSON as people write puzzle files: short arrays and objects on one line. */
export function pretty(v, indent = '') {
  const flat = JSON.stringify(v);
  if (flat === undefined) return 'null';
  if (flat.length + indent.length <= 96 || v === null || typeof v !== 'object') return flat;
  const inner = indent + '  ';
  if (Array.isArray(v)) {
    return '[\n' + v.map((x) => inner + pretty(x, inner)).join(',\n') + '\n' + indent + ']';
  }
  const keys = Object.keys(v);
  return '{\n' + keys.map((k) => inner + JSON.stringify(k) + ': ' + pretty(v[k], inner)).join(',\n') + '\n' + indent + '}';
}

// ---- share links: the puzzle text in the URL's fragment (never sent to any server) ----

function toBase64Url(bytes) {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(s) {
  const b = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(b.length);
  for (let i = 0; i < b.length; i++) out[i] = b.charCodeAt(i);
  return out;
}

async function pipe(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

/** The fragment of a share link for a puzzle text: `p=z.` + deflated, or `p=t.` + plain. */
export async function shareFragment(text) {
  const bytes = new TextEncoder().encode(text);
  if (typeof CompressionStream === 'function') {
    return 'p=z.' + toBase64Url(await pipe(bytes, new CompressionStream('deflate-raw')));
  }
  return 'p=t.' + toBase64Url(bytes);
}

/** The puzzle text of a share link's fragment, or null when it holds none; a link that was
 *  cut short or changed is refused with what is wrong with it (never the browser's
 *  "Failed to fetch", which the stream reader says of any broken deflate data). */
export async function fromShareFragment(hash) {
  const m = /(?:^#?|&)p=([^&]*)/.exec(hash || '');
  if (!m) return null;
  const v = /^([zt])\.([A-Za-z0-9_-]*)$/.exec(m[1]);
  if (!v) throw new Error('the link has a puzzle part ("p=") that is not one the studio writes (it starts "p=z." or "p=t." and has only letters, digits, - and _ after it)');
  if (!v[2]) throw new Error('the link\'s puzzle part is empty: copy the whole link again');
  let bytes;
  try {
    bytes = fromBase64Url(v[2]);
  } catch (_) {
    throw new Error('the link\'s puzzle part is not complete: it was probably cut off when it was copied');
  }
  if (v[1] === 'z') {
    try {
      bytes = await pipe(bytes, new DecompressionStream('deflate-raw'));
    } catch (_) {
      throw new Error('the link\'s puzzle does not unpack: the link was cut off or changed after it was made (' + v[2].length + ' characters of puzzle in it)');
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (_) {
    throw new Error('the link\'s puzzle is not text: the link was changed after it was made');
  }
}
