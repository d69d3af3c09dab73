# Stand-in for postgres:16-bookworm (tests only): Debian's PostgreSQL 15 behind an entrypoint
# that honours POSTGRES_USER / POSTGRES_PASSWORD / POSTGRES_DB like the official one.
ARG BASE
FROM ${BASE}
COPY postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
ENV PGDATA=/var/lib/postgresql/data PATH=/usr/lib/postgresql/15/bin:$PATH
ENTRYPOINT ["sh", "/usr/local/bin/docker-entrypoint.sh"]
CMD ["postgres"]
