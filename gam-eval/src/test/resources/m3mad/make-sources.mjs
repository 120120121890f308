// Writes the source fixtures of M3madBuilderTest: small copies of the Hugging Face datasets M3MAD-Bench's
// datasets/build_test_dataset.py loads, as Parquet files written by DuckDB (a real Parquet writer: SNAPPY pages,
// dictionary encoding, structs and lists as pyarrow writes them), and VLMEvalKit-style MME_Reasoning.tsv; plus
// rows.json, the same rows for authors-script.py, which runs the authors' own script on them to give expected/*.json.
// Run from this folder: npm install @duckdb/node-api@1.5.6-r.1 && node make-sources.mjs && python3 authors-script.py SCRIPT
import { DuckDBInstance } from '@duckdb/node-api';
import { deflateSync } from 'node:zlib';
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';

const crcTable = Array.from({ length: 256 }, (_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c >>> 0; });
const crc = (buf) => { let c = 0xffffffff; for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
function chunk(type, data) {
  const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const c = Buffer.alloc(4); c.writeUInt32BE(crc(td));
  return Buffer.concat([len, td, c]);
}
/** A w x h PNG, 8-bit RGB (alpha false) or RGBA, its pixels from seed. */
function png(w, h, seed, alpha = false) {
  const ch = alpha ? 4 : 3, raw = [];
  for (let y = 0; y < h; y++) { raw.push(0); for (let x = 0; x < w; x++) for (let k = 0; k < ch; k++) raw.push((seed * 37 + x * 61 + y * 97 + k * 53) % 256); }
  const ihdr = Buffer.alloc(13); ihdr.writeUInt32BE(w, 0); ihdr.writeUInt32BE(h, 4); ihdr[8] = 8; ihdr[9] = alpha ? 6 : 2;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.from(raw))), chunk('IEND', Buffer.alloc(0))]);
}
const img = (seed, alpha) => png(3 + (seed % 3), 2 + (seed % 2), seed, alpha).toString('base64');

