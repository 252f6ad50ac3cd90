"""The Slack adapter: `/study ...`, buttons, modals, App Home, daily posts; a translator only.

app.py       the slack-bolt AsyncApp and its listeners: payloads in, core calls, replies out
render.py    Reply -> Block Kit messages, the code modal and the home view (pure)
mrkdwn.py    Markdown -> Slack mrkdwn (pure)
people.py    who is asking: locale and admin rights from users.info, cached briefly
adapter.py   the ChatAdapter port: chat.postMessage (threads by thread_ts), errors mapped
home.py      the App Home tab, built from core replies
modes.py     Socket Mode and HTTP mode runners; `running_slack` is what `studybot run` enters
manifest.py  the app manifest (manifest.yaml) that creates the app in one step
"""
