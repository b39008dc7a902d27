// cubesat viewer: the inline WebGL renderer embedded by render::html (no libraries, no network).
// Reads the JSON in #data, draws the current scene synchronously on load, and reports on #status.
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

  var st = { scene: 0, step: 0, layer: 0, explode: 0, yaw: -Math.PI / 4, pitch: -0.96, zoom: 1, anim: null, timer: null };
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
    // A disassembly plan: the offset of every piece after each move (state 0 assembled).
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
      // Frame every position of the plan.
      states.forEach(function (st2) {
        pieces.forEach(function (cells, pi) {
          cells.forEach(function (c) {
            if (sc.s === 2) {
              var m = [c[0] + st2[pi][0], c[1] + st2[pi][1], c[2] + st2[pi][2]];
              prismPoly(m).forEach(function (p) { grow([p[0], p[1], m[2]], 0); grow([p[0], p[1], m[2] + 1], 0); });
            } else if (sc.s) {
              var w = ballAt([c[0] + st2[pi][0], c[1] + st2[pi][1], c[2] + st2[pi][2]]);
              grow([w[0] - 0.5, w[1] - 0.5, w[2] - 0.5], 1);
            } else grow([c[0] + st2[pi][0], c[1] + st2[pi][1], c[2] + st2[pi][2]], 1);
          });
        });
      });
      sceneCentre = [0, 1, 2].map(function (a) { return (lo[a] + hi[a]) / 2; });
      plan = { m: sc.p.length, states: states };
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
    var planOffset = function (pi) {
      var here = d.plan.states[d.plan.m - st.step][pi];
      if (!st.anim || st.anim.state === undefined) return here;
      var from = d.plan.states[st.anim.state][pi];
      var t = Math.min(1, (now - st.anim.t0) / DROP_MS), k = 1 - (1 - t) * (1 - t);
      return [0, 1, 2].map(function (a) { return from[a] + (here[a] - from[a]) * k; });
    };
    shown.forEach(function (pi) {
      var entry = legend[sc.k[pi]];
      var col = hexColour(entry[3]);
      var edge = entry[2] ? [0.97, 0.97, 0.97] : [0.08, 0.08, 0.08];
      var cells = d.pieces[pi].filter(function (c) { return c[2] <= st.layer; });
      var set = {};
      cells.forEach(function (c) { set[key(c[0], c[1], c[2])] = true; });
      var off = [0, 1, 2].map(function (a) { return e * (d.centroid[pi][a] - d.centre[pi][a]); });
      if (d.plan) {
        var po = planOffset(pi);
        // A plan moves cells on the grid: in space, scaled as cells are placed.
        var pw = sc.s === 2 ? [po[0] * TR[0][0], po[1] * TR[0][1], po[2]] :
          po.map(function (v) { return v * (sc.s ? BALL : 1); });
        off = [0, 1, 2].map(function (a) { return off[a] + pw[a]; });
      } else if (st.anim && st.anim.piece === pi) {
        var t = Math.min(1, (now - st.anim.t0) / DROP_MS);
        off[2] += (1 - t) * (1 - t) * (d.hi[2] - d.lo[2] + 1);
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
    if (!gl) return;
    var sc = scenes[st.scene], d = decode(sc);
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
      draw();
      if (st.anim && performance.now() - st.anim.t0 < DROP_MS) redraw();
      else st.anim = null;
    });
  }

  // ---- controls --------------------------------------------------------------------------
  function updateUi() {
    var sc = scenes[st.scene], d = decode(sc);
    $('title').textContent = sc.t;
    document.title = sc.t || 'cubesat';
    $('solnav').style.display = scenes.length > 1 ? '' : 'none';
    $('sinfo').textContent = 'solution ' + (st.scene + 1) + ' / ' + scenes.length;
    var info = 'step ' + st.step + ' / ' + d.n;
    if (d.plan) { if (st.step > 0) info += ': ' + sc.pl[d.plan.m - st.step]; }
    else if (st.step > sc.o.length) info += ' (piece ' + legend[sc.k[d.seq[st.step - 1]]][1] + ' cannot slide in)';
    else if (st.step > 0) info += ': ' + legend[sc.k[d.seq[st.step - 1]]][1];
    $('ainfo').textContent = info;
    $('aplay').textContent = st.timer ? 'pause' : 'play';
    // Loose pieces (a puzzle sheet) are no assembly: nothing to step through.
    $('asm').style.display = sc.a === 0 ? 'none' : '';
    var layer = $('layer');
    layer.min = String(d.zlo); layer.max = String(d.zhi); layer.value = String(st.layer);
    $('lval').textContent = String(st.layer);
    $('msg').textContent = d.plan ? (sc.pt || '') + ': the disassembly played backwards' :
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

  function setStep(s, animate) {
    var d = decode(scenes[st.scene]);
    s = Math.max(0, Math.min(d.n, s));
    if (d.plan) st.anim = animate && s === st.step + 1 ? { state: d.plan.m - st.step, t0: performance.now() } : null;
    else st.anim = animate && s === st.step + 1 && s <= scenes[st.scene].o.length ? { piece: d.seq[s - 1], t0: performance.now() } : null;
    st.step = s;
    updateUi();
    redraw();
  }

  function stop() { if (st.timer) { clearInterval(st.timer); st.timer = null; } }

  $('sprev').onclick = function () { showScene(st.scene - 1); redraw(); };
  $('snext').onclick = function () { showScene(st.scene + 1); redraw(); };
  $('aprev').onclick = function () { stop(); setStep(st.step - 1, false); };
  $('anext').onclick = function () { stop(); setStep(st.step + 1, true); };
  $('aplay').onclick = function () {
    if (st.timer) { stop(); updateUi(); return; }
    var d = decode(scenes[st.scene]);
    if (st.step >= d.n) setStep(0, false);
    st.timer = setInterval(function () {
      if (st.step >= d.n) { stop(); updateUi(); return; }
      setStep(st.step + 1, true);
    }, PLAY_MS);
    updateUi();
  };
  $('layer').oninput = function () { st.layer = Number(this.value); $('lval').textContent = this.value; redraw(); };
  $('explode').oninput = function () { st.explode = Number(this.value) / 100 * 1.5; redraw(); };

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
    if (scenes[st.scene].a === 0) return;
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