const sets = {
  MME: { repo: 'lmms-lab/MME', files: [['test-00000-of-00002', 0, 4], ['test-00001-of-00002', 4, 8]], rows: [
    { question_id: 'existence/1.png', image: img(1), question: 'Is there a dog in this image? Please answer yes or no.', answer: 'Yes', category: 'existence' },
    { question_id: 'existence/1.png', image: img(1), question: 'Is there a cat in this image? Please answer yes or no.', answer: 'No', category: 'existence' },
    { question_id: 'code_reasoning/0020.png', image: img(2), question: 'Is the output of the code "3"? Please answer yes or no.', answer: 'Yes', category: 'code_reasoning' },
    { question_id: 'count/2.png', image: img(3, true), question: 'Are there two birds?\tPlease answer yes or no.', answer: 'No', category: 'count' },
    { question_id: 'artwork/10002.jpg', image: img(4), question: 'Is this artwork created by Caravaggio? Please answer yes or no.', answer: 'No', category: 'artwork' },
    { question_id: 'existence/3.png', image: img(5), question: 'Is there a dog in this image? Please answer yes or no.', answer: 'No', category: 'existence' },
    { question_id: 'position/4.png', image: img(6), question: 'Is the cup on the left of the café’s door? Please answer yes or no.', answer: 'Yes', category: 'position' },
    { question_id: 'color/5.png', image: img(7), question: 'Is the car red? Please answer yes or no.', answer: 'Yes', category: 'color' },
  ], columns: { question_id: 's', image: 'img', question: 's', answer: 's', category: 's' } },
  MathVista: { repo: 'AI4Math/MathVista', files: [['testmini-00000-of-00001-725687bf7a18d64b', 0, 6]], rows: [
    { pid: '1', question: 'What is the value of x?', image: 'images/1.jpg', decoded_image: img(11), choices: null, answer: '3', question_type: 'free_form', answer_type: 'integer',
      query: 'Hint: Please answer the question requiring an integer answer and provide the final value, e.g., 1, 2, 3, at the end.\nQuestion: What is the value of x?' },
    { pid: '2', question: 'Which angle is larger?', image: 'images/2.png', decoded_image: img(12, true), choices: ['∠ABC', '∠BCD', 'they are equal'], answer: '∠BCD', question_type: 'multi_choice', answer_type: 'text',
      query: 'Hint: Please answer the question and provide the correct option letter, e.g., A, B, C, D, at the end.\nQuestion: Which angle is larger?\nChoices:\n(A) ∠ABC\n(B) ∠BCD\n(C) they are equal' },
    { pid: '3', question: 'What is the value of x?', image: 'images/3.jpg', decoded_image: img(13), choices: null, answer: '3', question_type: 'free_form', answer_type: 'integer',
      query: 'Hint: Please answer the question requiring an integer answer and provide the final value, e.g., 1, 2, 3, at the end.\nQuestion: What is the value of x?' },
    { pid: '4', question: 'How many "bars" are there?', image: 'images/4.png', decoded_image: img(14), choices: ['2', '4', '6', '8'], answer: '8', question_type: 'multi_choice', answer_type: 'text',
      query: 'Hint: Please answer the question and provide the correct option letter, e.g., A, B, C, D, at the end.\nQuestion: How many "bars" are there?\nChoices:\n(A) 2\n(B) 4\n(C) 6\n(D) 8' },
    { pid: '5', question: 'What is the area?', image: 'images/5.png', decoded_image: img(15), choices: null, answer: '1.5', question_type: 'free_form', answer_type: 'float',
      query: 'Hint: Please answer the question requiring a floating-point number with one decimal place and provide the final value, e.g., 1.2, 1.3, 1.4, at the end.\nQuestion: What is the area?' },
    { pid: '6', question: 'Is the line straight?', image: 'images/6.png', decoded_image: img(16), choices: ['Yes', 'No'], answer: 'Yes', question_type: 'multi_choice', answer_type: 'text',
      query: 'Hint: Please answer the question and provide the correct option letter, e.g., A, B, C, D, at the end.\nQuestion: Is the line straight?\nChoices:\n(A) Yes\n(B) No' },
  ], columns: { pid: 's', question: 's', image: 's', decoded_image: 'img', choices: 'list', answer: 's', question_type: 's', answer_type: 's', query: 's' } },
  MathVision: { repo: 'MathLLMs/MathVision', files: [['test-00000-of-00001', 0, 5]], rows: [
    { id: '1', question: 'Which number is missing?', options: ['1', '2', '3', '4', '5'], image: 'images/1.jpg', decoded_image: img(21), answer: 'C', solution: null, level: 2, subject: 'arithmetic' },
    { id: '2', question: 'Which figure comes next?\n<image1>', options: ['A', 'B', 'C', 'D', 'E'], image: 'images/2.jpg', decoded_image: img(22, true), answer: 'E', solution: null, level: 1, subject: 'logic' },
    { id: '3', question: 'How many cubes are there?', options: [], image: 'images/3.jpg', decoded_image: img(23), answer: '14', solution: 'count them', level: 3, subject: 'solid geometry' },
    { id: '4', question: 'Which number is missing?', options: ['1', '2', '3', '4', '5'], image: 'images/4.jpg', decoded_image: img(24), answer: 'A', solution: null, level: 2, subject: 'arithmetic' },
    { id: '5', question: 'What is the angle α?', options: [], image: 'images/5.jpg', decoded_image: img(25), answer: '30°', solution: null, level: 5, subject: 'metric geometry - angle' },
  ], columns: { id: 's', question: 's', options: 'list', image: 's', decoded_image: 'img', answer: 's', solution: 's', level: 'i', subject: 's' } },
  PathVQA: { repo: 'flaviagiammarino/path-vqa', files: [['test-00000-of-00002-f0c1a3b6', 0, 5], ['test-00001-of-00002-a1b2c3d4', 5, 7]], rowGroup: 2, rows: [
    { image: img(31), question: 'is this a normal tissue?', answer: 'no' },
    { image: img(32), question: 'what is present?', answer: 'neoplasm' },
    { image: img(33, true), question: 'is this a normal tissue?', answer: 'yes' },
    { image: img(34), question: 'where is this?', answer: 'lung' },
    { image: img(35), question: 'what does this image show?', answer: 'fibrinous pericarditis' },
    { image: img(36), question: 'is hemorrhage present?', answer: 'yes' },
    { image: img(37), question: 'how is the tissue stained?', answer: 'h&e' },
  ], columns: { image: 'img', question: 's', answer: 's' } },
  VisualPuzzles: { repo: 'neulab/VisualPuzzles', files: [['train-00000-of-00001', 0, 5]], rows: [
    { id: 1, category: 'Algorithmic', image: img(41), question: 'Which piece completes the pattern?', options: ['1', '2', '3', '4'], answer: 'B' },
    { id: 2, category: 'Analogical', image: img(42), question: 'Which option fits?', options: null, answer: 'D' },
    { id: 3, category: 'Deductive', image: img(43, true), question: 'Who sits in the middle?', options: ['Ann', 'Bob', 'Cid', 'Dee'], answer: 'A' },
    { id: 4, category: 'Inductive', image: img(44), question: 'Which option fits?', options: null, answer: 'C' },
    { id: 5, category: 'Spatial', image: img(45), question: 'How many faces does the cube show?', options: ['1', '2', '3', '6'], answer: 'C' },
  ], columns: { id: 'i', category: 's', image: 'img', question: 's', options: 'list', answer: 's' } },
};

