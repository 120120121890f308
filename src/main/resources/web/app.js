'use strict';
// GAM-Agent web page: ask a question (streamed progress), inspect a debate trace, browse recent traces.
// Plain DOM + SVG, no external code. Model output is untrusted: it is only ever set as textContent.

const $ = (s) => document.querySelector(s);
const SVG = 'http://www.w3.org/2000/svg';
const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v; else if (k.startsWith('on')) e.addEventListener(k.slice(2), v); else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c instanceof Node ? c : String(c));
  return e;
}

function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

const fmt = (x) => (x === null || x === undefined || Number.isNaN(x)) ? '–' : Number(x).toFixed(3);

function headers(json) {
  const h = {};
  if (json) h['Content-Type'] = 'application/json';
  const key = $('#api-key').value || localStorage.getItem('gamKey') || '';
  if (key) h['Authorization'] = 'Bearer ' + key;
  return h;
}

async function api(path) {
  const r = await fetch(path, { headers: headers(false) });
  if (!r.ok) {
    let msg = 'HTTP ' + r.status;
    try { msg = (await r.json()).error.message; } catch (e) { /* not JSON */ }
    throw new Error(msg);
  }
  return r;
}

// ---- tabs -------------------------------------------------------------------------------------------

function showTab(name) {
  $('#tab-ask').classList.toggle('active', name === 'ask');
  $('#tab-traces').classList.toggle('active', name === 'traces');
  $('#ask-panel').hidden = name !== 'ask';
  $('#traces-panel').hidden = name !== 'traces';
  if (name === 'traces') loadTraceList();
}

async function loadModels() {
  try {
    const models = (await (await api('/v1/models')).json()).data.map((m) => m.id);
    const sel = $('#method');
    sel.replaceChildren(...models.map((m) => el('option', { value: m }, m)));
    if (models.includes('gam')) sel.value = 'gam';
  } catch (e) {
    $('#status').textContent = 'cannot list methods: ' + e.message;
  }
}

async function loadTraceList() {
  const body = $('#trace-list tbody');
  try {
    const list = (await (await api('/v1/traces')).json()).data;
    body.replaceChildren(...list.map((t) => el('tr', { class: 'clickable', onclick: () => showTrace(t.id) },
      el('td', {}, new Date(t.time).toLocaleString()), el('td', {}, t.method), el('td', {}, t.question), el('td', {}, t.id))));
    if (!list.length) body.replaceChildren(el('tr', {}, el('td', { colspan: 4 }, 'No traces yet: ask a question.')));
  } catch (e) {
    body.replaceChildren(el('tr', {}, el('td', { colspan: 4, class: 'error' }, e.message)));
  }
}

// ---- asking -------------------------------------------------------------------------------------------

function readFile(file) {
  return new Promise((resolve, reject) => {
    const fr = new FileReader();
    fr.onload = () => resolve(fr.result);
    fr.onerror = () => reject(new Error('cannot read ' + file.name));
    fr.readAsDataURL(file);
  });
}

// One progress line per streamed event. The shapes are the methods' ProgressListener events: round_started {k, phase},
// agent_started {k, id}, agent_answered {k, id, role, answer, option, uncertainty | error}, critique {k, critic, expert,
// claim, assessment} (gam), weights {k, weights: {id: w}, U_sys, conflict} (gam), dream_branch {branch, threshold}.
function describeEvent(ev) {
  const d = ev.data || {};
  const probe = d.phase === 'probe' || d.k < 0;
  const round = d.k === undefined ? '' : (probe ? 'probe' : 'round ' + d.k) + ' · ';
  switch (ev.type) {
    case 'round_started':
      return probe ? 'DREAM probe round started' : d.k === undefined ? 'round started' : `Round ${d.k} started`;
    case 'agent_started':
      return `${round}${d.id} is answering…`;
    case 'agent_answered': {
      const who = d.id + (d.role && d.role !== d.id ? ' (' + d.role + ')' : '');
      if (d.error) return `${round}${who} failed: ${d.error}`;
      const answer = (d.option && d.option !== d.answer ? d.option + '. ' : '') + (d.answer === undefined || d.answer === null ? '–' : d.answer);
      return `${round}${who} → ${answer}` + (d.uncertainty !== undefined ? ` · uncertainty ${fmt(d.uncertainty)}` : '');
    }
    case 'critique':
      return `${round}${d.critic} on ${d.expert ? d.expert + (d.claim ? ' claim ' + d.claim : '') : 'all claims'}: ${d.assessment}`;
    case 'weights':
      return `${round}weights ` + Object.entries(d.weights || {}).map(([id, w]) => id + ' ' + fmt(w)).join(', ')
        + (d.U_sys !== undefined ? ' · U_sys ' + fmt(d.U_sys) : '') + (d.conflict !== undefined ? ' · conflict ' + fmt(d.conflict) : '');
    case 'dream_branch':
      return `DREAM branch ${d.branch}` + (d.threshold !== undefined ? ` (threshold ${fmt(d.threshold)})` : '');
    default: {
      const raw = JSON.stringify(d); // an event shape this page does not know yet: show it as is
      return ev.type + (Object.keys(d).length ? ' · ' + (raw.length > 160 ? raw.slice(0, 160) + '…' : raw) : '');
    }
  }
}

