#!/usr/bin/env python3
"""Reads VLMEvalKit's dataset tables at a pinned commit and writes them, with how VLMEvalKit grades each dataset, to
gam-eval/src/main/resources/datasets/vlmevalkit-<commit8>.json.

Python 3 standard library only. The source is read with `ast`, never imported or run: for every class of
vlmeval/dataset/**.py, its DATASET_URL / DATASET_MD5 dicts (literals, module constants, `.update(...)` and simple loops),
its TYPE and MODALITY (inherited along its bases) and where its evaluate() is defined. Which class serves a name is
VLMEvalKit's own rule (build_dataset): the first class of DATASET_CLASSES (vlmeval/dataset/__init__.py) whose
supported_datasets() holds it.

How VLMEvalKit grades a dataset is read off the class whose evaluate() serves it (the table GRADING below, written by
reading each evaluate() at the pinned commit; the script fails when a class is met that the table does not name, so a
new commit cannot be graded by guess).

Usage:
  bench/vlmevalkit-catalogue.py --git /work/.mirror/open-compass+VLMEvalKit/repo [--commit e8e78f05...]
  bench/vlmevalkit-catalogue.py --checkout ~/src/VLMEvalKit        (a working tree at the pinned commit)
  bench/vlmevalkit-catalogue.py ... --check                        (compare with the committed file; exit 1 if it differs)
"""
import argparse
import ast
import io
import json
import os
import re
import subprocess
import sys

PINNED = 'e8e78f05f3080fe28154f2130321f17951c3be94'
PINNED_DATE = '2026-08-18'
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(ROOT, 'gam-eval', 'src', 'main', 'resources', 'datasets')

# How VLMEvalKit grades, one entry per class that defines the evaluate() a dataset is served by ("evaluate owner").
# A value is a grading, or a function of the dataset name giving one. Gradings gam supports (rule-based, no judge):
#   multiple-choice  ImageMCQDataset.evaluate: can_infer on the reply (VLMEvalKit's exact_matching path)
#   yes-no           ImageYORNDataset.evaluate: YOrN_Extraction, then the benchmark's rating (MME_rating, POPE_rating ...)
#   vqa-score        vqa_eval.process_line(method='vqa_score'): min(1, matches/3) over the other answers, averaged
#   vqa-match        vqa_eval.process_line default: process_answer(pred) == process_answer(gt), averaged over the answers
#   anls             vqa_eval.process_line(method='anls'), hit_calculate: 1 - min NL distance, 0 below 0.5
#   relaxed          vqa_eval.process_line(method='relaxed_accuracy'), max over the answers (5 % on numbers)
#   exact            vqa_eval.process_line(method='accuracy'): stripped, lower-cased string equality
# Anything else names what it needs: judge (an LLM judge grades every answer or most), video, other (a grading gam
# does not implement: boxes, code execution, captions' BLEU, multi-turn ...), mathvista / open (gam's own entries).


def _vqa(name):
    if 'TextVQA' in name:
        return 'vqa-score'
    if 'ChartQA' in name:
        return 'relaxed'
    if 'OCRVQA' in name:
        return 'exact-max'
    if 'GQA' in name:
        return 'exact'
    if 'DocVQA' in name or 'InfoVQA' in name:
        return 'anls'
    return 'vqa-match'


def _gmai(name):
    if name == 'GMAI-MMBench_VAL':
        return 'multiple-choice'
    return 'other: one of the 11 parts VLMEvalKit merges into GMAI-MMBench_TEST (not a dataset name of its own)'


