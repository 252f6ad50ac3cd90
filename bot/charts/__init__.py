"""Pictures of progress: a member's card (`/me`) and a channel's week (the weekly summary).

The core speaks values (`model`), reads them from the ledger (`read`), and turns them into
PNG bytes (`draw`, the only module that imports Pillow, loaded when a picture is first
drawn) or Unicode text for a place that shows no images (`text`). `Painter` draws off the
event loop and keeps what it drew for the day.
"""
