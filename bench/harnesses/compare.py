"""After the harness runs: checks the recorded requests against the questions each harness's sent.tsv holds, runs
`gam eval` on those questions (the same pixels each harness sent) and `gam grade` on each harness's predictions, and
prints the comparison as a Markdown table. With --fixtures DIR, copies the recorded requests of one question (each
harness, each method) into DIR for HarnessRecordedRequestTest.

    python compare.py GAM OUT METHODS [--fixtures DIR]      (METHODS: comma-separated)
"""
import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys

import pandas as pd

GAM, OUT, METHODS = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
FIXTURES = sys.argv[sys.argv.index("--fixtures") + 1] if "--fixtures" in sys.argv else None
HARNESSES = [("vlmevalkit-base-url", "VLMEvalKit `run.py --base-url` (LMDeployAPI)"),
             ("vlmevalkit", "VLMEvalKit `--config` GPT4V"),
             ("lmms-eval", "lmms-eval `openai` (OpenAICompatible)")]


def read_tsv(path):
    return pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)


def recorded(harness, sent):
    """Every recorded request and its reply, as (method, question index, request path, reply JSON)."""
    by_image = {}
    for _, r in sent.iterrows():
        by_image.setdefault(r["image"], []).append(r["index"])
    out = []
    for path in sorted(glob.glob(os.path.join(OUT, harness, "requests", "*.http"))):
        raw = open(path, "rb").read()
        body = json.loads(raw.split(b"\r\n\r\n", 1)[1])
        images = [p["image_url"]["url"].split(",", 1)[1] for p in body["messages"][-1]["content"]
                  if p["type"] == "image_url"]
        if len(images) != 1 or images[0] not in by_image:
            sys.exit("compare: %s sent an image that is not in %s/sent.tsv" % (path, harness))
        if len(by_image[images[0]]) != 1:
            sys.exit("compare: two questions of %s/sent.tsv have the same image" % harness)
        reply = json.load(open(path[:-len(".http")] + ".reply.json"))
        out.append((body["model"], by_image[images[0]][0], path, reply))
    return out


