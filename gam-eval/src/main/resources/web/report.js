'use strict';
// report.html / comparison.html: interactive charts (ECharts, bundled in the page, SVG renderer) and an answer list
// with filters whose rows open a debate in GamViewer. Reads the data the page carries in <script id="gam-data">; the
// debates themselves are in the sidecar folder beside the page (part-NNNN.js scripts, loaded when an answer is opened).
(function () {
  const data = JSON.parse(document.getElementById('gam-data').textContent);
  const { el, num } = window.GamViewer;
  // methods keep their colour on every page (colors.js, shared with the trace viewer and gam serve's page)
  const { methodStyles, SYMBOLS, DASHES } = window.GamColors;
  // blue for what the debate fixed, vermillion for what it broke; pale versions for unchanged answers
  const OUTCOME_COLORS = { 'w→r': '#0072B2', 'r→w': '#D55E00', 'r→r': '#9ecae1', 'w→w': '#f5c59f' };
  const FORCED = ' (forced full length)';
  const charts = {};
  const NOT_DEBATED = 'no question was debated in this run (every answer was decided in round 0)';

  /** Every method of every run as one series: "method" for one run, "run / method" for several. */
  const many = data.runs.length > 1;
  const seriesName = (run, method) => (many ? `${run} / ${method}` : method);
  const series = [];
  for (const run of data.runs) {
    for (const [method, m] of Object.entries(run.summary.metrics || {})) {
      series.push({ name: seriesName(run.name, method), method, run: run.name, benchmark: run.benchmark || '', m, records: [],
        categories: (run.summary.byCategory || {})[method] || {} });
    }
  }
  const seriesByName = Object.fromEntries(series.map((s) => [s.name, s]));
  // a series is drawn in its method's colour; in a comparison the runs differ by marker and dash (run i: the i-th of each)
  const methodStyle = methodStyles(series.map((s) => s.method.replace(FORCED, '')));
  const runIndex = Object.fromEntries(data.runs.map((r, i) => [r.name, i]));
  const styleOf = Object.fromEntries(series.map((s) => {
    const m = methodStyle[s.method.replace(FORCED, '')];
    const forced = s.method.endsWith(FORCED);
    return [s.name, many || forced
      ? { color: m.color, symbol: SYMBOLS[(runIndex[s.run] + (forced ? 1 : 0)) % SYMBOLS.length], dash: DASHES[(runIndex[s.run] + (forced ? 1 : 0)) % DASHES.length], marked: true }
      : m];
  }));
  const colorOf = Object.fromEntries(series.map((s) => [s.name, styleOf[s.name].color]));
  /** A line series' look: its method's colour, and its marker and dash where the page needs them to tell series apart. */
  const lineLook = (name) => {
    const st = styleOf[name];
    return { itemStyle: { color: st.color }, lineStyle: { color: st.color, type: st.marked ? st.dash : 'solid', width: 2 },
      symbol: st.marked ? st.symbol : 'circle' };
  };

  // ---- the answers: compact rows → objects ------------------------------------------------------------------------

  const answers = data.answers || { columns: [], rows: [], dict: {}, questions: {} };
  const samples = answers.rows.map((row, i) => {
    const o = { index: i };
    answers.columns.forEach((c, j) => {
      const v = row[j];
      o[c] = answers.dict[c] && v !== null ? answers.dict[c][v] : v;
    });
    o.runIndex = o.run;
    o.run = data.runs[o.runIndex].name;
    o.series = seriesName(o.run, o.method);
    o.text = ((answers.questions || {})[o.runIndex] || {})[o.id] || '';
    return o;
  });
  for (const r of samples) if (seriesByName[r.series]) seriesByName[r.series].records.push(r);

  /**
   * Draws a figure; {omit: reason} leaves it out with that one-line reason in its place (a chart that would mean nothing
   * for this run), null hides it.
   */
  function chart(id, option, height) {
    const box = document.getElementById(id);
    if (!box) return null;
    if (!option) { box.closest('figure').hidden = true; return null; }
    if (option.omit) {
      box.hidden = true;
      box.closest('figure').append(el('p', { class: 'note omitted', id: id + '-omitted' }, option.omit));
      return null;
    }
    let extra = 0;
    if (typeof option === 'function') {
      // a chart whose legend wraps: laid out for the box's width, taller by what the legend takes
      option = option(box.clientWidth || 1000);
      extra = Math.max(0, ((option.grid || {}).top || 80) - 84);
    }
    box.style.height = ((height || 360) + extra) + 'px';
    const c = echarts.init(box, null, { renderer: 'svg' });
    c.setOption(Object.assign({ animation: false, textStyle: { fontFamily: 'system-ui, sans-serif' } }, option));
    charts[id] = c;
    return c;
  }

  const pct = (v) => Math.round(v * 1000) / 10 + '%';

  /** Vertical error bars [x, lo, hi] drawn as an ECharts custom series (a line with short caps). */
  function errorBars(name, points, color, horizontal) {
    return {
      name, type: 'custom', silent: true, z: 2,
      // the axes' extents follow the bars' ends (dimensions 1 and 2), not the position (dimension 0)
      encode: horizontal ? { x: [1, 2], y: 0 } : { x: 0, y: [1, 2] },
      data: points.map((p) => ({ value: p.value, itemStyle: { color: p.color || color } })),
      renderItem: (params, api) => {
        const at = horizontal ? [api.value(1), api.value(0)] : [api.value(0), api.value(1)];
        const to = horizontal ? [api.value(2), api.value(0)] : [api.value(0), api.value(2)];
        const a = api.coord(at), b = api.coord(to);
        const style = { stroke: api.visual('color'), lineWidth: 1.5 };
        const cap = (p) => (horizontal ? { x1: p[0], y1: p[1] - 5, x2: p[0], y2: p[1] + 5 } : { x1: p[0] - 5, y1: p[1], x2: p[0] + 5, y2: p[1] });
        return { type: 'group', children: [
          { type: 'line', shape: { x1: a[0], y1: a[1], x2: b[0], y2: b[1] }, style },
          { type: 'line', shape: cap(a), style }, { type: 'line', shape: cap(b), style }] };
      },
    };
  }

  // ---- accuracy vs cost, with the Pareto front and the intervals --------------------------------------------

  const COSTS = {
    tokens: { label: 'tokens per question (prompt + completion)', of: (m) => m.promptTokensPerQuestion + m.completionTokensPerQuestion, fmt: (v) => Math.round(v) },
    dollars: { label: 'cost per question ($)', of: (m) => m.costPerQuestion, fmt: (v) => '$' + Number(v).toPrecision(3) },
    seconds: { label: 'wall time per question (s)', of: (m) => m.secondsPerQuestion, fmt: (v) => Number(v).toFixed(2) + ' s' },
    calls: { label: 'model calls per question', of: (m) => m.callsPerQuestion, fmt: (v) => Number(v).toFixed(2) },
    // where the server reported cached prompt tokens: what it computed (sent − cached), a figure of its own, never mixed in
    computed: { label: 'computed tokens per question (prompt − cached + completion)',
      of: (m) => m.computedPromptTokensPerQuestion === null || m.computedPromptTokensPerQuestion === undefined ? null
        : m.computedPromptTokensPerQuestion + m.completionTokensPerQuestion, fmt: (v) => Math.round(v) },
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
    const pts = series.filter((s) => s.m.accuracy !== null && s.m.accuracy !== undefined && !s.method.endsWith(FORCED)
      && c.of(s.m) !== null && c.of(s.m) !== undefined)
      .map((s) => ({ name: s.name, x: c.of(s.m), y: s.m.accuracy, ci: s.m.accuracyCi, benchmark: s.benchmark }));
    if (!pts.length) return null;
    // one front per benchmark: a method is not beaten by one that answered other questions
    const benchmarks = [...new Set(pts.map((p) => p.benchmark))];
    const fronts = benchmarks.map((b) => ({ b, front: pareto(pts.filter((p) => p.benchmark === b)) }));
    return {
      title: { text: 'Accuracy vs ' + c.label.replace(/ \(.*\)$/, ''), subtext: 'bars: 95% intervals of accuracy; ' + (fronts.length > 1 ? 'dashed, dotted: one Pareto front per benchmark' : 'dashed: Pareto front')
        + ' (no method is both cheaper and more accurate); axes start at 0', left: 'center', textStyle: { fontSize: 14 } },
      grid: { left: 60, right: 40, top: 70, bottom: 56 },
      tooltip: { trigger: 'item', formatter: (p) => p.seriesName !== 'methods' ? p.seriesName : `${p.data.name}<br>accuracy ${pct(p.data.value[1])}`
        + (p.data.ci ? ` (95% interval ${pct(p.data.ci.lo)}–${pct(p.data.ci.hi)})` : '') + `<br>${c.label}: ${c.fmt(p.data.value[0])}` },
      xAxis: { type: 'value', name: c.label, nameLocation: 'middle', nameGap: 32, min: 0, axisLabel: { formatter: (v) => c.fmt(v) } },
      yAxis: { type: 'value', name: 'accuracy', min: 0, max: 1, axisLabel: { formatter: (v) => Math.round(v * 100) + '%' } },
      series: [
        { name: fronts.length > 1 ? 'Pareto front: ' + fronts[0].b : 'Pareto front', type: 'line', data: fronts[0].front.map((p) => [p.x, p.y]), symbol: 'none', lineStyle: { color: '#888', type: 'dashed' }, z: 1, silent: true },
        { name: 'methods', type: 'scatter', symbolSize: 13, z: 3,
          data: pts.map((p) => ({ name: p.name, value: [p.x, p.y], ci: p.ci || null, symbol: styleOf[p.name].marked ? styleOf[p.name].symbol : 'circle',
            itemStyle: { color: colorOf[p.name], borderColor: '#222', borderWidth: 1 } })),
          // label positions are chosen after the first draw (placeLabels), so close points' labels do not overlap
          label: { show: true, position: 'right', distance: 8, formatter: (p) => `${p.data.name} ${pct(p.data.value[1])}`, fontSize: 12, color: '#222' } },
        errorBars('95% intervals', pts.filter((p) => p.ci).map((p) => ({ value: [p.x, p.ci.lo, p.ci.hi], color: colorOf[p.name] }))),
      ].concat(paperMarks(pts)).concat(fronts.slice(1).map((f, i) => ({ name: 'Pareto front: ' + f.b, type: 'line', data: f.front.map((p) => [p.x, p.y]),
        symbol: 'none', lineStyle: { color: '#888', type: ['dotted', 'dashDot', 'dashed'][i % 3] }, z: 1, silent: true }))),
    };
  }

  /**
   * The paper's figures (gam reproduce's paper_figures) as hollow diamonds at our method's cost, one per recipe row the
   * paper reports for that method, labelled with the figure; named for the paper's model, and for not being the model
   * run when the run used another model. None when the run has no paper figures.
   */
  function paperMarks(pts) {
    const marks = [];
    let label = null;
    for (const run of data.runs) {
      const pf = run.paperFigures;
      if (!pf || !pf.rows) continue;
      for (const row of pf.rows) {
        const paper = parseFloat(row.paper);
        const ours = pts.find((p) => p.name === seriesName(run.name, row.method));
        if (!ours || !Number.isFinite(paper)) continue;
        label = label || (pf.paper_is_model_run ? `paper (${pf.paper_model})` : `paper (${pf.paper_model}, NOT the model run here)`);
        marks.push({ name: `${row.row}: paper ${row.paper}`, value: [ours.x, paper / 100], itemStyle: { color: 'none', borderColor: colorOf[ours.name], borderWidth: 2 } });
      }
    }
    if (!marks.length) return [];
    return [{ name: label, type: 'scatter', symbol: 'diamond', symbolSize: 15, z: 4, data: marks,
      tooltip: { formatter: (p) => `${p.data.name} %<br>${label}` },
      label: { show: true, position: 'left', distance: 8, formatter: (p) => `paper ${(p.data.value[1] * 100).toFixed(2)}%`, fontSize: 11, color: '#555' } }];
  }

  /**
   * Places each point's label where it overlaps no other label or point and stays inside the plot: candidates right,
   * left, above and below the point, then the same a line further out; the first free one wins (points by accuracy).
   */
  function placeLabels(c) {
    const opt = c.getOption();
    const pointsData = opt.series[1].data;
    const grid = c.getModel().getComponent('grid').coordinateSystem.getRect();
    const boxes = [];
    const pts = pointsData.map((d, i) => ({ i, px: c.convertToPixel({ seriesIndex: 1 }, d.value), w: 7 * (d.name.length + 7), h: 14 }));
    for (const p of pts) boxes.push({ x: p.px[0] - 7, y: p.px[1] - 7, w: 14, h: 14 });
    const free = (b) => b.x >= grid.x && b.x + b.w <= grid.x + grid.width + 40 && b.y >= grid.y - 20 && b.y + b.h <= grid.y + grid.height
      && !boxes.some((o) => b.x < o.x + o.w && b.x + b.w > o.x && b.y < o.y + o.h && b.y + b.h > o.y);
    const placed = pointsData.map((d) => Object.assign({}, d));
    for (const p of pts.sort((a, b) => pointsData[b.i].value[1] - pointsData[a.i].value[1])) {
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

  // ---- the pairwise differences: a forest plot around 0 ---------------------------------------------------

  function pairsChart() {
    const pairs = ((data.pairs || {}).pairs || []).filter((p) => p.n > 0 && p.differenceCi);
    if (!pairs.length) return null;
    const names = pairs.map((p) => `${p.method} vs ${p.versus}`);
    const SIG = '#0072B2', NS = '#9a9a9a';
    // a symmetric axis around 0 wide enough for every interval, in steps of 10 points
    const reach = Math.max(0.1, ...pairs.map((p) => Math.max(Math.abs(p.differenceCi.lo), Math.abs(p.differenceCi.hi))));
    const edge = Math.min(1, Math.ceil(reach * 10) / 10);
    return {
      title: { text: 'Differences in accuracy between methods', subtext: 'Δ with its 95% interval on the questions both answered; grey and "n.s.": not significant after Holm\'s correction', left: 'center', textStyle: { fontSize: 14 } },
      grid: { left: 270, right: 120, top: 70, bottom: 44 },
      tooltip: { trigger: 'item', formatter: (p) => { const q = pairs[p.data.k]; return `${names[p.data.k]}: Δ ${(q.difference * 100).toFixed(1)} points `
        + `(${(q.differenceCi.lo * 100).toFixed(1)} to ${(q.differenceCi.hi * 100).toFixed(1)})<br>right only for the first ${q.onlyMethod}, only for the second ${q.onlyVersus}`
        + `<br>p ${num(q.p, 4)}, Holm ${num(q.pHolm, 4)}`; } },
      xAxis: { type: 'value', name: 'Δ accuracy (points)', nameLocation: 'middle', nameGap: 26, min: -edge, max: edge, interval: edge >= 0.3 ? 0.1 : 0.05,
        axisLabel: { formatter: (v) => (v > 0 ? '+' : '') + Math.round(v * 100) } },
      // the verdict of each pair on the right: Holm's p, "n.s." where it is not significant
      yAxis: [{ type: 'category', data: names, inverse: true, axisLabel: { width: 255, overflow: 'truncate' } },
        { type: 'category', data: pairs.map((p) => (p.significant ? '' : 'n.s. ') + 'p=' + num(p.pHolm, 3)), inverse: true, position: 'right',
          axisLine: { show: false }, axisTick: { show: false }, axisLabel: { color: '#333' } }],
      series: [
        errorBars('95% intervals', pairs.map((p, k) => ({ value: [k, p.differenceCi.lo, p.differenceCi.hi], color: p.significant ? SIG : NS })), SIG, true),
        { name: 'Δ', type: 'scatter', symbolSize: 10, z: 3,
          data: pairs.map((p, k) => ({ k, value: [p.difference, k], significant: p.significant,
            itemStyle: p.significant ? { color: SIG } : { color: '#fff', borderColor: NS, borderWidth: 2 } })),
          markLine: { silent: true, symbol: 'none', lineStyle: { color: '#555', type: 'solid' }, label: { show: false }, data: [{ xAxis: 0 }] } },
      ],
    };
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

  /** Rows of a plain (never paginating) legend of these names in a chart this wide, for the grid to start below it. */
  function legendRows(names, width) {
    let rows = 1, x = 0;
    const room = Math.max(200, width - 40);
    for (const n of names) {
      const w = 7 * String(n).length + 40;
      if (x > 0 && x + w > room) { rows++; x = 0; }
      x += w;
    }
    return rows;
  }

  const debatedAnywhere = () => series.some((s) => s.m.debateRounds || s.records.some((r) => (r.rounds || 0) > 0));

  // rounds are ordered: one hue from light (0 rounds) to dark, never a method's colour
  const ROUND_SHADES = ['#d9d9d9', '#9ecae1', '#6baed6', '#3182bd', '#08519c', '#08306b'];

  function roundsChart() {
    const withRecords = series.filter((s) => s.records.length);
    if (!withRecords.length) return null;
    if (!debatedAnywhere()) return { omit: 'Debate rounds per question: not drawn, ' + NOT_DEBATED + '.' };
    const maxK = Math.max(0, ...withRecords.flatMap((s) => s.records.map((r) => r.rounds || 0)));
    const ks = Array.from({ length: maxK + 1 }, (_, k) => k);
    return {
      title: { text: 'Debate rounds per question', subtext: 'share of each method\'s questions that ran k debate rounds (0 = answered without debate)', left: 'center', textStyle: { fontSize: 14 } },
      color: ks.map((k) => ROUND_SHADES[Math.min(k, ROUND_SHADES.length - 1)]),
      grid: { left: 150, right: 30, top: 80, bottom: 40 },
      legend: { top: 46 },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v) => Math.round(v * 1000) / 10 + '%' },
      xAxis: { type: 'value', min: 0, max: 1, axisLabel: { formatter: (v) => Math.round(v * 100) + '%' } },
      yAxis: { type: 'category', data: withRecords.map((s) => s.name), inverse: true, axisLabel: { width: 140, overflow: 'break' } },
      series: ks.map((k) => ({ name: k + (k === 1 ? ' round' : ' rounds'), type: 'bar', stack: 'rounds',
        data: withRecords.map((s) => s.records.filter((r) => (r.rounds || 0) === k).length / s.records.length),
        label: { show: true, color: k >= 3 ? '#fff' : '#111', formatter: (p) => p.value >= 0.08 ? Math.round(p.value * 100) + '%' : '' } })),
    };
  }

  // stop reasons in words: "single" is what vote and single record for an answer decided without any debate
  const STOPS = { single: 'no debate', consensus: 'consensus', uncertainty: 'U_sys below θ_term', stagnation: 'stagnation',
    max_rounds: 'round limit K_max', budget: 'token budget', agreement: 'agreement', fixed_rounds: 'fixed rounds', moderator: 'moderator',
    '-': 'not recorded' };
  // the trace viewer's badge colours for the same reasons (viewer.css, gv-term-*)
  const STOP_COLORS = { single: '#bdbdbd', consensus: '#cfe3f3', uncertainty: '#56B4E9', stagnation: '#F0E442', max_rounds: '#E69F00',
    budget: '#D55E00', agreement: '#7a9a8a', fixed_rounds: '#f3c77a', moderator: '#CC79A7', '-': '#eeeeee' };

  function terminationsChart() {
    const reasons = [...new Set(series.flatMap((s) => Object.keys(s.m.terminations || {})))].sort();
    if (!reasons.length) return null;
    const words = (window.GamViewer && window.GamViewer.TERMINATIONS) || {};
    return {
      title: { text: 'Why each method stopped', subtext: 'share of questions per stop reason; hover for what each means', left: 'center', textStyle: { fontSize: 14 } },
      grid: { left: 150, right: 30, top: 80, bottom: 40 },
      legend: { top: 46 },
      tooltip: { trigger: 'item', formatter: (p) => `${p.name} · ${p.seriesName}: ${pct(p.value)}<br>${words[reasons[p.seriesIndex]] || ''}` },
      xAxis: { type: 'value', min: 0, max: 1, axisLabel: { formatter: (v) => Math.round(v * 100) + '%' } },
      yAxis: { type: 'category', data: series.map((s) => s.name), inverse: true, axisLabel: { width: 140, overflow: 'break' } },
      series: reasons.map((t) => ({ name: STOPS[t] || t, type: 'bar', stack: 'term', itemStyle: { color: STOP_COLORS[t] || '#999' },
        data: series.map((s) => { const all = Object.values(s.m.terminations || {}).reduce((a, b) => a + b, 0); return all ? (s.m.terminations[t] || 0) / all : 0; }),
        label: { show: true, color: '#111', formatter: (p) => p.value >= 0.08 ? Math.round(p.value * 100) + '%' : '' } })),
    };
  }

  // ---- flips -------------------------------------------------------------------------------------------------

  function flipsChart() {
    const recording = series.filter((s) => s.m.flips);
    if (!recording.length) return null;
    const debaters = recording.filter((s) => s.m.flips.questions > 0);
    if (!debaters.length) return { omit: 'What the debate changed: not drawn, ' + NOT_DEBATED + '.' };
    const idle = recording.filter((s) => !s.m.flips.questions).map((s) => s.name);
    const parts = [['w→r', 'wrongToRight'], ['r→w', 'rightToWrong'], ['r→r', 'rightToRight'], ['w→w', 'wrongToWrong']];
    return {
      title: { text: 'What the debate changed', subtext: 'per debated question: right/wrong after round 0 → right/wrong at the end; questions decided in round 0 are not counted'
        + (idle.length ? `\nnot shown, no question debated: ${idle.join(', ')}` : ''), left: 'center', textStyle: { fontSize: 14 } },
      grid: { left: 190, right: 30, top: idle.length ? 96 : 80, bottom: 40 },
      legend: { top: idle.length ? 62 : 46 },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      xAxis: { type: 'value', min: 0, name: 'debated questions', nameLocation: 'middle', nameGap: 26 },
      yAxis: { type: 'category', data: debaters.map((s) => `${s.name} (n=${s.m.flips.questions})`), inverse: true, axisLabel: { width: 180, overflow: 'break' } },
      series: parts.map(([label, key]) => ({ name: label, type: 'bar', stack: 'flips', itemStyle: { color: OUTCOME_COLORS[label] },
        data: debaters.map((s) => s.m.flips[key]), label: { show: true, color: '#111', formatter: (p) => p.value > 0 ? String(p.value) : '' } })),
    };
  }

  // ---- DREAM branches (DREAM Fig. 6: branch shares, accuracy per branch) -----------------------------------

  /** Branches are categories without an order: bars, the share of questions on the left and the accuracy with its n on the right. */
  function dreamChart() {
    const dream = series.filter((s) => s.records.some((r) => r.branch) || Object.keys(s.m.branchShares || {}).length);
    if (!dream.length) {
      return series.some((s) => s.method.startsWith('dream+')) ? { omit: 'DREAM branches: not drawn, no DREAM answer records its branch.' } : null;
    }
    const branches = [...new Set(dream.flatMap((s) => s.records.map((r) => r.branch).filter(Boolean).concat(Object.keys(s.m.branchShares || {}))))].sort();
    const out = [];
    for (const s of dream) {
      const look = { itemStyle: { color: colorOf[s.name], borderColor: '#222', borderWidth: 0.5 } };
      out.push(Object.assign({ name: s.name, type: 'bar', xAxisIndex: 0, yAxisIndex: 0,
        data: branches.map((b) => {
          const n = s.records.filter((r) => r.branch === b).length;
          return { value: s.records.length ? n / s.records.length : ((s.m.branchShares || {})[b] || 0), n };
        }),
        label: { show: true, position: 'top', fontSize: 10, formatter: (p) => p.value > 0 ? pct(p.value) : '' } }, look));
      out.push(Object.assign({ name: s.name, type: 'bar', xAxisIndex: 1, yAxisIndex: 1,
        data: branches.map((b) => {
          const rs = s.records.filter((r) => r.branch === b && r.outcome !== 'error' && (r.outcome === 'correct' || r.outcome === 'wrong' || r.outcome === 'unmatched'));
          return { value: rs.length ? rs.filter((r) => r.outcome === 'correct').length / rs.length : null, n: rs.length };
        }),
        label: { show: true, position: 'top', fontSize: 10, formatter: (p) => p.data.n ? `${Math.round(p.value * 100)}% n=${p.data.n}` : 'n=0' } }, look));
    }
    return {
      title: { text: 'DREAM branches', subtext: 'left: share of questions per branch; right: accuracy on the questions of each branch, with their number n', left: 'center', textStyle: { fontSize: 14 } },
      grid: [{ left: 60, right: '54%', top: 96, bottom: 40 }, { left: '56%', right: 30, top: 96, bottom: 40 }],
      legend: { top: 46 },
      tooltip: { trigger: 'item', formatter: (p) => `${p.seriesName} · ${p.name}: ${p.value === null || p.value === undefined ? '–' : pct(p.value)}`
        + (p.seriesIndex % 2 ? ` accuracy over ${p.data.n} answers` : ` of the questions (${p.data.n})`) },
      xAxis: [{ type: 'category', gridIndex: 0, data: branches, axisLabel: { interval: 0, rotate: branches.length > 4 ? 20 : 0 } },
        { type: 'category', gridIndex: 1, data: branches, axisLabel: { interval: 0, rotate: branches.length > 4 ? 20 : 0 } }],
      yAxis: [{ type: 'value', gridIndex: 0, name: 'share of questions', min: 0, max: 1, axisLabel: { formatter: (v) => Math.round(v * 100) + '%' } },
        { type: 'value', gridIndex: 1, name: 'accuracy', min: 0, max: 1, axisLabel: { formatter: (v) => Math.round(v * 100) + '%' } }],
      series: out,
    };
  }

  // ---- per-category accuracy heat map (a single-hue scale: readable without telling red from green) ----------

  // 0 % is a visible pale blue, so that a cell with no questions (grey, hatched, "no questions") cannot pass for it
  const HEAT = ['#deebf7', '#9ecae1', '#6baed6', '#2171b5', '#08306b'];

  function categoryChart() {
    const cats = [...new Set(series.flatMap((s) => Object.keys(s.categories)))].sort();
    if (!cats.length || (cats.length === 1 && cats[0] === '-')) return null;
    const cells = [], empty = [];
    series.forEach((s, y) => cats.forEach((c, x) => {
      const cell = s.categories[c];
      if (cell && cell.accuracy !== null && cell.accuracy !== undefined) {
        cells.push({ value: [x, y, cell.accuracy], n: cell.n, ci: cell.ci || null, label: { color: cell.accuracy > 0.55 ? '#fff' : '#111' } });
      } else {
        empty.push({ value: [x, y, 0], n: cell ? cell.n || 0 : 0 });
      }
    }));
    return {
      title: { text: 'Accuracy per category', subtext: 'cell: accuracy · questions; hover for the 95% interval; grey hatched: no graded question', left: 'center', textStyle: { fontSize: 14 } },
      grid: { left: 150, right: 30, top: 70, bottom: 80 },
      tooltip: { formatter: (p) => p.seriesIndex === 1 ? `${series[p.data.value[1]].name} · ${cats[p.data.value[0]]}: no graded question`
        : `${series[p.data.value[1]].name} · ${cats[p.data.value[0]]}: ${pct(p.data.value[2])} of ${p.data.n}`
        + (p.data.ci ? ` (95% interval ${pct(p.data.ci.lo)}–${pct(p.data.ci.hi)})` : '') },
      xAxis: { type: 'category', data: cats, axisLabel: { interval: 0, rotate: cats.length > 8 ? 30 : 0 }, splitArea: { show: true } },
      yAxis: { type: 'category', data: series.map((s) => s.name), inverse: true, axisLabel: { width: 140, overflow: 'break' }, splitArea: { show: true } },
      visualMap: { min: 0, max: 1, calculable: false, orient: 'horizontal', left: 'center', bottom: 8, itemHeight: 160, text: ['100%', '0%'],
        inRange: { color: HEAT }, seriesIndex: 0 },
      series: [{ type: 'heatmap', data: cells, label: { show: true, fontSize: 11, formatter: (p) => Math.round(p.data.value[2] * 100) + '% · ' + p.data.n } },
        { type: 'heatmap', name: 'no questions', data: empty,
          itemStyle: { color: '#f2f2f2', borderColor: '#fff', borderWidth: 1, decal: { symbol: 'rect', color: 'rgba(0,0,0,0.12)', dashArrayX: [1, 0], dashArrayY: [2, 5], rotation: Math.PI / 4 } },
          label: { show: true, fontSize: 11, color: '#666', formatter: () => 'no questions' } }],
    };
  }

  // ---- per-round curves ---------------------------------------------------------------------------------------

  const roundNames = (n) => Array.from({ length: n }, (_, k) => 'round ' + k);

  /**
   * Mean U_sys per round over each method's debated questions (n at each point: questions that reached the round), so a
   * curve follows one kind of question; the questions decided in round 0 are a hollow point of their own beside round 0.
   * A category axis keeps the first labels off the y axis; the axis is fitted to the values (a 0–1 axis flattens 0.01).
   */
  function uSysChart() {
    const lines = series.filter((s) => s.m.debateRounds && s.m.debateRounds.uSys && s.m.debateRounds.uSys.mean.filter((v) => v !== null).length > 1);
    if (!lines.length) {
      return { omit: 'Mean system uncertainty U_sys per round: not drawn, ' + (debatedAnywhere() ? 'no debated question records U_sys in two rounds.' : NOT_DEBATED + '.') };
    }
    const maxK = Math.max(...lines.map((s) => s.m.debateRounds.uSys.mean.length)) - 1;
    const all = lines.flatMap((s) => s.m.debateRounds.uSys.mean.concat(s.m.debateRounds.undebatedUSys ? s.m.debateRounds.undebatedUSys.mean : []))
      .filter((v) => v !== null && v !== undefined);
    const top = Math.max(...all);
    const out = [];
    for (const s of lines) {
      const d = s.m.debateRounds;
      out.push(Object.assign({ name: `${s.name} · debated (${d.questions})`, type: 'line', symbolSize: 7, connectNulls: false,
        data: d.uSys.mean.map((y, k) => (y === null ? null : { value: y, n: d.uSys.n[k] })),
        label: { show: true, position: 'top', fontSize: 10, formatter: (p) => `${num(p.value)} n=${p.data.n}` } }, lineLook(s.name)));
      if (d.undebatedUSys) {
        out.push({ name: `${s.name} · decided in round 0 (${d.undebated})`, type: 'scatter', symbol: 'emptyCircle', symbolSize: 9,
          itemStyle: { color: colorOf[s.name] }, data: [{ value: d.undebatedUSys.mean[0], n: d.undebatedUSys.n[0] }],
          label: { show: true, position: 'bottom', fontSize: 10, formatter: (p) => `${num(p.value)} n=${p.data.n}` } });
      }
    }
    const names = out.map((x) => x.name);
    return (width) => {
      const rows = legendRows(names, width);
      return {
        title: { text: 'Mean system uncertainty U_sys per round', subtext: 'lines: the debated questions (n = those that reached the round); hollow: the questions decided in round 0', left: 'center', textStyle: { fontSize: 14 } },
        grid: { left: 70, right: 30, top: 62 + 22 * rows, bottom: 44 },
        legend: { top: 50, type: 'plain' },
        tooltip: { trigger: 'item', formatter: (p) => `${p.seriesName}, round ${p.dataIndex}: U_sys ${num(p.value)} over ${p.data.n} questions` },
        xAxis: { type: 'category', data: roundNames(maxK + 1), boundaryGap: true },
        yAxis: { type: 'value', name: 'mean U_sys', min: 0, max: top > 0 ? Number((top * 1.3).toPrecision(2)) : 1 },
        series: out,
      };
    };
  }

  /**
   * Cumulative tokens sent per question (prompt + completion) by round; each line's last point is the table's tokens per
   * question (MethodMetrics.cumulativeTokensPerRound). DREAM's probe round is a first point of its own. Where the server
   * reported cached prompt tokens, the computed tokens (sent − cached + completion) are a separate hollow diamond.
   */
  function tokensChart() {
    const lines = series.filter((s) => Array.isArray(s.m.cumulativeTokensPerRound) && s.m.cumulativeTokensPerRound.length > 0);
    if (!lines.length) return null;
    const has = (v) => v !== null && v !== undefined;
    const probes = lines.some((s) => has(s.m.probeTokensPerQuestion));
    const computed = lines.some((s) => has(s.m.computedPromptTokensPerQuestion));
    const maxK = Math.max(...lines.map((s) => s.m.cumulativeTokensPerRound.length)) - 1;
    const xs = (probes ? ['probes'] : []).concat(roundNames(maxK + 1));
    const out = [];
    for (const s of lines) {
      const cum = s.m.cumulativeTokensPerRound;
      const points = (probes ? [has(s.m.probeTokensPerQuestion) ? s.m.probeTokensPerQuestion : null] : []).concat(cum);
      const last = points.length - 1;
      out.push(Object.assign({ name: s.name, type: 'line', symbolSize: 7, connectNulls: false, data: points,
        label: { show: true, position: 'right', fontSize: 10, formatter: (p) => (p.dataIndex === last ? String(Math.round(p.value)) : '') } }, lineLook(s.name)));
      if (has(s.m.computedPromptTokensPerQuestion)) {
        out.push({ name: s.name + ' · computed', type: 'scatter', symbol: 'diamond', symbolSize: 11,
          itemStyle: { color: '#fff', borderColor: colorOf[s.name], borderWidth: 2 },
          data: [[last, s.m.computedPromptTokensPerQuestion + s.m.completionTokensPerQuestion]],
          label: { show: true, position: 'left', fontSize: 10, color: '#444', formatter: (p) => 'computed ' + Math.round(p.value[1]) } });
      }
    }
    const names = out.map((x) => x.name);
    return (width) => {
      const rows = legendRows(names, width);
      return {
        title: { text: 'Cumulative tokens per question by round', subtext: 'tokens sent (prompt + completion) up to and including each round; each line ends at the table\'s tokens per question'
          + (probes ? '\nDREAM\'s probe round comes first (probes reused as round-0 answers count in round 0, once)' : '')
          + (computed ? '\n◇ tokens the server computed (prompt − cached + completion): a separate figure, not part of the line' : ''),
        left: 'center', textStyle: { fontSize: 14 } },
        grid: { left: 70, right: 60, top: 66 + 16 * ((probes ? 1 : 0) + (computed ? 1 : 0)) + 22 * rows, bottom: 44 },
        legend: { top: 50 + 16 * ((probes ? 1 : 0) + (computed ? 1 : 0)), type: 'plain' },
        tooltip: { trigger: 'axis', valueFormatter: (v) => (v === null || v === undefined ? '–' : Math.round(Array.isArray(v) ? v[1] : v)) },
        xAxis: { type: 'category', data: xs, boundaryGap: true },
        yAxis: { type: 'value', name: 'tokens', min: 0 },
        series: out,
      };
    };
  }

  /**
   * Mean influence weight of each agent per round over the debated questions (n at each point). A method's agents are
   * drawn in its colour, told apart by marker and dash; the legend wraps rather than paginates.
   */
  function weightsChart() {
    const gam = series.filter((s) => s.m.debateRounds && s.m.debateRounds.weights
      && Object.values(s.m.debateRounds.weights).some((v) => v.mean.filter((x) => x !== null).length > 1));
    if (!gam.length) {
      const weighing = series.some((s) => s.m.weightsPerRound && Object.keys(s.m.weightsPerRound).length);
      return weighing ? { omit: 'Mean expert influence weight per round: not drawn, ' + (debatedAnywhere() ? 'no debated question records the weights of two agents in two rounds.' : NOT_DEBATED + '.') } : null;
    }
    const out = [];
    let maxK = 0;
    for (const s of gam) {
      Object.entries(s.m.debateRounds.weights).forEach(([agent, v], i) => {
        maxK = Math.max(maxK, v.mean.length - 1);
        out.push({ name: (gam.length > 1 ? s.name + ' · ' : '') + agent, type: 'line', symbolSize: 8, symbol: SYMBOLS[i % SYMBOLS.length],
          itemStyle: { color: colorOf[s.name] }, lineStyle: { color: colorOf[s.name], type: DASHES[i % DASHES.length], width: 2 },
          data: v.mean.map((y, k) => (y === null ? null : { value: y, n: v.n[k] })) });
      });
    }
    const names = out.map((x) => x.name);
    const counts = gam.map((s) => `${s.name}: ${s.m.debateRounds.questions} debated`).join('; ');
    return (width) => {
      const rows = legendRows(names, width);
      return {
        title: { text: 'Mean expert influence weight per round', subtext: `over the debated questions (${counts}); hover for n per round`, left: 'center', textStyle: { fontSize: 14 } },
        grid: { left: 70, right: 30, top: 62 + 22 * rows, bottom: 44 },
        legend: { top: 50, type: 'plain' },
        tooltip: { trigger: 'item', formatter: (p) => `${p.seriesName}, round ${p.dataIndex}: w ${num(p.value)} over ${p.data.n} questions` },
        xAxis: { type: 'category', data: roundNames(maxK + 1), boundaryGap: true },
        yAxis: { type: 'value', name: 'weight w_i', min: 0, max: 1 },
        series: out,
      };
    };
  }

  // ---- the debates, from the sidecar folder ------------------------------------------------------------------

  const parts = {};
  const loading = {};
  /** Called by each part-NNNN.js: its traces by row index and its images by "run|question". */
  window.gamDebates = (n, part) => { parts[n] = part; };

  function loadPart(n) {
    if (parts[n]) return Promise.resolve(parts[n]);
    if (!loading[n]) {
      loading[n] = new Promise((resolve, reject) => {
        const name = answers.sidecar + '/part-' + String(n).padStart(4, '0') + '.js';
        const s = document.createElement('script');
        s.src = name;
        s.onload = () => (parts[n] ? resolve(parts[n]) : reject(new Error(name + ' did not hold part ' + n)));
        s.onerror = () => { delete loading[n]; reject(new Error(name)); };
        document.head.append(s);
      });
    }
    return loading[n];
  }

  // ---- answers: list with filters and pages, one answer's debate ----------------------------------------------
  // Keyboard: one row of the list is in the Tab order (the selected one, else the first); ↑/↓, Home/End select the
  // next answer and keep focus in the list; Enter opens the debate and moves focus to it; Escape (or the back button at
  // the top of the debate) returns focus to the answer it came from. The address follows every selection and filter
  // (#sample=…&method=…&outcome=…&q=…): a selection is a new history entry (Back returns to the previous answer),
  // a filter change replaces the current one; the page reads the address on load, on Back/Forward and on an edit.

  const PAGE = 200;
  /** The filters of the answer list: the answer's field, the filter's name in the address, its label. */
  const FILTERS = [['series', 'method', 'method'], ['category', 'category', 'category'], ['outcome', 'outcome', 'outcome'],
    ['flip', 'flip', 'flip'], ['termination', 'stop', 'stop'], ['rollback', 'rollback', 'DREAM rollback']];
  /** The rollback filter's choice for either kind of rollback (ReportAnswers' "rolled back, …" values). */
  const ANY_ROLLBACK = 'rolled back (any)';
  const sampleKey = (r) => r.series + '|' + r.id + (r.rotation ? '|' + r.rotation : '');

  /** The address's fields: "a=b&c=d" after the #, each part percent-decoded ("+" stays a plus, as in #sample=dream+gam|1). */
  function readAddress() {
    const out = {};
    for (const part of location.hash.replace(/^#/, '').split('&')) {
      if (!part) continue;
      const at = part.indexOf('=');
      try {
        out[decodeURIComponent(at < 0 ? part : part.slice(0, at))] = at < 0 ? '' : decodeURIComponent(part.slice(at + 1));
      } catch (e) { /* a malformed part of a hand-edited address is ignored */ }
    }
    return out;
  }

  function samplesView() {
    const list = document.getElementById('sample-list');
    if (!list) return;
    if (!samples.length) { document.getElementById('samples').hidden = true; return; }
    const bar = document.getElementById('sample-filters');
    const selects = {};
    for (const [field, key, label] of FILTERS) {
      const values = [...new Set(samples.map((r) => r[field]).filter((v) => v !== null && v !== undefined && v !== ''))];
      if (field !== 'series') values.sort();
      if (values.length < 1) continue;
      if (field === 'rollback' && values.some((v) => v.startsWith('rolled back'))) values.unshift(ANY_ROLLBACK);
      const sel = el('select', { id: 'filter-' + field, 'data-field': field, 'data-key': key }, el('option', { value: '' }, 'any ' + label),
        values.map((v) => el('option', { value: v }, field === 'termination' ? (STOPS[v] || v) : v)));
      sel.addEventListener('change', () => { page = 0; draw(); writeAddress('replace'); });
      selects[field] = sel;
      bar.append(el('label', {}, label + ' ', sel));
    }
    const search = el('input', { type: 'search', id: 'filter-text', placeholder: 'question id or text' });
    search.addEventListener('input', () => { page = 0; draw(); writeAddress('replace'); });
    bar.append(el('label', {}, 'search ', search));
    const count = el('span', { class: 'muted', id: 'sample-count', 'aria-live': 'polite' });
    bar.append(count);
    const tbody = list.querySelector('tbody');
    const scroller = list.closest('.sample-scroll');
    const pager = document.getElementById('sample-pages');
    const view = document.getElementById('sample-view');
    // the debate box takes focus when an answer is opened from the keyboard (not a Tab stop itself: its controls are)
    view.setAttribute('tabindex', '-1');
    view.setAttribute('role', 'region');
    view.setAttribute('aria-label', 'debate of the selected answer');
    const placeholder = [...view.childNodes];
    let selected = null, shown = [], page = 0;

    const matches = (r, field, value) => (field === 'rollback' && value === ANY_ROLLBACK
      ? String(r.rollback || '').startsWith('rolled back') : String(r[field]) === value);

    function filtered() {
      const text = search.value.trim().toLowerCase();
      return samples.filter((r) => Object.entries(selects).every(([f, sel]) => !sel.value || matches(r, f, sel.value))
        && (!text || String(r.id).toLowerCase().includes(text) || r.text.toLowerCase().includes(text)));
    }

    /** "12 of 305 answers", and where DREAM rolled back: how many of those shown, how many changed their answer. */
    function counted() {
      let s = `${shown.length} of ${samples.length} answers`;
      if (!samples.some((r) => r.rollback)) return s;
      const rolled = shown.filter((r) => (r.rollbacks || 0) > 0);
      const changed = rolled.filter((r) => r.rollback === 'rolled back, answer changed').length;
      const agents = rolled.reduce((n, r) => n + r.rollbacks, 0);
      if (!rolled.length) return s + ' · DREAM\'s rollback restored no agent\'s earlier answer in them';
      return s + ` · DREAM rolled back ${rolled.length} of them (${agents} agent answer${agents === 1 ? '' : 's'} restored; `
        + `${changed} final answer${changed === 1 ? '' : 's'} changed)`;
    }

    function rollbackBadge(r) {
      if (!r.rollbacks) return '';
      const changed = r.rollback === 'rolled back, answer changed';
      return [' ', el('span', { class: 'gv-badge gv-rollback' + (changed ? ' gv-rollback-changed' : ''),
        title: `DREAM's rollback restored ${r.rollbacks} agent${r.rollbacks === 1 ? '\'s' : 's\''} earlier, more certain answer`
          + (r.rollbacks === 1 ? '' : 's') + (changed ? '; the final answer changed' : '; the final answer stayed') }, '↺' + r.rollbacks)];
    }

    function draw() {
      shown = filtered();
      const pages = Math.max(1, Math.ceil(shown.length / PAGE));
      page = Math.min(page, pages - 1);
      count.textContent = counted();
      const rows = shown.slice(page * PAGE, (page + 1) * PAGE);
      const stop = rows.includes(selected) ? selected : rows[0];
      tbody.replaceChildren(...rows.map((r) => {
        const tr = el('tr', { class: 'clickable' + (r === selected ? ' selected' : ''), tabindex: r === stop ? 0 : -1,
          'aria-current': r === selected ? 'true' : null, 'data-id': r.id, 'data-series': r.series, 'data-index': r.index },
          el('td', { title: r.text || null }, r.id + (r.rotation ? ' ↻' + r.rotation : '')), el('td', {}, r.series), el('td', { title: r.category || null }, r.category || ''),
          el('td', {}, el('span', { class: 'gv-badge gv-' + r.outcome }, r.outcome),
            r.flip ? [' ', el('span', { class: 'gv-badge gv-flip-' + r.flip.replace('→', ''), title: 'after round 0 → final' }, r.flip)] : '', rollbackBadge(r)),
          el('td', { title: (STOPS[r.termination] || r.termination || '–') + ' after ' + (r.rounds ?? 0) + ' debate round(s)' }, (STOPS[r.termination] || r.termination || '–') + ' · ' + (r.rounds ?? 0)),
          el('td', {}, num(r.confidence, 2)));
        tr.addEventListener('click', () => select(r, { history: 'push' }));
        tr.addEventListener('keydown', (e) => {
          if (e.altKey || e.ctrlKey || e.metaKey) return;
          const at = shown.indexOf(r);
          const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: shown.length - 1 }[e.key];
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            select(r, { history: 'push', focus: 'debate' });
          } else if (to !== undefined) {
            e.preventDefault();
            if (shown[to] && shown[to] !== r) select(shown[to], { history: 'push', focus: 'row' });
          }
        });
        return tr;
      }));
      pager.replaceChildren();
      if (pages > 1) {
        const go = (p) => { page = p; draw(); scroller.scrollTop = 0; };
        pager.append(el('button', { type: 'button', id: 'page-prev', disabled: page === 0, onclick: () => go(page - 1) }, '‹ previous'),
          el('span', { class: 'muted' }, ` answers ${page * PAGE + 1}–${Math.min(shown.length, (page + 1) * PAGE)} of ${shown.length} `),
          el('button', { type: 'button', id: 'page-next', disabled: page === pages - 1, onclick: () => go(page + 1) }, 'next ›'));
      }
    }

    /** The address of what is shown: the selected answer, then every filter set. */
    function address() {
      const parts = [];
      if (selected) parts.push('sample=' + encodeURIComponent(sampleKey(selected)));
      for (const sel of Object.values(selects)) if (sel.value) parts.push(sel.dataset.key + '=' + encodeURIComponent(sel.value));
      if (search.value) parts.push('q=' + encodeURIComponent(search.value));
      return parts.length ? '#' + parts.join('&') : location.pathname + location.search;
    }

    /** Writes the address: 'push' a new history entry (a selection), 'replace' the current one (a filter). */
    function writeAddress(how) {
      const to = address();
      const now = location.hash ? location.hash : location.pathname + location.search;
      if (to === now) return;
      if (how === 'push') history.pushState(null, '', to); else history.replaceState(null, '', to);
    }

    function rowOf(r) { return r ? tbody.querySelector(`tr[data-index="${r.index}"]`) : null; }

    /** Scrolls the list's box (not the page) so the row is in view. */
    function reveal(row) {
      const top = row.offsetTop, head = list.tHead ? list.tHead.offsetHeight : 0;
      if (top - head < scroller.scrollTop || top + row.offsetHeight > scroller.scrollTop + scroller.clientHeight) {
        scroller.scrollTop = Math.max(0, top - head - (scroller.clientHeight - head) / 3);
      }
    }

    /**
     * Marks r as the selection: its list page, its row highlighted and scrolled into the list's view, the address, its
     * debate. opts.history: 'push' | 'replace' | 'none' (the address already says r); opts.focus: 'row', 'debate',
     * 'sibling' (the same question's method buttons) or none.
     */
    function select(r, opts = {}) {
      selected = r;
      let at = shown.indexOf(r);
      if (at < 0) {
        // filtered out: clear the filters so the list can show it
        for (const sel of Object.values(selects)) sel.value = '';
        search.value = '';
        shown = filtered();
        at = shown.indexOf(r);
      }
      page = Math.floor(at / PAGE);
      draw();
      const row = rowOf(r);
      if (row) {
        reveal(row);
        if (opts.focus === 'row') row.focus({ preventScroll: true });
      }
      if (opts.history !== 'none') writeAddress(opts.history || 'push');
      show(r, opts.focus);
    }

    /** Back from the debate to its answer in the list, focus on its row. */
    function backToList() {
      if (!selected) return;
      let row = rowOf(selected);
      if (!row) { select(selected, { history: 'replace' }); row = rowOf(selected); }
      if (row) { reveal(row); row.focus({ preventScroll: true }); row.scrollIntoView({ block: 'nearest' }); }
    }
    view.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape' || e.defaultPrevented || !selected) return;
      e.preventDefault();
      backToList();
    });

    function show(r, focus) {
      const siblings = samples.filter((x) => x.id === r.id && x.runIndex === r.runIndex && (x.rotation || 0) === (r.rotation || 0));
      const back = el('button', { type: 'button', class: 'back-to-list', id: 'back-to-list', title: 'back to this answer in the list (Escape)',
        onclick: backToList }, '← answer list');
      const tabs = siblings.length > 1 ? el('nav', { class: 'sibling-tabs', 'aria-label': 'the same question answered by other methods' },
        el('span', { class: 'muted' }, 'same question: '),
        siblings.map((x) => el('button', { type: 'button', class: 'sibling' + (x === r ? ' active' : ''), 'data-series': x.series,
          'aria-pressed': x === r ? 'true' : 'false', onclick: () => select(x, { history: 'push', focus: 'sibling' }) },
          x.series, ' ', el('span', { class: 'gv-badge gv-' + x.outcome }, x.outcome === 'correct' ? '✓' : x.outcome === 'wrong' ? '✗' : '?')))) : null;
      const body = el('div', { id: 'sample-trace' });
      view.replaceChildren(el('div', { class: 'sample-view-head' }, back, tabs || ''), body);
      view.setAttribute('aria-label', `debate of question ${r.id} answered by ${r.series}`);
      view.scrollTop = 0;
      if (focus === 'debate') view.focus();
      else if (focus === 'sibling') (view.querySelector('.sibling.active') || back).focus();
      if (!r.trace) { body.append(el('p', { class: 'muted' }, r.error ? 'failed: ' + r.error : 'no trace recorded for this answer')); return; }
      body.append(el('p', { class: 'muted' }, 'loading the debate…'));
      const n = Math.floor(r.index / answers.partRows);
      loadPart(n).then((part) => {
        if (selected !== r) return;
        const trace = part.traces[r.index];
        const imageUrl = (part.images || {})[r.runIndex + '|' + r.id] || null;
        window.GamViewer.render(body, trace, { outcome: r.outcome, flip: r.flip, groundTruth: r.groundTruth, imageUrl });
      }, (e) => {
        if (selected !== r) return;
        body.replaceChildren(el('p', { class: 'gv-error', id: 'sidecar-missing' }, `The debates are in the folder ${answers.sidecar}/ beside this page, `
          + `and ${e.message} could not be read: keep that folder next to the page (copy both together).`));
      });
    }

    /** No answer selected: the list keeps its filters, the debate box its first words. */
    function unselect() {
      selected = null;
      draw();
      view.replaceChildren(...placeholder);
      view.setAttribute('aria-label', 'debate of the selected answer');
    }

    /**
     * Shows what the address says (on load, Back/Forward, an edited address): its filters, then its answer. Writes no
     * history. Focus that was in the list or the debate follows the answer there; elsewhere it stays.
     */
    function applyAddress(first) {
      const a = readAddress();
      let changed = false;
      for (const sel of Object.values(selects)) {
        const v = a[sel.dataset.key] || '';
        const ok = [...sel.options].some((o) => o.value === v) ? v : '';
        if (sel.value !== ok) { sel.value = ok; changed = true; }
      }
      if (search.value !== (a.q || '')) { search.value = a.q || ''; changed = true; }
      let wanted = null;
      if (a.sample) {
        const [s0, id, rot] = a.sample.split('|');
        wanted = samples.find((x) => x.series === s0 && x.id === id && String(x.rotation || 0) === String(rot || 0)) || null;
      }
      if (wanted === selected && !changed && !first) return;
      const active = document.activeElement;
      const focus = active && list.contains(active) ? 'row' : active && view.contains(active) ? 'debate' : null;
      if (changed) page = 0;
      if (wanted && wanted !== selected) {
        if (first) document.getElementById('answers').scrollIntoView(); // a link to an answer opens on it
        select(wanted, { history: 'none', focus });
      } else if (!wanted && selected) {
        unselect();
        if (focus) (tbody.querySelector('tr[tabindex="0"]') || search).focus({ preventScroll: true });
      } else {
        draw();
      }
    }

    draw();
    applyAddress(true);
    window.addEventListener('popstate', () => applyAddress(false));
    window.addEventListener('hashchange', () => applyAddress(false));
    window.gamReport.select = (seriesName0, id) => {
      const r = samples.find((x) => x.series === seriesName0 && x.id === id);
      if (r) select(r, { history: 'push' });
      return !!r;
    };
  }

  // ---- answers by question: the question × method table, filtered from the pairs table's counts ----------------

  /**
   * The table of answers by question (one row per question: a circular group once; across runs, one row per question
   * asked with the same content), each series' cell [prediction, right (true/false/null: not graded), tokens, rounds],
   * as the CSV beside the page has it (AnswerTable): right only when every rotation is, not graded after an error.
   */
  function answerRows() {
    const byKey = new Map();
    const names = series.filter((s) => !s.method.endsWith(FORCED)).map((s) => s.name);
    for (const r of samples) {
      if (r.method.endsWith(FORCED)) continue;
      const group = r.rotation > 0 ? String(r.id).replace(/#r\d+$/, '') : String(r.id);
      const key = data.itemKeys ? (data.itemKeys[r.runIndex] || {})[group] : undefined;
      const k = key === undefined ? r.runIndex + '|' + group : 'k' + key;
      let row = byKey.get(k);
      if (!row) { row = { id: group, benchmark: (data.runs[r.runIndex] || {}).benchmark || null, answer: null, cells: {}, ids: new Set() }; byKey.set(k, row); }
      row.ids.add(group);
      const c = row.cells[r.series] || (row.cells[r.series] = { prediction: null, right: true, broken: false, graded: false, tokens: 0, rounds: 0 });
      c.tokens += r.tokens || 0;
      if (!r.rotation) { c.prediction = r.predicted ?? null; c.rounds = r.rounds ?? 0; row.answer = row.answer ?? r.groundTruth; }
      if (r.outcome === 'error') c.broken = true;
      else if (r.outcome !== 'ungraded') { c.graded = true; c.right = c.right && r.outcome === 'correct'; }
    }
    const rows = [...byKey.values()].map((row) => [[...row.ids].join(' / '), row.benchmark, row.answer]
      .concat(names.map((n) => { const c = row.cells[n]; return c ? [c.prediction, c.broken || !c.graded ? null : c.right, c.tokens, c.rounds] : null; })));
    const natural = new Intl.Collator(undefined, { numeric: true });
    rows.sort((a, b) => natural.compare(a[0], b[0]));
    return { series: names, rows };
  }

  function answerTableView() {
    const table = document.getElementById('answers-by-question');
    if (!table || !samples.length) return;
    const t = answerRows();
    const col = Object.fromEntries(t.series.map((s, i) => [s, i + 3]));
    const bar = document.getElementById('answer-filter');
    const pager = document.getElementById('answer-table-pages');
    let filter = null, page = 0, shown = t.rows;
    table.tHead.replaceChildren(el('tr', {}, el('th', {}, 'question'), el('th', {}, 'answer'), t.series.map((s) => el('th', {}, s))));
    const cellText = (c) => (c === null ? '' : `${c[0] === null ? '–' : c[0]} ${c[1] === true ? '✓' : c[1] === false ? '✗' : '–'} · ${c[2]} tok · ${c[3]} r`);
    function draw() {
      shown = filter ? t.rows.filter((r) => {
        const a = r[col[filter.right]], b = r[col[filter.wrong]];
        return a && b && a[1] === true && b[1] === false;
      }) : t.rows;
      const pages = Math.max(1, Math.ceil(shown.length / PAGE));
      page = Math.min(page, pages - 1);
      bar.replaceChildren(filter
        ? el('span', { id: 'answer-filter-text' }, `${shown.length} questions right for ${filter.right} and wrong for ${filter.wrong} `,
          el('button', { type: 'button', id: 'answer-filter-clear', onclick: () => { filter = null; page = 0; draw(); } }, 'show all'))
        : el('span', { id: 'answer-filter-text', class: 'muted' }, `all ${t.rows.length} questions`));
      table.tBodies[0].replaceChildren(...shown.slice(page * PAGE, (page + 1) * PAGE).map((r) => el('tr', { 'data-question': r[0] },
        el('td', { title: r[1] || null }, r[0]), el('td', {}, r[2] === null ? '' : r[2]),
        t.series.map((s) => { const c = r[col[s]]; return el('td', { class: c && c[1] === true ? 'right' : c && c[1] === false ? 'wrong' : '' }, cellText(c)); }))));
      pager.replaceChildren();
      if (pages > 1) {
        const go = (p) => { page = p; draw(); };
        pager.append(el('button', { type: 'button', disabled: page === 0, onclick: () => go(page - 1) }, '‹ previous'),
          el('span', { class: 'muted' }, ` questions ${page * PAGE + 1}–${Math.min(shown.length, (page + 1) * PAGE)} of ${shown.length} `),
          el('button', { type: 'button', disabled: page === pages - 1, onclick: () => go(page + 1) }, 'next ›'));
      }
    }
    const only = (right, wrong) => { filter = col[right] && col[wrong] ? { right, wrong } : null; page = 0; draw(); return shown.length; };
    document.querySelectorAll('#pairs-table a.only').forEach((a) => a.addEventListener('click', (e) => {
      e.preventDefault();
      only(a.dataset.right, a.dataset.wrong);
      document.getElementById('answer-table').scrollIntoView();
    }));
    draw();
    window.gamReport.answerTable = { only, shown: () => shown.map((r) => r[0]) };
  }

  // ---- wiring -------------------------------------------------------------------------------------------------

  window.gamReport = { charts, series, pareto, samples, colorOf, styleOf };
  const costSelect = document.getElementById('cost-axis');
  if (costSelect && !series.some((s) => s.m.costPerQuestion !== null && s.m.costPerQuestion !== undefined)) {
    // nothing was priced (the built-in model without a rate): no dollars axis rather than a $0 one
    costSelect.querySelector('option[value=dollars]').remove();
    document.getElementById('cost-note').textContent = ' No $ axis: nothing in this run has a price (the built-in model runs on this machine\'s CPU; set eval.gpu_hour_rate to price its time).';
  }
  if (costSelect && series.some((s) => COSTS.computed.of(s.m) !== null)) {
    costSelect.append(el('option', { value: 'computed' }, 'computed tokens / question'));
  }
  const cost = chart('chart-cost', costChart(costSelect ? costSelect.value : 'tokens'), 420);
  if (cost) placeLabels(cost);
  if (costSelect) costSelect.addEventListener('change', () => { cost.setOption(costChart(costSelect.value), true); placeLabels(cost); });
  const pairCount = ((data.pairs || {}).pairs || []).length;
  chart('chart-pairs', pairsChart(), Math.max(200, 110 + 34 * pairCount));
  reliability();
  chart('chart-categories', categoryChart(), Math.max(260, 120 + 34 * series.length));
  chart('chart-flips', flipsChart(), Math.max(200, 120 + 34 * series.filter((s) => s.m.flips).length));
  chart('chart-rounds', roundsChart(), Math.max(200, 120 + 34 * series.length));
  chart('chart-terminations', terminationsChart(), Math.max(200, 120 + 34 * series.length));
  chart('chart-dream', dreamChart(), 380);
  chart('chart-usys', uSysChart(), 340);
  chart('chart-tokens', tokensChart(), 340);
  chart('chart-weights', weightsChart(), 340);
  samplesView();
  answerTableView();
  window.addEventListener('resize', () => { Object.values(charts).forEach((c) => c.resize()); if (cost) placeLabels(cost); });
})();
