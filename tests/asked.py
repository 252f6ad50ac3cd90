"""A small bank whose reports are known, for the tests of how often a question was asked.

Beside the shared test bank (four items, each citing the one report `report.txt`):

- `kv-cache-size`: reports a, b, c (a cited twice: it counts once); ByteDance in a (first
  round) and b (second round), Alibaba in c (second round): 3 reports.
- `many-companies`: six reports, five companies (Tencent, Baidu, Meituan, Kuaishou, Xiaomi,
  one report each) and one report naming none: 6 reports.
- `written-here`: written for the bank (`source: original`): 0 reports.
- `often-00` .. `often-11`: `i % 4` reports each (`often-00` is original), no company.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from tests.fakes import write_question

BYTEDANCE = "字节跳动"
KV_SOURCES = [
    {"document": "a.txt", "title": "字节跳动 一面", "company": BYTEDANCE, "round": "一面"},
    {"document": "b.txt", "title": "字节跳动 二面", "company": BYTEDANCE, "round": "二面"},
    {"document": "c.txt", "title": "阿里 推理引擎 二面", "company": "阿里", "round": "二面"},
    {"document": "a.txt", "title": "字节跳动 一面 (2)", "company": BYTEDANCE},
]
FIVE = ("腾讯", "百度", "美团", "快手", "小米")
MANY_SOURCES = [
    *({"document": f"m{i}.txt", "title": f"{c} 面经", "company": c} for i, c in enumerate(FIVE)),
    {"document": "m5.txt", "title": "综合面经题库"},
]
OFTEN = 12


def often_count(i: int) -> int:
    return i % 4


def write_asked_bank(root: Path) -> None:
    write_question(root, "kv-cache-size", "KV Cache 显存怎么算？", "2·层数·头数·维度。",
                   topics=("inference",), sources=KV_SOURCES,
                   title_en="How large is the KV cache?")  # fmt: skip
    write_question(root, "many-companies", "张量并行怎么切？", "列切分与行切分。",
                   topics=("distributed",), sources=MANY_SOURCES)  # fmt: skip
    write_original(root, "written-here", "自己写的题", "为题库而写。")
    for i in range(OFTEN):
        qid, count = f"often-{i:02d}", often_count(i)
        if count == 0:
            write_original(root, qid, f"常见题 {i:02d}", "解析。")
            continue
        sources = [{"document": f"{qid}-{r}.txt", "title": f"面经 {r}"} for r in range(count)]
        write_question(root, qid, f"常见题 {i:02d}", "解析。", topics=("gpu",),
                       sources=sources, difficulty="easy")  # fmt: skip


def write_original(root: Path, qid: str, title: str, answer: str) -> Path:
    """An explained question written for the bank: `source: original`, no reports."""
    meta = {"id": qid, "title": title, "kind": "qa", "difficulty": "hard", "topics": ["gpu"],
            "source": "original"}  # fmt: skip
    head = yaml.safe_dump(meta, allow_unicode=True, sort_keys=False)
    (root / "questions").mkdir(parents=True, exist_ok=True)
    path = root / "questions" / f"{qid}.md"
    path.write_text(f"---\n{head}---\n{answer}\n", encoding="utf-8")
    return path
