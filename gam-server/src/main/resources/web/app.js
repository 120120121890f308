'use strict';
// GAM-Agent web page: ask a question (streamed progress), inspect a debate trace, browse recent traces.
// Plain DOM; the trace view is the shared GamViewer (viewer.js, charts by the bundled ECharts). Model output is
// untrusted: it is only ever set as textContent.

const $ = (s) => document.querySelector(s);

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v; else if (k.startsWith('on')) e.addEventListener(k.slice(2), v); else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c instanceof Node ? c : String(c));
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

/**
 * What went wrong, said for a person: the HTTP status decides the sentence; the server's own message (which names
 * the field or limit) follows when it adds something.
 */
async function problem(r) {
  let detail = '';
  try { detail = (await r.json()).error.message || ''; } catch (e) { /* not JSON */ }
  const said = {
    400: 'The server could not use this question',
    401: 'This server needs an API key: type it in the "API key" box at the top right',
    403: 'This API key is not accepted by the server',
    404: 'Not found on the server (it keeps the traces of its newest questions only, in its trace database)',
    413: 'The image or request is too large for this server',
    429: 'The server is busy with other questions; try again in a moment',
    503: 'The server is busy or still starting; try again in a moment',
    504: 'The model took too long to answer',
  }[r.status] || (r.status >= 500 ? 'The server failed while answering' : 'The request failed (HTTP ' + r.status + ')');
  return new Error(detail && !said.includes(detail) ? said + ': ' + detail : said + '.');
}

async function send(path, init) {
  let r;
  try {
    r = await fetch(path, init);
  } catch (e) {
    throw new Error('Cannot reach the GAM server at ' + location.origin + ': is `gam serve` still running?');
  }
  if (!r.ok) throw await problem(r);
  return r;
}

const api = (path) => send(path, { headers: headers(false) });

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

/** A method's colour, the same on every page (colors.js): the reports draw it in this colour too. */
function methodSwatch(method) {
  return el('span', { class: 'method-swatch', 'data-method': method, title: method, style: 'background:' + GamColors.methodColor(method) });
}

async function loadTraceList() {
  const body = $('#trace-list tbody');
  try {
    const list = (await (await api('/v1/traces')).json()).data;
    // each row is a Tab stop: Enter (or a click) opens its trace, which takes focus; Escape there comes back to the row
    body.replaceChildren(...list.map((t) => el('tr', { class: 'clickable', tabindex: '0', 'data-id': t.id, onclick: () => openTrace(t.id),
      onkeydown: (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); openTrace(t.id, true); } } },
      el('td', {}, new Date(t.time).toLocaleString()), el('td', {}, methodSwatch(t.method), t.method), el('td', {}, t.question), el('td', {}, t.id))));
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
// claim, assessment} (gam), weights {k, weights: {id: w}, U_sys, conflict} (gam), probe_answered {agent, role, scale, width,
// height, answer, option, u, signal | error} (DREAM, one per probe as it finishes), dream_branch {branch, threshold}.
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
    case 'probe_answered': {
      const size = d.width && d.height ? ` (${d.width}×${d.height})` : '';
      if (d.error) return `probe · ${d.agent} ×${d.scale}${size} failed: ${d.error}`;
      const answer = (d.option && d.option !== d.answer ? d.option + '. ' : '') + (d.answer === undefined || d.answer === null ? '–' : d.answer);
      return `probe · ${d.agent} ×${d.scale}${size} → ${answer} · u ${fmt(d.u)}` + (d.signal ? ' (' + d.signal + ')' : '');
    }
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
    const r = await send('/v1/chat/completions', { method: 'POST', headers: headers(true), body: JSON.stringify(body) });
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
          if (chunk.error) { error = 'The method failed while answering: ' + chunk.error.message; continue; }
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
    if (gam && gam.trace_id) await openTrace(gam.trace_id);
  } catch (e) {
    answerBox.className = 'error';
    answerBox.replaceChildren(e.message);
    answerBox.hidden = false;
    $('#status').textContent = '';
  } finally {
    button.disabled = false;
  }
}

// ---- trace view: the shared GamViewer (viewer.js), with the stored image under the claim regions ----------------
// The address names the trace shown (#trace=ID): opening one is a new history entry, so Back returns to the trace
// before it (or to none); the page reads the address on load, on Back/Forward and when it is edited.

let shownTrace = null;
let traceFrom = null; // the recent-traces row a trace was opened from by keyboard: Escape returns focus there

const traceOfAddress = () => {
  const m = location.hash.match(/^#trace=([^&]+)/);
  if (!m) return null;
  try { return decodeURIComponent(m[1]); } catch (e) { return null; }
};

/** Shows trace id and writes it into the address as a new history entry; focus moves to it when asked (keyboard). */
async function openTrace(id, focus) {
  traceFrom = focus ? document.activeElement : null;
  const hash = '#trace=' + encodeURIComponent(id);
  if (location.hash !== hash) history.pushState(null, '', hash);
  await showTrace(id, focus);
}

async function showTrace(id, focus) {
  const view = $('#trace-view');
  const body = $('#trace-body');
  shownTrace = id;
  view.hidden = false;
  view.setAttribute('aria-label', 'trace ' + id);
  if (focus) view.focus({ preventScroll: true });
  try {
    const trace = await (await api('/v1/traces/' + encodeURIComponent(id))).json();
    let imageUrl = null;
    try {
      const blob = await (await api('/v1/traces/' + encodeURIComponent(id) + '/image')).blob();
      imageUrl = URL.createObjectURL(blob);
    } catch (e) { /* a trace without a stored image still shows its rounds */ }
    if (shownTrace !== id) return; // another trace was asked for meanwhile
    GamViewer.render(body, trace, { imageUrl });
    view.dataset.trace = id;
    view.scrollIntoView({ behavior: 'smooth', block: 'start' });
  } catch (e) {
    if (shownTrace !== id) return;
    body.replaceChildren(el('p', { class: 'error' }, 'Cannot show trace ' + id + ': ' + e.message));
    view.dataset.trace = id;
  }
}

/** What the address says, shown: its trace, or none (Back past the first trace opened). */
function followAddress() {
  const id = traceOfAddress();
  if (id === shownTrace) return;
  if (id) { showTrace(id); return; }
  shownTrace = null;
  $('#trace-view').hidden = true;
  delete $('#trace-view').dataset.trace;
  $('#trace-body').replaceChildren();
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
$('#trace-view').addEventListener('keydown', (e) => {
  if (e.key !== 'Escape' || e.defaultPrevented || !traceFrom || !traceFrom.isConnected) return;
  e.preventDefault();
  traceFrom.focus();
});
window.addEventListener('popstate', followAddress);
window.addEventListener('hashchange', followAddress);
followAddress();
loadModels();
