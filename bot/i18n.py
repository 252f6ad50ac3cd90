"""The UI's words in English and Chinese. Content is never translated, only the frame around it.

Each entry is (English, Chinese) and may hold `str.format` fields. A missing key fails fast
in tests (`tests/test_i18n.py` checks both languages have the same fields).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.types import Locale

if TYPE_CHECKING:
    from bot.grades import Reason

CATALOG: dict[str, tuple[str, str]] = {
    # command summaries (help, slash-command descriptions)
    "cmd.question": ("Show a question by id, or one you have not seen (by topic or kind)",
                     "按 id 查看题目，或一道你没见过的题（可按主题或类型）"),
    "cmd.questions": ("List the questions, by topic and difficulty, a page at a time",
                      "按主题和难度分页列出题目"),
    "opt.page": ("page number, from 1", "页码，从 1 开始"),
    "cmd.answer": ("Show the explanation of a question", "查看题目的解析"),
    "cmd.search": ("Search the questions (Chinese or English)", "搜索题目（中英文均可）"),
    "cmd.topics": ("List the topics and how many questions each has", "列出所有主题及题目数量"),
    "cmd.help": ("Show what the bot can do", "查看使用说明"),
    "opt.id": ("question id, e.g. python-gil", "题目 id，例如 python-gil"),
    "opt.topic": ("topic, e.g. distributed", "主题，例如 distributed"),
    "opt.kind": ("qa (explained) or coding", "qa（问答）或 coding（编程）"),
    "opt.difficulty": ("easy, medium or hard", "easy（简单）、medium（中等）或 hard（困难）"),
    "opt.lang": ("language of the text: en or zh (default: yours)",
                 "内容的语言：en 或 zh（默认与你的语言相同）"),
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
    "error.not_python_file": ("Attach a `.py` file of at most {limit} KB, in UTF-8.",
                              "请附上不超过 {limit} KB 的 UTF-8 编码 `.py` 文件。"),
    "error.not_utf8": ("That file is not UTF-8 text ({why}). Save it as UTF-8 and attach it again.",
                       "该文件不是 UTF-8 文本（{why}）。请另存为 UTF-8 后重新上传。"),
    "error.no_problem_here": ("Say which problem, e.g. `@studybot fast-power` and a "
                              "```python block, or post in a coding problem's thread.",
                              "请说明是哪道题，例如 `@studybot fast-power` 加上 ```python "
                              "代码块，或在编程题的帖子里发送代码。"),
    "cmd.submit": ("Grade your solution to a coding problem", "提交编程题的解答并评测"),
    "cmd.run": ("Run a Python snippet and show what it prints", "运行一段 Python 代码并显示输出"),
    "cmd.hint": ("A coding problem's hints, one at a time: a nudge, an approach, nearly the "
                 "solution", "编程题的提示，逐条给出：点拨、思路、接近答案"),
    "opt.level": ("which hint: 1 (a nudge), 2 (an approach) or 3 (nearly the solution)",
                  "第几条提示：1（点拨）、2（思路）或 3（接近答案）"),
    "action.hint": ("Hint", "提示"),
    "cmd.forget": ("`/forget me`: delete everything the bot holds on you (asks first)",
                   "`/forget me`：删除机器人保存的你的全部数据（会先确认）"),
    "opt.forget_what": ("me", "me"),
    "cmd.export": ("`/export scores`: this workspace's scores as a CSV file (admins)",
                   "`/export scores`：导出本工作区的积分（CSV 文件，管理员）"),
    "opt.export_action": ("scores", "scores"),
    "sub.export.scores": ("This workspace's scores as a CSV file (admins)",
                          "导出本工作区的积分（CSV 文件，管理员）"),
    "export.not_admin": ("Only admins can export the scores. Your own progress is in `/me`.",
                         "只有管理员可以导出积分。你自己的进度请看 `/me`。"),
    "export.empty": ("Nobody has scored here yet: there is nothing to export.",
                     "这里还没有人得分，没有可导出的内容。"),
    "export.done": ("The scores of {count} member(s), as CSV.", "{count} 位成员的积分（CSV）。"),
    "opt.forget_answer": ("yes or no", "yes 或 no"),
    "forget.title": ("Forget me", "删除我的数据"),
    "forget.held": ("The bot holds on you: {items}. Delete all of it? This cannot be undone.",
                    "机器人保存了你的：{items}。全部删除吗？删除后无法恢复。"),
    "forget.nothing": ("The bot holds nothing on you.", "机器人没有保存你的任何数据。"),
    "forget.done": ("Deleted: {items}. Nothing about you is left.",
                    "已删除：{items}。你的数据已全部清除。"),
    # what `/forget me` counts, one entry per personal table (bot/store/members.py)
    "held.submissions": ("{n} submission(s) (solutions and /run snippets)",
                         "{n} 次提交（解答和 /run 代码片段）"),
    "held.quiz_answers": ("{n} quiz answer(s)", "{n} 次小测验作答"),
    "held.hints_taken": ("{n} hint(s) taken", "{n} 条已看提示"),
    "held.answer_reveals": ("{n} answer(s) opened", "{n} 次查看解析"),
    "held.activity": ("{n} scored activity record(s)", "{n} 条得分记录"),
    "held.cards": ("{n} review card(s)", "{n} 张复习卡片"),
    "held.reviews": ("{n} review rating(s)", "{n} 次复习评分"),
    "held.questions_seen": ("{n} question(s) seen", "{n} 道看过的题"),
    "held.member_settings": ("your settings", "你的设置"),
    "forget.kept": ("Nothing was deleted.", "没有删除任何数据。"),
    "action.forget_yes": ("Delete all of it", "全部删除"),
    "action.forget_no": ("Keep it", "保留"),
    "action.next_hint": ("Next hint", "下一条提示"),
    "hint.title": ("Hint {level} of {count} ({name}): {title}",
                   "提示 {level}/{count}（{name}）：{title}"),
    "hint.level.1": ("a nudge", "点拨"),
    "hint.level.2": ("an approach", "思路"),
    "hint.level.3": ("nearly the solution", "接近答案"),
    "hint.none": ("`{id}` has no hints: hints belong to coding problems "
                  "(try `/question kind:coding`).",
                  "`{id}` 没有提示：只有编程题有提示（试试 `/question kind:coding`）。"),
    "cmd.me": ("Your progress: streak, points, topics, reviews due, problems solved",
               "你的进度：连续天数、积分、各主题、待复习、已解决的题目"),
    "hint.all_taken": ("You have taken all {count} hints of `{id}`. `/hint {id} level:1` shows "
                       "one again; `/answer {id}` gives the explanation.",
                       "`{id}` 的 {count} 条提示你都已看过。`/hint {id} level:1` 可再看一条；"
                       "`/answer {id}` 查看解析。"),
    "hint.no_problem": ("Which problem? Name one (`/hint fast-power`), or open a coding problem "
                        "first (`/question kind:coding`): then `/hint` alone gives its next hint.",
                        "要看哪道题的提示？请写出题目 id（`/hint fast-power`），或先打开一道编程题"
                        "（`/question kind:coding`），之后单独输入 `/hint` 即可看下一条提示。"),
    "opt.hint_problem": ("coding problem id (default: the one you were shown last)",
                         "编程题 id（默认：你最近看到的那道）"),
    "opt.problem": ("coding problem id, e.g. fast-power", "编程题 id，例如 fast-power"),
    "opt.code": ("Python code, best in a ```python block",
                 "Python 代码，最好放在 ```python 代码块中"),
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
    "action.previous_page": ("◀ Previous page", "◀ 上一页"),
    "action.next_page": ("Next page ▶", "下一页 ▶"),
    "action.submit": ("Submit solution", "提交解答"),
    "action.related": ("Related: {id}", "相关：{id}"),
    # the language button names the language it switches to, in that language
    "action.lang.en": ("English", "English"),
    "action.lang.zh": ("中文", "中文"),
    "label.related": ("Related", "相关题目"),
    "source.report": ("an interview report in Chinese: {names}", "{names}"),
    "source.reports": ("interview reports in Chinese: {names}", "{names}"),
    "source.original": ("written for the bank", "题库原创"),
    # replies
    "question.think": ("Think it through, then reveal the answer.", "先想一想，再查看解析。"),
    "answer.title": ("Answer: {title}", "解析：{title}"),
    "search.title": ("Search: {query}", "搜索：{query}"),
    "search.more": ("More questions match than the {shown} shown: add a word to narrow it.",
                    "匹配的题目多于显示的 {shown} 道：加一个词缩小范围。"),
    "search.none": ("No question matches “{query}”. Try fewer or other words, "
                    "or `/topics` to browse.",
                    "没有题目匹配“{query}”。试试更少或其他的关键词，或用 `/topics` 浏览。"),
    "search.empty": ("Give me something to search for, e.g. `/search 显存` or "
                     "`/search allreduce`.",
                     "请输入搜索内容，例如 `/search 显存` 或 `/search allreduce`。"),
    "search.too_long": ("Search words are limited to {limit} characters; try the key terms.",
                        "搜索内容最多 {limit} 个字符，请只输入关键词。"),
    "topics.title": ("Topics", "主题"),
    "quiz.label": ("Quick check:", "小测验："),
    "quiz.first": ("Pick an option: the answer and how the channel did follow in the thread.",
                   "选一个选项：答案和全频道的结果会在讨论串里公布。"),
    "quiz.tally": ("{answered} answered so far, {right} right.",
                   "已有 {answered} 人作答，{right} 人答对。"),
    "quiz.nobody": ("Nobody in the channel answered this one.", "频道里没有人回答这道题。"),
    "quiz.right": ("✅ Right: {letter}. {text}", "✅ 答对了：{letter}. {text}"),
    "quiz.wrong": ("❌ Not this one: {letter}. {text}", "❌ 不对：{letter}. {text}"),
    "quiz.wrong_hint": ("The right option is revealed with the answer, in the thread.",
                        "正确选项会和答案一起在讨论串里公布。"),
    "quiz.already": ("You answered this one already ({letter}); your first answer counts.",
                     "你已经答过这题（{letter}），以第一次作答为准。"),
    "quiz.closed": ("This quiz closed when its answer was posted: the explanation is in the "
                    "thread.", "这道小测验在答案发布时已经结束：解析在讨论串里。"),
    "quiz.gone": ("This quiz is no longer known here (its post or schedule was removed).",
                  "找不到这道小测验了（对应的帖子或定时已被删除）。"),
    "quiz.elsewhere": ("This quiz belongs to another channel.", "这道小测验属于另一个频道。"),
    "cmd.quiz": ("Answer a daily quiz (its buttons do this)", "回答每日小测验（由按钮调用）"),
    "opt.post": ("the daily post", "每日帖子"),
    "opt.choice": ("the option, from 0", "选项，从 0 开始"),
    "browse.title": ("Questions", "题目列表"),
    "browse.filtered": ("Questions: {filters}", "题目列表：{filters}"),
    "browse.page": ("Page {page} of {pages}: {first}–{last} of {total}. Open one with "
                    "`/question <id>`.",
                    "第 {page}/{pages} 页：第 {first}–{last} 题，共 {total} 题。"
                    "用 `/question <id>` 打开一题。"),
    "browse.past_end": ("There is no page {page}: this list has {pages} page(s); the last "
                        "is `page:{pages}`.",
                        "没有第 {page} 页：这个列表共 {pages} 页，最后一页是 `page:{pages}`。"),
    "browse.bad_page": ("`page:{page}` is not a page number: give a whole number from 1, "
                        "e.g. `page:2`.",
                        "`page:{page}` 不是页码：请给出从 1 开始的整数，例如 `page:2`。"),
    # how often a question was asked: on its card and in `/questions`
    "opt.sort": ("order: level (easiest first) or asked (most asked first)",
                 "排序：level（由易到难）或 asked（问得最多的在前）"),
    "label.asked": ("Frequency", "考频"),
    "asked.one": ("Asked in {count} report", "被 {count} 篇面经问到"),
    "asked.many": ("Asked in {count} reports", "被 {count} 篇面经问到"),
    "asked.more": ("+{count} more", "等另 {count} 家"),
    "browse.asked": ("asked ×{count}", "考频 {count}"),
    "browse.by_asked": ("most asked first", "按考频"),
    "topics.line": ("`{topic}`{name}: {count} question(s)", "`{topic}`{name}：{count} 题"),
    "topics.hint": ("Pick one with `/question topic:<topic>`, or list them all with "
                    "`/questions topic:<topic>`.",
                    "用 `/question topic:<主题>` 随机一题，"
                    "或用 `/questions topic:<主题>` 列出全部。"),
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
    "schedule.already_paused": ("The daily question here is already paused; "
                                "`/schedule resume` turns it back on.",
                                "本频道的每日一题已经是暂停状态；`/schedule resume` 可恢复。"),
    "schedule.already_active": ("The daily question here is already on; nothing to resume.",
                                "本频道的每日一题已在进行中，无需恢复。"),
    "schedule.new_round": ("🔁 Every question in this channel's pool has been posted; "
                           "starting a new round.",
                           "🔁 本频道题库里的题目都已发布过，开始新一轮。"),
    "schedule.removed": ("Removed this channel's daily question.", "已删除本频道的每日一题。"),
    "schedule.posted": ("Posted the next question.", "已发布下一道题。"),
    "schedule.not_posted": ("Nothing was posted: {reason}", "没有发布：{reason}"),
    "schedule.not_attached": ("Nothing was posted: the bot is not connected to {platform} "
                              "right now. Try again once it is back.",
                              "没有发布：机器人当前没有连接到 {platform}，请在连接恢复后再试。"),
    "schedule.duplicate": ("A question was posted here a moment ago; nothing more was posted.",
                           "刚刚已经发布过一道题，这次没有再发布。"),
    "schedule.retrying": ("{platform} refused the post for now; it will be tried again "
                          "in a moment.", "{platform} 暂时拒绝了这条消息，稍后会自动重试。"),
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
    "schedule.coding_mark": (" (coding)", "（编程题）"),
    "weekdays": ("Mon Tue Wed Thu Fri Sat Sun", "周一 周二 周三 周四 周五 周六 周日"),
    "days.daily": ("daily", "每天"),
    "days.weekdays": ("weekdays", "工作日"),
    "days.weekends": ("weekends", "周末"),
    "days.none": ("none", "无"),
    "schedule.note.coding_adds": ("Note: coding days {days} are not among the posting days, "
                                  "so the channel also gets a post on them.",
                                  "注意：编程题日 {days} 不在发布日期中，这些天也会发布。"),
    "schedule.note.answer_next_day": ("Note: {at} is not after the post time, so each answer "
                                      "comes the next day at {at}.",
                                      "注意：{at} 不晚于发布时间，所以解析会在第二天 {at} 发布。"),
    "error.not_admin": ("Only members who can manage this channel can change its daily question. "
                        "`/schedule show` works for everyone.",
                        "只有能管理本频道的成员才能修改每日一题。"
                        "所有人都可以用 `/schedule show` 查看。"),
    "error.needs_time": ("A new daily question needs a time and a time zone, e.g. "
                         "`/schedule set 09:00 Asia/Shanghai`.",
                         "新的每日一题需要时间和时区，"
                         "例如 `/schedule set 09:00 Asia/Shanghai`。"),
    "error.bad.time": ("time: '{value}' is not a time of day as HH:MM (00:00 to 23:59)",
                       "time：'{value}' 不是 HH:MM 格式的时间（00:00 到 23:59）"),
    "error.bad.time_offset": ("time: '{value}' is not a time of day. Give the local time as "
                              "HH:MM and the zone apart: for UTC-01:00, "
                              "`/schedule set 09:00 Etc/GMT+1` (IANA's Etc zones count the "
                              "other way), or a city's zone such as `Atlantic/Azores`.",
                              "time：'{value}' 不是时刻。请分开写本地时间（HH:MM）和时区：例如 "
                              "UTC-01:00 写作 `/schedule set 09:00 Etc/GMT+1`（IANA 的 Etc "
                              "时区符号相反），或城市时区如 `Atlantic/Azores`。"),
    "error.bad.timezone": ("timezone: '{value}' is not an IANA time zone (e.g. Asia/Shanghai)",
                           "timezone：'{value}' 不是 IANA 时区（例如 Asia/Shanghai）"),
    "error.bad.days": ("days: '{value}' is not a day (use mon, tue, ... sun, or weekdays, daily)",
                       "days：'{value}' 不是有效的日期（可用 mon、tue … sun，或 weekdays、daily）"),
    "error.bad.coding": ("coding: '{value}' is not a day (use mon, tue, ... sun, or none)",
                         "coding：'{value}' 不是有效的日期（可用 mon、tue … sun，或 none）"),
    "error.bad.answer": ("answer: '{value}' is not a delay from +1m to +23h59m (+4h, +90m) or "
                         "a time of day (18:00)",
                         "answer：'{value}' 既不是 +1m 到 +23h59m 之间的延迟（如 +4h、+90m），"
                         "也不是一天中的时间（如 18:00）"),
    "error.no_schedule.pause": ("This channel has no daily question to pause.",
                                "本频道还没有每日一题，无需暂停。"),
    "error.no_schedule.resume": ("This channel has no daily question to resume.",
                                 "本频道还没有每日一题，无法恢复。"),
    "error.no_schedule.remove": ("This channel has no daily question to remove.",
                                 "本频道还没有每日一题，无需删除。"),
    "error.no_schedule.now": ("This channel has no daily question yet, so there is nothing to "
                              "post. Start one with `/schedule set 09:00 Asia/Shanghai`.",
                              "本频道还没有每日一题，没有可发布的内容。先用 "
                              "`/schedule set 09:00 Asia/Shanghai` 开启。"),
    "error.empty_filter": ("No question has topic `{topic}`, so nothing could be posted. "
                           "Topics: {topics}.",
                           "没有主题为 `{topic}` 的题目，无法发布。现有主题：{topics}。"),
    "error.no_days": ("Pick at least one posting day.", "请至少选择一个发布日。"),
    "error.bad_choice": ("`{option}` must be one of: {choices}.", "`{option}` 只能是：{choices}。"),
    # schedules across a workspace (App Home and the like)
    "overview.title": ("Daily questions in this workspace", "本工作区的每日一题"),
    "overview.none": ("No channel here has a daily question yet. In a channel, an admin can "
                      "start one: `/schedule set 09:00 Asia/Shanghai`.",
                      "这里还没有频道开启每日一题。管理员可以在频道里开启："
                      "`/schedule set 09:00 Asia/Shanghai`。"),
    "overview.line": ("{channel}: {time} {zone}, {days}{paused}",
                      "{channel}：{time} {zone}，{days}{paused}"),
    "overview.paused": (" (paused)", "（已暂停）"),
    # Slack
    "slack.modal.submit": ("Submit a solution", "提交答案"),
    "slack.modal.run": ("Run code", "运行代码"),
    "slack.modal.problem": ("Problem: `{id}`", "题目：`{id}`"),
    "slack.modal.problem_label": ("Problem id", "题目 id"),
    "slack.modal.code": ("Your code", "你的代码"),
    "slack.modal.hint": ("Python, plain or in a ```python block; up to 3000 characters.",
                         "Python 代码，可直接粘贴或放在 ```python 代码块中；最多 3000 个字符。"),
    "slack.modal.send": ("Send", "提交"),
    "slack.modal.cancel": ("Cancel", "取消"),
    "slack.modal.empty": ("Paste some code first.", "请先粘贴代码。"),
    "slack.working": ("Working on it…", "处理中…"),
    "slack.mention.help": ("Mention me with a command, e.g. `@studybot search 显存`, or with your "
                           "code in the thread of a coding problem.",
                           "可以 @我 并附上命令，例如 `@studybot search 显存`；"
                           "或在编程题的讨论串里 @我 并附上代码。"),
    "slack.home.title": ("Your studybot", "我的 studybot"),
    # grading
    "verdict.accepted": ("Accepted", "通过"),
    "verdict.wrong_answer": ("Wrong answer", "答案错误"),
    "verdict.time_limit_exceeded": ("Time limit exceeded", "超出时间限制"),
    "verdict.memory_limit_exceeded": ("Memory limit exceeded", "超出内存限制"),
    "verdict.runtime_error": ("Runtime error", "运行错误"),
    "verdict.compile_error": ("Compile error", "编译错误"),
    "verdict.rule_violation": ("Rule violation", "违反题目规则"),
    "verdict.skipped": ("Not run", "未运行"),
    "grade.title": ("{verdict}: {problem}", "{verdict}：{problem}"),
    "grade.summary": ("{passed}/{total} tests passed.", "通过 {passed}/{total} 个测试。"),
    "grade.test": ("Test {number}", "测试 {number}"),
    "grade.sample": ("sample", "样例"),
    "grade.hidden": ("hidden", "隐藏"),
    "grade.input": ("input", "输入"),
    "grade.expected": ("expected", "期望"),
    "grade.got": ("got", "实际"),
    "grade.hidden_summary": ("Hidden tests: {passed}/{total} passed.",
                             "隐藏测试：通过 {passed}/{total}。"),
    "grade.output": ("Printed output", "打印输出"),
    "grade.output_cut": ("(output cut: {dropped} more characters)",
                         "（输出已截断，省略 {dropped} 个字符）"),
    "grade.cpu": ("CPU time", "CPU 时间"),
    "grade.ms": ("{ms} ms", "{ms} 毫秒"),
    "grade.import_refused": ("The sandbox does not allow importing `{module}`; allowed: {allowed}.",
                             "沙箱不允许导入 `{module}`；可以导入：{allowed}。"),
    "grade.cpu_of_limit": ("{cpu} ms of a {limit} ms limit ({ratio}× the reference's {reference} "
                           "ms on this grader)", "{cpu} 毫秒，限制 {limit} 毫秒（本评测机上参考解 "
                           "{reference} 毫秒的 {ratio} 倍）"),
    "grade.memory": ("Peak memory", "峰值内存"),
    "reason.unreadable": ("the code's report could not be read", "无法读取代码的运行报告"),
    "reason.rule": ("`{rule}` (line {line}) is not allowed here",
                    "第 {line} 行的 `{rule}` 在本题中不允许使用"),
    "reason.too_large": ("the code's results were too large", "代码返回的结果过大"),
    "reason.memory": ("memory limit exceeded", "超出内存限制"),
    "reason.time": ("time limit exceeded", "超出时间限制"),
    "reason.crashed": ("the process crashed ({signal})", "进程崩溃（{signal}）"),
    "reason.no_report": ("the process ended before reporting a result",
                         "进程在报告结果之前就结束了"),
    "reason.define": ("define a function named `{function}`", "请定义名为 `{function}` 的函数"),
    "reason.uncomparable": ("the result could not be compared with the expected one ({detail})",
                            "结果无法与期望值比较（{detail}）"),
    "reason.wrong_result": ("wrong result", "结果错误"),
    "reason.not_a_number": ("expected a number, got {type}", "应返回数字，实际返回了 {type}"),
    "reason.not_close": ("not within 1e-6 relative or 1e-9 absolute of the expected value",
                         "与期望值的相对误差超过 1e-6，且绝对误差超过 1e-9"),
    "reason.not_an_array": ("expected numbers, or lists of numbers of one shape (a numpy "
                            "array will do)",
                            "应返回数字，或形状一致的数字列表（numpy 数组也可以）"),
    "reason.shape": ("expected shape {want}, got {got}", "期望形状为 {want}，实际为 {got}"),
    "reason.element": ("element {i} (row-major) is {got}, expected {want} (within {tol})",
                       "第 {i} 个元素（按行优先）为 {got}，期望 {want}（容差 {tol}）"),
    "reason.copy_not_in_place": ("returned a rotated copy but left the argument unchanged: "
                                 "rotate it in place",
                                 "返回了旋转后的副本，但参数本身没有改变：请原地旋转"),
    "reason.matrix_wrong": ("the matrix after the call is not the expected one",
                            "调用后的矩阵与期望不符"),
    "reason.not_groups": ("expected a list of groups, each a list of node names",
                          "应返回分组列表，每组是一个节点名列表"),
    "reason.not_minimal": ("legal but not minimal: {got} groups where {want} suffice",
                           "合法但不是最少：用了 {got} 组，{want} 组就够了"),
    "reason.groups_cover": ("the groups must hold every elementwise node exactly once and "
                            "nothing else", "分组必须恰好包含每个逐元素节点各一次，不能有别的节点"),
    "reason.groups_cycle": ("contracting the groups makes a cycle",
                            "把各组收缩成一个节点后出现了环"),
    "reason.group_empty": ("a group is empty", "有一个分组是空的"),
    "reason.group_exits": ("group {group}: {n} members are used outside it (must be 1)",
                           "分组 {group}：有 {n} 个成员在组外被使用（必须恰好 1 个）"),
    "reason.group_disconnected": ("group {group}: not weakly connected",
                                  "分组 {group}：不是弱连通的"),
    "reason.result_too_large": ("the result is far larger than the expected one",
                                "结果远大于期望值"),
    "mismatch.value": ("wrong value", "值错误"),
    "mismatch.type": ("wrong type", "类型错误"),
    "mismatch.shape": ("wrong length or shape", "长度或形状错误"),
    "mismatch.in_place": ("not changed in place", "没有原地修改"),
    "mismatch.not_minimal": ("legal but not minimal", "合法但不是最少"),
    "mismatch.groups": ("invalid groups", "分组不合法"),
    "mismatch.too_large": ("the result is far larger than the expected one", "结果远大于期望值"),
    "mismatch.not_plain": ("the result is not plain data, or too large or deep to return",
                           "结果不是普通数据，或过大、嵌套过深而无法返回"),
    "grade.memory_refused": ("{peak} in use when an allocation past the limit was refused",
                             "申请超出限制的内存被拒绝时已使用 {peak}"),
    "grade.run_title": ("Run: {verdict}", "运行结果：{verdict}"),
    "grade.run_finished": ("finished", "运行完成"),
    "grade.no_output": ("(nothing printed)", "（没有输出）"),
    "grade.solved_by": ("solved so far by: {count}", "已通过人数：{count}"),
    "grading.one_at_a_time": ("You already have a submission being graded; wait for its verdict.",
                              "你已有一个提交正在评测，请等待结果。"),
    "grading.rate": ("At most {limit} submissions a minute; try again in {seconds} s.",
                     "每分钟最多提交 {limit} 次，请 {seconds} 秒后再试。"),
    "grading.busy": ("The grader is busy: {ahead} submissions ahead of you. "
                     "Try again in a minute.",
                     "评测繁忙：前面还有 {ahead} 个提交。请稍后再试。"),
    "grading.queued": ("Queued for a grader, {ahead} ahead of yours. "
                       "Your verdict follows as soon as it is graded.",
                       "已进入评测队列：前面还有 {ahead} 个提交在等待评测。评测完成后即给出结果。"),
    "grading.delayed": ("No grader is free yet, so your submission waits in the queue. It will "
                        "be graded as soon as one is, and the verdict will be on `/me`.",
                        "暂时没有空闲的评测进程，你的提交已在队列中等待。"
                        "一有空闲就会评测，结果可在 `/me` 查看。"),
    "grading.failed": ("Grading failed: your submission stopped its grader twice, so it was "
                       "given up on. Check it for runaway memory or processes and submit again.",
                       "评测失败：你的提交两次使评测进程中断，已放弃评测。请检查内存或进程使用后重新提交。"),
    "grading.unavailable": ("Grading is unavailable right now, so this was not graded. Please "
                            "try again later; the bot's operators can see why in its log "
                            "(ref `{ref}`).",
                            "评测暂时不可用，这次提交没有评测。请稍后再试；机器人的管理员可以在日志中"
                            "查看原因（编号 `{ref}`）。"),
    "grading.no_code": ("Paste your code after the command, best in a ```python block, "
                        "or attach a .py file.",
                        "请在命令后粘贴代码（最好放在 ```python 代码块中），或附上 .py 文件。"),
    "grading.too_long": ("Code is limited to {limit} characters.", "代码最多 {limit} 个字符。"),
    "grading.not_problem": ("There is no coding problem `{id}`. Problems: {ids}.",
                            "没有编程题 `{id}`。现有编程题：{ids}。"),
    "console.paste_code": ("Paste your solution to `{problem}` (blank lines are fine), then a "
                           "line with just {end} to submit it, or {cancel} to drop it "
                           "(/quit leaves the console).",
                           "粘贴 `{problem}` 的解答（可以有空行），最后单独输入一行 {end} 提交，"
                           "或输入 {cancel} 放弃（/quit 退出控制台）。"),
    "console.form_dropped": ("Dropped: your solution to `{problem}` was not submitted.",
                             "已放弃：`{problem}` 的解答没有提交。"),
    "console.form_unfinished": ("The input ended before {end}: your solution to `{problem}` "
                                "was not submitted.",
                                "输入在 {end} 之前结束：`{problem}` 的解答没有提交。"),
    "console.no_form": ("There is no code form open: {word} ends or drops the code that a "
                        "\"Submit solution\" button asks for.",
                        "当前没有打开的代码表单：{word} 用于结束或放弃"
                        "“提交解答”按钮所请求的代码。"),
    "console.no_button": ("There is no button {number}: the last buttons shown are 1 to {count}.",
                          "没有按钮 {number}：最近显示的按钮是 1 到 {count}。"),
    "console.saved": ("File saved: {path}", "文件已保存：{path}"),
    "console.private": ("(only you can see this)", "（仅你可见）"),
    "console.no_buttons_yet": ("There is no button {number}: no buttons have been shown yet.",
                               "没有按钮 {number}：还没有显示过任何按钮。"),
    "error.button_only": ("`/{name}` is what a button does, and is not typed: press {button} "
                          "(in the console, type the button's number).",
                          "`/{name}` 是按钮执行的操作，不能直接输入：请点击{button}"
                          "（在控制台中输入按钮的编号）。"),
    "button_of.forget-confirm": ("\"Delete all of it\" under the list `/forget me` shows",
                                 "`/forget me` 所列内容下方的“全部删除”按钮"),
    "button_of.quiz": ("an option under the daily question", "每日一题下方的选项按钮"),
    "button_of.rate": ("a rating (Again, Hard, Good, Easy) under an explanation",
                       "解析下方的评分按钮（Again、Hard、Good、Easy）"),
    "button_of.review-check": ("an option under a `/review` question",
                               "`/review` 题目下方的选项按钮"),
    "button_of.review-explain": ("\"Show explanation\" under a `/review` question",
                                 "`/review` 题目下方的“查看解析”按钮"),
    "console.not_utf8": ("⚠ Line {line} is not valid UTF-8: the bytes that are not read as "
                         "�. Set your terminal or file to UTF-8.",
                         "⚠ 第 {line} 行不是有效的 UTF-8：无效的字节显示为 �。"
                         "请将终端或文件设置为 UTF-8。"),
    "console.unclosed_fence": ("⚠ The ``` block opened on line {line} is never closed, so it "
                               "was not run: end it with a line of ```. Commands typed after "
                               "it run as usual.",
                               "⚠ 第 {line} 行开始的 ``` 代码块没有结束，所以没有运行："
                               "请用单独一行 ``` 结束它。其后输入的命令照常执行。"),
    "cli.interrupted": ("Interrupted: studybot stopped.", "已中断：studybot 已退出。"),
    "me.title": ("Your progress", "你的进度"),
    "me.solved": ("Solved", "已解决"),
    "me.attempted": ("Attempted", "尝试过"),
    "me.submissions": ("Submissions", "提交次数"),
    "me.submissions_value": ("{solutions} solution(s) · {runs} /run snippet(s)",
                             "解答 {solutions} 次 · /run 代码片段 {runs} 次"),
    "me.none": ("none yet", "暂无"),
    "me.hint": ("Try one: `/question kind:coding`, then `/submit <problem>` with your code.",
                "试一题：`/question kind:coding`，然后用 `/submit <题目>` 提交代码。"),
    "me.streak": ("🔥 Streak: {days} day(s) in a row (longest: {longest}).",
                  "🔥 连续学习：{days} 天（最长：{longest} 天）。"),
    "me.streak_none": ("No streak running (longest: {longest}). Answer a quiz, rate a review "
                       "or solve a problem to start one.",
                       "目前没有连续学习记录（最长：{longest} 天）。回答小测验、完成复习或解出一道"
                       "编程题即可开始。"),
    "me.frozen": ("❄️ Frozen (missed, carried over: one a week): {days}",
                  "❄️ 冻结日（缺席但不中断，每周一天）：{days}"),
    "me.today_done": ("Today counts already ✅", "今天已经打卡 ✅"),
    "me.today_open": ("Today does not count yet: practise once to keep the streak.",
                      "今天还没有打卡：练习一次即可保持连续。"),
    "me.points": ("Points", "积分"),
    "me.points_value": ("{here} here · {all} in all", "本工作区 {here} · 全部 {all}"),
    "me.due": ("Reviews due", "待复习"),
    "me.zone": ("Your days count in", "你的日期按此时区计算"),
    "me.zone_value": ("{zone} (change: `/me timezone:<zone>`)",
                      "{zone}（修改：`/me timezone:<时区>`）"),
    "me.due_value": ("{count} now", "当前 {count} 道"),
    "me.topics": ("By topic (right / answered)", "按主题（答对 / 作答）"),
    "me.topic_line": ("`{topic}`: {right} / {answered}", "{topic}：{right} / {answered}"),
    # the progress card (`/me`) and the weekly chart: pictures, and the calendar as text
    "card.title": ("{name}: practice", "{name} 的练习"),
    "card.streak": ("Streak {days} day(s), longest {longest}", "连续 {days} 天，最长 {longest} 天"),
    "card.points": ("{points} points", "{points} 积分"),
    "card.topics": ("Mastery by topic (right / answered)", "各主题掌握度（答对 / 作答）"),
    "card.no_topics": ("No topic practised yet", "还没有练习过任何主题"),
    "card.weekdays": ("Mon Tue Wed Thu Fri Sat Sun", "一 二 三 四 五 六 日"),
    "card.calendar": ("The last {weeks} weeks", "最近 {weeks} 周"),
    "card.legend": ("{none} none  {shades} acts a day  {frozen} frozen  [ ] today",
                    "{none} 无  {shades} 每天次数  {frozen} 冻结  [ ] 今天"),
    "card.none": ("none", "无"),
    "card.practised": ("practised", "练习过"),
    "card.frozen": ("frozen", "冻结"),
    "chart.title": ("Quick checks a day: {start} – {end}", "每天的小测验：{start} – {end}"),
    "chart.right": ("right", "答对"),
    "chart.wrong": ("wrong", "答错"),
    "chart.counts": ("{right} right, {wrong} wrong", "答对 {right}，答错 {wrong}"),
    # scores: points, leaderboards, a problem's solvers, the weekly summary, /me timezone
    "cmd.leaderboard": ("Who scored most: this week, this month or ever; per server or channel",
                        "积分榜：本周、本月或全部；按服务器或频道"),
    "name.leaderboard": ("leaderboard", "积分榜"),
    "opt.period": ("week, month or all", "week（本周）、month（本月）或 all（全部）"),
    "opt.scope": ("server (default) or channel", "server（服务器，默认）或 channel（本频道）"),
    "opt.board_problem": ("a coding problem: its solvers instead", "编程题 id：改为显示它的解题者"),
    "opt.me_timezone": ("your IANA time zone for streaks (e.g. Europe/Berlin), or clear",
                        "计算连续打卡所用的 IANA 时区（例如 Asia/Shanghai），或 clear 清除"),
    "opt.summary": ("a weekly summary post here: weekly or off",
                    "每周在本频道发布总结：weekly（开启）或 off（关闭）"),
    "board.title": ("Leaderboard: {period}, {scope}", "积分榜：{period}，{scope}"),
    "board.period.week": ("this week", "本周"),
    "board.period.month": ("this month", "本月"),
    "board.period.all": ("all time", "全部"),
    "board.scope.server": ("this server", "本服务器"),
    "board.scope.channel": ("this channel", "本频道"),
    "board.topic": ("Topic: `{topic}`", "主题：`{topic}`"),
    "board.rank": ("#", "名次"),
    "board.member": ("Member", "成员"),
    "board.points": ("Points", "积分"),
    "board.empty": ("No points here yet in this period. Answer a daily quick check or solve "
                    "a problem to be the first.", "这段时间这里还没有人得分。回答每日小测验或"
                    "解一道编程题，成为第一个吧。"),
    "board.you": ("You: #{rank} with {points} points.", "你：第 {rank} 名，{points} 分。"),
    "board.you_none": ("You have no points here in this period yet.",
                       "这段时间你在这里还没有得分。"),
    "board.not_problem": ("`{id}` is not a coding problem. Problems: {ids}.",
                          "`{id}` 不是编程题。现有编程题：{ids}。"),
    "board.problem_title": ("Solvers: {title}", "解题者：{title}"),
    "board.problem_stats": ("{solvers} of {attempted} who tried solved it; {first} on the "
                            "first try ({rate}%).", "尝试的 {attempted} 人中有 {solvers} 人解出，"
                            "其中 {first} 人一次通过（{rate}%）。"),
    "board.fastest": ("Fastest: {name}, at {ratio}× the reference solution's CPU time.",
                      "最快：{name}，CPU 时间为参考解的 {ratio} 倍。"),
    "board.nobody_solved": ("Nobody here has solved `{id}` yet: be the first with "
                            "`/submit {id}`.", "这里还没有人解出 `{id}`：用 `/submit {id}` "
                            "成为第一个吧。"),
    "board.hinted": ("💡 took a hint before solving", "💡 解题前看过提示"),
    "board.first_try": ("first try", "一次通过"),
    "solve.label": ("Solved before the answer", "答案公布前解出"),
    "solve.early": ("{count} solved it before the answer.", "{count} 人在答案公布前解出。"),
    "solve.nobody": ("Nobody here solved it before the answer.", "答案公布前这里没有人解出。"),
    "me.timezone_set": ("Your streak days now count in {zone} (it is {local} there).",
                        "你的连续打卡现在按 {zone} 计算（当地时间 {local}）。"),
    "me.timezone_cleared": ("Your own time zone is cleared: your days count in the zone of "
                            "the channel's schedule, else UTC.", "已清除你的时区：按频道每日"
                            "计划的时区计算，没有则按 UTC。"),
    "me.bad_timezone": ("'{value}' is not an IANA time zone. Give one like Asia/Shanghai, "
                        "Europe/Berlin or America/New_York, or `clear`.",
                        "'{value}' 不是 IANA 时区。请给出例如 Asia/Shanghai、Europe/Berlin、"
                        "America/New_York，或用 `clear` 清除。"),
    "schedule.note.kept": ("Kept as they were (give them to change them): {options}.",
                           "未给出的选项保持不变：{options}。"),
    "opt.schedule_lang": ("language of the posts: en, zh or both (at first the server's, "
                          "then kept)",
                          "帖子的语言：en、zh 或 both（双语）（首次为服务器的语言，之后保持不变）"),
    "schedule.label.lang": ("Language", "语言"),
    "opt.topic_or_any": ("topic, e.g. distributed; any for every topic",
                         "主题，例如 distributed；any 表示全部主题"),
    "schedule.label.summary": ("Weekly summary", "每周总结"),
    "schedule.summary.weekly": ("Mondays at the post time", "每周一发布时间"),
    "schedule.summary.off": ("off", "关闭"),
    "summary.title": ("Last week here: {start} – {end}", "上周回顾：{start} – {end}"),
    "summary.top": ("Top members", "积分前列"),
    "summary.quizzes": ("Quick checks: {answered} answered, {right} right.",
                        "小测验：{answered} 人次作答，{right} 人次答对。"),
    "summary.solved": ("Problems solved: {count}.", "解出的编程题：{count} 道次。"),
    "summary.streaks": ("Longest streaks", "最长连续打卡"),
    "summary.streak": ("{name}: {days}-day streak", "{name}：连续 {days} 天"),
    "summary.quiet": ("A quiet week: nobody answered or solved anything here. Today's question "
                      "is a good place to start.", "安静的一周：这里没有人作答或解题。"
                      "就从今天的题目开始吧。"),
    # errors
    "error.not_found": ("There is no question `{id}`.", "没有 id 为 `{id}` 的题目。"),
    "error.draft": ("`{id}` is a draft, not published yet.", "`{id}` 还是草稿，尚未发布。"),
    "error.did_you_mean": ("Did you mean: {ids}?", "你是不是要找：{ids}？"),
    "error.no_match": ("No question fits: {filters}.", "没有符合条件的题目：{filters}。"),
    "error.bad_topic": ("There is no topic `{topic}`. Topics: {topics}.",
                        "没有主题 `{topic}`。现有主题：{topics}。"),
    "error.option_too_long": ("`{option}` is limited to {limit} characters.",
                              "`{option}` 最多 {limit} 个字符。"),
    "error.empty_option": ("`{option}:` needs a value after the colon. Usage: `{usage}`",
                           "`{option}:` 冒号后面需要一个值。用法：`{usage}`"),
    "error.id_and_filters": ("Give either a question id or filters (`topic:`, `kind:`, "
                             "`difficulty:`), not "
                             "both: an id already names one question.",
                             "题目 id 和筛选条件（`topic:`、`kind:`、`difficulty:`）只能二选一："
                             "id 已经指定了一道题。"),
    "error.unknown_command_close": ("Unknown command `/{name}`. Did you mean `/{close}`?",
                                    "没有 `/{name}` 这个命令。你是想用 `/{close}` 吗？"),
    "error.unknown_command": ("Unknown command `/{name}`. Try `/help`.",
                              "未知命令 `/{name}`，请试试 `/help`。"),
    "error.missing_choice": ("`/{name}` needs one of: {choices}, e.g. `{example}`.",
                             "`/{name}` 需要以下之一：{choices}，例如 `{example}`。"),
    "error.missing": ("`/{name}` needs `{option}`. Usage: `{usage}`",
                      "`/{name}` 需要参数 `{option}`。用法：`{usage}`"),
    "error.unknown_option": ("`/{name}` has no option `{option}`. Usage: `{usage}`",
                             "`/{name}` 没有参数 `{option}`。用法：`{usage}`"),
    "error.too_many": ("Too many words for `/{name}`: `{extra}` is left over (other options "
                       "go by name, as `key:value`). Usage: `{usage}`",
                       "`/{name}` 的参数太多了：多出了 `{extra}`（其他参数请写成 `名称:值`）。"
                       "用法：`{usage}`"),
    "error.failure": ("Sorry, something went wrong on my side (ref `{ref}`).",
                      "抱歉，机器人出错了（参考编号 `{ref}`）。"),
    # spaced review
    "cmd.review": ("Review your due questions one at a time (spaced repetition)",
                   "逐题复习到期的题目（间隔重复）"),
    "name.review": ("review", "复习"),
    "opt.digest": ("on: a private list of your due reviews every morning; off: stop it",
                   "on：每天早上私信你到期的复习；off：关闭"),
    "opt.retention": ("admins: desired retention for this server, 0.7 to 0.97 (default 0.9)",
                      "管理员：本服务器的目标记忆保持率，0.7 到 0.97（默认 0.9）"),
    "cmd.rate": ("Rate how well you knew a question", "评价你对一道题的掌握程度"),
    "cmd.review_check": ("Answer a review's quick check", "回答复习中的小测验"),
    "cmd.review_explain": ("Show a reviewed question's explanation", "查看复习题的解析"),
    "opt.seen": ("the card's review count when shown", "显示时卡片的复习次数"),
    "opt.rating": ("1 again, 2 hard, 3 good, 4 easy", "1 重来、2 困难、3 良好、4 简单"),
    "opt.owner": ("who the message was dealt to", "这条消息属于谁"),
    "opt.check": ("which quick check", "哪一道小测验"),
    "months": ("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec",
               "1月 2月 3月 4月 5月 6月 7月 8月 9月 10月 11月 12月"),
    "review.date": ("{weekday} {day} {month}", "{month}{day}日 {weekday}"),
    "review.when.now": ("now", "现在"),
    "review.when.today": ("later today at {time}", "今天 {time}"),
    "review.when.tomorrow": ("tomorrow, {date}", "明天（{date}）"),
    "review.when.days": ("in {days} days, on {date}", "{days} 天后（{date}）"),
    "rate.again": ("Again", "重来"),
    "rate.hard": ("Hard", "困难"),
    "rate.good": ("Good", "良好"),
    "rate.easy": ("Easy", "简单"),
    "rate.prompt": ("How well did you know it? Your rating schedules its next review.",
                    "你掌握得怎么样？评分决定下次复习的时间。"),
    "rate.done": ("Rated {rating}: next review {when}.", "已评为「{rating}」，下次复习：{when}。"),
    "rate.already": ("Already rated: this card has been reviewed since these buttons were "
                     "shown, so nothing changed.",
                     "已经评过分了：这些按钮显示后，这张卡片已被复习过，所以没有任何改动。"),
    "review.not_yours": ("These buttons belong to someone else's review. Run `/review` or "
                         "`/answer {id}` for your own.",
                         "这些按钮属于别人的复习。请用 `/review` 或 `/answer {id}` 开始你自己的。"),
    "review.gone": ("This review button is no longer valid (its question was removed).",
                    "这个复习按钮已失效（题目已被移除）。"),
    "review.title": ("Review: {title}", "复习：{title}"),
    "review.left": ("{count} due now, this one included.", "当前到期 {count} 题（含本题）。"),
    "review.think": ("Recall the answer, then open the explanation and rate how well you knew "
                     "it.", "先回想答案，再查看解析，并评价你的掌握程度。"),
    "review.coding": ("Recall how you would solve it, then rate how well you knew it.",
                      "回想你会如何解这道题，然后评价你的掌握程度。"),
    "review.none": ("Nothing is due for review. Your next card is due {when}.",
                    "目前没有到期的复习。下一张卡片到期：{when}。"),
    "review.empty": ("You have no review cards yet. Answer the daily quizzes or rate an "
                     "explanation (`/answer <id>`) and the questions come back here when due.",
                     "你还没有复习卡片。回答每日小测验，或在解析（`/answer <id>`）下评分，"
                     "题目到期时就会出现在这里。"),
    "review.checked": ("Your card: next review {when}.", "你的卡片下次复习：{when}。"),
    "review.retention_set": ("Desired retention here is now {value}: new reviews are spaced "
                             "for it.",
                             "本服务器的目标记忆保持率已设为 {value}，之后的复习按此安排。"),
    "review.retention_bad": ("Retention must be a number from 0.7 to 0.97, e.g. 0.9.",
                             "记忆保持率必须是 0.7 到 0.97 之间的数字，例如 0.9。"),
    "review.admins_only": ("Only an admin can set the server's desired retention.",
                           "只有管理员可以设置服务器的目标记忆保持率。"),
    "review.digest_on": ("Every morning at {hour}:00 your time I will message you what is due.",
                         "每天早上 {hour}:00（你的时区）我会私信告诉你到期的复习。"),
    "review.digest_off": ("The morning digest of due reviews is off.", "已关闭每日到期复习提醒。"),
    "review.digest_title": ("Due for review today", "今天要复习的题目"),
    "review.digest_body": ("{count} due: {items}\nRun `/review` to go through them.",
                           "到期 {count} 题：{items}\n用 `/review` 开始复习。"),
    "action.review_next": ("Next due card", "下一张到期卡片"),
    "action.review_explain": ("Show explanation", "查看解析"),
}  # fmt: skip


# The words of interview reports' names, for the `From:` line an English reader sees (a
# report's name is otherwise shown as written). Longest first where one holds another.
SOURCE_WORDS: tuple[tuple[str, str], ...] = (
    ("综合面经题库", "collected interview questions"), ("面经", "interview report"),
    ("一面", "first round"), ("二面", "second round"), ("三面", "third round"),
    ("四面", "fourth round"), ("终面", "final round"), ("HR面", "HR round"),
    ("实习", "intern"), ("校招", "campus hire"), ("社招", "experienced hire"),
    ("字节跳动", "ByteDance"), ("字节", "ByteDance"), ("阿里巴巴", "Alibaba"),
    ("阿里", "Alibaba"), ("腾讯", "Tencent"), ("百度", "Baidu"), ("美团", "Meituan"),
    ("京东", "JD.com"), ("华为", "Huawei"), ("蔚来", "NIO"), ("小米", "Xiaomi"),
    ("快手", "Kuaishou"), ("拼多多", "PDD"), ("商汤", "SenseTime"), ("网易", "NetEase"),
    ("蚂蚁", "Ant Group"), ("小红书", "Xiaohongshu"), ("理想", "Li Auto"),
)  # fmt: skip


def in_english(name: str) -> str:
    """A report's name with the words `SOURCE_WORDS` knows in English (others as written)."""
    for chinese, english_words in SOURCE_WORDS:
        name = name.replace(chinese, f" {english_words} ")
    return " ".join(name.split())


def t(locale: Locale, key: str, **fields: object) -> str:
    """The text for `key` in `locale`, with `fields` filled in."""
    english, chinese = CATALOG[key]
    template = chinese if locale is Locale.ZH else english
    return template.format(**fields) if fields else template


def said(reason: Reason, locale: Locale) -> str:
    """A grader's Reason in `locale`."""
    return t(locale, reason.key, **dict(reason.values))


def english(reason: Reason) -> str:
    return said(reason, Locale.EN)