J = 'judge'
GRADING = {
    # image_mcq.py: ImageMCQDataset.evaluate and the classes whose evaluate() calls mcq_vanilla_eval (can_infer per
    # question) with exact_matching
    'ImageMCQDataset': 'multiple-choice',
    'MMMUProDataset': 'multiple-choice',       # the COT variant's reply is cut at "Answer:", then ImageMCQDataset.evaluate
    'GMAIMMBenchDataset': _gmai,
    'CVBench': 'multiple-choice',
    'HRBenchDataset': 'multiple-choice',
    'WeMath': 'multiple-choice',
    'TDBench': 'multiple-choice',
    '_3DSRBench': 'multiple-choice',
    'VisualPuzzles': 'multiple-choice',        # gam's own entry
    'MMERealWorld': 'other: MME-RealWorld reads the letter with a rule of its own',
    'NaturalBenchDataset': 'other: NaturalBench reads yes/no and A/B with a rule of its own and scores question groups',
    'PuzzleVQA': J,
    'VisuLogic': 'other: VisuLogic reads the letter with a rule of its own',
    'XLRSBench': 'other: XLRS-Bench reads answers with a rule of its own',
    'OmniEarthMCQBench': 'other: OmniEarth-Bench reads answers with a rule of its own',
    'VLMBlind': 'other: VLMs-are-Blind reads answers with a rule of its own',
    'AffordanceDataset': J,
    'TreeBench': 'other: TreeBench scores boxes (IoU) with the letter',
    'TopViewRS': 'other: TopViewRS reads answers with a rule of its own',
    # image_yorn.py
    'ImageYORNDataset': 'yes-no',
    # image_vqa.py
    'ImageVQADataset': _vqa,
    'PlotQA': 'relaxed',
    'CountBenchQA': 'contains',
    'MTVQADataset': 'mtvqa',
    'OCRBench': 'ocrbench',
    'VizWiz': 'vqa-match',                     # process_line's default on the 'answers' column, hit_calculate's mean
    'TallyQA': 'tallyqa',
    'ZEROBench': 'zerobench',
    'ERQADataset': 'exact-text',               # str(pred).strip().lower() == str(answer).strip().lower(), no answer list
    'SIUOMCQDataset': 'boxed-option',
    'M3oralBenchDataset': 'boxed-option',
    'MedqbenchMCQDataset': 'medqbench-option',
    'VMCBenchDataset': 'other: VMCBench picks a random option when it reads none (utils/vmcbench.py), not reproducible',
    'MathVista': 'mathvista',
    # EASI spatial benchmarks: utils/spatial_bench/cal_scores.py compute_mcq_score (can_match_option) without a judge
    'SpatialDISE': 'spatial-mcq', 'EmbSpatialBench': 'spatial-mcq', 'MindCubeBench': 'spatial-mcq',
    'OmniSpatialBench': 'spatial-mcq', 'SpatialVizBench': 'spatial-mcq', 'ViewSpatialBench': 'spatial-mcq',
    'MMSIBench': 'spatial-mcq', 'ERIQBench': 'spatial-mcq',
}

# Datasets gam supports by name: these gradings, on an image dataset with a download URL.
SUPPORTED = {'multiple-choice', 'yes-no', 'vqa-score', 'vqa-match', 'anls', 'relaxed', 'exact', 'exact-max', 'contains',
             'mtvqa', 'ocrbench', 'tallyqa', 'zerobench', 'exact-text', 'spatial-mcq', 'boxed-option', 'medqbench-option'}


# ---------------------------------------------------------------- reading the source

class Unresolved(Exception):
    pass


