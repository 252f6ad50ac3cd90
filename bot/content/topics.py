"""The bank's topics: the table in content/README.md, as data.

The README's table is canonical; `tests/content/test_topics.py` checks that this list has the
same slugs, in the same order, with the same Chinese names. Validation refuses any other slug
in `topics:`, and `resolve` lets people ask by slug, by Chinese name or by a common alias
(`/question topic:分布式`, `topic:distributed`, `topic:DDP` all mean `distributed`).

Aliases are for asking, never for writing content: a file names topics by slug only.
"""

from __future__ import annotations

from dataclasses import dataclass


def _fold(text: str) -> str:
    return " ".join(text.strip().lower().replace("_", " ").split())


@dataclass(frozen=True, slots=True)
class Topic:
    slug: str
    zh: str
    aliases: tuple[str, ...] = ()

    def names(self) -> tuple[str, ...]:
        """Everything that asks for this topic, folded for comparison."""
        return tuple(_fold(n) for n in (self.slug, self.zh, *self.aliases))


TOPICS: tuple[Topic, ...] = (
    Topic("gpu", "GPU 架构与 CUDA", ("cuda", "显卡", "硬件", "hardware")),
    Topic("performance", "性能分析", ("性能", "perf", "profiling", "roofline")),
    Topic("collectives", "集合通信", ("通信", "nccl", "allreduce", "all-reduce")),
    Topic("interconnect", "互联与网络", ("互联", "网络", "network", "nvlink", "rdma")),
    Topic("distributed", "分布式训练", ("分布式", "并行", "parallelism", "ddp", "fsdp", "zero")),
    Topic("precision", "混合精度与数值", ("混合精度", "精度", "数值", "fp16", "bf16", "fp8")),
    Topic("memory", "显存管理", ("显存", "内存", "gpu memory")),
    Topic("transformers", "Transformer 结构", ("transformer", "attention", "注意力")),
    Topic("inference", "推理服务", ("推理", "serving", "kv cache", "kv-cache")),
    Topic("quantization", "量化", ("quant", "int8", "int4")),
    Topic("compilers", "编译器与算子", ("compiler", "编译器", "编译", "算子", "triton")),
    Topic("pytorch", "PyTorch 内部", ("torch",)),
    Topic("python", "Python 内部", ("cpython",)),
    Topic("os", "操作系统", ("系统", "linux", "operating system")),
    Topic("reliability", "集群可靠性", ("可靠性", "容错", "checkpoint", "fault tolerance")),
    Topic("concurrency", "并发", ("多线程", "线程", "threads", "async")),
    Topic("training", "训练方法与优化器", ("训练", "优化器", "optimizer", "scaling laws")),
    Topic("rl", "强化学习后训练", ("强化学习", "rlhf", "ppo", "grpo", "post-training")),
    Topic("scheduling", "集群调度", ("调度", "slurm", "kubernetes", "k8s", "mig", "mps")),
    Topic("data", "数据管线", ("数据", "dataloader", "data loading", "data pipeline")),
    Topic("recsys", "推荐系统与 Embedding", ("推荐", "推荐系统", "embedding", "dlrm")),
    Topic("algorithms", "算法", ("算法题", "手撕", "coding", "leetcode")),
)  # fmt: skip

SLUGS = frozenset(t.slug for t in TOPICS)
_BY_NAME = {name: t for t in TOPICS for name in t.names()}


def resolve(name: str) -> Topic | None:
    """The topic `name` asks for (slug, Chinese name or alias, any case), if any."""
    return _BY_NAME.get(_fold(name))


def slug_for(name: str) -> str:
    """The slug `name` asks for: a topic of the table by any of its names, else as typed."""
    found = resolve(name)
    return found.slug if found is not None else name.strip().lower()


def chinese_name(slug: str) -> str | None:
    found = resolve(slug)
    return found.zh if found is not None and found.slug == slug else None
