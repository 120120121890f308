"""Imports VLMEvalKit's and lmms-eval's own modules from their sources at the pinned commits, without their packages'
__init__ files (which import every model and dataset class, and torch) and with a few imports stubbed.

Every stub here is OFF the request and scoring path; what each stands in for is said beside it. The modules on the
path run unchanged from the harnesses' sources:
  VLMEvalKit: vlmeval/api/gpt.py (GPT4V, OpenAIWrapper), vlmeval/api/lmdeploy.py + openai_sdk.py (LMDeployAPI),
              vlmeval/api/base.py (BaseAPI.generate: retries, message checks), vlmeval/inference.py (infer_data_job),
              vlmeval/smp (encode_image_to_base64, load/dump), vlmeval/dataset/image_mcq.py (CustomMCQDataset:
              build_prompt, evaluate), vlmeval/dataset/utils/multiple_choice.py (mcq_vanilla_eval, report_acc),
              vlmeval/utils/matching_util.py (can_infer).
  lmms-eval:  lmms_eval/models/simple/openai.py (OpenAICompatible: payload, OpenAI SDK call, reply reading),
              lmms_eval/models/model_utils/media_encoder.py, lmms_eval/utils.py (Collator), lmms_eval/api/instance.py,
              lmms_eval/tasks/mmbench/en_utils.py + mmbench_evals.py (doc_to_visual, doc_to_text, process_results,
              MMBench_Evaluator.eval_result "static"), lmms_eval/tasks/_task_utils/mcq_extract.py.
"""
import sys
import types


def _package(root, name):
    """A package module whose submodules load from the sources, without running the package's __init__.py."""
    m = types.ModuleType(name)
    m.__path__ = [root + "/" + name.replace(".", "/")]
    sys.modules[name] = m
    if "." in name:
        parent, child = name.rsplit(".", 1)
        setattr(sys.modules[parent], child, m)
    return m


class _Anything(types.ModuleType):
    """A stub module: any attribute is a placeholder class (used only in annotations, base classes and isinstance)."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        placeholder = type(name, (), {"__init__": lambda self, *a, **k: None})
        setattr(self, name, placeholder)
        return placeholder


def _stub(name, **attrs):
    m = _Anything(name)
    for k, v in attrs.items():
        setattr(m, k, v)
    sys.modules[name] = m
    if "." in name:
        parent, child = name.rsplit(".", 1)
        setattr(sys.modules[parent], child, m)
    return m


# the stubs, by harness (docs/harnesses.md repeats these lists)
VLMEVALKIT_STUBS = {
    "vlmeval/__init__.py, vlmeval/api/__init__.py, vlmeval/dataset/__init__.py, vlmeval/dataset/utils/__init__.py":
        "not run: they import every API, model and dataset class (and torch); the modules used are imported directly",
    "sty": "terminal colours for VLMEvalKit's log lines (vlmeval/smp/misc.py colored)",
    "vlmeval.dataset.DATASET_TYPE, DATASET_MODALITY": "imported by the prompt adapters of vlmeval/api/adapters "
                                                      "(InternVL, Qwen3, ...), which LMDeployAPI uses only when "
                                                      "--custom-prompt names one",
    "torch, torch.distributed (vlmeval/inference.py)": "barriers between GPU processes; one process here",
    "vlmeval.config.supported_VLM": "the registry of model names; the model object is passed to infer_data_job",
}
LMMS_EVAL_STUBS = {
    "lmms_eval/__init__.py, lmms_eval/models/__init__.py, lmms_eval/tasks/__init__.py, lmms_eval/api/__init__.py":
        "not run: the model and task registries load every model and task; the modules used are imported directly",
    "torch, torch.nn, transformers": "imported by lmms_eval/api/model.py and lmms_eval/utils.py for local models' "
                                      "tensors and stopping criteria; OpenAICompatible never touches them",
    "accelerate": "OpenAICompatible.__init__ asks Accelerator for the process count and rank: one process, rank 0",
    "evaluate": "lmms_eval/api/registry.py imports Hugging Face evaluate for metrics MMBench does not use",
}


def vlmevalkit(src):
    sys.path.insert(0, src)
    for n in ["vlmeval", "vlmeval.api", "vlmeval.dataset", "vlmeval.dataset.utils"]:
        _package(src, n)

    class _Fg:
        rs = ""

        def __call__(self, *a):
            return ""

    _stub("sty", fg=_Fg())
    import vlmeval.smp  # noqa: F401
    import vlmeval.api.gpt as gpt
    sys.modules["vlmeval.api"].OpenAIWrapper = gpt.OpenAIWrapper  # what judge_util imports from vlmeval.api
    import vlmeval.utils  # noqa: F401
    import vlmeval.dataset.utils.judge_util as judge_util
    import vlmeval.dataset.utils.multiple_choice as multiple_choice  # noqa: F401
    utils = sys.modules["vlmeval.dataset.utils"]
    utils.DEBUG_MESSAGE = judge_util.DEBUG_MESSAGE
    utils.build_judge = judge_util.build_judge

    def _adapters_only(*a, **k):
        raise AssertionError("a prompt adapter was used: this run names none")

    sys.modules["vlmeval.dataset"].DATASET_TYPE = _adapters_only
    sys.modules["vlmeval.dataset"].DATASET_MODALITY = _adapters_only
    import vlmeval.dataset.image_mcq as image_mcq
    return gpt, image_mcq


def lmms_eval(src):
    sys.path.insert(0, src)
    for n in ["lmms_eval", "lmms_eval.api", "lmms_eval.models", "lmms_eval.models.simple", "lmms_eval.tasks",
              "lmms_eval.tasks.mmbench", "lmms_eval.tasks._task_utils"]:
        _package(src, n)
    _stub("torch", Tensor=type("Tensor", (), {}), dtype=type("dtype", (), {}))
    _stub("torch.nn")
    _stub("transformers")

    class Accelerator:
        num_processes = 1
        local_process_index = 0
        process_index = 0
        is_local_main_process = True
        device = "cpu"
        distributed_type = None

    _stub("accelerate", Accelerator=Accelerator, DistributedType=type("DistributedType", (), {}))
    _stub("evaluate")
    import lmms_eval.api.instance as instance
    import lmms_eval.models.simple.openai as openai_model
    import lmms_eval.tasks.mmbench.en_utils as en_utils
    return instance, openai_model, en_utils
