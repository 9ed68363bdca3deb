# One image for web, worker, beat and migrate (docker-compose.yml).
# The engine's catalog for the browser (docs/frontend.md "The catalog"): the engine is standard-library Python.
FROM python:3.12-slim-bookworm AS catalog
WORKDIR /app
COPY engine/ engine/
RUN python -m engine catalog --browser > /catalog.json

FROM node:20-bookworm-slim AS frontend
WORKDIR /app/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm install --no-audit --no-fund
COPY frontend/ ./
COPY --from=catalog /catalog.json src/generated/catalog.json
RUN npm run build

FROM python:3.12-slim-bookworm
ENV PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 ROBORACER_VAR_DIR=/app/var
WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine/ engine/
COPY games/ games/
COPY roboracer/ roboracer/
RUN pip install . && pip uninstall -y roboracer && useradd --create-home roboracer
COPY . .
COPY --from=frontend /app/static/dist/ static/dist/
RUN mkdir -p var && python manage.py collectstatic --noinput && chown -R roboracer var
USER roboracer
EXPOSE 8000
CMD ["uvicorn", "roboracer.asgi:application", "--host", "0.0.0.0", "--port", "8000", "--ws", "websockets-sansio", "--lifespan", "off"]
