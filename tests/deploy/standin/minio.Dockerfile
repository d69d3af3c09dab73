# Stand-in for minio/minio (tests only): moto's S3 API server on MinIO's port, and an `mc`
# that answers `mc ready local` like MinIO's own health check. Not persistent.
ARG PYTHON
FROM ${PYTHON}
RUN pip install -q "moto[server]==5.2.5"
COPY minio-mc /usr/local/bin/mc
RUN chmod 755 /usr/local/bin/mc
# MinIO takes `server /data`: the stand-in ignores its arguments.
ENTRYPOINT ["sh", "-c", "exec moto_server -H 0.0.0.0 -p 9000", "minio"]
