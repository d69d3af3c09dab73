"""Server-rendered pages, one module per area. Views stay thin: selectors read, services write."""
