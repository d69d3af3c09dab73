# Stand-in for nginx:1.27-bookworm (tests only): Debian's nginx-light.
ARG BASE
FROM ${BASE}
RUN ln -sf /dev/stdout /var/log/nginx/access.log && ln -sf /dev/stderr /var/log/nginx/error.log
CMD ["nginx", "-g", "daemon off;"]