def literal(node, env):
    """The value of an expression built of literals and names already known; Unresolved otherwise."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Dict):
        out = {}
        for k, v in zip(node.keys, node.values):
            if k is None:
                out.update(literal(v, env))
            else:
                out[literal(k, env)] = literal(v, env)
        return out
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return [literal(e, env) for e in node.elts]
    if isinstance(node, ast.Name):
        if node.id in env:
            return env[node.id]
        raise Unresolved(node.id)
    if isinstance(node, ast.JoinedStr):
        parts = []
        for v in node.values:
            parts.append(str(literal(v.value, env)) if isinstance(v, ast.FormattedValue) else v.value)
        return ''.join(parts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return literal(node.left, env) + literal(node.right, env)
    if isinstance(node, ast.DictComp) and len(node.generators) == 1 and not node.generators[0].ifs:
        g = node.generators[0]
        out = {}
        for item in literal(g.iter, env):
            inner = dict(env)
            bind(g.target, item, inner)
            out[literal(node.key, inner)] = literal(node.value, inner)
        return out
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == 'dict' and not node.args:
        return {kw.arg: literal(kw.value, env) for kw in node.keywords}
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ('items', 'keys', 'copy') \
            and not node.args:
        d = literal(node.func.value, env)
        return {'items': lambda: list(d.items()), 'keys': lambda: list(d), 'copy': lambda: dict(d)}[node.func.attr]()
    raise Unresolved(ast.dump(node)[:80])


def bind(target, value, env):
    if isinstance(target, ast.Name):
        env[target.id] = value
    elif isinstance(target, ast.Tuple):
        for t, v in zip(target.elts, value):
            bind(t, v, env)
    else:
        raise Unresolved('target')


def run_body(stmts, env):
    """Runs the assignments, .update() calls and for-loops of a module or class body over literal values."""
    for s in stmts:
        try:
            if isinstance(s, ast.Assign):
                value = literal(s.value, env)
                for t in s.targets:
                    if isinstance(t, ast.Subscript):
                        literal(t.value, env)[literal(t.slice, env)] = value
                    else:
                        bind(t, value, env)
            elif isinstance(s, ast.AnnAssign) and s.value is not None and isinstance(s.target, ast.Name):
                env[s.target.id] = literal(s.value, env)
            elif isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Attribute) \
                    and s.value.func.attr == 'update' and len(s.value.args) == 1:
                literal(s.value.func.value, env).update(literal(s.value.args[0], env))
            elif isinstance(s, ast.For):
                for item in literal(s.iter, env):
                    bind(s.target, item, env)
                    run_body(s.body, env)
        except (Unresolved, TypeError, KeyError, AttributeError):
            pass


class Source:
    """The files of vlmeval/dataset at one commit: from a bare git directory or a working tree."""

    def __init__(self, git_dir=None, checkout=None, commit=PINNED):
        self.git_dir, self.checkout, self.commit = git_dir, checkout, commit
        self.blobs = {}
        if git_dir:
            self.commit = subprocess.check_output(['git', '-C', git_dir, 'rev-parse', commit + '^{commit}'], text=True).strip()
        else:
            head = subprocess.run(['git', '-C', checkout, 'rev-parse', 'HEAD'], text=True, capture_output=True)
            if head.returncode == 0 and head.stdout.strip() != commit:
                sys.exit(f'{checkout} is at {head.stdout.strip()}, not {commit}: check out the pinned commit or pass --commit')

    def files(self):
        if self.git_dir:
            out = subprocess.check_output(['git', '-C', self.git_dir, 'ls-tree', '-r', '--name-only', self.commit,
                                           'vlmeval/dataset'], text=True)
            paths = sorted(p for p in out.splitlines() if p.endswith('.py'))
            self.blobs.update(self.cat(paths))
            return paths
        base = os.path.join(self.checkout, 'vlmeval', 'dataset')
        return sorted(os.path.relpath(os.path.join(d, f), self.checkout).replace(os.sep, '/')
                      for d, _, fs in os.walk(base) for f in fs if f.endswith('.py'))

    def cat(self, paths):
        """The files at the commit, read by one git process (a process per file was most of the script's time),
        decoded as a text-mode pipe decodes (the locale's encoding, universal newlines)."""
        data = subprocess.run(['git', '-C', self.git_dir, 'cat-file', '--batch'], check=True, capture_output=True,
                              input=''.join(f'{self.commit}:{p}\n' for p in paths).encode()).stdout
        out, at = {}, 0
        for p in paths:
            eol = data.index(b'\n', at)
            header = data[at:eol].split()
            if len(header) != 3 or header[1] != b'blob':
                sys.exit(f'{self.commit}:{p}: not a file in {self.git_dir} ({data[at:eol].decode(errors="replace")})')
            size = int(header[2])
            out[p] = io.TextIOWrapper(io.BytesIO(data[eol + 1:eol + 1 + size])).read()
            at = eol + 1 + size + 1
        return out

    def read(self, path):
        if self.git_dir:
            if path not in self.blobs:
                self.blobs.update(self.cat([path]))
            return self.blobs[path]
        with open(os.path.join(self.checkout, path), encoding='utf-8') as f:
            return f.read()


_LINES = {}


def segment(source, node):
    """ast.get_source_segment(source, node) or '', with the source split into lines once per file, not once per call
    (which was most of the script's time on files of many classes); lines end at \\r\\n, \\r or \\n, as ast's."""
    lines = _LINES.get(id(source))
    if lines is None or lines[0] is not source:
        lines = _LINES[id(source)] = (source, re.findall(r'[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z', source))
    lines = lines[1]
    if getattr(node, 'end_lineno', None) is None or getattr(node, 'end_col_offset', None) is None:
        return ''
    first, last = node.lineno - 1, node.end_lineno - 1
    if first == last:
        return lines[first].encode()[node.col_offset:node.end_col_offset].decode()
    return ''.join([lines[first].encode()[node.col_offset:].decode()] + lines[first + 1:last]
                   + [lines[last].encode()[:node.end_col_offset].decode()])


class Cls:
    def __init__(self, name, path, node, env, source):
        self.name, self.path, self.node = name, path, node
        self.bases = [b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute) else None for b in node.bases]
        body_env = dict(env)
        run_body(node.body, body_env)
        own = {s.targets[0].id for s in node.body if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name)}
        self.attrs = {k: body_env[k] for k in ('DATASET_URL', 'DATASET_MD5', 'TYPE', 'MODALITY') if k in own and k in body_env}
        self.unresolved = [k for k in ('DATASET_URL', 'DATASET_MD5') if k in own and k not in body_env]
        self.methods = {f.name for f in node.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
        self.source = source
        self.names = None  # supported_datasets() when it returns a list the source spells out
        for f in node.body:
            if isinstance(f, ast.FunctionDef) and f.name == 'supported_datasets':
                rets = [x for x in ast.walk(f) if isinstance(x, ast.Return)]
                if len(rets) == 1:
                    try:
                        names = literal(rets[0].value, body_env)
                        self.names = [n for n in names if isinstance(n, str)] if isinstance(names, list) else None
                    except (Unresolved, TypeError, KeyError, AttributeError):
                        pass
        self.evaluate_source = ''.join(segment(source, f) for f in node.body
                                       if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and f.name.startswith('evaluate'))


def read_classes(src):
    classes = {}
    for path in src.files():
        text = src.read(path)
        tree = ast.parse(text, path)
        env = {}
        run_body(tree.body, env)
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                classes.setdefault(node.name, Cls(node.name, path, node, env, text))
    return classes


def registry(src):
    """DATASET_CLASSES of vlmeval/dataset/__init__.py, in order, each with its list (IMAGE_DATASET, VIDEO_DATASET ...)."""
    tree = ast.parse(src.read('vlmeval/dataset/__init__.py'))
    lists = {}
    for s in tree.body:
        if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name) and isinstance(s.value, ast.List):
            lists[s.targets[0].id] = [e.id for e in s.value.elts if isinstance(e, ast.Name)]
        elif isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name) and isinstance(s.value, ast.List):
            lists.setdefault(s.target.id, []).extend(e.id for e in s.value.elts if isinstance(e, ast.Name))
    order = ['IMAGE_DATASET', 'VIDEO_DATASET', 'TEXT_DATASET', 'CUSTOM_DATASET', 'DATASET_COLLECTION']
    return [(c, l) for l in order for c in lists.get(l, [])]


