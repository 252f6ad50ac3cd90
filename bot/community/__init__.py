"""The community bank: a bank that grows from its members' interview reports.

    untrusted.py   caps and cleaning for what members send (mentions, Markdown, sizes)
    plan.py        a report's questions sorted into new drafts and links: pure, in a thread
    imports.py     `/import`: text or a file's bytes -> drafts and links, rate-limited
    moderation.py  `/drafts`: a server's drafts, approved, rejected or edited by moderators
    forms.py       the forms of a report to import and of a draft's edit, for chat platforms

The rows are `bot.store.community`'s; serving is `bot.store.questions`' (the shared bank and
the asking server's published items). Platforms reach this through the core's commands and
`Studybot.import_file` (an attachment's bytes); see `bot.commands.community`.
"""
