# studybot: one image for every platform; the settings choose what runs.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    STUDYBOT_DATABASE=/data/studybot.sqlite3 \
    STUDYBOT_CONTENT_DIR=/app/content

# libseccomp: the grading sandbox's syscall filter (optional; `studybot doctor` reports it).
# fonts-wqy-microhei: Chinese labels on the progress card (without it they are drawn in English).
RUN apt-get update && apt-get install -y --no-install-recommends libseccomp2 fonts-wqy-microhei \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY adapters ./adapters
RUN pip install --no-cache-dir . && useradd --create-home --uid 10001 studybot \
    && mkdir -p /data && chown studybot /data
COPY content ./content

USER studybot
VOLUME ["/data"]
CMD ["studybot", "run"]
