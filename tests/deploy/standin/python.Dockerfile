# Stand-in for python:3.11-slim-bookworm (tests only, never the product): Debian's python3.11
# with `python` and `pip` where the official image has them.
ARG BASE
FROM ${BASE}
# This machine's trust store (a TLS-inspecting egress proxy), so pip reaches the registry.
COPY host-ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
RUN ln -sf /usr/bin/python3 /usr/local/bin/python && ln -sf /usr/bin/pip3 /usr/local/bin/pip
ENV LANG=C.UTF-8 PIP_BREAK_SYSTEM_PACKAGES=1
CMD ["python3"]
