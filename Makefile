# The two commands of a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Running needs the bot's own dependencies only; the test tools come with `make test`.
RUN_STAMP := $(VENV)/.installed-run

.PHONY: run test install fonts lint typecheck unit bench clean

run: $(RUN_STAMP)
	$(BIN)/studybot content load
	$(BIN)/studybot run

test: $(STAMP) lint typecheck unit

install: $(STAMP)

$(BIN)/pip:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(RUN_STAMP): pyproject.toml | $(BIN)/pip
	$(BIN)/pip install --quiet -e .
	touch $(RUN_STAMP)

$(STAMP): pyproject.toml | $(BIN)/pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP) $(RUN_STAMP)

# The progress card's Chinese labels need a font with CJK glyphs (bot/charts/fonts.py); without
# one the card is drawn with English labels. A system package: needs root (CI runs as root).
CJK_FONT := /usr/share/fonts/truetype/wqy/wqy-microhei.ttc
fonts:
	@test -e $(CJK_FONT) || { apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		fonts-wqy-microhei >/dev/null; }

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest -q

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
