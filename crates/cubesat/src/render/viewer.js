// cubesat viewer: the inline WebGL renderer embedded by render::html (no libraries, no network).
// Reads the JSON in #data, draws the current scene synchronously on load, and reports on #status;
// its player steps through a slide-in order or a disassembly plan (either way), animating each step.
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('data').textContent);
  var legend = data.legend;
  var scenes = data.scenes;
  var $ = function (id) { return document.getElementById(id); };
  var canvas = $('view');
  var status = $('status');
  var BG = [0.96, 0.96, 0.97];
  var FOV = 35 * Math.PI / 180;
  var DROP_MS = 450;
  var PLAY_MS = 700;
  var PRISM_YAW = -Math.PI / 12, PRISM_PITCH = -0.75;

  // step counts assembly steps (0: nothing placed, or a plan's pieces apart; n: assembled);
  // dir is the way a plan plays ('apart' or 'together'), speed the player's multiplier.
  var st = { scene: 0, step: 0, layer: 0, explode: 0, yaw: -Math.PI / 4, pitch: -0.96, zoom: 1, anim: null, timer: null,
    dir: 'apart', speed: 1 };
  var frames = 0;
  var selfTested = false;

  // ---- scene decoding -------------------------------------------------------------------
  function decode(sc) {
    if (sc._d) return sc._d;
    var n = sc.k.length, pieces = [], home = [], empty = [], i, k;
    for (i = 0; i < n; i++) { pieces.push([]); home.push(-1); }
    var lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    function grow(p, s) { for (var a = 0; a < 3; a++) { lo[a] = Math.min(lo[a], p[a]); hi[a] = Math.max(hi[a], p[a] + s); } }
    function put(idx, p, ci) {
      if (idx < 0) { empty.push(p); return; }
      if (idx >= n) return;
      pieces[idx].push(p);
      if (home[idx] < 0) home[idx] = ci;
    }
    sc.c.forEach(function (c, ci) {
      var g = sc.g[ci];
      grow([c[0], c[1], c[2]], 0); grow([c[0] + c[3] - 1, c[1] + c[4] - 1, c[2] + c[5] - 1], 1);
      if (typeof g !== 'string') {
        // A box too large for a grid: its cells as [piece, x, y, z, ...].
        for (var j = 0; j + 3 < g.length; j += 4) put(g[j], [g[j + 1], g[j + 2], g[j + 3]], ci);
        return;
      }
      for (var z = 0; z < c[5]; z++) for (var y = 0; y < c[4]; y++) for (var x = 0; x < c[3]; x++) {
        var ch = g.charCodeAt(x + c[3] * (y + c[4] * z));
        var p = [c[0] + x, c[1] + y, c[2] + z];
        if (ch === 46) put(-1, p, ci);
        else if (ch >= 48) put(ch >= 0xe000 ? ch - 48 - 0x800 : ch - 48, p, ci);
      }
    });
    var xs = sc.x || [];
    for (k = 0; k + 3 < xs.length; k += 4) { var q = [xs[k + 1], xs[k + 2], xs[k + 3]]; put(xs[k], q, -1); grow(q, 1); }
    if (lo[0] === Infinity) { lo = [0, 0, 0]; hi = [1, 1, 1]; }
    // Layers: the cube z range, or the balls' layers (cube z is the layer on the sphere grid).
    var zlo = lo[2], zhi = hi[2] - 1;
    if (sc.s === 2) {
      // Prisms: the bounds of their polygons, layer z spanning z..z+1.
      lo = [Infinity, Infinity, Infinity]; hi = [-Infinity, -Infinity, -Infinity];
      zlo = Infinity; zhi = -Infinity;
      pieces.concat([empty]).forEach(function (cells) {
        cells.forEach(function (c) {
          prismPoly(c).forEach(function (p) {
            for (var a = 0; a < 2; a++) { lo[a] = Math.min(lo[a], p[a]); hi[a] = Math.max(hi[a], p[a]); }
          });
          lo[2] = Math.min(lo[2], c[2]); hi[2] = Math.max(hi[2], c[2] + 1);
          zlo = Math.min(zlo, c[2]); zhi = Math.max(zhi, c[2]);
        });
      });
      if (lo[0] === Infinity) { lo = [0, 0, 0]; hi = [1, 1, 1]; zlo = 0; zhi = 0; }
    } else if (sc.s === 3) {
      // Tetrahedra: the bounds of their corners (cube units), layers the cells' z; tn is the
      // grid's cells per cube, to place containers.
      lo = [Infinity, Infinity, Infinity]; hi = [-Infinity, -Infinity, -Infinity];
      zlo = Infinity; zhi = -Infinity;
      var tn = 1;
      pieces.concat([empty]).forEach(function (cells) {
        cells.forEach(function (c) {
          tn = tetraScale(c) || tn;
          tetraCorners(c).forEach(function (p) {
            for (var a = 0; a < 3; a++) { lo[a] = Math.min(lo[a], p[a]); hi[a] = Math.max(hi[a], p[a]); }
          });
          zlo = Math.min(zlo, c[2]); zhi = Math.max(zhi, c[2]);
        });
      });
      if (lo[0] === Infinity) { lo = [0, 0, 0]; hi = [1, 1, 1]; zlo = 0; zhi = 0; }
    } else if (sc.s) {
      // Balls: world positions are ball centres (Grid::centre, diameter 1), the bounds those
      // of the balls themselves.
      lo = [Infinity, Infinity, Infinity]; hi = [-Infinity, -Infinity, -Infinity];
      zlo = Infinity; zhi = -Infinity;
      pieces.concat([empty]).forEach(function (cells) {
        cells.forEach(function (c) {
          var w = ballAt(c);
          for (var a = 0; a < 3; a++) { lo[a] = Math.min(lo[a], w[a] - 0.5); hi[a] = Math.max(hi[a], w[a] + 0.5); }
          zlo = Math.min(zlo, c[2]); zhi = Math.max(zhi, c[2]);
        });
      });
      if (lo[0] === Infinity) { lo = [0, 0, 0]; hi = [1, 1, 1]; zlo = 0; zhi = 0; }
    }
    var sceneCentre = [0, 1, 2].map(function (a) { return (lo[a] + hi[a]) / 2; });
    var centreAt = sc.s === 2 ? prismAt : ballAt;
    if (sc.s === 3) centreAt = tetraAt;
    var centroid = sc.s ? pieces.map(function (cells) {
      var s = [0, 0, 0];
      cells.forEach(function (c) { var w = centreAt(c); s[0] += w[0]; s[1] += w[1]; s[2] += w[2]; });
      return cells.length ? s.map(function (v) { return v / cells.length; }) : sceneCentre;
    }) : pieces.map(function (cells) {
      var s = [0, 0, 0];
      cells.forEach(function (c) { s[0] += c[0] + 0.5; s[1] += c[1] + 0.5; s[2] += c[2] + 0.5; });
      return cells.length ? s.map(function (v) { return v / cells.length; }) : sceneCentre;
    });
    var centre = home.map(function (ci) {
      if (ci < 0) return sceneCentre;
      var c = sc.c[ci];
      // Tetrahedra: a box's centre, as cells' centroids are, is its cell coordinates over tn.
      if (sc.s === 3) return [0, 1, 2].map(function (a) { return (c[a] + (c[a + 3] - 1) / 2) / tn; });
      if (sc.s === 2) return [(c[0] + (c[3] - 1) / 2) * TR[0][0], (c[1] + (c[4] - 1) / 2) * TR[0][1], c[2] + c[5] / 2];
      if (sc.s) return [0, 1, 2].map(function (a) { return (c[a] + (c[a + 3] - 1) / 2) * BALL; });
      return [c[0] + c[3] / 2, c[1] + c[4] / 2, c[2] + c[5] / 2];
    });
    var inOrder = {}, seq = sc.o.slice();
    seq.forEach(function (p) { inOrder[p] = true; });
    for (i = 0; i < n; i++) if (!inOrder[i]) seq.push(i);
    // A disassembly plan: the offset of every piece after each move (state 0 assembled), in
    // cells, and where that puts the piece in space (its shift).
    var plan = null;
    if (sc.p && sc.p.length) {
      var states = [], cur = [];
      for (i = 0; i < n; i++) cur.push([0, 0, 0]);
      states.push(cur.map(function (o) { return o.slice(); }));
      sc.p.forEach(function (mv) {
        for (var q = 3; q < mv.length; q++) {
          if (mv[q] < 0 || mv[q] >= n) continue;
          for (var a = 0; a < 3; a++) cur[mv[q]][a] += mv[a];
        }
        states.push(cur.map(function (o) { return o.slice(); }));
      });
      var shifts = states.map(function (offs) {
        return pieces.map(function (cells, pi) { return cellShift(sc, cells, offs[pi]); });
      });
      // Each piece's box where it rests, and the frame: every position of the plan.
      var boxes = pieces.map(function (cells) { return piecesBox(sc, cells); });
      shifts.forEach(function (sh) {
        boxes.forEach(function (b, pi) {
          if (b) grow([b[0][0] + sh[pi][0], b[0][1] + sh[pi][1], b[0][2] + sh[pi][2]], 0);
          if (b) grow([b[1][0] + sh[pi][0], b[1][1] + sh[pi][1], b[1][2] + sh[pi][2]], 0);
        });
      });
      sceneCentre = [0, 1, 2].map(function (a) { return (lo[a] + hi[a]) / 2; });
      plan = { m: sc.p.length, states: states, shifts: shifts, boxes: boxes };
    }
    sc._d = { pieces: pieces, empty: empty, centroid: centroid, centre: centre, seq: seq,
      lo: lo, hi: hi, zlo: zlo, zhi: zhi, sceneCentre: sceneCentre, n: plan ? plan.m : n, plan: plan };
    return sc._d;
  }

  // ---- matrices (column-major) -----------------------------------------------------------
  function mul(a, b) {
    var o = new Float32Array(16);
    for (var c = 0; c < 4; c++) for (var r = 0; r < 4; r++) {
      var s = 0;
      for (var k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k];
      o[c * 4 + r] = s;
    }
    return o;
  }
  function ident() { return new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]); }
  function translate(x, y, z) { var m = ident(); m[12] = x; m[13] = y; m[14] = z; return m; }
  function rotX(a) { var c = Math.cos(a), s = Math.sin(a); return new Float32Array([1, 0, 0, 0, 0, c, s, 0, 0, -s, c, 0, 0, 0, 0, 1]); }
  function rotZ(a) { var c = Math.cos(a), s = Math.sin(a); return new Float32Array([c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]); }
  function perspective(fovy, aspect, near, far) {
    var f = 1 / Math.tan(fovy / 2), nf = 1 / (near - far);
    return new Float32Array([f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, (far + near) * nf, -1, 0, 0, 2 * far * near * nf, 0]);
  }

  // ---- WebGL setup -----------------------------------------------------------------------
  var gl = null;
  try {
    gl = canvas.getContext('webgl', { antialias: true, preserveDrawingBuffer: true }) ||
      canvas.getContext('experimental-webgl', { antialias: true, preserveDrawingBuffer: true });
  } catch (e) { gl = null; }
  var prog = null, buf = null, loc = {};
  if (gl) {
    var vs = 'attribute vec3 aPos; attribute vec3 aNorm; attribute vec3 aCol;' +
      'uniform mat4 uMVP; uniform float uLit; varying vec3 vCol;' +
      'void main() { gl_Position = uMVP * vec4(aPos, 1.0);' +
      ' vec3 L = normalize(vec3(0.35, -0.6, 0.75));' +
      ' float d = max(dot(aNorm, L), 0.0);' +
      ' vCol = uLit > 0.5 ? aCol * (0.5 + 0.5 * d) : aCol; }';
    var fs = 'precision mediump float; varying vec3 vCol; void main() { gl_FragColor = vec4(vCol, 1.0); }';
    var compile = function (type, src) {
      var sh = gl.createShader(type);
      gl.shaderSource(sh, src); gl.compileShader(sh);
      if (!gl.getShaderParameter(sh, gl.COMPILE_STATUS)) throw new Error('shader: ' + gl.getShaderInfoLog(sh));
      return sh;
    };
    prog = gl.createProgram();
    gl.attachShader(prog, compile(gl.VERTEX_SHADER, vs));
    gl.attachShader(prog, compile(gl.FRAGMENT_SHADER, fs));
    gl.linkProgram(prog);
    if (!gl.getProgramParameter(prog, gl.LINK_STATUS)) throw new Error('link: ' + gl.getProgramInfoLog(prog));
    gl.useProgram(prog);
    ['aPos', 'aNorm', 'aCol'].forEach(function (a) { loc[a] = gl.getAttribLocation(prog, a); });
    loc.uMVP = gl.getUniformLocation(prog, 'uMVP');
    loc.uLit = gl.getUniformLocation(prog, 'uLit');
    buf = gl.createBuffer();
    gl.enable(gl.DEPTH_TEST);
  } else {
    var p = document.createElement('div');
    p.id = 'nogl';
    p.textContent = 'WebGL is not available in this browser; the text and SVG outputs show the same solution.';
    $('wrap').appendChild(p);
  }

  // ---- geometry --------------------------------------------------------------------------
  // Faces of a unit cube: normal, then four corners.
  var FACES = [
    [[1, 0, 0], [[1, 0, 0], [1, 1, 0], [1, 1, 1], [1, 0, 1]]],
    [[-1, 0, 0], [[0, 0, 0], [0, 0, 1], [0, 1, 1], [0, 1, 0]]],
    [[0, 1, 0], [[0, 1, 0], [0, 1, 1], [1, 1, 1], [1, 1, 0]]],
    [[0, -1, 0], [[0, 0, 0], [1, 0, 0], [1, 0, 1], [0, 0, 1]]],
    [[0, 0, 1], [[0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]]],
    [[0, 0, -1], [[0, 0, 0], [0, 1, 0], [1, 1, 0], [1, 0, 0]]]
  ];
  function hexColour(h) {
    return [parseInt(h.substr(1, 2), 16) / 255, parseInt(h.substr(3, 2), 16) / 255, parseInt(h.substr(5, 2), 16) / 255];
  }
  function key(x, y, z) { return x + ',' + y + ',' + z; }

  // Balls (the sphere grid): ball c sits at c / sqrt(2), touching balls one unit apart.
  var BALL = Math.SQRT1_2;
  function ballAt(c) { return [c[0] * BALL, c[1] * BALL, c[2] * BALL]; }
  // A unit-diameter ball as triangles (corners on the sphere, so also their normals): an
  // icosahedron subdivided `levels` times.
  var ballMeshes = {};
  function ballMesh(levels) {
    if (ballMeshes[levels]) return ballMeshes[levels];
    var t = (1 + Math.sqrt(5)) / 2;
    var v = [[-1, t, 0], [1, t, 0], [-1, -t, 0], [1, -t, 0], [0, -1, t], [0, 1, t], [0, -1, -t], [0, 1, -t],
      [t, 0, -1], [t, 0, 1], [-t, 0, -1], [-t, 0, 1]];
    var f = [[0, 11, 5], [0, 5, 1], [0, 1, 7], [0, 7, 10], [0, 10, 11], [1, 5, 9], [5, 11, 4], [11, 10, 2], [10, 7, 6],
      [7, 1, 8], [3, 9, 4], [3, 4, 2], [3, 2, 6], [3, 6, 8], [3, 8, 9], [4, 9, 5], [2, 4, 11], [6, 2, 10], [8, 6, 7], [9, 8, 1]];
    var unit = function (p) { var l = Math.sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]); return [p[0] / l, p[1] / l, p[2] / l]; };
    var tris = f.map(function (q) { return [unit(v[q[0]]), unit(v[q[1]]), unit(v[q[2]])]; });
    for (var l = 0; l < levels; l++) {
      var next = [];
      tris.forEach(function (q) {
        var m = [0, 1, 2].map(function (i) { var a = q[i], b = q[(i + 1) % 3]; return unit([a[0] + b[0], a[1] + b[1], a[2] + b[2]]); });
        next.push([q[0], m[0], m[2]], [m[0], q[1], m[1]], [m[2], m[1], q[2]], [m[0], m[1], m[2]]);
      });
      tris = next;
    }
    ballMeshes[levels] = tris;
    return tris;
  }
  // A circle of radius 0.5 around a ball's centre in the plane normal to axis `a`, as lines.
  function ring(w, a, col, lin) {
    var N = 24;
    for (var i = 0; i < N; i++) {
      [i, i + 1].forEach(function (k) {
        var t = 2 * Math.PI * k / N, p = w.slice(), b = (a + 1) % 3, c = (a + 2) % 3;
        p[b] += 0.5 * Math.cos(t); p[c] += 0.5 * Math.sin(t);
        lin.push(p[0], p[1], p[2], 0, 0, 0, col[0], col[1], col[2]);
      });
    }
  }

  // Prisms (the prism and hexagon grids): cell [u, v, z] has its polygon's centre at
  // (u·ax, v·ay) and its corners at the centre plus tr[2 + (u mod pu)·pv + v mod pv], with
  // [pu, pv] = tr[1] (the page's "tr", from Grid::centre and Grid::polygon: a triangle by
  // v mod 3, one hexagon for all), counter-clockwise; its layer spans z..z+1.
  var TR = data.tr;
  function prismPoly(c) {
    var pu = TR[1][0], pv = TR[1][1];
    var t = TR[2 + (((c[0] % pu) + pu) % pu) * pv + ((c[1] % pv) + pv) % pv], x = c[0] * TR[0][0], y = c[1] * TR[0][1];
    var out = [];
    for (var i = 0; i < t.length; i += 2) out.push([x + t[i], y + t[i + 1]]);
    return out;
  }
  function prismAt(c) { return [c[0] * TR[0][0], c[1] * TR[0][1], c[2] + 0.5]; }
  // The faces of a set of prisms that none of the others shares: tops, bottoms and sides as
  // [normal, corners], a face keyed by its rounded corners (a face two prisms share appears
  // twice).
  function prismFaces(cells) {
    var faces = [], seen = {};
    cells.forEach(function (c) {
      var t = prismPoly(c), n = t.length, z0 = c[2], z1 = c[2] + 1;
      faces.push([[0, 0, 1], t.map(function (p) { return [p[0], p[1], z1]; })]);
      // The bottom clockwise from above (counter-clockwise from below), from the same corner.
      faces.push([[0, 0, -1], [t[0]].concat(t.slice(1).reverse()).map(function (p) { return [p[0], p[1], z0]; })]);
      for (var i = 0; i < n; i++) {
        var p = t[i], q = t[(i + 1) % n], dx = q[0] - p[0], dy = q[1] - p[1], l = Math.sqrt(dx * dx + dy * dy);
        faces.push([[dy / l, -dx / l, 0], [[p[0], p[1], z0], [q[0], q[1], z0], [q[0], q[1], z1], [p[0], p[1], z1]]]);
      }
    });
    var fkey = function (f) {
      return f[1].map(function (v) { return v.map(function (x) { return Math.round(x * 1e4); }).join(','); }).sort().join(';');
    };
    faces.forEach(function (f) { var k = fkey(f); seen[k] = (seen[k] || 0) + 1; });
    return faces.filter(function (f) { return seen[fkey(f)] === 1; });
  }

  // Tetrahedra (the rhombic and tetra-octa grids): cell c's kind is c mod 8, whose entry in
  // the page's "te" (from Grid::tetrahedron) is [n, dx0, dy0, dz0, ..., dz3]: its corners
  // at (c + d) / n in cube units, its centroid at c / n.
  var TE = data.te || {};
  function tetraKind(c) {
    return TE[c.map(function (v) { return ((v % 8) + 8) % 8; }).join(',')];
  }
  function tetraScale(c) { var k = tetraKind(c); return k ? k[0] : 0; }
  function tetraCorners(c) {
    var k = tetraKind(c), out = [];
    if (!k) return out;
    for (var i = 0; i < 4; i++) {
      out.push([0, 1, 2].map(function (a) { return (c[a] + k[1 + 3 * i + a]) / k[0]; }));
    }
    return out;
  }
  function tetraAt(c) { var n = tetraScale(c) || 1; return [c[0] / n, c[1] / n, c[2] / n]; }
  // The faces of a set of tetrahedra that none of the others shares, as [normal, corners],
  // wound and facing away from their own tetrahedron's fourth corner; a face is keyed by its
  // corners in eighths of a cube, on which both grids' corners lie.
  function tetraFaces(cells) {
    var faces = [], seen = {};
    cells.forEach(function (c) {
      var t = tetraCorners(c);
      if (t.length !== 4) return;
      for (var s = 0; s < 4; s++) {
        var f = [t[(s + 1) % 4], t[(s + 2) % 4], t[(s + 3) % 4]], a = f[0], w = t[s];
        var u = [0, 1, 2].map(function (i) { return f[1][i] - a[i]; });
        var v = [0, 1, 2].map(function (i) { return f[2][i] - a[i]; });
        var n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
        if (n[0] * (w[0] - a[0]) + n[1] * (w[1] - a[1]) + n[2] * (w[2] - a[2]) > 0) {
          f = [f[0], f[2], f[1]];
          n = [-n[0], -n[1], -n[2]];
        }
        var l = Math.sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        faces.push([[n[0] / l, n[1] / l, n[2] / l], f]);
      }
    });
    var fkey = function (f) {
      return f[1].map(function (p) { return p.map(function (x) { return Math.round(x * 8); }).join(','); }).sort().join(';');
    };
    faces.forEach(function (f) { var k = fkey(f); seen[k] = (seen[k] || 0) + 1; });
    return faces.filter(function (f) { return seen[fkey(f)] === 1; });
  }

  // Where the grid puts cell c (cubes: its lowest corner; balls, prisms, tetrahedra: their
  // centres), by the functions that place the cells drawn.
  function cellAt(sc, c) {
    if (sc.s === 2) return prismAt(c);
    if (sc.s === 3) return tetraAt(c);
    if (sc.s) return ballAt(c);
    return c;
  }
  // How far in space a plan's offset `o` (in cells) moves a piece: where its first cell goes,
  // placed as cells are, less where it was; so a grid whose cells are not cubes moves right.
  function cellShift(sc, cells, o) {
    if (!cells.length) return [0, 0, 0];
    var c = cells[0], a = cellAt(sc, c), b = cellAt(sc, [c[0] + o[0], c[1] + o[1], c[2] + o[2]]);
    return [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  }
  // The box in space around a piece's cells (null for none), as they are drawn.
  function piecesBox(sc, cells) {
    if (!cells.length) return null;
    var lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    var add = function (p) { for (var a = 0; a < 3; a++) { lo[a] = Math.min(lo[a], p[a]); hi[a] = Math.max(hi[a], p[a]); } };
    cells.forEach(function (c) {
      if (sc.s === 2) prismPoly(c).forEach(function (p) { add([p[0], p[1], c[2]]); add([p[0], p[1], c[2] + 1]); });
      else if (sc.s === 3) tetraCorners(c).forEach(add);
      else if (sc.s) { var w = ballAt(c); add([w[0] - 0.5, w[1] - 0.5, w[2] - 0.5]); add([w[0] + 0.5, w[1] + 0.5, w[2] + 0.5]); }
      else { add(c); add([c[0] + 1, c[1] + 1, c[2] + 1]); }
    });
    return [lo, hi];
  }

  // The duration of one step's animation, and the time between steps as the player plays.
  function animMs() { return DROP_MS / st.speed; }
  function stepMs() { return PLAY_MS / st.speed; }

  // With a plan: each piece's shift in space as drawn now, between the shifts of the step
  // before and of this one while a step is animated.
  function planShifts(d, now) {
    var here = d.plan.shifts[d.plan.m - st.step];
    if (!st.anim || !st.anim.from) return here;
    var t = Math.min(1, (now - st.anim.t0) / animMs()), k = 1 - (1 - t) * (1 - t), from = st.anim.from;
    return here.map(function (h, pi) { return [0, 1, 2].map(function (a) { return from[pi][a] + (h[a] - from[pi][a]) * k; }); });
  }

  // Whether every piece, at its place in the plan's current position, has a box clear of
  // every other piece's box (a gap on some axis): the pieces are apart.
  function piecesApart(d) {
    var sh = d.plan.shifts[d.plan.m - st.step], bs = d.plan.boxes, E = 1e-6;
    for (var i = 0; i < bs.length; i++) {
      if (!bs[i]) continue;
      for (var j = i + 1; j < bs.length; j++) {
        if (!bs[j]) continue;
        var clear = false;
        for (var a = 0; a < 3 && !clear; a++) {
          var ilo = bs[i][0][a] + sh[i][a], ihi = bs[i][1][a] + sh[i][a];
          var jlo = bs[j][0][a] + sh[j][a], jhi = bs[j][1][a] + sh[j][a];
          clear = ihi + E < jlo || jhi + E < ilo;
        }
        if (!clear) return false;
      }
    }
    return true;
  }

  function ballCount(d) {
    if (d.balls === undefined) d.balls = d.pieces.reduce(function (s, cells) { return s + cells.length; }, 0);
    return d.balls;
  }

  function build(d, sc) {
    var tri = [], lin = [];
    var shown = d.plan ? d.seq.slice() : d.seq.slice(0, st.step);
    var now = performance.now();
    var e = st.explode;
    // With a plan, assembly step t shows the position after m - t disassembly moves.
    var shifts = d.plan ? planShifts(d, now) : null;
    // A piece lifted out (a step back through a slide-in order) is drawn until it is out.
    if (!d.plan && st.anim && st.anim.out && shown.indexOf(st.anim.piece) < 0) shown.push(st.anim.piece);
    shown.forEach(function (pi) {
      var entry = legend[sc.k[pi]];
      var col = hexColour(entry[3]);
      var edge = entry[2] ? [0.97, 0.97, 0.97] : [0.08, 0.08, 0.08];
      var cells = d.pieces[pi].filter(function (c) { return c[2] <= st.layer; });
      var set = {};
      cells.forEach(function (c) { set[key(c[0], c[1], c[2])] = true; });
      var off = [0, 1, 2].map(function (a) { return e * (d.centroid[pi][a] - d.centre[pi][a]); });
      if (d.plan) {
        off = [0, 1, 2].map(function (a) { return off[a] + shifts[pi][a]; });
      } else if (st.anim && st.anim.piece === pi) {
        // Lowered in from above the box, or lifted out to there.
        var t = Math.min(1, (now - st.anim.t0) / animMs()), up = st.anim.out ? t * t : (1 - t) * (1 - t);
        off[2] += up * (d.hi[2] - d.lo[2] + 1);
      }
      if (sc.s === 3) {
        // Tetrahedra: the piece's outer faces, each outlined (light lines for a hint).
        tetraFaces(cells).forEach(function (f) {
          var nrm = f[0], v = f[1].map(function (q) { return [q[0] + off[0], q[1] + off[1], q[2] + off[2]]; });
          v.forEach(function (a, i) {
            var b = v[(i + 1) % 3];
            tri.push(a[0], a[1], a[2], nrm[0], nrm[1], nrm[2], col[0], col[1], col[2]);
            lin.push(a[0], a[1], a[2], 0, 0, 0, edge[0], edge[1], edge[2], b[0], b[1], b[2], 0, 0, 0, edge[0], edge[1], edge[2]);
          });
        });
        return;
      }
      if (sc.s === 2) {
        // Prisms: the piece's outer faces, each outlined (light lines for a hint).
        prismFaces(cells).forEach(function (f) {
          var nrm = f[0], v = f[1].map(function (q) { return [q[0] + off[0], q[1] + off[1], q[2] + off[2]]; });
          // A fan from the first corner (every face is convex).
          for (var k = 1; k + 1 < v.length; k++) {
            [0, k, k + 1].forEach(function (i) {
              tri.push(v[i][0], v[i][1], v[i][2], nrm[0], nrm[1], nrm[2], col[0], col[1], col[2]);
            });
          }
          v.forEach(function (a, i) {
            var b = v[(i + 1) % v.length];
            lin.push(a[0], a[1], a[2], 0, 0, 0, edge[0], edge[1], edge[2], b[0], b[1], b[2], 0, 0, 0, edge[0], edge[1], edge[2]);
          });
        });
        return;
      }
      if (sc.s) {
        // Balls: a ball mesh per cell at its centre; a hint's balls get a light ring.
        var mesh = ballMesh(ballCount(d) > 400 ? 1 : 2);
        cells.forEach(function (c) {
          var w = ballAt(c);
          w = [w[0] + off[0], w[1] + off[1], w[2] + off[2]];
          mesh.forEach(function (q) {
            q.forEach(function (n) { tri.push(w[0] + n[0] / 2, w[1] + n[1] / 2, w[2] + n[2] / 2, n[0], n[1], n[2], col[0], col[1], col[2]); });
          });
          if (entry[2]) ring(w, 2, edge, lin);
        });
        return;
      }
      cells.forEach(function (c) {
        FACES.forEach(function (f) {
          var nrm = f[0];
          if (set[key(c[0] + nrm[0], c[1] + nrm[1], c[2] + nrm[2])]) return;
          var v = f[1].map(function (q) { return [c[0] + q[0] + off[0], c[1] + q[1] + off[1], c[2] + q[2] + off[2]]; });
          [0, 1, 2, 0, 2, 3].forEach(function (i) { tri.push(v[i][0], v[i][1], v[i][2], nrm[0], nrm[1], nrm[2], col[0], col[1], col[2]); });
          [0, 1, 1, 2, 2, 3, 3, 0].forEach(function (i) { lin.push(v[i][0], v[i][1], v[i][2], 0, 0, 0, edge[0], edge[1], edge[2]); });
        });
      });
    });
    // Empty target cells: light wireframes.
    d.empty.forEach(function (c) {
      if (c[2] > st.layer) return;
      if (sc.s === 3) {
        // A tetrahedron's six edges.
        var tc = tetraCorners(c);
        [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]].forEach(function (e) {
          if (tc.length !== 4) return;
          var p = tc[e[0]], q = tc[e[1]];
          lin.push(p[0], p[1], p[2], 0, 0, 0, 0.65, 0.65, 0.7, q[0], q[1], q[2], 0, 0, 0, 0.65, 0.65, 0.7);
        });
        return;
      }
      if (sc.s === 2) {
        var t = prismPoly(c);
        t.forEach(function (p, i) {
          var q = t[(i + 1) % t.length];
          [[p, c[2], q, c[2]], [p, c[2] + 1, q, c[2] + 1], [p, c[2], p, c[2] + 1]].forEach(function (s) {
            lin.push(s[0][0], s[0][1], s[1], 0, 0, 0, 0.65, 0.65, 0.7, s[2][0], s[2][1], s[3], 0, 0, 0, 0.65, 0.65, 0.7);
          });
        });
        return;
      }
      if (sc.s) { var w = ballAt(c); [0, 1, 2].forEach(function (a) { ring(w, a, [0.65, 0.65, 0.7], lin); }); return; }
      [[0, 0, 0, 1, 0, 0], [0, 1, 0, 1, 1, 0], [0, 0, 1, 1, 0, 1], [0, 1, 1, 1, 1, 1],
        [0, 0, 0, 0, 1, 0], [1, 0, 0, 1, 1, 0], [0, 0, 1, 0, 1, 1], [1, 0, 1, 1, 1, 1],
        [0, 0, 0, 0, 0, 1], [1, 0, 0, 1, 0, 1], [0, 1, 0, 0, 1, 1], [1, 1, 0, 1, 1, 1]].forEach(function (s) {
        lin.push(c[0] + s[0], c[1] + s[1], c[2] + s[2], 0, 0, 0, 0.65, 0.65, 0.7);
        lin.push(c[0] + s[3], c[1] + s[4], c[2] + s[5], 0, 0, 0, 0.65, 0.65, 0.7);
      });
    });
    return { tri: new Float32Array(tri), lin: new Float32Array(lin) };
  }

  // ---- drawing ---------------------------------------------------------------------------
  function resize() {
    var dpr = window.devicePixelRatio || 1;
    var w = Math.max(1, Math.round(canvas.clientWidth * dpr)), h = Math.max(1, Math.round(canvas.clientHeight * dpr));
    if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
  }

  function draw() {
    frames++;
    status.setAttribute('data-frames', String(frames));
    status.setAttribute('data-webgl', gl ? '1' : '0');
    status.setAttribute('data-scene', String(st.scene));
    status.setAttribute('data-step', String(st.step));
    var sc = scenes[st.scene], d = decode(sc);
    status.setAttribute('data-moving', st.anim ? '1' : '0');
    if (d.plan) status.setAttribute('data-apart', !st.anim && piecesApart(d) ? '1' : '0');
    else status.removeAttribute('data-apart');
    if (!gl) return;
    resize();
    gl.viewport(0, 0, canvas.width, canvas.height);
    gl.clearColor(BG[0], BG[1], BG[2], 1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    var size = Math.sqrt([0, 1, 2].reduce(function (s, a) { var v = d.hi[a] - d.lo[a]; return s + v * v; }, 0));
    var radius = size / 2 * (1 + st.explode);
    var dist = radius / Math.sin(FOV / 2) * 1.05 * st.zoom;
    var aspect = canvas.width / canvas.height;
    var fov = aspect < 1 ? 2 * Math.atan(Math.tan(FOV / 2) / aspect) : FOV;
    var c = d.sceneCentre;
    var view = mul(translate(0, 0, -dist), mul(rotX(st.pitch), mul(rotZ(st.yaw), translate(-c[0], -c[1], -c[2]))));
    gl.uniformMatrix4fv(loc.uMVP, false, mul(perspective(fov, aspect, Math.max(0.05, dist - 2 * radius - 1), dist + 2 * radius + 1), view));
    var g = build(d, sc);
    var stride = 36;
    var pass = function (arr, mode, lit) {
      if (!arr.length) return;
      gl.bindBuffer(gl.ARRAY_BUFFER, buf);
      gl.bufferData(gl.ARRAY_BUFFER, arr, gl.DYNAMIC_DRAW);
      ['aPos', 'aNorm', 'aCol'].forEach(function (a, i) {
        if (loc[a] < 0) return;
        gl.enableVertexAttribArray(loc[a]);
        gl.vertexAttribPointer(loc[a], 3, gl.FLOAT, false, stride, i * 12);
      });
      gl.uniform1f(loc.uLit, lit);
      gl.drawArrays(mode, 0, arr.length / 9);
    };
    gl.enable(gl.POLYGON_OFFSET_FILL);
    gl.polygonOffset(1, 1);
    pass(g.tri, gl.TRIANGLES, 1);
    gl.disable(gl.POLYGON_OFFSET_FILL);
    pass(g.lin, gl.LINES, 0);
    if (!selfTested) { selfTested = true; selfTest(sc, d); }
  }

  // Read the first frame back and record what is on screen (for headless tests).
  function selfTest(sc, d) {
    var w = canvas.width, h = canvas.height, px = new Uint8Array(w * h * 4);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
    var bg = BG.map(function (v) { return Math.round(v * 255); });
    var dirs = sc.k.map(function (li) {
      var c = hexColour(legend[li][3]), l = Math.sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
      return [c[0] / l, c[1] / l, c[2] / l];
    });
    var counts = dirs.map(function () { return 0; }), nonblank = 0;
    for (var i = 0; i < px.length; i += 4) {
      var r = px[i], g = px[i + 1], b = px[i + 2];
      if (Math.abs(r - bg[0]) + Math.abs(g - bg[1]) + Math.abs(b - bg[2]) > 12) nonblank++;
      var l = Math.sqrt(r * r + g * g + b * b);
      if (l < 40) continue;
      for (var p = 0; p < dirs.length; p++) {
        var q = dirs[p], dr = r / l - q[0], dg = g / l - q[1], db = b / l - q[2];
        if (dr * dr + dg * dg + db * db < 0.0009) counts[p]++;
      }
    }
    status.setAttribute('data-nonblank', String(nonblank));
    status.setAttribute('data-piece-pixels', counts.join(','));
    status.setAttribute('data-size', w + 'x' + h);
  }

  var pending = false;
  function redraw() {
    if (pending) return;
    pending = true;
    window.requestAnimationFrame(function () {
      pending = false;
      // An animation past its time is over: this frame draws where it ended.
      if (st.anim && performance.now() - st.anim.t0 >= animMs()) st.anim = null;
      draw();
      if (st.anim) redraw();
    });
  }

  // ---- controls --------------------------------------------------------------------------
  // The player's position as its controls count it: with a plan played apart, moves done from
  // the assembled puzzle; otherwise assembly steps done (st.step itself).
  function at(d) { return d.plan && st.dir === 'apart' ? d.n - st.step : st.step; }
  function stepAt(d, k) { return d.plan && st.dir === 'apart' ? d.n - k : k; }

  // What the player shows now, for the step counter, the slider and a framing page.
  function playerState() {
    if (!scenes.length) return null;
    var sc = scenes[st.scene], d = decode(sc), k = at(d), info;
    if (d.plan) {
      var moves = d.n - st.step;
      if (st.dir === 'apart') {
        info = 'move ' + k + ' / ' + d.n + (k > 0 && sc.dl ? ': ' + sc.dl[k - 1] : '') + (k === d.n ? ' (apart)' : '');
      } else {
        info = 'step ' + k + ' / ' + d.n + (k > 0 ? ': ' + sc.pl[moves] : '') + (k === d.n ? ' (assembled)' : '');
      }
    } else {
      info = 'step ' + k + ' / ' + d.n;
      if (k > sc.o.length) info += ' (piece ' + legend[sc.k[d.seq[k - 1]]][1] + ' cannot slide in)';
      else if (k > 0) info += ': ' + legend[sc.k[d.seq[k - 1]]][1];
    }
    return { plan: !!d.plan, direction: d.plan ? st.dir : 'together', at: k, steps: d.n,
      moves: d.plan ? d.n - st.step : null, step: st.step, playing: !!st.timer, speed: st.speed, info: info };
  }

  function updateUi() {
    var sc = scenes[st.scene], d = decode(sc), ps = playerState();
    $('title').textContent = sc.t;
    document.title = sc.t || 'cubesat';
    $('solnav').style.display = scenes.length > 1 ? '' : 'none';
    $('sinfo').textContent = 'solution ' + (st.scene + 1) + ' / ' + scenes.length;
    $('ainfo').textContent = ps.info;
    $('aplay').textContent = st.timer ? 'pause' : 'play';
    // A plan plays either way: the way is chosen; a slide-in order is an assembly.
    $('aword').style.display = d.plan ? 'none' : '';
    $('adirbox').style.display = d.plan ? '' : 'none';
    $('adir').value = st.dir;
    var scrub = $('ascrub');
    scrub.max = String(d.n); scrub.value = String(ps.at);
    scrub.setAttribute('aria-valuetext', ps.info);
    $('aspeed').value = String(st.speed);
    // Loose pieces (a puzzle sheet) are no assembly: nothing to step through.
    $('asm').style.display = sc.a === 0 ? 'none' : '';
    var layer = $('layer');
    layer.min = String(d.zlo); layer.max = String(d.zhi); layer.value = String(st.layer);
    $('lval').textContent = String(st.layer);
    $('msg').textContent = d.plan ? (sc.pt || '') + (st.dir === 'apart' ? ': taken apart move by move' : ': put together, the disassembly played backwards') :
      sc.f || sc.a === 0 ? '' : 'No full slide-in order exists: only ' + sc.o.length + ' of ' + d.n +
      ' pieces can be lowered into place from above, one after another.';
    $('msg').style.color = d.plan ? '#333' : '';
    var shown = {};
    (d.plan ? d.seq : d.seq.slice(0, st.step)).forEach(function (p) { shown[p] = true; });
    var lg = $('legend');
    lg.textContent = '';
    sc.k.forEach(function (li, p) {
      var e = legend[li], row = document.createElement('div'), sw = document.createElement('i');
      sw.style.background = e[3];
      row.appendChild(sw);
      // The name only where it says more than the mark (its letter, and a copy's number).
      var named = e[1].indexOf(e[0]) !== 0 || !/^\d*$/.test(e[1].slice(e[0].length));
      row.appendChild(document.createTextNode((e[2] ? e[1].toLowerCase() : e[1]) + (named ? '  ' + e[0] : '') + (e[2] ? ' (hint)' : '')));
      if (!shown[p]) row.className = 'off';
      lg.appendChild(row);
    });
    // A page framing this one follows the player here.
    try { window.dispatchEvent(new CustomEvent('cubesat-player', { detail: ps })); } catch (e) { /* no CustomEvent */ }
  }

  function showScene(i) {
    stop();
    st.scene = (i + scenes.length) % scenes.length;
    var d = decode(scenes[st.scene]);
    st.step = d.n;
    st.layer = d.zhi;
    st.anim = null;
    updateUi();
  }

  // Goes to assembly step s; a single step either way is animated when `animate` is set (a
  // plan's move slides, a slide-in piece is lowered in or lifted out), from where the pieces
  // are drawn now, so that a step taken while another is animated carries on smoothly.
  function setStep(s, animate) {
    var sc = scenes[st.scene], d = decode(sc), now = performance.now();
    s = Math.max(0, Math.min(d.n, s));
    var one = animate && Math.abs(s - st.step) === 1;
    if (s === st.step) one = false;
    else if (d.plan) st.anim = one ? { from: planShifts(d, now), t0: now } : null;
    else if (one && s > st.step && s <= sc.o.length) st.anim = { piece: d.seq[s - 1], t0: now };
    else if (one && s < st.step && st.step <= sc.o.length) st.anim = { piece: d.seq[s], t0: now, out: true };
    else st.anim = null;
    st.step = s;
    updateUi();
    redraw();
  }

  // Goes to position k of the player (see `at`).
  function go(k, animate) { setStep(stepAt(decode(scenes[st.scene]), k), animate); }

  function stop() { if (st.timer) { clearTimeout(st.timer); st.timer = null; } }

  // Plays from here to the end of the way chosen (from its start when at its end), one step
  // every stepMs; stops at the end.
  function play() {
    var d = decode(scenes[st.scene]);
    stop();
    if (at(d) >= d.n) go(0, false);
    var tick = function () {
      var d2 = decode(scenes[st.scene]);
      go(at(d2) + 1, true);
      if (at(d2) >= d2.n) { st.timer = null; updateUi(); return; }
      st.timer = setTimeout(tick, stepMs());
      updateUi();
    };
    st.timer = setTimeout(tick, 0);
    updateUi();
  }
  function pause() { stop(); updateUi(); }

  $('sprev').onclick = function () { showScene(st.scene - 1); redraw(); };
  $('snext').onclick = function () { showScene(st.scene + 1); redraw(); };
  $('aprev').onclick = function () { pause(); go(at(decode(scenes[st.scene])) - 1, true); };
  $('anext').onclick = function () { pause(); go(at(decode(scenes[st.scene])) + 1, true); };
  $('aplay').onclick = function () { if (st.timer) pause(); else play(); };
  $('ascrub').oninput = function () { pause(); go(Number(this.value), true); };
  $('adir').onchange = function () { pause(); st.dir = this.value === 'together' ? 'together' : 'apart'; updateUi(); };
  $('aspeed').onchange = function () { st.speed = Number(this.value) || 1; updateUi(); };
  $('layer').oninput = function () { st.layer = Number(this.value); $('lval').textContent = this.value; redraw(); };
  $('explode').oninput = function () { st.explode = Number(this.value) / 100 * 1.5; redraw(); };

  // The player for a page that frames this one (the studio): the same steps as the buttons.
  window.cubesatPlayer = {
    state: playerState,
    go: function (k) { pause(); go(k, true); },
    play: play,
    pause: pause,
    direction: function (dir) { pause(); st.dir = dir === 'together' ? 'together' : 'apart'; updateUi(); },
    speed: function (x) { st.speed = Number(x) > 0 ? Number(x) : 1; updateUi(); }
  };

  var drag = null;
  canvas.addEventListener('pointerdown', function (e) {
    drag = { x: e.clientX, y: e.clientY };
    if (canvas.setPointerCapture) canvas.setPointerCapture(e.pointerId);
  });
  canvas.addEventListener('pointermove', function (e) {
    if (!drag) return;
    st.yaw += (e.clientX - drag.x) * 0.01;
    st.pitch = Math.max(-Math.PI, Math.min(0, st.pitch + (e.clientY - drag.y) * 0.01));
    drag = { x: e.clientX, y: e.clientY };
    redraw();
  });
  var endDrag = function () { drag = null; };
  canvas.addEventListener('pointerup', endDrag);
  canvas.addEventListener('pointercancel', endDrag);
  canvas.addEventListener('wheel', function (e) {
    e.preventDefault();
    st.zoom = Math.max(0.2, Math.min(5, st.zoom * Math.exp(e.deltaY * 0.001)));
    redraw();
  }, { passive: false });
  window.addEventListener('resize', redraw);
  window.addEventListener('keydown', function (e) {
    if (scenes[st.scene].a === 0 || e.altKey || e.ctrlKey || e.metaKey) return;
    // A slider or a list that has the focus uses the arrow keys itself.
    var t = e.target && e.target.tagName;
    if (t === 'INPUT' || t === 'SELECT' || t === 'TEXTAREA') return;
    if (e.key === 'ArrowRight') $('anext').onclick();
    else if (e.key === 'ArrowLeft') $('aprev').onclick();
  });

  // First frame, synchronously.
  // Optional initial state from the URL: #scene=2&step=5&layer=1&explode=50&yaw=-45&pitch=-55
  // (scene counts from 1, explode is 0..100 like its slider, angles in degrees).
  function fromHash() {
    var h = {};
    (window.location.hash || '').replace(/^#/, '').split('&').forEach(function (kv) {
      var m = kv.split('=');
      if (m.length === 2 && m[1] !== '' && isFinite(Number(m[1]))) h[m[0]] = Number(m[1]);
    });
    if (h.scene) showScene(h.scene - 1);
    if ('explode' in h) { st.explode = h.explode / 100 * 1.5; $('explode').value = String(h.explode); }
    if ('layer' in h) st.layer = h.layer;
    if ('yaw' in h) st.yaw = h.yaw * Math.PI / 180;
    if ('pitch' in h) st.pitch = h.pitch * Math.PI / 180;
    if ('step' in h) st.step = Math.max(0, Math.min(decode(scenes[st.scene]).n, h.step));
    updateUi();
  }

  if (scenes.length) {
    // Square layers of balls run along the diagonals of x and y: look at their corner.
    if (scenes[0].s === 1) st.yaw = 0;
    // Prisms: from the south, a little to one side and higher than cubes, so a board reads
    // as its triangle tiling with the prisms' side faces showing.
    if (scenes[0].s === 2) { st.yaw = PRISM_YAW; st.pitch = PRISM_PITCH; }
    // Tetrahedra: off the cube's diagonals, so that no face of the grids' diagonal planes
    // is seen edge-on.
    if (scenes[0].s === 3) st.yaw = -0.55;
    showScene(0);
    fromHash();
    draw();
  } else {
    $('title').textContent = 'Nothing to show';
    status.setAttribute('data-webgl', gl ? '1' : '0');
  }
})();
