#!/bin/sh
set -e
mkdir -p "$PGDATA" /var/run/postgresql
chown -R postgres:postgres "$PGDATA" /var/run/postgresql
chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  printf '%s\n' "$POSTGRES_PASSWORD" > /tmp/pwfile
  chown postgres /tmp/pwfile
  su postgres -s /bin/sh -c "initdb -U '$POSTGRES_USER' --pwfile=/tmp/pwfile -A scram-sha-256 -D '$PGDATA'" >/dev/null
  rm -f /tmp/pwfile
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  # Like the official image: a first start on the Unix socket only, to create the database.
  su postgres -s /bin/sh -c "pg_ctl -D '$PGDATA' -o \"-c listen_addresses=''\" -w start" >/dev/null
  su postgres -s /bin/sh -c "PGPASSWORD='$POSTGRES_PASSWORD' createdb -U '$POSTGRES_USER' '$POSTGRES_DB'" || true
  su postgres -s /bin/sh -c "pg_ctl -D '$PGDATA' -m fast -w stop" >/dev/null
fi
exec su postgres -s /bin/sh -c "exec postgres -D '$PGDATA' -c listen_addresses='*'"
