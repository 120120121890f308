'use strict';
// report.html / comparison.html: interactive charts (ECharts, bundled in the page, SVG renderer) and a sample list
// with filters whose rows open a trace in GamViewer. Reads the data the page carries in <script id="gam-data">.
(function () {
  const data = JSON.parse(document.getElementById('gam-data').textContent);
  const { el, num } = window.GamViewer;
  const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#bcbd22'];
  const OUTCOME_COLORS = { 'w→r': '#2e7d32', 'r→w': '#c62828', 'r→r': '#a5d6a7', 'w→w': '#ef9a9a' };
  const charts = {};

  /** Every method of every run as one series: "method" for one run, "run / method" for several. */
  const series = [];
  for (const run of data.runs) {
    for (const [method, m] of Object.entries(run.summary.metrics || {})) {
      const name = data.runs.length > 1 ? `${run.name} / ${method}` : method;
      const records = (run.records || []).filter((r) => r.method === method);
      series.push({ name, method, run: run.name, m, records, categories: (run.summary.byCategory || {})[method] || {} });
    }
  }
  const colorOf = Object.fromEntries(series.map((s, i) => [s.name, PALETTE[i % PALETTE.length]]));

  function chart(id, option, height) {
    const box = document.getElementById(id);
    if (!box) return null;
    if (!option) { box.closest('figure').hidden = true; return null; }
    box.style.height = (height || 360) + 'px';
    const c = echarts.init(box, null, { renderer: 'svg' });
    c.setOption(Object.assign({ animation: false, textStyle: { fontFamily: 'system-ui, sans-serif' } }, option));
    charts[id] = c;
    return c;
  }

  // ---- accuracy vs cost, with the Pareto front ---------------------------------------------------------------

  const COSTS = {
    tokens: { label: 'tokens per question (prompt + completion)', of: (m) => m.promptTokensPerQuestion + m.completionTokensPerQuestion, fmt: (v) => Math.round(v) },
    dollars: { label: 'cost per question ($)', of: (m) => m.costPerQuestion, fmt: (v) => '$' + Number(v).toPrecision(3) },
    seconds: { label: 'wall time per question (s)', of: (m) => m.secondsPerQuestion, fmt: (v) => Number(v).toFixed(2) + ' s' },
    calls: { label: 'model calls per question', of: (m) => m.callsPerQuestion, fmt: (v) => Number(v).toFixed(2) },
  };

  /** The points no other point beats on both cost (lower) and accuracy (higher), by increasing cost. */
  function pareto(points) {
    const sorted = points.slice().sort((a, b) => a.x - b.x || b.y - a.y);
    const front = [];
    let best = -Infinity;
    for (const p of sorted) if (p.y > best + 1e-12) { front.push(p); best = p.y; }
    return front;
  }

  function costChart(kind) {
    const c = COSTS[kind];
    const pts = series.filter((s) => s.m.accuracy !== null && s.m.accuracy !== undefined && !s.method.endsWith(' (forced full length)'))
      .map((s) => ({ name: s.name, x: c.of(s.m), y: s.m.accuracy }));
    if (!pts.length) return null;
    const front = pareto(pts);
    return {
      title: { text: 'Accuracy vs ' + c.label.replace(/ \(.*\)$/, ''), subtext: 'line: Pareto front (no method is both cheaper and more accurate); axes start at 0', left: 'center', textStyle: { fontSize: 14 } },
      grid: { left: 60, right: 40, top: 70, bottom: 56 },
      tooltip: { trigger: 'item', formatter: (p) => p.seriesName === 'Pareto front' ? 'Pareto front' : `${p.data.name}<br>accuracy ${num(p.data.value[1])}<br>${c.label}: ${c.fmt(p.data.value[0])}` },
      xAxis: { type: 'value', name: c.label, nameLocation: 'middle', nameGap: 32, min: 0, axisLabel: { formatter: (v) => c.fmt(v) } },
      yAxis: { type: 'value', name: 'accuracy', min: 0, max: 1, axisLabel: { formatter: (v) => Math.round(v * 100) + '%' } },
      series: [
        { name: 'Pareto front', type: 'line', data: front.map((p) => [p.x, p.y]), symbol: 'none', lineStyle: { color: '#888', type: 'dashed' }, z: 1, silent: true },
        { name: 'methods', type: 'scatter', symbolSize: 13, z: 3,
          data: pts.map((p) => ({ name: p.name, value: [p.x, p.y], itemStyle: { color: colorOf[p.name], borderColor: '#222', borderWidth: 1 },
 })),
          // label positions are chosen after the first draw (placeLabels), so close points' labels do not overlap
          label: { show: true, position: 'right', distance: 8, formatter: (p) => `${p.data.name} ${Math.round(p.data.value[1] * 1000) / 10}%`, fontSize: 12, color: '#222' } },
      ],
    };
  }

  /**
   * Places each point's label where it overlaps no other label or point and stays inside the plot: candidates right,
   * left, above and below the point, then the same a line further out; the first free one wins (points by accuracy).
   */
  function placeLabels(c) {
    const opt = c.getOption();
    const data = opt.series[1].data;
    const grid = c.getModel().getComponent('grid').coordinateSystem.getRect();
    const boxes = [];
    const pts = data.map((d, i) => ({ i, px: c.convertToPixel({ seriesIndex: 1 }, d.value), w: 7 * (d.name.length + 7), h: 14 }));
    for (const p of pts) boxes.push({ x: p.px[0] - 7, y: p.px[1] - 7, w: 14, h: 14 });
    const free = (b) => b.x >= grid.x && b.x + b.w <= grid.x + grid.width + 40 && b.y >= grid.y - 20 && b.y + b.h <= grid.y + grid.height
      && !boxes.some((o) => b.x < o.x + o.w && b.x + b.w > o.x && b.y < o.y + o.h && b.y + b.h > o.y);
    const placed = data.map((d) => Object.assign({}, d));
    for (const p of pts.sort((a, b) => data[b.i].value[1] - data[a.i].value[1])) {
      const [x, y] = p.px;
      const tries = [];
      for (const step of [0, 1, 2, 3]) {
        const dy = step * 16;
        tries.push([10, -p.h / 2 - dy], [10, -p.h / 2 + dy], [-10 - p.w, -p.h / 2 - dy], [-10 - p.w, -p.h / 2 + dy], [-p.w / 2, -22 - dy], [-p.w / 2, 10 + dy]);
      }
      const at = tries.find(([dx, dy]) => free({ x: x + dx, y: y + dy, w: p.w, h: p.h })) || tries[0];
      boxes.push({ x: x + at[0], y: y + at[1], w: p.w, h: p.h });
      placed[p.i].label = { position: [at[0], at[1] + 2], align: 'left', verticalAlign: 'top' };
    }
    c.setOption({ series: [{}, { data: placed }] });
  }

  // ---- reliability diagrams as small multiples ---------------------------------------------------------------

  function reliability() {
    const box = document.getElementById('chart-reliability');
    if (!box) return;
    const withBins = series.filter((s) => (s.m.reliability || []).some((b) => b.count > 0));
    if (!withBins.length) { box.closest('figure').hidden = true; return; }
    box.replaceChildren();
    for (const s of withBins) {
      const cell = el('div', { class: 'small-multiple', 'data-method': s.name });
      box.append(cell);
      cell.style.height = '250px';
      const bins = s.m.reliability;
      const c = echarts.init(cell, null, { renderer: 'svg' });
      // bars on a category axis of the bins (fixed width); the diagonal on a hidden value axis spanning the same width
      c.setOption({
        animation: false,
        title: { text: `${s.name} — ECE ${num(s.m.ece)}`, left: 'center', textStyle: { fontSize: 12 } },
        grid: { left: 40, right: 10, top: 34, bottom: 40 },
        tooltip: { trigger: 'item' },
        xAxis: [{ type: 'category', data: bins.map((b, i) => (i / bins.length).toFixed(1)), name: 'confidence', nameLocation: 'middle', nameGap: 24,
          axisLabel: { interval: 1, fontSize: 10 }, axisTick: { alignWithLabel: false } },
        { type: 'value', min: 0, max: 1, show: false }],
        yAxis: { type: 'value', min: 0, max: 1, name: 'accuracy', nameGap: 8, interval: 0.2 },
        series: [
          { type: 'line', xAxisIndex: 1, data: [[0, 0], [1, 1]], symbol: 'none', lineStyle: { color: '#999', type: 'dashed' }, silent: true },
          { type: 'bar', xAxisIndex: 0, barWidth: '70%', itemStyle: { color: colorOf[s.name] },
            data: bins.map((b) => b.count > 0 ? { value: b.accuracy, count: b.count, conf: b.meanConfidence } : { value: null, count: 0 }),
            label: { show: true, position: 'top', fontSize: 10, formatter: (p) => p.data.count > 0 ? 'n=' + p.data.count : '' },
            tooltip: { formatter: (p) => `confidence ${p.name}–${(Number(p.name) + 0.1).toFixed(1)}: ${p.data.count} answers, mean confidence ${num(p.data.conf)}, accuracy ${num(p.data.value)}` } },
        ],
      });
      charts['reliability:' + s.name] = c;
    }
  }

  // ---- rounds and terminations as distributions --------------------------------------------------------------

  function roundsChart() {
    const withRecords = series.filter((s) => s.records.length);
    if (!withRecords.length) return null;
    const maxK = Math.max(0, ...withRecords.flatMap((s) => s.records.map((r) => r.rounds || 0)));
    const ks = Array.from({ length: maxK + 1 }, (_, k) => k);
    return {
      title: { text: 'Debate rounds per question', subtext: 'share of each method\'s questions that ran k debate rounds (0 = answered without debate)', left: 'center', textStyle: { fontSize: 14 } },
      grid: { left: 150, right: 30, top: 80, bottom: 40 },
      legend: { top: 46 },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v) => Math.round(v * 1000) / 10 + '%' },
      xAxis: { type: 'value', min: 0, max: 1, axisLabel: { formatter: (v) => Math.round(v * 100) + '%' } },
      yAxis: { type: 'category', data: withRecords.map((s) => s.name), inverse: true, axisLabel: { width: 140, overflow: 'break' } },
      series: ks.map((k) => ({ name: k + (k === 1 ? ' round' : ' rounds'), type: 'bar', stack: 'rounds',
        data: withRecords.map((s) => s.records.filter((r) => (r.rounds || 0) === k).length / s.records.length),
        label: { show: true, formatter: (p) => p.value >= 0.08 ? Math.round(p.value * 100) + '%' : '' } })),
    };
  }

  function terminationsChart() {
    const reasons = [...new Set(series.flatMap((s) => Object.keys(s.m.terminations || {})))].sort();
    if (!reasons.length) return null;
    return {
      title: { text: 'Why each method stopped', subtext: 'share of questions per termination reason', left: 'center', textStyle: { fontSize: 14 } },
      grid: { left: 150, right: 30, top: 80, bottom: 40 },
      legend: { top: 46, type: 'scroll' },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v) => Math.round(v * 1000) / 10 + '%' },
      xAxis: { type: 'value', min: 0, max: 1, axisLabel: { formatter: (v) => Math.round(v * 100) + '%' } },
      yAxis: { type: 'category', data: series.map((s) => s.name), inverse: true, axisLabel: { width: 140, overflow: 'break' } },
      series: reasons.map((t) => ({ name: t, type: 'bar', stack: 'term',
        data: series.map((s) => { const all = Object.values(s.m.terminations || {}).reduce((a, b) => a + b, 0); return all ? (s.m.terminations[t] || 0) / all : 0; }),
        label: { show: true, formatter: (p) => p.value >= 0.08 ? Math.round(p.value * 100) + '%' : '' } })),
    };
  }

  // ---- flips -------------------------------------------------------------------------------------------------

  function flipsChart() {
    const debaters = series.filter((s) => s.m.flips);
    if (!debaters.length) return null;
    const parts = [['w→r', 'wrongToRight'], ['r→w', 'rightToWrong'], ['r→r', 'rightToRight'], ['w→w', 'wrongToWrong']];
    return {
      title: { text: 'What the debate changed', subtext: 'per question: right/wrong after round 0 → right/wrong at the end', left: 'center', textStyle: { fontSize: 14 } },
      grid: { left: 150, right: 30, top: 80, bottom: 40 },
      legend: { top: 46 },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      xAxis: { type: 'value', min: 0, name: 'questions', nameLocation: 'middle', nameGap: 26 },
      yAxis: { type: 'category', data: debaters.map((s) => s.name), inverse: true, axisLabel: { width: 140, overflow: 'break' } },
      series: parts.map(([label, key]) => ({ name: label, type: 'bar', stack: 'flips', itemStyle: { color: OUTCOME_COLORS[label] },
        data: debaters.map((s) => s.m.flips[key]), label: { show: true, formatter: (p) => p.value > 0 ? String(p.value) : '' } })),
    };
  }

  // ---- DREAM branches (DREAM Fig. 6: branch shares, accuracy per branch) -----------------------------------

  function dreamChart() {
    const dream = series.filter((s) => s.records.some((r) => r.branch) || Object.keys(s.m.branchShares || {}).length);
    if (!dream.length) return null;
    const branches = [...new Set(dream.flatMap((s) => s.records.map((r) => r.branch).filter(Boolean).concat(Object.keys(s.m.branchShares || {}))))].sort();
    const out = [];
    for (const s of dream) {
      out.push({ name: s.name + ' share', type: 'bar', yAxisIndex: 0, itemStyle: { color: colorOf[s.name] },
        data: branches.map((b) => {
          const n = s.records.filter((r) => r.branch === b).length;
          return s.records.length ? n / s.records.length : ((s.m.branchShares || {})[b] || 0);
        }),
        label: { show: true, position: 'top', fontSize: 10, formatter: (p) => p.value > 0 ? Math.round(p.value * 100) + '%' : '' } });
      out.push({ name: s.name + ' accuracy', type: 'line', yAxisIndex: 1, symbolSize: 9, lineStyle: { type: 'dashed', color: colorOf[s.name] }, itemStyle: { color: colorOf[s.name] },
        data: branches.map((b) => {
          const rs = s.records.filter((r) => r.branch === b && r.outcome !== 'error');
          return rs.length ? rs.filter((r) => r.outcome === 'correct').length / rs.length : null;
        }),
        label: { show: true, position: 'top', distance: 10, fontSize: 10, formatter: (p) => p.value === null ? '' : 'acc ' + Math.round(p.value * 100) + '%' } });
    }
    return {
      title: { text: 'DREAM branches', subtext: 'bars: share of questions per branch; dashed: accuracy on those questions', left: 'center', textStyle: { fontSize: 14 } },
      grid: { left: 60, right: 60, top: 90, bottom: 40 },
      legend: { top: 46, type: 'scroll' },
      tooltip: { trigger: 'axis', valueFormatter: (v) => v === null || v === undefined ? '–' : Math.round(v * 1000) / 10 + '%' },
      xAxis: { type: 'category', data: branches },
      yAxis: [{ type: 'value', name: 'share', min: 0, max: 1, axisLabel: { formatter: (v) => Math.round(v * 100) + '%' } },
        { type: 'value', name: 'accuracy', min: 0, max: 1, axisLabel: { formatter: (v) => Math.round(v * 100) + '%' } }],
      series: out,
    };
  }

  // ---- per-category accuracy heat map -----------------------------------------------------------------------

  function categoryChart() {
    const cats = [...new Set(series.flatMap((s) => Object.keys(s.categories)))].sort();
    if (!cats.length || (cats.length === 1 && cats[0] === '-')) return null;
    const cells = [];
    series.forEach((s, y) => cats.forEach((c, x) => {
      const cell = s.categories[c];
      if (cell && cell.accuracy !== null && cell.accuracy !== undefined) cells.push({ value: [x, y, cell.accuracy], n: cell.n });
    }));
    return {
      title: { text: 'Accuracy per category', subtext: 'cell: accuracy · questions', left: 'center', textStyle: { fontSize: 14 } },
      grid: { left: 150, right: 30, top: 70, bottom: 80 },
      tooltip: { formatter: (p) => `${series[p.data.value[1]].name} · ${cats[p.data.value[0]]}: ${num(p.data.value[2])} (n=${p.data.n})` },
      xAxis: { type: 'category', data: cats, axisLabel: { interval: 0, rotate: cats.length > 8 ? 30 : 0 }, splitArea: { show: true } },
      yAxis: { type: 'category', data: series.map((s) => s.name), inverse: true, axisLabel: { width: 140, overflow: 'break' }, splitArea: { show: true } },
      visualMap: { min: 0, max: 1, calculable: false, orient: 'horizontal', left: 'center', bottom: 8, itemHeight: 160, text: ['100%', '0%'],
        inRange: { color: ['#d73027', '#fee08b', '#1a9850'] } },
      series: [{ type: 'heatmap', data: cells, label: { show: true, fontSize: 11, formatter: (p) => Math.round(p.data.value[2] * 100) + '% · ' + p.data.n } }],
    };
  }

  // ---- per-round curves ---------------------------------------------------------------------------------------

  function perRound(title, yName, pick, yMax) {
    const lines = series.map((s) => ({ s, v: pick(s.m) })).filter((x) => Array.isArray(x.v) && x.v.filter((v) => v !== null).length > 1);
    if (!lines.length) return null;
    return {
      title: { text: title, left: 'center', textStyle: { fontSize: 14 } },
      grid: { left: 64, right: 30, top: 70, bottom: 44 },
      legend: { top: 30, type: 'scroll' },
      tooltip: { trigger: 'axis', valueFormatter: (v) => num(v) },
      xAxis: { type: 'value', name: 'round k', nameLocation: 'middle', nameGap: 26, minInterval: 1, min: 0 },
      yAxis: { type: 'value', name: yName, min: 0, max: yMax },
      series: lines.map(({ s, v }) => ({ name: s.name, type: 'line', symbolSize: 7, itemStyle: { color: colorOf[s.name] },
        data: v.map((y, k) => [k, y]).filter((p) => p[1] !== null) })),
    };
  }

  function weightsChart() {
    const gam = series.filter((s) => s.m.weightsPerRound && Object.keys(s.m.weightsPerRound).length
      && Object.values(s.m.weightsPerRound).some((v) => v.filter((x) => x !== null).length > 1));
    if (!gam.length) return null;
    const out = [];
    for (const s of gam) for (const [agent, v] of Object.entries(s.m.weightsPerRound)) {
      out.push({ name: (gam.length > 1 ? s.name + ' · ' : '') + agent, type: 'line', symbolSize: 7, data: v.map((y, k) => [k, y]).filter((p) => p[1] !== null) });
    }
    return {
      title: { text: 'Mean expert influence weight per round', left: 'center', textStyle: { fontSize: 14 } },
      grid: { left: 64, right: 30, top: 70, bottom: 44 },
      legend: { top: 30, type: 'scroll' },
      tooltip: { trigger: 'axis', valueFormatter: (v) => num(v) },
      xAxis: { type: 'value', name: 'round k', nameLocation: 'middle', nameGap: 26, minInterval: 1, min: 0 },
      yAxis: { type: 'value', name: 'weight w_i', min: 0, max: 1 },
      series: out,
    };
  }

  // ---- samples: list with filters, one sample's debate ------------------------------------------------------

  const samples = [];
  for (const s of series) for (const r of s.records) samples.push(Object.assign({ series: s.name }, r));

  function samplesView() {
    const list = document.getElementById('sample-list');
    if (!list) return;
    if (!samples.length) { document.getElementById('samples').hidden = true; return; }
    const filters = {
      series: 'method', category: 'category', outcome: 'outcome', flip: 'flip', termination: 'termination',
    };
    const bar = document.getElementById('sample-filters');
    const selects = {};
    for (const [field, label] of Object.entries(filters)) {
      const values = [...new Set(samples.map((r) => r[field]).filter((v) => v !== null && v !== undefined && v !== ''))].sort();
      if (values.length < 1) continue;
      const sel = el('select', { id: 'filter-' + field, 'data-field': field }, el('option', { value: '' }, 'any ' + label),
        values.map((v) => el('option', { value: v }, v)));
      sel.addEventListener('change', draw);
      selects[field] = sel;
      bar.append(el('label', {}, label + ' ', sel));
    }
    const search = el('input', { type: 'search', id: 'filter-text', placeholder: 'question id or text' });
    search.addEventListener('input', draw);
    bar.append(el('label', {}, 'search ', search));
    const count = el('span', { class: 'muted', id: 'sample-count' });
    bar.append(count);
    const tbody = list.querySelector('tbody');
    let selected = null;

    function draw() {
      const text = search.value.trim().toLowerCase();
      const shown = samples.filter((r) => Object.entries(selects).every(([f, sel]) => !sel.value || String(r[f]) === sel.value)
        && (!text || String(r.id).toLowerCase().includes(text) || String(((r.trace || {}).question || {}).text || '').toLowerCase().includes(text)));
      count.textContent = `${shown.length} of ${samples.length} answers`;
      tbody.replaceChildren(...shown.slice(0, 2000).map((r) => {
        const tr = el('tr', { class: 'clickable' + (r === selected ? ' selected' : ''), tabindex: 0, 'data-id': r.id, 'data-series': r.series },
          el('td', {}, r.id), el('td', {}, r.series), el('td', {}, r.category || ''),
          el('td', {}, el('span', { class: 'gv-badge gv-' + r.outcome }, r.outcome)),
          el('td', {}, r.flip ? el('span', { class: 'gv-badge gv-flip-' + r.flip.replace('→', '') }, r.flip) : ''),
          el('td', {}, (r.termination || '–') + ' · ' + (r.rounds ?? 0)), el('td', {}, num(r.confidence, 2)));
        const open = () => { selected = r; for (const x of tbody.children) x.classList.toggle('selected', x === tr); show(r); };
        tr.addEventListener('click', open);
        tr.addEventListener('keydown', (e) => { if (e.key === 'Enter') open(); });
        return tr;
      }));
    }

    function show(r) {
      const view = document.getElementById('sample-view');
      const siblings = samples.filter((x) => x.id === r.id && x.run === r.run);
      const tabs = siblings.length > 1 ? el('nav', { class: 'sibling-tabs' }, el('span', { class: 'muted' }, 'same question: '),
        siblings.map((x) => el('button', { type: 'button', class: 'sibling' + (x === r ? ' active' : ''), onclick: () => { selected = x; draw(); show(x); } },
          x.series, ' ', el('span', { class: 'gv-badge gv-' + x.outcome }, x.outcome === 'correct' ? '✓' : x.outcome === 'wrong' ? '✗' : '?')))) : null;
      const body = el('div', { id: 'sample-trace' });
      view.replaceChildren(tabs || '', body);
      if (!r.trace) { body.append(el('p', { class: 'muted' }, r.error ? 'failed: ' + r.error : 'no trace recorded for this answer')); return; }
      const run = data.runs.find((x) => x.name === r.run) || {};
      const imageUrl = (run.images || {})[r.id] || null;
      window.GamViewer.render(body, r.trace, { outcome: r.outcome, flip: r.flip, groundTruth: r.groundTruth, imageUrl });
      view.scrollTop = 0;
    }
    draw();
    const first = tbody.querySelector('tr');
    if (first && location.hash.startsWith('#sample=')) {
      const [series0, id] = decodeURIComponent(location.hash.slice(8)).split('|');
      const row = [...tbody.children].find((x) => x.dataset.id === id && x.dataset.series === series0);
      if (row) row.click();
    }
  }

  // ---- wiring -------------------------------------------------------------------------------------------------

  const costSelect = document.getElementById('cost-axis');
  const cost = chart('chart-cost', costChart(costSelect ? costSelect.value : 'tokens'), 420);
  if (cost) placeLabels(cost);
  if (costSelect) costSelect.addEventListener('change', () => { cost.setOption(costChart(costSelect.value), true); placeLabels(cost); });
  reliability();
  chart('chart-categories', categoryChart(), Math.max(260, 120 + 34 * series.length));
  chart('chart-flips', flipsChart(), Math.max(200, 120 + 34 * series.filter((s) => s.m.flips).length));
  chart('chart-rounds', roundsChart(), Math.max(200, 120 + 34 * series.length));
  chart('chart-terminations', terminationsChart(), Math.max(200, 120 + 34 * series.length));
  chart('chart-dream', dreamChart(), 380);
  chart('chart-usys', perRound('Mean system uncertainty U_sys per round', 'mean U_sys', (m) => m.uSysPerRound, 1), 340);
  chart('chart-tokens', perRound('Cumulative tokens per question by round', 'tokens', (m) => m.cumulativeTokensPerRound), 340);
  chart('chart-weights', weightsChart(), 340);
  samplesView();
  window.addEventListener('resize', () => { Object.values(charts).forEach((c) => c.resize()); if (cost) placeLabels(cost); });
  window.gamReport = { charts, series, pareto };
})();
