'use strict';
// GamViewer: one debate trace, readable — question and options, final answer and scores, claim regions on the
// image (a video's frames as a strip in time order, each claim's region on its frame), weights / U_sys per round, every round's answers (changes marked), critiques grouped by claim, DREAM's
// probes as a table with the chosen branch, and "why this answer": the trace's `explanation` (built in Java by TraceExplainer
// from the same values the engine used — configuration, margin, what moved each weight, DREAM's rollback and decided_by —
// and added beside the trace by the report's sidecar and gam serve's /v1/traces/{id}). Shared by report.html (offline)
// and the `gam serve` page.
// Model output is untrusted: text is only ever set with textContent / createTextNode, never as HTML.
(function (global) {
  const SVG = 'http://www.w3.org/2000/svg';
  // Okabe & Ito's colour-blind-safe palette, then Tol's muted scheme
  const COLORS = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#000000', '#332288', '#117733', '#882255'];
  const DASHES = ['', '6 3', '2 3', '8 3 2 3', '4 4'];
  const BRANCHES = {
    Consensus: 'every probe agreed confidently: answered without a debate (a run recorded before DREAM\'s four branches)',
    StaticAll: 'no scale stood out: every agent sees every probed scale',
    PerAgent: 'each agent gets the scale where it was most confident',
    MixRes: 'the confident probes agree, but an agent that answered was confident at no scale: every agent receives the confident scales',
    ConflictMixRes: 'confident probes conflict: a mix of resolutions to resolve the conflict',
  };

  /** Each termination in words, and its colour class (gv-term-NAME). */
  const TERMINATIONS = {
    consensus: 'no debate was needed, or it ended without a stop rule',
    uncertainty: 'U_sys fell below θ_term',
    stagnation: 'U_sys stopped changing (|ΔU_sys| < ε)',
    max_rounds: 'the round limit K_max was reached',
    budget: 'the token budget was spent',
    agreement: 'every expert with an opinion chose the same answer',
    fixed_rounds: 'the fixed-rounds ablation ran K_max rounds',
    moderator: 'the moderator ended the debate',
    single: 'answered without debate (one answer, or one vote of the panel)',
  };

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? '' : v);
    }
    for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c instanceof Node ? c : String(c));
    return e;
  }

  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  const num = (x, d = 3) => (x === null || x === undefined || Number.isNaN(Number(x))) ? '–' : Number(x).toFixed(d);
  const answerOf = (o, a) => (o && a && o !== a ? o + '. ' + a : o || (a === null || a === undefined ? '–' : a));
  const keyOf = (o, a) => o || (a ? String(a).toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim() : '');

  /** Agent id → colour, in first-seen order over the rounds (and probes). */
  function palette(trace) {
    const ids = [];
    for (const r of trace.rounds || []) for (const a of r.agents || []) if (!ids.includes(a.id)) ids.push(a.id);
    for (const p of ((trace.extra || {}).probes || [])) if (p && !ids.includes(probeAgent(p))) ids.push(probeAgent(p));
    return Object.fromEntries(ids.map((id, i) => [id, { color: COLORS[i % COLORS.length], dash: DASHES[Math.floor(i / COLORS.length) % DASHES.length] || DASHES[i % DASHES.length] }]));
  }

  /** A probe's agent id and uncertainty, whatever the recorder called them. */
  const probeAgent = (p) => p.agent || p.agentId || ('agent-' + ((p.agentIndex || 0) + 1));
  const probeU = (p) => (p.u !== undefined ? p.u : p.uncertainty);

  /** Image width and height from the trace's "name (WxH)" image note. */
  function imageSize(trace) {
    const f = framesOf(trace);
    return f.length ? f[0].size : null;
  }

  /**
   * The question's images from the trace's "name (WxH)" notes, in order: for a video its frames in time order. Each is
   * { k (1-based), name, size, label }: "frame k", with the video's own frame number ("clip.mp4#frame-45": video frame 45)
   * and its time when the name carries one ("…@1.5s" or "…t=1.5s").
   */
  function framesOf(trace) {
    const imgs = (trace.question || {}).images || [];
    return imgs.map((note, i) => {
      const text = String(note);
      const m = /^(.*?)\s*\((\d+)x(\d+)\)\s*$/.exec(text);
      const name = m ? m[1] : text;
      const size = m ? { w: Number(m[2]), h: Number(m[3]) } : null;
      const vf = /#frame-(\d+)/.exec(name);
      const t = /(?:@|\bt=)(\d+(?:\.\d+)?)\s*s\b/.exec(name);
      const label = 'frame ' + (i + 1) + (t ? ` · ${Number(t[1])} s` : '') + (vf ? ` · video frame ${vf[1]}` : '');
      return { k: i + 1, name, size, label };
    });
  }

  // ---- decisions in words: thresholds with the values that crossed them --------------------------------------

  const thr = (x) => (x === null || x === undefined ? '–' : String(Math.round(Number(x) * 1e4) / 1e4));

  /** The termination's badge and words; {@code words} (the explanation's, for this method) before the generic ones. */
  function terminationBadge(t, words) {
    const name = t || '–';
    const said = words || TERMINATIONS[name];
    return el('span', { class: 'gv-termination-wrap' },
      el('span', { class: 'gv-termination gv-term-' + String(name).replace(/[^a-z_]/g, ''), title: said || '' }, name),
      said ? el('span', { class: 'gv-muted gv-termination-label' }, ' — ' + said) : null);
  }

  /** Round 0's trigger check in words: which value crossed which threshold, or why none did. */
  function triggerWords(t) {
    if (!t) return null;
    const u = `U_sys ${num(t.U_sys)}`, c = `C ${num(t.conflict)}`;
    if (t.started_by) {
      const parts = [];
      if (t.uncertainty_crossed) parts.push(`${u} > θ_U ${thr(t.theta_U)}`);
      if (t.conflict_crossed) parts.push(`${c} > θ_C ${thr(t.theta_C)}`);
      return 'debate: ' + parts.join(' and ');
    }
    return 'no debate: ' + (t.reads_uncertainty === false ? `U_sys not read (no-uncertainty ablation), ` : `${u} ≤ θ_U ${thr(t.theta_U)} and `)
      + `${c} ≤ θ_C ${thr(t.theta_C)}`;
  }

  /** Whether the experts agree, said beside a stop that reads only U_sys. */
  const agreeWords = (st, conflict) => st.agreed === true ? ' — the experts agree'
    : st.agreed === false ? ' — experts still disagree' + (conflict !== null && conflict !== undefined ? ` (C ${num(conflict)})` : '') : '';

  /** The check after a debate round in words: the stop reason with its value and threshold, or why the debate went on. */
  function stopWords(stOrTrace, conflict) {
    let st = stOrTrace;
    if (st && st.rounds) { // a whole trace: its last round's check, or round 0's when no debate ran
      const rounds = st.rounds || [];
      const last = rounds.length ? rounds[rounds.length - 1] : null;
      const ex = (last && last.extra) || {};
      if (ex.stop) return stopWords(ex.stop, last.conflict);
      if (ex.trigger_check && !ex.trigger_check.started_by) return triggerWords(ex.trigger_check);
      if ((st.extra || {}).debate_skipped) return 'no debate: every DREAM probe agreed';
      return null;
    }
    if (!st) return null;
    const u = `U_sys ${num(st.U_sys)}`;
    const delta = `|ΔU_sys| ${num(st.delta_U_sys)}`;
    const reason = st.reason;
    let words;
    if (reason === 'uncertainty') words = `stop: ${u} < θ_term ${thr(st.theta_term)}` + agreeWords(st, conflict);
    else if (reason === 'stagnation') words = `stop: ${delta} < ε ${thr(st.epsilon)} (U_sys ${num(st.previous_U_sys)} → ${num(st.U_sys)})` + agreeWords(st, conflict);
    else if (reason === 'max_rounds') words = `stop: round ${st.k} = K_max ${st.K_max}` + agreeWords(st, conflict);
    else if (reason === 'budget') words = `stop: tokens ${st.tokens} ≥ budget ${st.token_budget}` + agreeWords(st, conflict);
    else if (reason === 'agreement') words = 'stop: every expert with an opinion chose the same answer';
    else if (reason === 'fixed_rounds') words = `stop: round ${st.k} = K_max ${st.K_max} (fixed-rounds ablation)` + agreeWords(st, conflict);
    else if (reason === 'continue') {
      words = st.reads_uncertainty === false
        ? `continue: the experts still disagree, round ${st.k} < K_max ${st.K_max}`
        : `continue: ${u} ≥ θ_term ${thr(st.theta_term)}, ${delta} ≥ ε ${thr(st.epsilon)}, round ${st.k} < K_max ${st.K_max}`;
    } else words = reason ? 'stop: ' + reason : null;
    if (words && st.forced_by) words += ` (run to K_max by ${st.forced_by}; the rule alone: ${st.unforced_reason})`;
    return words;
  }

  /** The option mixture Σ w·p that decided a round (multiple choice), the decided option marked. */
  function mixtureBlock(r) {
    const ex = r.extra || {};
    const m = ex.mixture;
    if (!m || !Object.keys(m).length) return null;
    const chosen = ex.consensus_option;
    const entries = Object.entries(m);
    const top = Math.max(...entries.map(([, v]) => Number(v) || 0), 1e-9);
    const flat = ex.consensus_rule === 'weighted_choices';
    return el('div', { class: 'gv-mixture' },
      el('span', { class: 'gv-mixture-title' }, 'option mixture Σ w·p: '),
      entries.map(([k, v]) => el('span', { class: 'gv-mix' + (k === chosen ? ' gv-mix-chosen' : ''), title: `Σ w·p(${k}) = ${v}` },
        el('span', { class: 'gv-mix-bar', style: `width:${Math.round(40 * (Number(v) || 0) / top)}px` }),
        `${k} ${num(v)}`, k === chosen ? ' ← this round\'s choice' : '')),
      flat ? el('span', { class: 'gv-muted' }, ' (too flat to decide: the experts\' weighted choices decided)') : null);
  }

  /** The round's check in words (trigger for round 0, stop for later rounds). */
  function checkLine(r) {
    const ex = r.extra || {};
    const words = r.k === 0 ? triggerWords(ex.trigger_check) : stopWords(ex.stop, r.conflict);
    return words ? el('p', { class: 'gv-check' }, words) : null;
  }

  /** A prompt as the agent received it, folded. */
  const promptDetails = (text, label) => text ? el('details', { class: 'gv-prompt' }, el('summary', {}, label || 'prompt'), el('pre', {}, text)) : null;

  /** The trace's explanation (TraceExplainer's JSON beside the trace), or null for a trace handed over without one. */
  const explanationOf = (trace) => (trace && trace.explanation && !trace.explanation.error ? trace.explanation : null);

  /** The margin of a decision in words: winner and value, the best other and its value, the difference. */
  function marginWords(m) {
    if (!m || m.winner === undefined) return null;
    const measure = m.measure || '';
    return m.runner_up !== undefined
      ? `${m.winner} ${num(m.winner_value)} vs ${m.runner_up} ${num(m.runner_up_value)} (${measure}): margin ${num(m.margin)}`
      : `${m.winner} ${num(m.winner_value)} (${measure}), no other answer had any`;
  }

  /**
   * "Why this answer": who decided and how, the winning margin, and the configuration that decided (each setting that
   * acts in the method, its value and what it does), all from the explanation; its failed checks, if any, in words.
   */
  function explainBlock(trace) {
    const raw = trace.explanation;
    if (raw && raw.error) return el('section', { class: 'gv-explain' }, el('p', { class: 'gv-error' }, raw.error));
    const ex = explanationOf(trace);
    if (!ex) return null;
    const f = ex.final || {};
    const parts = [el('h4', {}, 'Why this answer')];
    if (f.decided_by || f.words) {
      parts.push(el('p', { class: 'gv-explain-decided' }, el('strong', {}, 'Decided by '), el('span', { class: 'gv-decided-by' }, f.decided_by || '–'),
        f.words ? ': ' + f.words : ''));
    }
    const mw = marginWords(f.margin);
    if (mw) parts.push(el('p', { class: 'gv-explain-margin' }, el('strong', {}, 'Winning margin: '), mw));
    const cfg = ex.config || [];
    if (cfg.length) {
      const shown = (v) => (Array.isArray(v) ? v.map((x) => '×' + x).join(' ') : typeof v === 'number' ? thr(v) : String(v));
      parts.push(el('div', { class: 'gv-explain-config' }, el('strong', {}, 'Configuration that decided: '),
        cfg.map((c) => el('span', { class: 'gv-cfg', title: `${c.meaning} (${c.key})`, 'data-key': c.key },
          el('span', { class: 'gv-cfg-symbol' }, c.symbol), ' = ', shown(c.value)))),
      el('details', { class: 'gv-explain-config-meaning' }, el('summary', {}, 'what each setting does'),
        el('table', {}, el('tbody', {}, cfg.map((c) => el('tr', {}, el('td', {}, c.symbol), el('td', {}, shown(c.value)),
          el('td', {}, el('code', {}, c.key)), el('td', {}, c.meaning)))))));
    }
    if (ex.consistent === false) {
      const bad = (ex.checks || []).filter((c) => !c.ok);
      parts.push(el('div', { class: 'gv-error gv-explain-inconsistent' }, 'The recomputed decision disagrees with the trace on: ',
        el('ul', {}, bad.map((c) => el('li', {}, `${c.what}: trace ${c.trace}, recomputed ${c.explainer}`)))));
    }
    return el('section', { class: 'gv-explain' }, parts);
  }

  // ---- header: question, options, final answer, scores and metadata side by side -----------------------------

  function header(trace, opts) {
    const q = trace.question || {};
    const fin = trace.final || {};
    const gt = opts.groundTruth !== undefined ? opts.groundTruth : q.groundTruth;
    const options = Object.entries(q.options || {});
    // the vermillion "wrong" tint only where a ground truth says so (a `gam serve` question has none)
    const optionList = options.length ? el('ol', { class: 'gv-options' + (gt ? ' gv-has-truth' : '') }, options.map(([k, v]) => el('li', {
      class: [k === gt ? 'gv-truth' : '', k === fin.option ? 'gv-chosen' : ''].join(' ').trim() || null,
    }, el('span', { class: 'gv-letter' }, k), ' ', v, k === gt ? el('span', { class: 'gv-tag gv-tag-truth' }, 'ground truth') : null,
    k === fin.option ? el('span', { class: 'gv-tag gv-tag-final' }, 'final answer') : null))) : null;
    const ex = explanationOf(trace);
    const exFinal = (ex && ex.final) || {};
    const afterRollback = ex && ex.dream && ex.dream.after_rollback;
    const scores = [
      opts.outcome ? ['outcome', el('span', { class: 'gv-badge gv-' + opts.outcome }, opts.outcome)] : null,
      ['final', answerOf(fin.option, fin.answer)],
      [afterRollback ? 'confidence (after the rollback)' : 'confidence', num(fin.confidence)],
      exFinal.decided_by ? ['decided by', el('span', { class: 'gv-decided-by' }, exFinal.decided_by)] : null,
      ['termination', terminationBadge(trace.termination, ex && ex.termination_words)],
    ];
    const why = stopWords(trace);
    if (why) scores.push(['why it stopped', el('span', { class: 'gv-stop-words' }, why)]);
    scores.splice(0, scores.length, ...scores.filter(Boolean));
    if (opts.flip) scores.push(['round 0 → final', el('span', { class: 'gv-badge gv-flip-' + opts.flip.replace('→', '') }, opts.flip)]);
    if (!options.length && gt) scores.push(['ground truth', gt]);
    const meta = [
      ['method', trace.method], ['debate rounds', String(Math.max(0, (trace.rounds || []).length - 1))],
      ['calls', String(trace.calls)], ['tokens', trace.tokens ? `${trace.tokens.prompt} + ${trace.tokens.completion}` : '–'],
      ['time', trace.millis !== undefined ? (trace.millis / 1000).toFixed(2) + ' s' : '–'],
    ];
    if (q.category) meta.push(['category', q.category]);
    if (q.id) meta.push(['question id', q.id]);
    const dl = (pairs, cls) => el('dl', { class: cls }, pairs.flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, v)]));
    return el('div', { class: 'gv-header' },
      el('div', { class: 'gv-question' }, el('h3', { class: 'gv-title' }, q.text || '(no question text)'),
        q.hint ? el('p', { class: 'gv-hint' }, 'Hint: ' + q.hint) : null, optionList),
      el('div', { class: 'gv-side' }, dl(scores, 'gv-scores'), dl(meta, 'gv-meta')));
  }

  // ---- the image with claim regions --------------------------------------------------------------------------

  /**
   * Claims with regions in one round, largest first, so smaller boxes are drawn on top and stay visible. With
   * {@code frame} (a question of several images) only the claims on that frame; a claim naming no frame is on frame 1
   * of a one-image question and on no frame of several ({@link unframed}).
   */
  function regionsOf(round, frame, frames) {
    const out = [];
    for (const a of (round && round.agents) || []) {
      for (const c of a.claims || []) {
        const g = c.region;
        if (!g || !(g.x1 > g.x0) || !(g.y1 > g.y0)) continue;
        if (frame !== undefined && frames > 1 && c.frame !== frame) continue;
        out.push({ agent: a.id, claim: c, area: (g.x1 - g.x0) * (g.y1 - g.y0) });
      }
    }
    return out.sort((p, q) => q.area - p.area);
  }

  /** Claims of a round with a region but no frame named, on a question of several images: drawn on no frame. */
  const unframed = (round) => regionsOf(round).filter((r) => r.claim.frame === undefined || r.claim.frame === null);

  const pct = (v) => Math.round(Number(v) * 100);
  /** A claim's region in words, as a share of the image (the trace's 0..1 coordinates). */
  const regionWords = (g) => `x ${pct(g.x0)}–${pct(g.x1)} %, y ${pct(g.y0)}–${pct(g.y1)} % of the image`;

  /**
   * Zoom and pan on an SVG through its viewBox: buttons (+, −, fit), the mouse wheel around the pointer, dragging, and
   * {@code zoomTo(region)} for a claim's box. {@code onView(v)} is told every new view (the labels keep their size on screen).
   */
  function zoomable(box, W, H, onView) {
    let v = { x: 0, y: 0, w: W, h: H };
    const apply = () => {
      v.w = Math.min(W, Math.max(W / 16, v.w));
      v.h = v.w * H / W;
      v.x = Math.min(W - v.w, Math.max(0, v.x));
      v.y = Math.min(H - v.h, Math.max(0, v.y));
      box.setAttribute('viewBox', `${v.x} ${v.y} ${v.w} ${v.h}`);
      level.textContent = `${Math.round(100 * W / v.w)} %`;
      if (onView) onView(v);
    };
    const zoom = (f, cx = v.x + v.w / 2, cy = v.y + v.h / 2) => {
      const w = Math.min(W, Math.max(W / 16, v.w / f));
      v = { x: cx - (cx - v.x) * w / v.w, y: cy - (cy - v.y) * w / v.w, w, h: w * H / W };
      apply();
    };
    const level = el('span', { class: 'gv-muted gv-zoom-level' }, '100 %');
    const controls = el('div', { class: 'gv-zoom' },
      el('button', { type: 'button', class: 'gv-zoom-in', title: 'zoom in', onclick: () => zoom(2) }, '+'),
      el('button', { type: 'button', class: 'gv-zoom-out', title: 'zoom out', onclick: () => zoom(0.5) }, '−'),
      el('button', { type: 'button', class: 'gv-zoom-fit', title: 'the whole image', onclick: () => { v = { x: 0, y: 0, w: W, h: H }; apply(); } }, 'fit'),
      level, el('span', { class: 'gv-muted' }, ' · wheel to zoom, drag to move, click a claim to zoom to its region'));
    box.addEventListener('wheel', (e) => {
      e.preventDefault();
      const r = box.getBoundingClientRect();
      zoom(e.deltaY < 0 ? 1.25 : 0.8, v.x + (e.clientX - r.left) / r.width * v.w, v.y + (e.clientY - r.top) / r.height * v.h);
    }, { passive: false });
    let drag = null;
    box.addEventListener('pointerdown', (e) => { drag = { x: e.clientX, y: e.clientY, v: { ...v } }; });
    box.addEventListener('pointermove', (e) => {
      if (!drag) return;
      const r = box.getBoundingClientRect();
      v = { ...drag.v, x: drag.v.x - (e.clientX - drag.x) / r.width * drag.v.w, y: drag.v.y - (e.clientY - drag.y) / r.height * drag.v.h };
      apply();
    });
    for (const t of ['pointerup', 'pointerleave']) box.addEventListener(t, () => { drag = null; });
    const zoomTo = (g) => {
      const m = 0.15;
      const w = Math.max((g.x1 - g.x0) * W, (g.y1 - g.y0) * H * W / H) * (1 + 2 * m);
      v = { x: (g.x0 + g.x1) / 2 * W - w / 2, y: (g.y0 + g.y1) / 2 * H - w * H / W / 2, w, h: w * H / W };
      apply();
    };
    apply();
    // the image grows with the page: the labels are re-sized for the new width
    if (global.ResizeObserver) new ResizeObserver(() => apply()).observe(box);
    return { controls, zoomTo, view: () => v };
  }

  /**
   * The picture of frame {@code k} (1..n) in a box of W×H: the whole image for one image; for several, tile k of the
   * strip {@code url} holds (the frames side by side in time order, equal tiles: HtmlReport's and gam serve's frame strip).
   */
  function framePicture(url, k, n, W, H) {
    if (!url) return svg('rect', { x: 0, y: 0, width: W, height: H, fill: '#f3f4f6' });
    if (n <= 1) return svg('image', { href: url, x: 0, y: 0, width: W, height: H, preserveAspectRatio: 'none' });
    const tile = svg('svg', { x: 0, y: 0, width: W, height: H, viewBox: `0 0 ${W} ${H}`, overflow: 'hidden', class: 'gv-frame-tile' });
    tile.append(svg('image', { href: url, x: -(k - 1) * W, y: 0, width: n * W, height: H, preserveAspectRatio: 'none' }));
    return tile;
  }

  /**
   * The frames of a video question as a strip in time order: each labelled (frame k, its time or video frame when
   * known), the shown round's claim regions drawn on their frame; a click shows that frame large.
   */
  function frameStrip(frames, colors, opts, onPick) {
    const strip = el('div', { class: 'gv-frames', role: 'list', 'aria-label': 'the question\'s frames in time order' });
    const cells = frames.map((f) => {
      const size = f.size || { w: 4, h: 3 };
      const w = 96, h = Math.max(8, Math.round(w * size.h / size.w));
      const box = svg('svg', { class: 'gv-frame-thumb', width: w, height: h, viewBox: `0 0 ${w} ${h}`, role: 'img', 'aria-label': f.label });
      const cell = el('figure', { class: 'gv-frame', role: 'listitem', 'data-frame': f.k, title: f.name, tabindex: 0, onclick: () => onPick(f.k),
        onkeydown: (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); onPick(f.k); } } },
        box, el('figcaption', { class: 'gv-frame-label' }, f.label));
      return { f, box, cell, w, h };
    });
    strip.append(...cells.map((c) => c.cell));
    const draw = (round, selected) => {
      for (const c of cells) {
        c.box.replaceChildren(framePicture(opts.imageUrl, c.f.k, frames.length, c.w, c.h));
        for (const reg of regionsOf(round, c.f.k, frames.length)) {
          const g = reg.claim.region;
          const col = colors[reg.agent] || { color: '#555' };
          c.box.append(svg('rect', { class: 'gv-frame-region', 'data-agent': reg.agent, 'data-claim': reg.claim.n,
            x: g.x0 * c.w, y: g.y0 * c.h, width: Math.max(1, (g.x1 - g.x0) * c.w), height: Math.max(1, (g.y1 - g.y0) * c.h),
            fill: 'none', stroke: col.color, 'stroke-width': 1.5 }));
        }
        c.cell.classList.toggle('gv-frame-selected', c.f.k === selected);
        const n = regionsOf(round, c.f.k, frames.length).length;
        c.cell.querySelector('.gv-frame-label').textContent = c.f.label + (n ? ` · ${n} claim${n > 1 ? 's' : ''}` : '');
      }
    };
    return { strip, draw };
  }

  function imagePanel(trace, colors, opts) {
    const rounds = trace.rounds || [];
    const frames = framesOf(trace);
    const n = frames.length;
    const withRegions = rounds.filter((r) => regionsOf(r).length);
    if (!withRegions.length && !opts.imageUrl && n <= 1) return null;
    let frame = 1; // the frame shown large (a question of several images)
    const size = (n > 1 && frames[0].size) || imageSize(trace) || (opts.imageSize) || { w: 4, h: 3 };
    const W = 420, H = Math.round(W * size.h / size.w);
    // the drawing is W×H units; the picture takes the figure's width (it grows with the page) and its height follows
    const box = svg('svg', { class: 'gv-image', viewBox: `0 0 ${W} ${H}`, role: 'img', preserveAspectRatio: 'xMidYMid meet' });
    let labelGroups = [];
    // a label keeps its size on screen at any zoom and width: scaled by units per pixel around its corner
    const scaleLabels = (v) => {
      const px = box.getBoundingClientRect().width || W;
      const k = v.w / px;
      for (const l of labelGroups) l.g.setAttribute('transform', `translate(${l.x} ${l.y}) scale(${k}) translate(${-l.x} ${-l.y})`);
    };
    const zoom = zoomable(box, W, H, scaleLabels);
    const caption = el('figcaption', { class: 'gv-muted' });
    const picker = el('select', { class: 'gv-round-picker', 'aria-label': 'round whose claims are drawn' },
      withRegions.map((r) => el('option', { value: r.k }, 'round ' + r.k)));
    const legend = el('ul', { class: 'gv-region-legend' });
    const strip = n > 1 ? frameStrip(frames, colors, opts, (f) => { frame = f; draw(picker.value); }) : null;
    const frameTitle = n > 1 ? el('p', { class: 'gv-frame-title' }) : null;
    const draw = (k) => {
      box.replaceChildren(framePicture(opts.imageUrl, frame, n, W, H));
      const round = rounds.find((r) => String(r.k) === String(k));
      const regions = regionsOf(round, frame, n);
      if (strip) {
        strip.draw(round, frame);
        const loose = unframed(round).length;
        frameTitle.textContent = frames[frame - 1].label + ` of ${n}, in time order`
          + (loose ? ` — ${loose} claim region(s) this round name no frame and are drawn on none` : '');
      }
      const labels = [];
      labelGroups = [];
      legend.replaceChildren();
      regions.forEach((reg, i) => {
        const g = reg.claim.region;
        const c = colors[reg.agent] || { color: '#555', dash: '' };
        const x = g.x0 * W, y = g.y0 * H, w = Math.max(2, (g.x1 - g.x0) * W), h = Math.max(2, (g.y1 - g.y0) * H);
        const group = svg('g', { class: 'gv-region', 'data-agent': reg.agent, 'data-claim': reg.claim.n });
        // a translucent fill and a white halo under the coloured stroke keep nested and overlapping boxes apart
        group.append(svg('rect', { x, y, width: w, height: h, fill: c.color, 'fill-opacity': 0.07, stroke: '#fff', 'stroke-width': 4,
          'vector-effect': 'non-scaling-stroke' }),
          svg('rect', { x, y, width: w, height: h, fill: 'none', stroke: c.color, 'stroke-width': 2, 'stroke-dasharray': c.dash || null,
            'vector-effect': 'non-scaling-stroke', class: 'claim-region' }));
        const label = `${reg.agent} #${reg.claim.n}`;
        const lw = 7 * label.length + 6, lh = 14;
        let ly = Math.max(0, y - lh), lx = Math.min(Math.max(0, x), W - lw);
        // move a label down until it overlaps no label placed before it
        for (let tries = 0; tries < 20 && labels.some((b) => lx < b.x + b.w && lx + lw > b.x && ly < b.y + b.h && ly + lh > b.y); tries++) ly += lh;
        ly = Math.min(ly, H - lh);
        labels.push({ x: lx, y: ly, w: lw, h: lh });
        const tag = svg('g', { class: 'gv-region-label' });
        tag.append(svg('rect', { x: lx, y: ly, width: lw, height: lh, rx: 2, fill: c.color, class: 'gv-region-tag' }),
          svg('text', { x: lx + 3, y: ly + 11, fill: '#fff', 'font-size': 11, 'font-weight': 'bold' }, label));
        // anchored at the region's corner: when the view zooms in, the label stays beside its box at its size on screen
        labelGroups.push({ g: tag, x: Math.max(0, x), y: Math.max(0, y) });
        group.append(tag, svg('title', {}, `${reg.agent} claim ${reg.claim.n}: ${reg.claim.text} (confidence ${num(reg.claim.confidence, 2)})`));
        box.append(group);
        const hot = () => { box.append(group); group.classList.add('gv-hot'); };
        const cold = () => group.classList.remove('gv-hot');
        // a claim is a focusable control: Tab reaches it, Enter or Space zooms to its region
        const item = el('li', {
          tabindex: 0, role: 'button', class: 'gv-claim', 'data-agent': reg.agent, 'data-claim': reg.claim.n,
          'aria-label': `zoom to ${label}: ${reg.claim.text}`,
          onmouseenter: hot, onmouseleave: cold, onfocus: hot, onblur: cold,
          onclick: () => zoom.zoomTo(g),
          onkeydown: (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); zoom.zoomTo(g); } },
        }, el('span', { class: 'gv-swatch', style: 'background:' + c.color }), label + ': ' + reg.claim.text,
        el('span', { class: 'gv-muted' }, ` (confidence ${num(reg.claim.confidence, 2)}; ${regionWords(g)}${n > 1 ? ' of frame ' + frame : ''})`));
        legend.append(item);
        if (i === 0) item.title = 'hover a claim to bring its box to the front';
      });
      scaleLabels(zoom.view());
      caption.textContent = (round ? `Round ${round.k}: ${regions.length} claim region(s)${n > 1 ? ' on frame ' + frame : ''}; hover a claim to bring its box to the front, click it to zoom.` : '')
        + (opts.imageUrl ? '' : n > 1 ? ' The frames themselves are not stored here: the regions are drawn on their outlines.'
          : ' The image itself is not stored in this report: the regions are drawn on its frame.');
    };
    picker.addEventListener('change', () => draw(picker.value));
    const start = withRegions.length ? withRegions[withRegions.length - 1].k : (rounds.length ? rounds[rounds.length - 1].k : 0);
    picker.value = String(start);
    if (n > 1) {
      // start on the frame with the most claim regions in the round shown (the earliest of equals)
      const startRound = rounds.find((r) => String(r.k) === String(start));
      let most = 0;
      for (const f of frames) {
        const c = regionsOf(startRound, f.k, n).length;
        if (c > most) { most = c; frame = f.k; }
      }
    }
    draw(start);
    return el('figure', { class: 'gv-figure gv-image-figure' + (n > 1 ? ' gv-video' : '') }, strip ? strip.strip : null, frameTitle,
      withRegions.length > 1 ? picker : null, zoom.controls, box, caption, legend);
  }

  // ---- per-round chart ----------------------------------------------------------------------------------------

  /** The share of a round's answering agents whose answer is the round's decision (or the majority). */
  function agreement(round) {
    const live = (round.agents || []).filter((a) => !a.error && (a.answer || a.option));
    if (!live.length) return null;
    const d = (round.extra || {}).decision;
    let key = d ? keyOf(d.option, d.answer) : null;
    if (!key) {
      const counts = {};
      for (const a of live) counts[keyOf(a.option, a.answer)] = (counts[keyOf(a.option, a.answer)] || 0) + 1;
      key = Object.entries(counts).sort((x, y) => y[1] - x[1])[0][0];
    }
    return live.filter((a) => keyOf(a.option, a.answer) === key).length / live.length;
  }

  function chartPanel(trace, colors, opts) {
    const rounds = trace.rounds || [];
    const box = el('div', { class: 'gv-chart' });
    if (!rounds.length) {
      const ex = trace.extra || {};
      // DREAM skipped the debate (dream.consensus_skips_debate, every probe agreed); runs before issue 26 named it a branch
      const skipped = ex.debate_skipped === true || (ex.debate_skipped === undefined && ex.branch === 'Consensus');
      const why = skipped ? 'DREAM\'s probes all agreed, so no debate ran (the debate was skipped).' : 'This trace has no rounds.';
      return el('figure', { class: 'gv-figure' }, el('p', { class: 'gv-muted gv-chart-empty' }, why));
    }
    const ks = rounds.map((r) => r.k);
    const series = [];
    const weights = {};
    for (const r of rounds) for (const a of r.agents || []) if (a.weight !== null && a.weight !== undefined) (weights[a.id] = weights[a.id] || []).push([r.k, a.weight]);
    for (const [id, pts] of Object.entries(weights)) {
      series.push({ name: 'w ' + id, type: 'line', data: pts, symbolSize: 7, lineStyle: { color: colors[id].color }, itemStyle: { color: colors[id].color } });
    }
    const usys = rounds.filter((r) => r.U_sys !== null && r.U_sys !== undefined).map((r) => [r.k, r.U_sys]);
    if (usys.length) series.push({ name: 'U_sys', type: 'line', data: usys, lineStyle: { type: 'dashed', color: '#333' }, itemStyle: { color: '#333' } });
    // methods without weights or U_sys (debate, mad, ...): how much the panel agrees, and how unsure its agents are
    const agree = rounds.map((r) => [r.k, agreement(r)]).filter((p) => p[1] !== null);
    series.push({ name: 'agreement with the decision', type: 'line', data: agree, lineStyle: { type: 'dotted', color: '#666' }, itemStyle: { color: '#666' } }); // grey: no agent's or method's colour
    if (!usys.length) {
      const meanU = rounds.map((r) => {
        const live = (r.agents || []).filter((a) => !a.error && a.uncertainty !== undefined);
        return [r.k, live.length ? live.reduce((s, a) => s + a.uncertainty, 0) / live.length : null];
      }).filter((p) => p[1] !== null);
      series.push({ name: 'mean agent uncertainty', type: 'line', data: meanU, lineStyle: { type: 'dashed', color: '#333' }, itemStyle: { color: '#333' } });
    }
    const ec = opts.echarts || global.echarts;
    const figure = el('figure', { class: 'gv-figure' }, box, el('figcaption', { class: 'gv-muted' },
      Object.keys(weights).length ? 'Influence weights per expert, U_sys and the panel\'s agreement per round.'
        : 'The panel\'s agreement with its decision and its mean uncertainty per round (this method has no weights).'));
    if (!ec) { box.append(el('p', { class: 'gv-muted' }, 'charts need the bundled ECharts script')); return figure; }
    // a legend that wraps instead of paginating: rows estimated from its entries' text, the plot below them
    let rows = 1, x = 0;
    for (const sr of series) { const w = 6.5 * sr.name.length + 34; if (x > 0 && x + w > 420) { rows++; x = 0; } x += w; }
    box.style.width = '440px';
    box.style.height = (236 + 20 * rows) + 'px';
    requestAnimationFrame(() => {
      const chart = ec.init(box, null, { renderer: 'svg' });
      chart.setOption({
        animation: false,
        grid: { left: 44, right: 16, top: 28 + 20 * rows, bottom: 36 },
        legend: { top: 0, type: 'plain', textStyle: { fontSize: 11 } },
        tooltip: { trigger: 'axis', valueFormatter: (v) => num(v) },
        xAxis: { type: 'value', name: 'round', nameLocation: 'middle', nameGap: 24, min: Math.min(...ks), max: Math.max(1, ...ks), minInterval: 1 },
        yAxis: { type: 'value', min: 0, max: 1, name: '0 – 1' },
        series,
      });
      box.gvChart = chart;
    });
    return figure;
  }

  // ---- rounds -------------------------------------------------------------------------------------------------

  /** Critiques of one round grouped by the claim they judge (expert + claim number), critics listed under it. */
  function groupedCritiques(critiques) {
    const groups = new Map();
    for (const c of critiques || []) {
      const key = (c.expert || '(all)') + '#' + (c.claim || 0);
      if (!groups.has(key)) groups.set(key, { expert: c.expert, claim: c.claim, text: c.claimText, verdicts: [] });
      const g = groups.get(key);
      if (!g.text && c.claimText) g.text = c.claimText;
      g.verdicts.push(c);
    }
    return [...groups.values()];
  }

  /** bad (inaccurate, wrong, unsupported), partial, or ok: the colour of a critic's verdict. */
  const verdictClass = (a) => /partial/i.test(a || '') ? 'partial' : /inaccurate|wrong|false|unsupported/i.test(a || '') ? 'bad' : 'ok';

  function critiquesBlock(critiques, colors, prompts) {
    const groups = groupedCritiques(critiques);
    const asked = Object.entries(prompts || {});
    const promptList = asked.length ? el('div', { class: 'gv-critic-prompts' }, asked.map(([critic, text]) => promptDetails(text, 'prompt of critic ' + critic))) : null;
    if (!groups.length) return promptList ? el('div', { class: 'gv-critiques' }, promptList) : null;
    return el('div', { class: 'gv-critiques' }, el('h5', {}, `Critiques (${critiques.length} verdicts on ${groups.length} claims)`),
      el('ul', {}, groups.map((g) => {
        const bad = g.verdicts.filter((v) => verdictClass(v.assessment) === 'bad').length;
        const partial = g.verdicts.filter((v) => verdictClass(v.assessment) === 'partial').length;
        return el('li', { class: 'gv-claim-group' },
          el('div', { class: 'gv-claim-head' },
            g.expert ? el('span', { class: 'gv-swatch', style: 'background:' + ((colors[g.expert] || {}).color || '#999') }) : null,
            el('strong', {}, g.expert ? `${g.expert} claim ${g.claim}` : 'all claims'), g.text ? ': “' + g.text + '”' : '',
            el('span', { class: 'gv-muted' }, ` — ${g.verdicts.length - bad - partial} accurate, ${partial ? partial + ' partly, ' : ''}${bad} inaccurate`)),
          el('ul', { class: 'gv-verdicts' }, g.verdicts.map((v) => el('li', {},
            el('span', { class: 'gv-critic' }, v.critic), ': ',
            el('span', { class: 'gv-verdict gv-verdict-' + verdictClass(v.assessment) }, v.assessment || '–'),
            el('span', { class: 'gv-muted' }, ` (critic's confidence ${num(v.confidence, 2)})`), v.reason ? ' — ' + v.reason : '', v.correction ? el('span', { class: 'gv-correction' }, ' → ' + v.correction) : null))));
      })), promptList);
  }

  /** An agent's option distribution p in a few characters: "A 0.99 · B 0.01 · C 0.00". */
  const distWords = (p) => Object.entries(p).map(([k, v]) => `${k} ${num(v, 2)}`).join(' · ');

  /**
   * One round: its check and mixture, each agent's answer, uncertainty u (named by its signal), distribution p, weight w
   * with its score s = (1 − U) + λΣSim − γNU and what moved it since the last round (from the explanation {@code exr}),
   * claims and critiques. {@code note}: a line after the round (the last round of a DREAM trace: the final answer was
   * decided after the rollback).
   */
  function roundCard(r, prev, colors, exr, note) {
    const exAgents = {};
    for (const a of (exr && exr.agents) || []) exAgents[a.id] = a;
    const anyP = (r.agents || []).some((a) => a.optionDistribution && Object.keys(a.optionDistribution).length);
    const anyW = (r.agents || []).some((a) => a.weight !== null && a.weight !== undefined);
    const before = {};
    for (const a of (prev && prev.agents) || []) if (!a.error) before[a.id] = a;
    const d = (r.extra || {}).decision;
    // a panel of several models (named backends): each agent's model, and its backend when not the default
    const who = (a) => a.model ? (a.backend && a.backend !== 'default' ? `${a.model} (${a.backend})` : a.model) : (a.backend || '');
    const mixed = new Set((r.agents || []).map(who)).size > 1;
    const rows = (r.agents || []).map((a) => {
      const was = before[a.id];
      const changed = was && !a.error && keyOf(a.option, a.answer) !== keyOf(was.option, was.answer);
      const claims = (a.claims || []).length ? el('details', {}, el('summary', {}, `${a.claims.length} claim(s)`),
        el('ol', {}, a.claims.map((c) => el('li', {}, c.text, el('span', { class: 'gv-muted' }, ` (confidence ${num(c.confidence, 2)})`),
          c.evidence ? el('div', { class: 'gv-muted' }, 'evidence: ' + c.evidence) : null,
          c.region || c.frame ? el('div', { class: 'gv-muted gv-claim-where' }, (c.frame ? 'frame ' + c.frame + (c.region ? ', ' : '') : '')
            + (c.region ? 'region: ' + regionWords(c.region) : '')) : null)))) : '–';
      const raw = a.raw ? el('details', {}, el('summary', {}, 'reply'), el('pre', {}, a.raw)) : null;
      const asked = promptDetails(((r.extra || {}).prompts || {})[a.id]);
      const xa = exAgents[a.id] || {};
      const terms = xa.terms;
      const weightCell = el('td', { class: 'gv-weight' }, num(a.weight),
        terms ? el('div', { class: 'gv-muted gv-score', title: 's = (1 − U) + λ·ΣSim − γ·N·U; w = softmax(s/τ)' },
          `s ${num(terms.s)} = ${num(terms.confidence)} + ${num(terms.agreement)} − ${num(terms.penalty)}`) : null,
        xa.moved ? el('div', { class: 'gv-moved' }, xa.moved.words) : null,
        xa.no_opinion ? el('div', { class: 'gv-muted' }, 'no opinion: ' + xa.no_opinion) : null);
      return el('tr', { class: changed ? 'gv-changed' : null, 'data-agent': a.id },
        el('td', {}, el('span', { class: 'gv-swatch', style: 'background:' + ((colors[a.id] || {}).color || '#999') }), a.id),
        el('td', {}, a.role || ''), mixed ? el('td', { class: 'gv-model' }, who(a)) : null,
        el('td', {}, a.scale !== undefined && a.scale !== null ? '×' + a.scale : '–'),
        el('td', {}, a.error ? el('span', { class: 'gv-error' }, 'failed: ' + a.error) : answerOf(a.option, a.answer),
          changed ? el('span', { class: 'gv-tag gv-tag-changed', title: 'changed from ' + answerOf(was.option, was.answer) }, 'changed from ' + answerOf(was.option, was.answer)) : null),
        el('td', {}, num(a.uncertainty) + (a.signal ? ' ' : ''), a.signal ? el('span', { class: 'gv-muted' }, a.signal) : null),
        anyP ? el('td', { class: 'gv-dist' }, a.optionDistribution ? distWords(a.optionDistribution) : '–') : null,
        anyW ? weightCell : null, el('td', {}, claims, asked, raw));
    });
    const stats = [];
    if (r.U_sys !== undefined && r.U_sys !== null) stats.push('U_sys ' + num(r.U_sys));
    if (r.conflict !== undefined && r.conflict !== null) stats.push('conflict ' + num(r.conflict));
    return el('section', { class: 'gv-round', 'data-k': r.k },
      el('h4', {}, r.k === 0 ? 'Round 0 — first answers' : `Round ${r.k}`, el('span', { class: 'gv-muted' }, stats.length ? '  ' + stats.join(' · ') : ''),
        d ? el('span', { class: 'gv-decision' }, 'decision: ' + answerOf(d.option, d.answer)) : null),
      checkLine(r), mixtureBlock(r), roundMargin(exr),
      el('div', { class: 'gv-scroll' }, el('table', { class: 'gv-agents' }, el('thead', {}, el('tr', {}, ['agent', 'role'].concat(mixed ? ['model'] : [],
        ['scale', 'answer', 'uncertainty u (its signal)'], anyP ? ['p (option distribution)'] : [], anyW ? ['weight w'] : [], ['claims']).map((h) => el('th', h === 'weight w' && Object.keys(exAgents).length
          ? { title: 'w = softmax(s/τ) over the panel, s = (1 − U) + λ·ΣSim − γ·N·U: a weight also moves when the others\' scores do' } : {}, h)))),
        el('tbody', {}, rows))),
      critiquesBlock(r.critiques, colors, (r.extra || {}).critic_prompts), note || null);
  }

  /** A round's decision margin (gam: Σ w·p, the winner against the best other option), or its vote tally (the panels). */
  function roundMargin(exr) {
    if (!exr) return null;
    if (exr.decision && exr.decision.words) {
      return el('p', { class: 'gv-round-margin' }, exr.decision.words,
        el('span', { class: 'gv-muted' }, ' · weights w = softmax(s/τ), s = (1 − U) + λ·ΣSim − γ·N·U: each moves with the others\' scores too'));
    }
    if (exr.tally && Object.keys(exr.tally).length > 1) {
      return el('p', { class: 'gv-round-margin gv-muted' }, 'votes this round: ' + Object.entries(exr.tally).map(([k, v]) => `${k} ${v}`).join(' · '));
    }
    return exr.not_recomputed ? el('p', { class: 'gv-muted' }, exr.not_recomputed) : null;
  }

  // ---- DREAM --------------------------------------------------------------------------------------------------

  /**
   * DREAM's probe round and rollback. With the explanation {@code xd}: the branch in words, τ and every probe's u with
   * enough digits to read on their side of τ, the confident mark with why a probe under τ is not confident, what the
   * inner method ran, each rollback with the measure it compared (u_ANLL or the trace's u), the answers after it, the
   * mixture or tally over them and who decided.
   */
  function dreamBlock(extra, colors, xd) {
    if (!extra || (!extra.probes && !extra.branch)) return null;
    xd = xd || {};
    const probes = Array.isArray(extra.probes) ? extra.probes : [];
    const parts = [el('h4', {}, 'DREAM: probes and branch')];
    const tauText = xd.threshold_text || (extra.threshold !== undefined ? num(extra.threshold, 4) : null);
    if (extra.branch) {
      const words = xd.branch_words || BRANCHES[extra.branch];
      parts.push(el('p', { class: 'gv-branch' }, el('strong', {}, 'Branch: '), el('span', { class: 'gv-branch-name' }, String(extra.branch)),
        words ? ' — ' + words : '',
        tauText ? el('span', { class: 'gv-muted' }, ` · threshold τ = ${tauText} (${extra.threshold_kind || 'adaptive'})`) : null));
    }
    if (extra.branch_reason) parts.push(el('p', { class: 'gv-branch-reason' }, el('strong', {}, 'Why this branch: '), String(extra.branch_reason)));
    if (xd.debate_words) {
      parts.push(el('p', { class: 'gv-muted gv-debate-skipped' }, xd.debate_words.charAt(0).toUpperCase() + xd.debate_words.slice(1) + '.'));
    } else if (extra.consensus !== undefined) {
      parts.push(el('p', { class: 'gv-muted gv-debate-skipped' }, extra.debate_skipped
        ? 'Every probe agreed, so the debate was skipped (dream.consensus_skips_debate).'
        : extra.consensus ? 'Every probe agreed; dream.consensus_skips_debate is off, so the inner method ran.' : 'The probes did not all agree.'));
    }
    if (Array.isArray(extra.assignment) && extra.assignment.length) {
      // the agents by their index in the inner panel, named as the probes name them
      const names = {};
      for (const p of probes) if (p.agentIndex !== undefined) names[p.agentIndex] = probeAgent(p);
      parts.push(el('p', {}, el('strong', {}, 'Scales given to the agents: '),
        extra.assignment.map((s, i) => `${names[i] || 'agent-' + (i + 1)} ${Array.isArray(s) ? s.map((x) => '×' + x).join(' + ') : '×' + s}`).join(' · ')));
    }
    if (probes.length) {
      const anyError = probes.some((p) => p.error);
      const anyReused = probes.some((p) => p.reused);
      const xp = xd.probes || [];
      const signals = [...new Set(probes.map((p) => p.signal).filter(Boolean))];
      const head = ['agent', 'scale', 'image', 'answer', 'u' + (signals.length === 1 ? ' (' + signals[0] + ')' : ''),
        `confident (u ≤ τ${tauText ? ' = ' + tauText : ''})`].concat(anyReused ? ['round 0'] : [], anyError ? ['error'] : []);
      parts.push(el('table', { class: 'gv-probes' }, el('thead', {}, el('tr', {}, head.map((h) => el('th', {}, h)))),
        el('tbody', {}, probes.map((p, i) => {
          const x = xp[i] || {};
          const mark = p.confident ? '✓' : x.u_le_tau ? `– (u ≤ τ, but ${x.why_not || 'not marked'})` : '– (u > τ)';
          return el('tr', { class: p.confident ? 'gv-confident' : null },
            el('td', {}, el('span', { class: 'gv-swatch', style: 'background:' + ((colors[probeAgent(p)] || {}).color || '#999') }), probeAgent(p),
              p.role && p.role !== probeAgent(p) ? el('span', { class: 'gv-muted' }, ' ' + p.role) : null),
            el('td', {}, p.scale !== undefined && p.scale !== null ? '×' + p.scale : '–'),
            el('td', {}, p.width && p.height ? `${p.width}×${p.height}` : '–',
              p.frames > 1 ? el('span', { class: 'gv-muted gv-probe-frames' }, ` × ${p.frames} frames (${Number(p.pixels).toLocaleString('en')} px)`) : null),
            el('td', {}, p.error ? '–' : answerOf(p.option, p.answer)),
            el('td', { class: 'gv-probe-u' }, x.u_text || num(probeU(p)), p.signal && signals.length > 1 ? el('span', { class: 'gv-muted' }, ' ' + p.signal) : null),
            el('td', { class: 'gv-probe-confident' }, mark), anyReused ? el('td', {}, p.reused ? 'reused as round 0' : '') : null,
            anyError ? el('td', { class: 'gv-error' }, p.error || '') : null);
        }))));
    }
    const asked = Object.entries(extra.probe_prompts || {});
    if (asked.length) parts.push(el('div', { class: 'gv-probe-prompts' }, asked.map(([who, text]) => promptDetails(text, 'probe prompt of ' + who))));
    const rollbacks = xd.rollbacks || extra.rollbacks || [];
    if (extra.rollback_uncertainty !== undefined || rollbacks.length) {
      const rb = el('div', { class: 'gv-rollback' }, el('h5', {}, 'Rollback' + (xd.rho !== undefined ? ` (ρ = ${thr(xd.rho)})` : '')));
      if (xd.rollback_u_name) rb.append(el('p', { class: 'gv-muted gv-rollback-measure' }, 'compared: ' + xd.rollback_u_name));
      rb.append(rollbacks.length
        ? el('ul', { class: 'gv-rollbacks' }, rollbacks.map((b) => el('li', {}, b.words
          || `${b.agent}: round ${b.finalRound} “${b.finalAnswer}” (u ${num(b.finalU)}) → round ${b.restoredRound} “${b.restoredAnswer}” (u ${num(b.restoredU)})`)))
        : el('p', { class: 'gv-muted' }, 'No answer was rolled back: no agent\'s final answer was much less confident than an earlier different one.'));
      const after = xd.after_rollback;
      if (after) {
        if (after.answers && after.answers.length) {
          rb.append(el('p', { class: 'gv-after-answers' }, el('strong', {}, 'Answers after the rollback: '), after.answers.map((a) =>
            `${a.id} ${answerOf(a.option, a.answer)} (round ${a.from_round}${a.rolled_back ? ', rolled back' : ''}${a.weight !== undefined ? ', w ' + num(a.weight) : ''})`).join(' · ')));
        }
        const d = after.decision;
        if (d && d.mixture) {
          const top = Math.max(...Object.values(d.mixture).map(Number), 1e-9);
          rb.append(el('div', { class: 'gv-mixture gv-after-mixture' }, el('span', { class: 'gv-mixture-title' }, 'mixture Σ w·p after the rollback: '),
            Object.entries(d.mixture).map(([k, v]) => el('span', { class: 'gv-mix' + (k === d.winner ? ' gv-mix-chosen' : '') },
              el('span', { class: 'gv-mix-bar', style: `width:${Math.round(40 * (Number(v) || 0) / top)}px` }), `${k} ${num(v)}`, k === d.winner ? ' ← final' : ''))));
        } else if (d && d.tally) {
          rb.append(el('p', { class: 'gv-after-tally' }, 'votes after the rollback: ' + Object.entries(d.tally).map(([k, v]) => `${k} ${v}`).join(' · ')));
        }
        if (after.words) rb.append(el('p', { class: 'gv-after-words' }, el('strong', {}, 'Decided by '), el('span', { class: 'gv-dream-decided-by' }, xd.decided_by || extra.decided_by || '–'), ': ' + after.words));
      } else if (extra.decided_by) {
        rb.append(el('p', { class: 'gv-after-words' }, el('strong', {}, 'Decided by '), el('span', { class: 'gv-dream-decided-by' }, extra.decided_by)));
      }
      parts.push(rb);
    }
    if (extra.inner_final) {
      parts.push(el('p', { class: 'gv-muted gv-inner-final' }, `The inner method's own answer before the rollback: ${answerOf(extra.inner_final.option, extra.inner_final.answer)}`
        + ` (confidence ${num(extra.inner_final.confidence)})`));
    }
    return el('section', { class: 'gv-dream' }, parts);
  }

  // ---- the whole trace ----------------------------------------------------------------------------------------

  /**
   * Renders one trace into {@code container}. opts: imageUrl (drawn under the regions; for a question of several images
   * a strip of its frames side by side in equal tiles, as HtmlReport and gam serve store it), outcome (correct / wrong /
   * unmatched / error), flip ("w→r" ...), groundTruth, echarts (the library; window.echarts by default).
   */
  function render(container, trace, opts = {}) {
    const colors = palette(trace);
    const rounds = trace.rounds || [];
    const ex = explanationOf(trace) || {};
    const exRounds = ex.rounds || [];
    // the last round of a DREAM trace did not decide: say so where its mixture is drawn
    const after = ex.dream && ex.dream.after_rollback;
    const note = after && after.words ? el('p', { class: 'gv-final-note' }, el('strong', {}, 'Final answer: '),
      'decided after DREAM\'s rollback (see “Rollback” above) — ' + after.words) : null;
    container.replaceChildren(...[
      header(trace, opts),
      explainBlock(trace),
      el('div', { class: 'gv-panels' }, imagePanel(trace, colors, opts), chartPanel(trace, colors, opts)),
      dreamBlock(trace.extra, colors, ex.dream),
      el('div', { class: 'gv-rounds' }, rounds.map((r, i) => roundCard(r, i > 0 ? rounds[i - 1] : null, colors,
        exRounds.find((x) => x.k === r.k), i === rounds.length - 1 ? note : null)))].filter(Boolean));
    container.classList.add('gv');
  }

  global.GamViewer = { render, groupedCritiques, agreement, el, svg, num, answerOf, COLORS, TERMINATIONS, stopWords, triggerWords, framesOf, regionsOf, marginWords };
})(window);
