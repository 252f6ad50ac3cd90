"""The UI's words in English and Chinese. Content is never translated, only the frame around it.

Each entry is (English, Chinese) and may hold `str.format` fields. A missing key fails fast
in tests (`tests/test_i18n.py` checks both languages have the same fields).
"""

from __future__ import annotations

from bot.types import Locale

CATALOG: dict[str, tuple[str, str]] = {
    # command summaries (help, slash-command descriptions)
    "cmd.question": ("Show a question by id, or a random one (by topic or kind)",
                     "按 id 查看题目，或随机一题（可按主题或类型）"),
    "cmd.answer": ("Show the explanation of a question", "查看题目的解析"),
    "cmd.search": ("Search the questions (Chinese or English)", "搜索题目（中英文均可）"),
    "cmd.topics": ("List the topics and how many questions each has", "列出所有主题及题目数量"),
    "cmd.help": ("Show what the bot can do", "查看使用说明"),
    "opt.id": ("question id, e.g. python-gil", "题目 id，例如 python-gil"),
    "opt.topic": ("topic, e.g. distributed", "主题，例如 distributed"),
    "opt.kind": ("qa or coding", "qa（问答）或 coding（编程）"),
    "opt.query": ("words to look for", "搜索关键词"),
    "cmd.schedule": ("Set, show, pause, resume or remove this channel's daily question",
                     "设置、查看、暂停、恢复或删除本频道的每日一题"),
    "cmd.daily": ("`/daily now`: post the next daily question at once",
                  "`/daily now`：立即发布下一道每日题"),
    "opt.action": ("set, show, pause, resume or remove", "set、show、pause、resume 或 remove"),
    "opt.daily_action": ("now", "now"),
    "opt.time": ("local post time, HH:MM", "本地发布时间，HH:MM"),
    "opt.timezone": ("IANA time zone, e.g. Asia/Shanghai", "IANA 时区，例如 Asia/Shanghai"),
    "opt.days": ("posting days: daily, weekdays, mon-fri, mon,wed,fri",
                 "发布日：daily、weekdays、mon-fri、mon,wed,fri"),
    "opt.coding": ("days that get a coding problem, e.g. wed", "发布编程题的日子，例如 wed"),
    "opt.answer": ("when the answer follows: +4h, +90m or 18:00",
                   "何时公布解析：+4h、+90m 或 18:00"),
    # command names where a platform localises them (Discord); the English is the real name
    "name.question": ("question", "题目"),
    "name.answer": ("answer", "解析"),
    "name.search": ("search", "搜索"),
    "name.topics": ("topics", "主题"),
    "name.submit": ("submit", "提交"),
    "name.run": ("run", "运行"),
    "name.me": ("me", "我的进度"),
    "name.schedule": ("schedule", "每日计划"),
    "name.daily": ("daily", "每日一题"),
    "name.help": ("help", "帮助"),
    # subcommands, where a platform has them (`/schedule set`)
    "sub.schedule.set": ("Post a daily question here at a local time (admins)",
                         "设置本频道每日一题的发布时间（管理员）"),
    "sub.schedule.show": ("Show this channel's daily question and its next posts",
                          "查看本频道的每日一题和接下来的发布时间"),
    "sub.schedule.pause": ("Pause the daily question (admins)", "暂停每日一题（管理员）"),
    "sub.schedule.resume": ("Resume the daily question (admins)", "恢复每日一题（管理员）"),
    "sub.schedule.remove": ("Remove the daily question (admins)", "删除每日一题（管理员）"),
    "sub.daily.now": ("Post the next daily question at once (admins)",
                      "立即发布下一道每日题（管理员）"),
    "opt.file": ("a .py file with your code (leave empty to type it in a form)",
                 "包含代码的 .py 文件（留空则在表单中输入）"),
    # forms and chat-platform messages
    "form.solution.title": ("Solution: {problem}", "提交：{problem}"),
    "form.solution.label": ("Your Python code", "你的 Python 代码"),
    "form.run.title": ("Run Python", "运行 Python"),
    "action.submit": ("Submit solution", "提交答案"),
    "error.not_python_file": ("Attach a `.py` file of at most {limit} KB, in UTF-8.",
                              "请附上不超过 {limit} KB 的 UTF-8 编码 `.py` 文件。"),
    "error.no_problem_here": ("Say which problem, e.g. `@studybot fast-power` and a "
                              "```python block, or post in a coding problem's thread.",
                              "请说明是哪道题，例如 `@studybot fast-power` 加上 ```python "
                              "代码块，或在编程题的帖子里发送代码。"),
    "more.pages": ("Part {n} of {total}", "第 {n}/{total} 部分"),
    # labels
    "label.id": ("ID", "编号"),
    "label.topics": ("Topics", "主题"),
    "label.difficulty": ("Difficulty", "难度"),
    "label.kind": ("Kind", "类型"),
    "label.source": ("From", "出处"),
    "label.signature": ("Signature", "函数签名"),
    "kind.qa": ("Explained question", "问答题"),
    "kind.coding": ("Coding problem", "编程题"),
    "difficulty.easy": ("easy", "简单"),
    "difficulty.medium": ("medium", "中等"),
    "difficulty.hard": ("hard", "困难"),
    "action.reveal": ("Show answer", "查看解析"),
    "action.open": ("Open {id}", "打开 {id}"),
    # replies
    "question.think": ("Think it through, then reveal the answer.", "先想一想，再查看解析。"),
    "answer.title": ("Answer: {title}", "解析：{title}"),
    "search.title": ("Search: {query}", "搜索：{query}"),
    "search.none": ("No question matches “{query}”. Try fewer or other words, "
                    "or `/topics` to browse.",
                    "没有题目匹配“{query}”。试试更少或其他的关键词，或用 `/topics` 浏览。"),
    "search.empty": ("Give me something to search for, e.g. `/search 显存` or "
                     "`/search allreduce`.",
                     "请输入搜索内容，例如 `/search 显存` 或 `/search allreduce`。"),
    "search.too_long": ("Search words are limited to {limit} characters; try the key terms.",
                        "搜索内容最多 {limit} 个字符，请只输入关键词。"),
    "topics.title": ("Topics", "主题"),
    "topics.line": ("`{topic}`: {count} question(s)", "`{topic}`：{count} 题"),
    "topics.hint": ("Pick one with `/question topic:<topic>`.",
                    "用 `/question topic:<主题>` 随机一题。"),
    "help.title": ("studybot: AI-infra interview practice", "studybot：AI Infra 面试练习"),
    "help.intro": ("Questions from real AI-infrastructure interview reports.",
                   "题目来自真实的 AI Infra 面经。"),
    "help.examples": ("Examples: `/question`, `/question topic:distributed`, "
                      "`/search GIL 多线程`, `/answer python-gil`",
                      "示例：`/question`、`/question topic:distributed`、"
                      "`/search GIL 多线程`、`/answer python-gil`"),
    # schedules
    "schedule.title": ("Daily question in this channel", "本频道的每日一题"),
    "schedule.none": ("This channel has no daily question yet. An admin can start one: "
                      "`/schedule set 09:00 Asia/Shanghai`.",
                      "本频道还没有每日一题。管理员可以这样开启："
                      "`/schedule set 09:00 Asia/Shanghai`。"),
    "schedule.saved": ("Saved. The daily question is on.", "已保存，每日一题已开启。"),
    "schedule.paused_now": ("Paused. `/schedule resume` turns it back on.",
                            "已暂停。用 `/schedule resume` 恢复。"),
    "schedule.resumed": ("Resumed.", "已恢复。"),
    "schedule.removed": ("Removed this channel's daily question.", "已删除本频道的每日一题。"),
    "schedule.posted": ("Posted the next question.", "已发布下一道题。"),
    "schedule.not_posted": ("Nothing was posted: {reason}", "没有发布：{reason}"),
    "schedule.label.time": ("Posts at", "发布时间"),
    "schedule.label.days": ("Days", "日期"),
    "schedule.label.coding": ("Coding problems on", "编程题日"),
    "schedule.label.topic": ("Topic", "主题"),
    "schedule.label.answer": ("Answer", "解析"),
    "schedule.label.status": ("Status", "状态"),
    "schedule.active": ("active", "进行中"),
    "schedule.paused": ("paused: {reason}", "已暂停：{reason}"),
    "schedule.paused_by_admin": ("paused by an admin", "管理员已暂停"),
    "schedule.any_topic": ("any", "全部"),
    "schedule.next": ("Next posts", "接下来的发布时间"),
    "error.not_admin": ("Only members who can manage this channel can change its daily question. "
                        "`/schedule show` works for everyone.",
                        "只有能管理本频道的成员才能修改每日一题。"
                        "所有人都可以用 `/schedule show` 查看。"),
    "error.needs_time": ("`/schedule set` needs a time and a time zone, e.g. "
                         "`/schedule set 09:00 Asia/Shanghai`.",
                         "`/schedule set` 需要时间和时区，"
                         "例如 `/schedule set 09:00 Asia/Shanghai`。"),
    "error.bad_value": ("{option}: {problem}", "{option}：{problem}"),
    "error.no_schedule": ("This channel has no daily question to {action}.",
                          "本频道没有可以{action}的每日一题。"),
    "error.empty_filter": ("No question has topic `{topic}`, so nothing could be posted. "
                           "Topics: {topics}.",
                           "没有主题为 `{topic}` 的题目，无法发布。现有主题：{topics}。"),
    "error.no_days": ("Pick at least one posting day.", "请至少选择一个发布日。"),
    "error.bad_choice": ("`{option}` must be one of: {choices}.", "`{option}` 只能是：{choices}。"),
    # errors
    "error.not_found": ("There is no question `{id}`.", "没有 id 为 `{id}` 的题目。"),
    "error.did_you_mean": ("Did you mean: {ids}?", "你是不是要找：{ids}？"),
    "error.no_match": ("No question fits: {filters}.", "没有符合条件的题目：{filters}。"),
    "error.bad_topic": ("There is no topic `{topic}`. Topics: {topics}.",
                        "没有主题 `{topic}`。现有主题：{topics}。"),
    "error.unknown_command": ("Unknown command `/{name}`. Try `/help`.",
                              "未知命令 `/{name}`，请试试 `/help`。"),
    "error.missing": ("`/{name}` needs `{option}`. Usage: `{usage}`",
                      "`/{name}` 需要参数 `{option}`。用法：`{usage}`"),
    "error.unknown_option": ("`/{name}` has no option `{option}`. Usage: `{usage}`",
                             "`/{name}` 没有参数 `{option}`。用法：`{usage}`"),
    "error.too_many": ("Too many words for `/{name}`. Usage: `{usage}`",
                       "`/{name}` 的参数太多了。用法：`{usage}`"),
    "error.failure": ("Sorry, something went wrong on my side (ref `{ref}`).",
                      "抱歉，机器人出错了（参考编号 `{ref}`）。"),
}  # fmt: skip


def t(locale: Locale, key: str, **fields: object) -> str:
    """The text for `key` in `locale`, with `fields` filled in."""
    english, chinese = CATALOG[key]
    template = chinese if locale is Locale.ZH else english
    return template.format(**fields) if fields else template
