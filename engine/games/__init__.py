"""Games the arena hosts, one package each."""