async function ask(event) {
  event.preventDefault();
  const file = $('#image').files[0];
  const question = $('#question').value.trim();
  const answerBox = $('#answer');
  answerBox.hidden = true;
  answerBox.className = '';
  if (!file || !question) { $('#status').textContent = 'choose an image and type a question'; return; }
  if ($('#api-key').value) localStorage.setItem('gamKey', $('#api-key').value);
  const button = $('#ask-button');
  button.disabled = true;
  $('#progress').replaceChildren();
  $('#status').textContent = 'asking…';
  let content = '';
  let gam = null;
  let error = null;
  try {
    const url = await readFile(file);
    const text = question + ($('#options').value.trim() ? '\n' + $('#options').value.trim() : '');
    const body = {
      model: $('#method').value, stream: true,
      messages: [{ role: 'user', content: [{ type: 'text', text }, { type: 'image_url', image_url: { url } }] }],
    };
    const r = await fetch('/v1/chat/completions', { method: 'POST', headers: headers(true), body: JSON.stringify(body) });
    if (!r.ok) {
      let msg = 'HTTP ' + r.status;
      try { msg = (await r.json()).error.message; } catch (e) { /* not JSON */ }
      throw new Error(msg);
    }
    const reader = r.body.getReader();
    const decoder = new TextDecoder();
    let buf = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += decoder.decode(value, { stream: true });
      let cut;
      while ((cut = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        for (const line of block.split('\n')) {
          if (!line.startsWith('data: ')) continue;
          const data = line.slice(6);
          if (data === '[DONE]') continue;
          const chunk = JSON.parse(data);
          if (chunk.error) { error = chunk.error.message; continue; }
          if (chunk.gam_event) $('#progress').append(el('li', { class: 'event-' + chunk.gam_event.type }, describeEvent(chunk.gam_event)));
          const delta = chunk.choices && chunk.choices[0] && chunk.choices[0].delta;
          if (delta && delta.content) content += delta.content;
          if (chunk.gam) gam = chunk.gam;
        }
      }
    }
    if (error) throw new Error(error);
    answerBox.replaceChildren(el('strong', {}, content),
      gam ? el('div', { class: 'muted' }, `confidence ${fmt(gam.confidence)} · uncertainty ${fmt(gam.uncertainty)} · `
        + `${gam.rounds} round(s), ${gam.termination} · ${gam.tokens.prompt}+${gam.tokens.completion} tokens · ${gam.millis} ms`) : null);
    answerBox.hidden = false;
    $('#status').textContent = '';
    if (gam && gam.trace_id) await showTrace(gam.trace_id);
  } catch (e) {
    answerBox.className = 'error';
    answerBox.replaceChildren('Error: ' + e.message);
    answerBox.hidden = false;
    $('#status').textContent = '';
  } finally {
    button.disabled = false;
  }
}

// ---- trace view ------------------------------------------------------------------------------------------

let current = null; // { trace, colors, image }

async function showTrace(id) {
  const view = $('#trace-view');
  view.hidden = false;
  try {
    const trace = await (await api('/v1/traces/' + encodeURIComponent(id))).json();
    let image = null;
    try {
      const blob = await (await api('/v1/traces/' + encodeURIComponent(id) + '/image')).blob();
      image = await new Promise((resolve) => {
        const img = new Image();
        img.onload = () => resolve(img);
        img.onerror = () => resolve(null);
        img.src = URL.createObjectURL(blob);
      });
    } catch (e) { /* a trace without an image still shows its rounds */ }
    const ids = [];
    for (const r of trace.rounds || []) for (const a of r.agents || []) if (!ids.includes(a.id)) ids.push(a.id);
    const colors = Object.fromEntries(ids.map((a, i) => [a, COLORS[i % COLORS.length]]));
    current = { trace, colors, image, id };
    renderTrace();
    view.scrollIntoView({ behavior: 'smooth', block: 'start' });
  } catch (e) {
    $('#rounds').replaceChildren(el('p', { class: 'error' }, 'Cannot load trace ' + id + ': ' + e.message));
  }
}

