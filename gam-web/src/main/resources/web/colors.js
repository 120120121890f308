'use strict';
// Method colours fixed by name on every page: report.html, gam report's comparison, gam serve's page and the trace viewer
// all read them here (one source; gam-eval's MethodPaletteTest reads this file). Any two of METHOD_COLORS differ by
// CIEDE2000 ΔE ≥ 15 in normal vision and under simulated deuteranopia and protanopia (Machado, Oliveira & Fernandes 2009,
// severity 1), so any page showing up to eight of these methods keeps them apart for most colour-blind readers too.
// Twelve colours is about as many as those three views allow at ΔE 15 with colours readable on white (MethodPaletteTest
// checks the pairs; docs/metrics.md, "Colours").
(function (global) {
  const METHOD_COLORS = Object.freeze({
    single: '#000000', cot: '#4BD2D2', sc: '#1EB4FF', vote: '#B4784B', debate: '#0000F0', 'self-debate': '#4B69FF',
    mad: '#870F78', dmad: '#962D4B', chateval: '#5AD200', debunc: '#4BD296', gam: '#B40000', 'dream+gam': '#E13C87',
  });
  // the colours in a fixed order: a name without a colour of its own takes one of these (see methodStyles)
  const COLORS = Object.freeze(Object.values(METHOD_COLORS));
  // past eight series, or for a name sharing a colour, series also differ by marker and dash
  const SYMBOLS = Object.freeze(['circle', 'triangle', 'rect', 'diamond', 'pin', 'roundRect', 'arrow', 'emptyCircle']);
  const DASHES = Object.freeze(['solid', 'dashed', 'dotted', [10, 4, 2, 4], [2, 6]]);

  /** FNV-1a over the name's UTF-16 units: the same order of fallback colours for a name on every page. */
  function hash(s) {
    let h = 0x811c9dc5;
    for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 0x01000193) >>> 0; }
    return h >>> 0;
  }

  /**
   * The styles {color, symbol, dash, marked} of the methods a page shows, by name. A method of METHOD_COLORS keeps its
   * colour; any other name takes the first colour no other method on the page uses, in an order fixed by its name's
   * hash (so up to twelve methods on a page never share a colour), and once all are taken the hash's colour with its own
   * marker and dash. {@code marked}: the page shows more than eight methods, or this one shares its colour, so its
   * series should also be drawn with its marker and dash.
   */
  function methodStyles(names) {
    const unique = [...new Set(names)];
    const out = {};
    const used = new Set();
    for (const n of unique) if (METHOD_COLORS[n]) { out[n] = { color: METHOD_COLORS[n] }; used.add(METHOD_COLORS[n]); }
    for (const n of unique) {
      if (out[n]) continue;
      const h = hash(n);
      const order = COLORS.map((_, i) => COLORS[(h + i) % COLORS.length]);
      const free = order.find((c) => !used.has(c));
      out[n] = { color: free || order[0], shared: !free };
      used.add(out[n].color);
    }
    const many = unique.length > 8;
    unique.forEach((n, i) => {
      const o = out[n];
      const shared = o.shared || unique.some((m) => m !== n && out[m].color === o.color);
      o.symbol = SYMBOLS[i % SYMBOLS.length];
      o.dash = DASHES[(many || shared ? i : 0) % DASHES.length];
      o.marked = many || shared;
      delete o.shared;
    });
    return out;
  }

  /** One method's colour alone (a page that shows one method at a time): its own, else its hash's. */
  function methodColor(name) {
    return METHOD_COLORS[name] || COLORS[hash(String(name)) % COLORS.length];
  }

  global.GamColors = Object.freeze({ METHOD_COLORS, COLORS, SYMBOLS, DASHES, methodStyles, methodColor, hash });
})(typeof window !== 'undefined' ? window : globalThis);
