"""Runs M3MAD-Bench's own datasets/build_test_dataset.py (liaolea/M3MAD-Bench 2fda509) on the rows of rows.json and
writes what it writes, with its absolute image paths made relative to the JSON's folder, as expected/<set>.json:
the exact files M3madBuilderTest expects gam data build to write from sources/ (the same rows as Parquet and TSV).

Needs pandas and PIL (Debian: python3-pandas python3-pil). Hugging Face's `datasets` is not needed: a stand-in module
gives the script the rows of rows.json as load_dataset would (dicts, images as PIL images). The script's two paths on
its authors' machine (MME-Reasoning's tsv_path and save_root) are pointed at sources/ and a scratch folder.

    python3 authors-script.py PATH/TO/build_test_dataset.py
"""
import base64, io, json, os, shutil, subprocess, sys, tempfile, types

here = os.path.dirname(os.path.abspath(__file__))
script = open(sys.argv[1]).read()
rows = json.load(open(os.path.join(here, "rows.json")))
runs = [("MME", []), ("MathVista", []), ("MathVision", []), ("PathVQA", []), ("VisualPuzzles", []), ("MME-reasoning", []),
        ("MME", ["--num2sample", "3"])]
os.makedirs(os.path.join(here, "expected"), exist_ok=True)
for name, extra in runs:
    work = tempfile.mkdtemp()
    os.makedirs(os.path.join(work, "datasets"))
    scratch = os.path.join(work, "reasoning-images")
    text = script.replace('"/home/usr/datasets/MME_Reasoning.tsv"', repr(os.path.join(here, "sources/MME-Reasoning/MME_Reasoning.tsv")))
    text = text.replace('"/home/usr/liao/MAD-exp/datasets/data/MME_reasoning/images"', repr(scratch))
    open(os.path.join(work, "datasets", "build_test_dataset.py"), "w").write(text)
    stub = os.path.join(work, "stub")
    os.makedirs(os.path.join(stub, "datasets"))
    open(os.path.join(stub, "datasets", "__init__.py"), "w").write(
        "import base64, io, json\nfrom PIL import Image\n"
        "class Dataset: pass\n"
        "ROWS = json.load(open(%r))\n"
        "IMAGE = {'image', 'decoded_image'}\n"
        "def load_dataset(path, *a, **k):\n"
        "    name = {'lmms-lab/MME': 'MME', 'AI4Math/MathVista': 'MathVista', 'MathLLMs/MathVision': 'MathVision',\n"
        "            'flaviagiammarino/path-vqa': 'PathVQA', 'neulab/VisualPuzzles': 'VisualPuzzles'}[path]\n"
        "    out = []\n"
        "    for r in ROWS[name]:\n"
        "        r = dict(r)\n"
        "        for c in IMAGE:\n"
        "            if c in r and not (name in ('MathVista', 'MathVision') and c == 'image'):\n"
        "                r[c] = Image.open(io.BytesIO(base64.b64decode(r[c])))\n"
        "        out.append(r)\n"
        "    return out\n" % os.path.join(here, "rows.json"))
    env = dict(os.environ, PYTHONPATH=stub)
    subprocess.run([sys.executable, os.path.join(work, "datasets", "build_test_dataset.py"), "--dataset_name", name] + extra,
                   check=True, env=env, cwd=work, stdout=subprocess.DEVNULL)
    data = os.path.join(work, "datasets", "data")
    got = json.load(open(os.path.join(data, name + ".json")))
    for g in got:
        p = g["image_path"]
        if p.startswith(scratch + "/"):
            g["image_path"] = name + "/" + p[len(scratch) + 1:]
        else:
            assert p.startswith(data + "/"), p
            g["image_path"] = p[len(data) + 1:]
    out = os.path.join(here, "expected", name + ("-" + "-".join(extra).replace("--", "") if extra else "") + ".json")
    with open(out, "w") as f:
        json.dump(got, f, indent=4)
    print(out, len(got))
    shutil.rmtree(work)