def inherited(classes, name, attr):
    """(value, owner class) of attr along name's bases (first base first), or (None, None)."""
    seen = set()
    stack = [name]
    while stack:
        n = stack.pop(0)
        if n in seen or n not in classes:
            continue
        seen.add(n)
        c = classes[n]
        if attr in c.attrs:
            return c.attrs[attr], n
        if attr in c.methods:
            return True, n
        stack = [b for b in c.bases if b] + stack
    return None, None


def grading_of(owner, dataset):
    g = GRADING.get(owner)
    if g is None:
        return None
    return g(dataset) if callable(g) else g


def unlisted(classes, owner):
    """The grading of a class GRADING does not name: never one gam supports, only what it needs."""
    c = classes[owner]
    body = c.evaluate_source.split('\n', 1)[-1]  # without the def line, which every evaluate() has (**judge_kwargs)
    # a judge built or chosen here, or judge settings handed on in a module that builds one
    judged = re.search(r'build_judge|judge_kwargs\s*\[|judge_kwargs\.(get|pop)\(\s*[\'"]model', body) or \
        ('**judge_kwargs)' in body and 'build_judge' in c.source)
    if judged:
        return 'judge'
    return f'other: {owner}.evaluate() ({c.path}), a rule gam does not implement'


def extract(src):
    classes = read_classes(src)
    rows = {}
    unknown = []
    for cname, listed in registry(src):
        if cname not in classes:
            continue
        urls, url_owner = inherited(classes, cname, 'DATASET_URL')
        names = classes[cname].names
        if names is not None:
            # supported_datasets() spelled out: its names are the dataset names (a URL key outside it is a part file)
            urls = {n: (urls or {}).get(n) if isinstance(urls, dict) else None for n in names}
            url_owner = url_owner or cname
        if not isinstance(urls, dict):
            continue
        md5s, _ = inherited(classes, cname, 'DATASET_MD5')
        md5s = md5s if isinstance(md5s, dict) else {}
        typ, _ = inherited(classes, cname, 'TYPE')
        modality, _ = inherited(classes, cname, 'MODALITY')
        _, eval_owner = inherited(classes, cname, 'evaluate')
        for key, url in urls.items():
            if key in rows:
                continue  # build_dataset takes the first class that lists it
            modality_here = modality or ('VIDEO' if listed == 'VIDEO_DATASET' else 'TEXT' if listed == 'TEXT_DATASET' else 'IMAGE')
            if listed == 'VIDEO_DATASET':
                modality_here = 'VIDEO'
            grading = grading_of(eval_owner, key)
            if grading is None:
                grading = grading_of(cname, key)
            if grading is None:
                if modality_here == 'VIDEO':
                    grading = 'video'
                elif listed in ('TEXT_DATASET', 'CUSTOM_DATASET', 'DATASET_COLLECTION'):
                    grading = 'other: ' + listed.lower().replace('_', ' ')
                else:
                    grading = unlisted(classes, eval_owner or cname)
            md5 = md5s.get(key)
            rows[key] = {
                'name': key,
                'url': url if isinstance(url, str) and url.startswith('http') else None,
                'md5': md5 if isinstance(md5, str) and len(md5) == 32 else None,
                'class': cname,
                'defined_in': classes[url_owner].path,
                'list': listed,
                'type': typ if isinstance(typ, str) else None,
                'modality': modality_here,
                'evaluate': f'{classes[eval_owner].path} {eval_owner}' if eval_owner else None,
                'grading': grading,
            }
    return rows, unknown


