# The two commands of a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test install fonts lint typecheck unit bench clean

run: $(STAMP)
	$(BIN)/studybot content load
	$(BIN)/studybot run

test: $(STAMP) lint typecheck unit

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

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