function renderTrace() {
  const { trace, colors, id } = current;
  const q = trace.question || {};
  $('#trace-title').textContent = q.text || 'Trace';
  const fin = trace.final || {};
  $('#trace-meta').textContent = `${id} · method ${trace.method} · ${trace.calls} calls · ${trace.millis} ms`
    + (q.options && Object.keys(q.options).length ? ' · options ' + Object.entries(q.options).map(([k, v]) => k + '. ' + v).join('  ') : '');
  $('#termination').replaceChildren(el('p', {},
    el('strong', {}, 'Final: '), (fin.option ? fin.option + '. ' : '') + (fin.answer || '–'),
    ` (confidence ${fmt(fin.confidence)}) · termination: `, el('strong', { id: 'termination-reason' }, trace.termination || '–')));
  const rounds = trace.rounds || [];
  const withClaims = rounds.filter((r) => (r.agents || []).some((a) => (a.claims || []).length));
  renderRounds(rounds, colors, withClaims.length ? withClaims[withClaims.length - 1].k : (rounds.length ? rounds[rounds.length - 1].k : 0));
  renderChart(rounds, colors);
  renderDream(trace.extra);
}

function renderRounds(rounds, colors, selectedK) {
  const box = $('#rounds');
  box.replaceChildren(...rounds.map((r) => {
    const rows = (r.agents || []).map((a) => el('tr', {},
      el('td', {}, el('span', { class: 'swatch', style: 'background:' + (colors[a.id] || '#999') }), a.id),
      el('td', {}, a.role || ''), el('td', {}, a.error ? 'error: ' + a.error
        : (a.option && a.option !== a.answer ? a.option + '. ' : '') + (a.answer || '')),
      el('td', {}, fmt(a.uncertainty) + (a.signal ? ' (' + a.signal + ')' : '')), el('td', {}, fmt(a.weight)),
      el('td', {}, String((a.claims || []).length))));
    const table = el('table', {}, el('thead', {}, el('tr', {}, ...['Agent', 'Role', 'Answer', 'Uncertainty', 'Weight', 'Claims'].map((h) => el('th', {}, h)))),
      el('tbody', {}, ...rows));
    const crit = (r.critiques || []).map((c) => el('li', {},
      `${c.critic} on ${c.expert} claim ${c.claim}${c.claimText ? ' (“' + c.claimText + '”)' : ''}: ${c.assessment}`
      + (c.reason ? ' — ' + c.reason : '') + (c.correction ? ' → ' + c.correction : '') + ` [${fmt(c.confidence)}]`));
    const card = el('div', { class: 'round' + (r.k === selectedK ? ' selected' : ''), 'data-k': r.k },
      el('h3', {}, `Round ${r.k}`, el('span', { class: 'muted' }, `  U_sys ${fmt(r.U_sys)} · conflict ${fmt(r.conflict)}`)),
      table, crit.length ? el('div', { class: 'critiques' }, el('strong', {}, 'Critiques'), el('ul', {}, ...crit)) : null);
    card.addEventListener('click', () => {
      for (const c of box.querySelectorAll('.round')) c.classList.toggle('selected', c === card);
      drawImage(r, colors);
    });
    return card;
  }));
  drawImage(rounds.find((r) => r.k === selectedK), colors);
}

function drawImage(round, colors) {
  const s = $('#trace-image');
  s.replaceChildren();
  const img = current.image;
  const W = 420;
  const H = img ? Math.round(W * img.naturalHeight / img.naturalWidth) : 300;
  s.setAttribute('width', W);
  s.setAttribute('height', H);
  if (img) s.append(svg('image', { href: img.src, x: 0, y: 0, width: W, height: H }));
  else s.append(svg('text', { x: 10, y: 20, class: 'muted' }, 'no image stored'));
  let n = 0;
  for (const a of (round && round.agents) || []) {
    for (const c of a.claims || []) {
      if (!c.region) continue;
      const g = c.region;
      const color = colors[a.id] || '#999';
      const rect = svg('rect', { x: g.x0 * W, y: g.y0 * H, width: Math.max(1, (g.x1 - g.x0) * W), height: Math.max(1, (g.y1 - g.y0) * H),
        fill: 'none', stroke: color, 'stroke-width': 2, class: 'claim-region' });
      rect.append(svg('title', {}, `${a.id} #${c.n}: ${c.text} (${fmt(c.confidence)})`));
      s.append(rect, svg('text', { x: g.x0 * W + 3, y: g.y0 * H + 12, fill: color, 'font-size': 11, stroke: '#fff', 'stroke-width': 3,
        'paint-order': 'stroke', 'font-weight': 'bold' }, `${a.id}#${c.n}`));
      n++;
    }
  }
  $('#image-caption').textContent = round ? `Round ${round.k}: ${n} claim region(s).` : '';
}