def normalisation(src):
    """The word tables of vqa_eval.py's process_answer (_process_digit_article) and smp's process_punctuation, read
    as data: the Java port (VlmEvalKitVqa) reads them from the committed table, so they cannot drift apart."""
    out = {}
    tree = ast.parse(src.read('vlmeval/dataset/utils/vqa_eval.py'))
    for f in tree.body:
        if isinstance(f, ast.FunctionDef) and f.name == '_process_digit_article':
            env = {}
            run_body(f.body, env)
            out['articles'] = env['articles']
            out['number_words'] = env['manualMap']
            out['contractions'] = env['contractions']
    tree = ast.parse(src.read('vlmeval/smp/misc.py'))
    for f in tree.body:
        if isinstance(f, ast.FunctionDef) and f.name == 'process_punctuation':
            env = {}
            run_body(f.body, env)
            out['punctuation'] = env['punct']
    missing = {'articles', 'number_words', 'contractions', 'punctuation'} - set(out)
    if missing:
        sys.exit(f'vqa_eval.py / smp/misc.py at {src.commit}: cannot read {sorted(missing)}')
    out['source'] = 'vlmeval/dataset/utils/vqa_eval.py _process_digit_article; vlmeval/smp/misc.py process_punctuation'
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument('--git', help='a bare git directory of open-compass/VLMEvalKit')
    g.add_argument('--checkout', help='a working tree of open-compass/VLMEvalKit at the pinned commit')
    ap.add_argument('--commit', default=PINNED)
    ap.add_argument('--check', action='store_true', help='compare with the committed file instead of writing it')
    ap.add_argument('--unknown', action='store_true', help='list the image classes the GRADING table does not name')
    args = ap.parse_args()
    src = Source(git_dir=args.git, checkout=args.checkout, commit=args.commit)
    rows, unknown = extract(src)
    if args.unknown or unknown:
        for cname, owner, key in unknown:
            print(f'not in GRADING: {key}: class {cname}, evaluate() of {owner}', file=sys.stderr)
        if unknown:
            sys.exit(f'{len(unknown)} image datasets have no grading in the GRADING table: read their evaluate() and add them')
    table = {
        'about': 'VLMEvalKit\'s dataset tables (DATASET_URL, DATASET_MD5, TYPE, MODALITY, the class serving each name and '
                 'how its evaluate() grades), read with ast by bench/vlmevalkit-catalogue.py; do not edit by hand: '
                 'run the script (docs/data.md).',
        'vlmevalkit': {'repository': 'open-compass/VLMEvalKit', 'commit': src.commit,
                       'date': PINNED_DATE if src.commit == PINNED else None},
        'supported_gradings': sorted(SUPPORTED),
        'vqa_normalisation': normalisation(src),
        'datasets': [rows[k] for k in sorted(rows, key=str.lower)],
    }
    text = json.dumps(table, indent=1, ensure_ascii=False) + '\n'
    out = os.path.join(OUT_DIR, f'vlmevalkit-{src.commit[:8]}.json')
    if args.check:
        with open(out, encoding='utf-8') as f:
            same = f.read() == text
        print(f'{out}: {"identical" if same else "DIFFERS from what the source gives"}')
        sys.exit(0 if same else 1)
    with open(out, 'w', encoding='utf-8') as f:
        f.write(text)
    print(f'{out}: {len(rows)} dataset names, '
          f'{sum(1 for r in rows.values() if r["grading"] in SUPPORTED and r["modality"] == "IMAGE" and r["url"])} '
          f'image datasets with a rule-based grading and a URL')


if __name__ == '__main__':
    main()
