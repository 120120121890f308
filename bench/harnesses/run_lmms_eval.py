"""lmms-eval evaluates `gam serve` with its `openai` model (OpenAICompatible, lmms_eval/models/simple/openai.py: the
OpenAI Python SDK pointed at the server's base URL) on the bundled questions laid out as its MMBench task's documents,
through the task's own functions: mmbench_doc_to_visual, mmbench_doc_to_text with the template's post_prompt and its
generation_kwargs (the requests exactly as Task.construct_requests builds them for a 0-shot generate_until task),
mmbench_process_results, and the grading of the mmbench_en_dev_static task (MMBench_Evaluator.eval_result with
eval_method "static": can_infer, then extract_mcq_answer; no judge model).

    python run_lmms_eval.py SRC BASE_URL TSV WORK METHOD...

writes WORK/sent.tsv (the questions with the images as sent), WORK/<method>.tsv (index, the options, answer,
prediction, hit: lmms-eval's verdict per question, as eval_sub_data gives it) and prints one JSON line per method.
"""
import base64
import copy
import io
import json
import os
import sys
from pathlib import Path

import pandas as pd
import yaml
from PIL import Image

import harness_imports

SRC, BASE_URL, TSV, WORK = sys.argv[1:5]
METHODS = sys.argv[5:]
TASK, SPLIT = "mmbench_en_dev_static", "dev"

instance, openai_model, en_utils = harness_imports.lmms_eval(SRC)

# the task's YAML as lmms-eval reads it (its !function lines are the functions imported above)
template = Path(SRC) / "lmms_eval/tasks/mmbench/_default_template_mmbench_en_yaml"
config = yaml.safe_load("".join(line for line in open(template) if "!function" not in line))
specific = copy.deepcopy(config["lmms_eval_specific_kwargs"])
specific.update(specific.get("default", {}))  # Task.__init__: no entry for the model "openai", so the default one
generation_kwargs = config["generation_kwargs"]

# the bundled questions as MMBench documents (the fields lmms-eval's MMBench parquet has)
rows = pd.read_csv(TSV, sep="\t", dtype=str, keep_default_na=False)
docs = []
for _, r in rows.iterrows():
    doc = {"index": int(r["index"]), "question": r["question"], "hint": r["hint"] if r["hint"] else "nan",
           "answer": r["answer"], "category": r["category"], "L2-category": r.get("l2-category", ""),
           "source": "gam-demo", "split": SPLIT, "comment": "",
           "image": Image.open(io.BytesIO(base64.b64decode(r["image"])))}
    for k in "ABCD":
        if r.get(k, ""):
            doc[k] = r[k]
    docs.append(doc)

os.makedirs(WORK, exist_ok=True)
for method in METHODS:
    model = openai_model.OpenAICompatible(model=method, base_url=BASE_URL, api_key="none", num_concurrent=2,
                                          max_retries=3)
    model.task_dict = {TASK: {SPLIT: docs}}
    requests = []
    for doc_id, doc in enumerate(docs):
        ctx = en_utils.mmbench_doc_to_text(doc, specific)
        args = (ctx, copy.deepcopy(generation_kwargs), en_utils.mmbench_doc_to_visual, doc_id, TASK, SPLIT)
        requests.append(instance.Instance(request_type="generate_until", arguments=args, idx=0,
                                          metadata={"task": TASK, "doc_id": doc_id, "repeats": 1}))
    outputs = model.generate_until(requests)
    results = [en_utils.mmbench_process_results(doc, [out.text])["gpt_eval_score"] for doc, out in zip(docs, outputs)]
    evaluator = en_utils.mmbench_evaluator
    overall, _, _ = evaluator.eval_result(copy.deepcopy(results), eval_method="static")
    # the verdict of each question, by the function eval_result calls for each index
    table = pd.DataFrame(copy.deepcopy(results))
    for k in list(table.keys()):
        table[k.lower() if k not in "ABCD" else k] = table.pop(k)
    answer_map = dict(zip(table["index"], table["answer"]))
    table["hit"] = [evaluator.eval_sub_data(table.iloc[[i]], answer_map, static_only=True) for i in range(len(table))]
    out = os.path.join(WORK, "%s.tsv" % method)
    table.to_csv(out, sep="\t", index=False)
    if method == METHODS[0]:
        # the questions with the image bytes this harness sent (OpenAICompatible.encode_image of doc_to_visual), for
        # gam eval; harnesses.sh checks every recorded request's image is one of them
        sent = rows.copy()
        sent["image"] = [model.encode_image(en_utils.mmbench_doc_to_visual(doc)[0]) for doc in docs]
        sent.to_csv(os.path.join(WORK, "sent.tsv"), sep="\t", index=False)
    print(json.dumps({"harness": "lmms-eval", "method": method, "predictions": out, "n": int(len(table)),
                      "hits": int(table["hit"].sum()), "acc": float(overall)}), flush=True)