function renderChart(rounds, colors) {
  const s = $('#weights-chart');
  s.replaceChildren();
  const W = 440, H = 260, L = 40, R = 110, T = 15, B = 35;
  const ks = rounds.map((r) => r.k);
  const kMax = Math.max(1, ...ks);
  const x = (k) => L + (W - L - R) * (k / kMax);
  const y = (v) => T + (H - T - B) * (1 - Math.max(0, Math.min(1, v)));
  s.append(svg('line', { x1: L, y1: y(0), x2: W - R, y2: y(0), stroke: '#889' }), svg('line', { x1: L, y1: y(0), x2: L, y2: y(1), stroke: '#889' }));
  for (const v of [0, 0.5, 1]) s.append(svg('text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end', 'font-size': 10 }, v.toFixed(1)));
  for (const k of ks) s.append(svg('text', { x: x(k), y: H - B + 14, 'text-anchor': 'middle', 'font-size': 10 }, String(k)));
  s.append(svg('text', { x: (L + W - R) / 2, y: H - 6, 'text-anchor': 'middle', 'font-size': 11 }, 'round'));
  const series = {};
  for (const r of rounds) for (const a of r.agents || []) {
    if (a.weight === null || a.weight === undefined) continue;
    (series[a.id] = series[a.id] || []).push([r.k, a.weight]);
  }
  let legendY = T + 5;
  const legend = (label, color, dashed) => {
    s.append(svg('line', { x1: W - R + 8, y1: legendY, x2: W - R + 26, y2: legendY, stroke: color, 'stroke-width': 2, 'stroke-dasharray': dashed ? '4 3' : '' }),
      svg('text', { x: W - R + 30, y: legendY + 4, 'font-size': 11 }, label));
    legendY += 16;
  };
  const line = (pts, color, dashed, cls) => {
    s.append(svg('polyline', { points: pts.map(([k, v]) => x(k) + ',' + y(v)).join(' '), fill: 'none', stroke: color,
      'stroke-width': 2, 'stroke-dasharray': dashed ? '5 4' : '', class: cls }));
    for (const [k, v] of pts) s.append(svg('circle', { cx: x(k), cy: y(v), r: 3, fill: color, class: cls + '-point' }));
  };
  for (const [id, pts] of Object.entries(series)) { line(pts, colors[id] || '#999', false, 'weight-line'); legend(id, colors[id] || '#999', false); }
  const u = rounds.filter((r) => r.U_sys !== null && r.U_sys !== undefined).map((r) => [r.k, r.U_sys]);
  if (u.length) { line(u, '#333', true, 'usys-line'); legend('U_sys', '#333', true); }
}

function renderDream(extra) {
  const box = $('#dream');
  if (!extra || (!extra.probes && !extra.branch)) { box.hidden = true; box.replaceChildren(); return; }
  box.hidden = false;
  const parts = [el('h3', {}, 'DREAM')];
  if (extra.branch !== undefined) parts.push(el('p', {}, el('strong', {}, 'Branch: '), typeof extra.branch === 'string' ? extra.branch : JSON.stringify(extra.branch)));
  if (extra.probes) {
    const probes = Array.isArray(extra.probes) ? extra.probes : Object.entries(extra.probes).map(([scale, v]) => Object.assign({ scale }, v));
    const keys = [];
    for (const p of probes) for (const k of Object.keys(p || {})) if (!keys.includes(k)) keys.push(k);
    parts.push(el('table', { id: 'probes' }, el('thead', {}, el('tr', {}, ...keys.map((k) => el('th', {}, k)))),
      el('tbody', {}, ...probes.map((p) => el('tr', {}, ...keys.map((k) => {
        const v = (p || {})[k];
        return el('td', {}, typeof v === 'number' ? fmt(v) : typeof v === 'object' && v !== null ? JSON.stringify(v) : (v === undefined ? '' : String(v)));
      }))))));
  }
  box.replaceChildren(...parts);
}

// ---- wiring -----------------------------------------------------------------------------------------------

$('#tab-ask').addEventListener('click', () => showTab('ask'));
$('#tab-traces').addEventListener('click', () => showTab('traces'));
$('#ask-form').addEventListener('submit', ask);
$('#api-key').value = localStorage.getItem('gamKey') || '';
$('#api-key').addEventListener('change', () => { localStorage.setItem('gamKey', $('#api-key').value); loadModels(); });
$('#image').addEventListener('change', () => {
  const f = $('#image').files[0];
  const p = $('#preview');
  if (f) { p.src = URL.createObjectURL(f); p.hidden = false; } else { p.hidden = true; }
});
const fromHash = location.hash.match(/^#trace=(.+)$/);
if (fromHash) showTrace(decodeURIComponent(fromHash[1]));
loadModels();
