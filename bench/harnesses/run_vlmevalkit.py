"""VLMEvalKit evaluates `gam serve` with one of its two OpenAI-API model classes:
  LMDeployAPI (vlmeval/api/lmdeploy.py): what `python run.py --base-url URL --model NAME` builds for any
      OpenAI-compatible server (build_model_from_base_url, with run.py's defaults);
  GPT4V (vlmeval/api/gpt.py): the class every OpenAI entry of vlmeval/config.py and docs/en/ConfigSystem.md use
      (OpenAIWrapper with `dataset` kept out of the request), as a --config entry builds it.
The bundled questions are a custom MCQ dataset (LMUData/<NAME>.tsv, CustomMCQDataset), inference by run.py's own
infer_data_job (infer_data_api: dataset.build_prompt, model.generate on 2 threads) and grading by the dataset's own
evaluate with exact matching (no judge model): mcq_vanilla_eval, can_infer, report_acc.

    python run_vlmevalkit.py SRC BASE_URL LMUDATA NAME WORK CLASS METHOD...     (BASE_URL: http://HOST:PORT/v1)

writes WORK/sent.tsv (the questions with the images as sent), WORK/<method>/<method>_<NAME>.tsv (the predictions),
..._exact_matching_result.tsv (VLMEvalKit's verdicts: hit, log) and ..._acc.csv, and prints one JSON line per method.
"""
import inspect
import json
import os
import sys

import harness_imports

SRC, BASE_URL, LMUDATA, NAME, WORK, CLASS = sys.argv[1:7]
METHODS = sys.argv[7:]
os.environ["LMUData"] = LMUDATA
os.environ["PRED_FORMAT"] = "tsv"  # the default xlsx needs openpyxl; the content is the same
os.environ["EVAL_FORMAT"] = "tsv"

gpt, image_mcq = harness_imports.vlmevalkit(SRC)
# vlmeval/inference.py imports torch.distributed (barriers across GPUs: one process here, never called) and
# vlmeval/config.py's supported_VLM (the registry of model names: the model object is passed instead); both stubbed
harness_imports._stub("torch")
harness_imports._stub("torch.distributed")
harness_imports._stub("vlmeval.config", supported_VLM={})
import vlmeval.api.lmdeploy as lmdeploy  # noqa: E402
from vlmeval.inference import infer_data_job  # noqa: E402
from vlmeval.smp import encode_image_to_base64, load  # noqa: E402
from PIL import Image  # noqa: E402

# the questions with the image bytes this harness sends (prepare_itlist's encoding of the dumped image, with
# OpenAIWrapper's defaults), for gam eval; compare.py checks every recorded request's image is one of them
DEFAULT_MAX_FILE_SIZE = inspect.signature(gpt.OpenAIWrapper.__init__).parameters["max_file_size"].default
dataset = image_mcq.CustomMCQDataset(NAME)
sent = dataset.data.copy()
sent["image"] = [encode_image_to_base64(Image.open(dataset.dump_image(sent.iloc[i])[0]), target_size=-1,
                                        max_file_size=DEFAULT_MAX_FILE_SIZE)
                 for i in range(len(sent))]
os.makedirs(WORK, exist_ok=True)
sent.to_csv(os.path.join(WORK, "sent.tsv"), sep="\t", index=False)

for method in METHODS:
    work = os.path.join(WORK, method)
    os.makedirs(work, exist_ok=True)
    if CLASS == "LMDeployAPI":
        # run.py --base-url BASE_URL --model METHOD with its defaults: build_model_from_base_url drops the arguments
        # that are None (temperature, top_k, top_p, repetition_penalty, custom_prompt)
        model = lmdeploy.LMDeployAPI(model=method, api_base=BASE_URL.rstrip("/") + "/chat/completions", key="sk-admin",
                                     max_tokens=2 ** 15, retry=6, timeout=1800, verbose=False, video_llm=False,
                                     local_media=False, stream=False)
    else:
        # a --config entry {"class": "GPT4V", "model": METHOD, "api_base": ..., "key": ..., "temperature": 0}
        model = gpt.GPT4V(model=method, api_base=BASE_URL.rstrip("/") + "/chat/completions", key="none",
                          temperature=0, retry=3, verbose=False, timeout=300)
    dataset = image_mcq.CustomMCQDataset(NAME)
    infer_data_job(model, work_dir=work, model_name=method, dataset=dataset, api_nproc=2)
    pred = os.path.join(work, "%s_%s.tsv" % (method, NAME))
    acc = dataset.evaluate(pred, model="exact_matching", nproc=1)
    verdicts = load(os.path.join(work, "%s_%s_exact_matching_result.tsv" % (method, NAME)))
    print(json.dumps({"harness": "vlmevalkit", "class": CLASS, "method": method, "predictions": pred,
                      "n": int(len(verdicts)), "hits": int(verdicts["hit"].sum()),
                      "acc": float(acc["Overall"].iloc[0])}), flush=True)
