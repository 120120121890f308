#!/usr/bin/env bash
# Re-extracts the judge prompts of the papers' harnesses from their pinned commits into gam's data files
# (gam-eval/src/main/resources/grading/*.json) and the source excerpts the test compares them with
# (gam-eval/src/test/resources/harness/*.py). Needs the bare git directory of VLMEvalKit (the `fetch` mirror, or any
# clone holding the commit): VLMEVALKIT_GIT=/path/to/repo.git bench/harness-prompts.sh [--check]
# With --check nothing is written: it says whether the committed files are what the pinned source gives.
set -euo pipefail
cd "$(dirname "$0")/.."
GIT_DIR_VLMEVALKIT=${VLMEVALKIT_GIT:-/work/.mirror/open-compass+VLMEvalKit/repo}
COMMIT=e8e78f05f3080fe28154f2130321f17951c3be94
CHECK=${1:-}
git -C "$GIT_DIR_VLMEVALKIT" cat-file -e "$COMMIT^{commit}" 2>/dev/null \
  || { echo "error: $GIT_DIR_VLMEVALKIT does not hold VLMEvalKit commit $COMMIT (set VLMEVALKIT_GIT)" >&2; exit 2; }
status=0
for spec in mathvista:vlmeval/dataset/utils/mathvista.py:build_mathvista_gpt4_prompt \
            mathvision:vlmeval/dataset/utils/mathv.py:build_mathv_gpt4_prompt; do
  IFS=: read -r name path fn <<<"$spec"
  blob=$(git -C "$GIT_DIR_VLMEVALKIT" rev-parse "$COMMIT:$path")
  src=$(mktemp); git -C "$GIT_DIR_VLMEVALKIT" show "$COMMIT:$path" >"$src"
  python3 - "$name" "$path" "$fn" "$blob" "$COMMIT" "$src" "$CHECK" <<'PY' || status=1
import hashlib, json, sys, ast
name, path, fn, blob, commit, source, check = sys.argv[1:8]
src = open(source, encoding='utf-8').read().split('\n')
# the excerpt: from 'def get_gpt4_ICE' up to (not including) the first 'def' after the prompt builder
start = next(i for i, l in enumerate(src) if l.startswith('def get_gpt4_ICE'))
b = next(i for i, l in enumerate(src) if l.startswith('def ' + fn))
end = next(i for i in range(b + 1, len(src)) if src[i].startswith('def '))
while src[end - 1].strip() == '':
    end -= 1
excerpt = '\n'.join(src[start:end]) + '\n'
tree = ast.parse(excerpt)
funcs = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
examples = [n.value.value for n in funcs['get_gpt4_ICE'].body if isinstance(n, ast.Assign)]
builder = funcs[fn]
task = next(n.value.value for n in builder.body if isinstance(n, ast.Assign) and n.targets[0].id == 'task_description')
labels = []
for n in builder.body:  # prompt += 'Model respone: ' + prediction; prompt += 'Extracted answer:'
    if isinstance(n, ast.AugAssign):
        v = n.value.left if isinstance(n.value, ast.BinOp) else n.value
        if isinstance(v, ast.Constant):
            labels.append(v.value)
data = {
    "about": "VLMEvalKit's judge prompt for " + name + " (" + fn + " and get_gpt4_ICE), extracted by bench/harness-prompts.sh; "
             "the prompt is task_description, each example followed by a newline, the question and a newline, "
             "response_label and the reply, then answer_label, sent as one user message",
    "source": {"repository": "open-compass/VLMEvalKit", "commit": commit, "path": path, "blob": blob,
               "lines": f"{start + 1}-{end}", "excerpt_sha256": hashlib.sha256(excerpt.encode()).hexdigest(),
               "licence": "Apache-2.0, Copyright 2023 VLMEvalKit Authors"},
    "task_description": task,
    "examples": examples,
    "response_label": labels[0],
    "answer_label": labels[1],
}
out_json = f"gam-eval/src/main/resources/grading/vlmevalkit-{name}.json"
out_py = f"gam-eval/src/test/resources/harness/vlmevalkit-{name}.py.txt"
text = json.dumps(data, indent=1, ensure_ascii=False) + '\n'
if check:
    same = open(out_json, encoding='utf-8').read() == text and open(out_py, encoding='utf-8').read() == excerpt
    print(f"{name}: {path} lines {start + 1}-{end} at {commit[:8]}: " + ("identical to the committed files" if same else "DIFFERS from the committed files"))
    sys.exit(0 if same else 1)
open(out_json, 'w', encoding='utf-8').write(text)
open(out_py, 'w', encoding='utf-8').write(excerpt)
print(f"{name}: {path} lines {start + 1}-{end} (blob {blob}) -> {out_json}, {out_py}; excerpt sha256 {data['source']['excerpt_sha256']}")
PY
  rm -f "$src"
done
exit $status