def gam(*args):
    r = subprocess.run([GAM, *args], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("compare: gam %s failed:\n%s%s" % (" ".join(args), r.stdout[-3000:], r.stderr[-3000:]))


def harness_verdicts(harness, method):
    """index -> (prediction, hit) as the harness's own grading gave them."""
    if harness.startswith("vlmevalkit"):
        t = read_tsv(glob.glob(os.path.join(OUT, harness, method, "*_exact_matching_result.tsv"))[0])
    else:
        t = read_tsv(os.path.join(OUT, harness, method + ".tsv"))
    return {r["index"]: (r["prediction"], int(r["hit"])) for _, r in t.iterrows()}


rows, notes = [], []
evaluated_by_file = {}  # the two VLMEvalKit classes send the same images: one gam eval serves both
for harness, label in HARNESSES:
    sent_file = os.path.join(OUT, harness, "sent.tsv")
    sent = read_tsv(sent_file)
    requests = recorded(harness, sent)
    digest = hashlib.sha256(open(sent_file, "rb").read()).hexdigest()
    evaluated = evaluated_by_file.setdefault(digest, os.path.join(OUT, harness, "gam-eval"))
    if not os.path.exists(os.path.join(evaluated, "results.jsonl")):
        gam("eval", "--data", sent_file, "--methods", ",".join(METHODS), "--backend", "local", "--out", evaluated)
    ev = {}
    for line in open(os.path.join(evaluated, "results.jsonl")):
        r = json.loads(line)
        if r.get("rotation", 0) == 0:
            ev[(r["method"], r["questionId"])] = r
    for method in METHODS:
        verdicts = harness_verdicts(harness, method)
        replies = {}
        for m, index, path, reply in requests:
            if m == method:
                replies[index] = reply  # a retried request: the last reply is the one the harness kept
        # gam grade on the harness's predictions (VLMEvalKit's layout: the questions, their options, the prediction)
        graded_dir = os.path.join(OUT, harness, "gam-grade-" + method)
        pred_file = os.path.join(OUT, harness, "%s_predictions.tsv" % method)
        p = sent.drop(columns=["image"]).copy()
        p["prediction"] = [verdicts[i][0] for i in p["index"]]
        p.to_csv(pred_file, sep="\t", index=False)
        gam("grade", pred_file, "--out", graded_dir, "--dataset", "GAM_demo", "--no-circular")
        graded = {r["index"]: int(r["hit"]) for _, r in read_tsv(os.path.join(graded_dir, "verdicts.tsv")).iterrows()}
        n = len(sent)
        same_answer = same_verdict = same_grade = text = 0
        differ = []
        for i in sent["index"]:
            reply = replies.get(i)
            e = ev[(method, i)]
            content = reply["choices"][0]["message"]["content"] if reply else None
            if isinstance(content, str) and content.strip():
                text += 1
            g = reply.get("gam", {}) if reply else {}
            served = (g.get("option"), g.get("answer"))
            if served == (e.get("option"), e.get("answer")):
                same_answer += 1
            else:
                differ.append("%s, `%s`, question %s: served %s, `gam eval` %s" % (
                    label, method, i, served, (e.get("option"), e.get("answer"))))
            if verdicts[i][1] == (1 if e["outcome"] == "correct" else 0):
                same_verdict += 1
            else:
                differ.append("%s, `%s`, question %s: the harness graded %r as %d, `gam eval` as %s" % (
                    label, method, i, verdicts[i][0], verdicts[i][1], e["outcome"]))
            if graded[i] == verdicts[i][1]:
                same_grade += 1
            else:
                differ.append("%s, `%s`, question %s: the harness graded %r as %d, `gam grade` as %d" % (
                    label, method, i, verdicts[i][0], verdicts[i][1], graded[i]))
        acc_h = sum(v[1] for v in verdicts.values()) / n
        acc_e = sum(1 for i in sent["index"] if ev[(method, i)]["outcome"] == "correct") / n
        acc_g = sum(graded.values()) / n
        rows.append("| %s | `%s` | %d | %d/%d | %.1f %% | %.1f %% | %d/%d | %d/%d | %.1f %% | %d/%d |" % (
            label, method, n, text, n, 100 * acc_h, 100 * acc_e, same_answer, n, same_verdict, n, 100 * acc_g,
            same_grade, n))
        notes.extend(differ)

print("| harness | method | questions | replies with text | accuracy (harness's grading) "
      "| accuracy (`gam eval`, same images) | answer = `gam eval`'s | verdict = `gam eval`'s "
      "| accuracy (`gam grade` on the harness's predictions) | verdict = `gam grade`'s |")
print("|---|---|---|---|---|---|---|---|---|---|")
print("\n".join(rows))
print()
print("differences: " + ("none" if not notes else "\n\n- " + "\n- ".join(notes)))

if FIXTURES:
    # the question of the smallest request both harnesses sent, each method
    os.makedirs(FIXTURES, exist_ok=True)
    per = {h: recorded(h, read_tsv(os.path.join(OUT, h, "sent.tsv"))) for h, _ in HARNESSES}
    size = {}
    for h, _ in HARNESSES:
        for m, i, path, _ in per[h]:
            size[i] = size.get(i, 0) + os.path.getsize(path)
    index = min(size, key=size.get)
    manifest = []
    for h, label in HARNESSES:
        for method in METHODS:
            path = [p for m, i, p, _ in per[h] if m == method and i == index][-1]
            name = "%s-%s.http" % (h, method)
            shutil.copyfile(path, os.path.join(FIXTURES, name))
            prediction, hit = harness_verdicts(h, method)[index]
            manifest.append({"file": name, "harness": h, "method": method, "question": index,
                             "read": prediction, "hit": hit})
    with open(os.path.join(FIXTURES, "requests.json"), "w") as f:
        json.dump(manifest, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print("fixtures: question %s, %d requests written to %s" % (index, len(manifest), FIXTURES))
