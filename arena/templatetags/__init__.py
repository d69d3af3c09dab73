"""Template tag libraries of the arena app (Django finds them here, in the app's package)."""