const sql = (v) => v === null ? 'NULL' : `'${String(v).replaceAll("'", "''")}'`;
function lit(kind, v) {
  if (kind === 's') return v === null ? 'NULL::VARCHAR' : sql(v);
  if (kind === 'i') return `${v}::BIGINT`;
  if (kind === 'img') return `{'bytes': from_base64('${v}'), 'path': NULL::VARCHAR}`;
  if (kind === 'list') return v === null ? 'NULL::VARCHAR[]' : v.length === 0 ? '[]::VARCHAR[]' : `[${v.map(sql).join(', ')}]::VARCHAR[]`;
  throw new Error(kind);
}

const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
await con.run('SET threads TO 1');
rmSync('sources', { recursive: true, force: true });
for (const [name, s] of Object.entries(sets)) {
  mkdirSync(`sources/${s.repo}/data`, { recursive: true });
  for (const [file, from, to] of s.files) {
    const rows = s.rows.slice(from, to).map(r => `SELECT ${Object.entries(s.columns).map(([c, k]) => `${lit(k, r[c])} AS "${c}"`).join(', ')}`);
    await con.run(`COPY (${rows.join(' UNION ALL ')} ) TO 'sources/${s.repo}/data/${file}.parquet' (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE ${s.rowGroup ?? 100000})`);
  }
}
// UNION ALL keeps the rows' order in DuckDB's single-threaded plan; checked by reading the files back
for (const [name, s] of Object.entries(sets)) {
  for (const [file, from, to] of s.files) {
    const first = Object.keys(s.columns).find(c => s.columns[c] === 's');
    const got = (await (await con.run(`SELECT "${first}" FROM 'sources/${s.repo}/data/${file}.parquet'`)).getRows()).map(r => r[0]);
    const want = s.rows.slice(from, to).map(r => r[first]);
    if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`${file}: rows out of order: ${got} vs ${want}`);
  }
}

// the Parquet reader on what the small files above do not exercise: dictionary-encoded strings and lists, GZIP pages,
// null and empty lists, null strings (ParquetFileTest computes the same values)
await con.run(`COPY (SELECT i::BIGINT AS id, ['red', 'green', 'blue'][(i % 3) + 1] AS colour,
  CASE WHEN i % 5 = 0 THEN NULL ELSE ['x', 'y', 'x'][1:(i % 4)] END AS tags, CASE WHEN i % 7 = 0 THEN NULL ELSE 'q' || (i % 4) END AS q
  FROM range(300) t(i) ORDER BY i) TO 'sources/dictionary-gzip.parquet' (FORMAT parquet, COMPRESSION gzip)`);

// MME-Reasoning: VLMEvalKit's TSV (pandas quoting: a field with a tab, quote or newline is quoted, quotes doubled)
const reasoning = [
  { index: 0, image: img(51), question: 'Which shape comes next?', answer: 'B', question_type: 'choice', difficulty: 'easy', reasoning_type: 'inductive', capability: 'pattern analysis' },
  { index: 1, image: img(52, true), question: 'How many "triangles"\tare there?', answer: '12', question_type: 'open', difficulty: 'medium', reasoning_type: 'deductive', capability: 'counting' },
  { index: 2, image: img(53), question: 'Which shape comes next?', answer: 'D', question_type: 'choice', difficulty: 'hard', reasoning_type: 'inductive', capability: 'pattern analysis' },
  { index: 3, image: img(54), question: 'What is the area?\nGive a number.', answer: 'NA', question_type: 'open', difficulty: 'medium', reasoning_type: 'abductive', capability: 'calculation' },
  { index: 4, image: img(55), question: 'Who is lying?', answer: 'A', question_type: 'choice', difficulty: 'easy', reasoning_type: 'deductive', capability: 'logic' },
];
const cols = Object.keys(reasoning[0]);
const cell = (v) => { const s = String(v); return /[\t"\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s; };
mkdirSync('sources/MME-Reasoning', { recursive: true });
writeFileSync('sources/MME-Reasoning/MME_Reasoning.tsv', [cols.join('\t'), ...reasoning.map(r => cols.map(c => cell(r[c])).join('\t'))].join('\n') + '\n');

const described = Object.fromEntries(Object.entries(sets).map(([n, s]) => [n, s.rows]));
writeFileSync('rows.json', JSON.stringify(described, null, 1) + '\n');
console.log('written: sources/, rows.json');
