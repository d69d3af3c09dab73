"""What the pages (``arena.web``) and the API (``arena.api``) share over HTTP: the client's
address behind trusted proxies, log-in limits, upload and playground throttles, gzip
answers, file downloads and the types of signed-in requests. Both import it; neither
imports the other."""
