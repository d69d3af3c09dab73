# Stand-in for redis:7-bookworm (tests only): Debian's redis-server 7.0.
ARG BASE
FROM ${BASE}
CMD ["redis-server"]
WORKDIR /data
